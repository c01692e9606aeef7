/**
 * `git-kb stats`: what the prompt hook did, from its debug log (KB_HOOK_DEBUG=1).
 *
 * @module
 */
import { summarizeDebugLog } from "../core/stats.ts";
import { openKb } from "../io/open.ts";
import { HOOK_TRUST_MS } from "../io/index_store.ts";
import { kbCacheDir } from "../io/paths.ts";
import { debugLogPath } from "../io/session.ts";
import { parseCommand } from "./args.ts";
import { bold, printJson } from "./output.ts";

/** Help text. */
export const help = `Usage: git-kb stats [options]

Summarise the prompt hook's debug log: how often it fired, why it did not,
entries that keep nearly matching (tuning candidates), entries never surfaced,
and the median size of what it injected. Turn the log on with KB_HOOK_DEBUG=1.

Options:
  --json        print the summary as JSON
  --kb <dir>    the knowledge base folder`;

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const { values } = parseCommand(args, { json: { type: "boolean" } });
  const { location, reader } = await openKb(values.kb, { trustStampMs: HOOK_TRUST_MS });
  const file = debugLogPath(kbCacheDir(location.kbDir));
  let text = "";
  try {
    text = Deno.readTextFileSync(file);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  const activeIds: string[] = [];
  for (let ord = 0; ord < reader.manifest.nextOrd; ord++) {
    const doc = reader.doc(ord);
    if (doc?.status === "active") activeIds.push(doc.id);
  }
  const summary = summarizeDebugLog(text, activeIds);
  if (values.json) {
    printJson({ log: file, ...summary });
    return 0;
  }
  if (!summary.prompts) {
    console.log(`No hook records yet in ${file}. Set KB_HOOK_DEBUG=1 where the hook runs.`);
    return 0;
  }
  const percent = (share: number) => `${Math.round(share * 100)}%`;
  console.log(
    `${bold("Prompts")}: ${summary.prompts} (${summary.skipped} skipped, ${summary.errors} errors)`,
  );
  console.log(`${bold("Fire rate")}: ${percent(summary.fireRate)} of prompts not skipped`);
  console.log(
    `${bold("Outcomes")}: ${
      Object.entries(summary.outcomes).map(([key, count]) => `${key} ${count}`).join(", ")
    }`,
  );
  console.log(`${bold("Median bytes injected")} (when fired): ${summary.medianBytes}`);
  console.log(bold("Near-miss leaders:"));
  for (const item of summary.nearMissLeaders) {
    console.log(`  ${item.id} ${item.count}× (${item.words.join(", ")})`);
  }
  console.log(
    `${
      bold("Never surfaced")
    }: ${summary.neverSurfaced.length} of ${activeIds.length} active entries`,
  );
  if (summary.neverSurfaced.length) {
    console.log(
      `  ${summary.neverSurfaced.slice(0, 20).join(" ")}${
        summary.neverSurfaced.length > 20 ? " …" : ""
      }`,
    );
  }
  return 0;
}
