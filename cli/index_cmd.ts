/**
 * `git-kb index`: bring the index up to date (incrementally unless `--full`) and report.
 *
 * @module
 */
import { openKb } from "../io/open.ts";
import { indexDir } from "../io/paths.ts";
import { parseCommand } from "./args.ts";
import { printJson, yellow } from "./output.ts";

/** Help text. */
export const help = `Usage: git-kb index [options]

Bring the index up to date with the entry files: only changed, added and removed
entries are re-read. The index lives under the OS temp dir and is rebuilt
automatically whenever a command notices a change; run this to see the numbers.

Options:
  --full        rebuild from scratch
  --json        print the report as JSON
  --kb <dir>    the knowledge base folder`;

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const { values } = parseCommand(args, { full: { type: "boolean" }, json: { type: "boolean" } });
  const { report, location } = await openKb(values.kb, { full: values.full });
  const dir = indexDir(location.kbDir);
  if (values.json) {
    printJson({ ...report, ms: Math.round(report.ms), kbDir: location.kbDir, indexDir: dir });
    return 0;
  }
  const detail = report.mode === "fresh"
    ? "already up to date"
    : `${report.mode}: ${report.added} added, ${report.changed} changed, ${report.removed} removed`;
  console.log(
    `Indexed ${report.docCount} entries (${detail}) in ${Math.round(report.ms)} ms → ${dir}`,
  );
  for (const item of report.invalid) {
    console.log(yellow(`  skipped ${item.path}: ${item.message.replace(/\n\s*/g, "; ")}`));
  }
  return 0;
}
