/**
 * `git-kb stats`: what the hooks delivered and what was fetched, from the session ledgers and
 * receipts (always kept); what the prompt hook did, from its debug log (KB_HOOK_DEBUG=1).
 *
 * @module
 */
import { defaultOnlyNote } from "../io/kbs/default_only.ts";
import {
  type DeliveryStats,
  NOISE_MIN_SESSIONS,
  summarizeDelivery,
} from "../core/delivery/misses.ts";
import { type HookStats, summarizeDebugLog } from "../core/delivery/hook_log.ts";
import { openKb } from "../io/index/open.ts";
import { HOOK_TRUST_MS } from "../io/index/store.ts";
import { readPrivateText } from "../io/fs.ts";
import { kbCacheDir } from "../io/paths.ts";
import { readSessions } from "../io/hook/receipts.ts";
import { DEBUG_LOG_MAX_BYTES, debugLogPath } from "../io/hook/session.ts";
import { type CommandSpec, helpText, NO_POSITIONALS, parseCommand } from "./args.ts";
import { bold, plural, printJson } from "./output.ts";

/** The command: its usage, options and positionals. */
export const command = {
  usage: ["stats [options]"],
  about: `Summarise what the hooks delivered over the sessions of the last week: pointers
injected, the share the agent then fetched, entries often injected but never
fetched (noise candidates), and prompts that matched nothing with their most
frequent words. Then the prompt hook's debug log: how often it fired, why it
did not, entries that keep nearly matching (tuning candidates), entries never
surfaced, and the median size of what it injected. Turn the log on with
KB_HOOK_DEBUG=1.`,
  options: {
    json: {
      type: "boolean",
      help: "print {log, prompts, skipped, errors, outcomes, fireRate, kernelOnly, " +
        "medianBytes, nearMissLeaders, neverSurfaced, delivery} as JSON",
    },
  },
  positionals: NO_POSITIONALS,
} as const satisfies CommandSpec;

/** Help text. */
export const help: string = helpText(command);

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const { values } = parseCommand(args, command.options, command);
  const { location, reader } = await openKb(values.kb, { trustStampMs: HOOK_TRUST_MS });
  const others = defaultOnlyNote(values.kb, ["stats"]);
  if (others) console.error(`note: ${others}`);
  const file = debugLogPath(kbCacheDir(location.kbDir));
  const text = [`${file}.1`, file]
    .map((path) => readPrivateText(path, 2 * DEBUG_LOG_MAX_BYTES) ?? "").join("");
  const activeIds: string[] = [];
  for (let ord = 0; ord < reader.manifest.nextOrd; ord++) {
    const doc = reader.doc(ord);
    if (doc?.status === "active") activeIds.push(doc.id);
  }
  const summary = summarizeDebugLog(text, activeIds, location.name);
  const delivery = summarizeDelivery(readSessions(kbCacheDir(location.kbDir)));
  if (values.json) {
    printJson({ log: file, ...summary, delivery });
    return 0;
  }
  printDelivery(delivery);
  if (!summary.prompts) {
    // Other hooks' records (the judge's, the capture's) mean the log is on: no prompt reached it.
    console.log(
      text.trim()
        ? `No prompt-hook records yet in ${file}, only other hooks' records: one comes with ` +
          `each prompt the prompt hook sees while KB_HOOK_DEBUG=1 is set.`
        : `No debug records yet in ${file}, so nothing on the prompt hook's fire rate, near ` +
          `misses or entries never surfaced: the hooks keep them only where KB_HOOK_DEBUG=1 is ` +
          `set. For Claude Code, add "env": {"KB_HOOK_DEBUG": "1"} to ~/.claude/settings.json ` +
          `(or export it in the shell that starts claude), then start a new session.`,
    );
    return 0;
  }
  const percent = (share: number) => `${Math.round(share * 100)}%`;
  console.log(
    `${bold("Prompts")}: ${summary.prompts} (${summary.skipped} skipped, ${
      plural(summary.errors, "error", "errors")
    })`,
  );
  const kernelOnly = summary.kernelOnly
    ? `; ${summary.kernelOnly} more got the kernel rules only`
    : "";
  console.log(
    `${bold("Fire rate")}: ${percent(summary.fireRate)} of prompts not skipped got pointers` +
      kernelOnly,
  );
  console.log(`${bold("Outcomes")}: ${outcomeCounts(summary).join(", ")}`);
  console.log(`${bold("Median bytes injected")} (when any were): ${summary.medianBytes}`);
  console.log(bold("Near-miss leaders:"));
  for (const item of summary.nearMissLeaders) {
    console.log(`  ${item.id} ${item.count}× (${item.words.join(", ")})`);
  }
  console.log(
    `${bold("Never surfaced")}: ${summary.neverSurfaced.length} of ${
      plural(activeIds.length, "active entry", "active entries")
    }`,
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

/**
 * Each outcome and its count, `surfaced` split as the fire rate counts it: a prompt that got the
 * kernel rules and no pointer is `surfaced` in the log, yet not a fire.
 */
function outcomeCounts({ outcomes, kernelOnly }: HookStats): string[] {
  return Object.entries(outcomes).flatMap(([key, count]) => {
    if (key !== "surfaced" || !kernelOnly) return [`${key} ${count}`];
    const withPointers = count - kernelOnly;
    return [
      ...withPointers ? [`surfaced with pointers ${withPointers}`] : [],
      `kernel rules only ${kernelOnly}`,
    ];
  });
}

/** The delivery part of the report. */
function printDelivery(delivery: DeliveryStats): void {
  if (!delivery.sessions) {
    console.log("No session receipts yet: they appear once a hook has run in a session.");
    return;
  }
  const sessions = plural(delivery.sessions, "session", "sessions");
  const extra = delivery.fetchedUnprompted
    ? `; ${delivery.fetchedUnprompted} more fetched without a pointer`
    : "";
  console.log(
    `${
      bold("Pointers injected")
    }: ${delivery.injected} in ${sessions}; fetched ${delivery.fetched}` +
      ` (${Math.round(delivery.shareFetched * 100)}%)${extra}`,
  );
  const noise = delivery.noiseCandidates.map((item) =>
    `${item.id} (${plural(item.sessions, "session", "sessions")})`
  );
  console.log(
    `${bold("Noise candidates")} (injected in ${NOISE_MIN_SESSIONS}+ sessions, never fetched): ${
      noise.join(", ") || "none"
    }`,
  );
  const words = delivery.unmatchedWords.map((item) => `${item.word} ${item.count}`).join(", ");
  console.log(
    `${bold("Prompts with no match")}: ${delivery.unmatchedPrompts}${
      words ? ` (frequent words: ${words})` : ""
    }`,
  );
}
