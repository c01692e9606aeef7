/**
 * `git-kb index`: bring the index up to date (incrementally unless `--full`) and report.
 *
 * @module
 */
import { openKb } from "../io/index/open.ts";
import { indexDir } from "../io/paths.ts";
import { type CommandSpec, helpText, NO_POSITIONALS, parseCommand } from "./args.ts";
import { plural, printJson, yellow } from "./output.ts";
import { defaultOnlyNote } from "../io/kbs/default_only.ts";
import { kbCommand } from "../io/self_command.ts";

/** The command: its usage, options and positionals. */
export const command = {
  usage: ["index [options]"],
  about: `Bring the index up to date with the entry files: only changed, added and removed
entries are re-read. Every index file is checked against the checksums in its
manifest first, and a damaged index is rebuilt. The index lives in the cache
folder ($XDG_CACHE_HOME/git-kb, else ~/.cache/git-kb) and is brought up to date
whenever a command notices a change; run this to see the numbers. Files left out
of the index are counted; --verbose names them. Where several knowledge bases
are configured, the default is indexed, and a note gives the command for each
other one.`,
  options: {
    full: { type: "boolean", help: "rebuild from scratch" },
    verbose: { type: "boolean", help: "name each file left out of the index, and why" },
    json: {
      type: "boolean",
      help: "print {mode, added, changed, removed, docCount, invalid: [{path, message, " +
        "duplicateOf?}], ms, kbDir, indexDir, damage?} as JSON (invalid: every file left " +
        "out; damage: what was found damaged, and rebuilt)",
    },
  },
  positionals: NO_POSITIONALS,
} as const satisfies CommandSpec;

/** Help text. */
export const help: string = helpText(command);

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const { values } = parseCommand(args, command.options, command);
  const { report, location } = await openKb(values.kb, { full: values.full, verify: true });
  const others = defaultOnlyNote(values.kb, ["index", ...args]);
  if (others) console.error(`note: ${others}`);
  const dir = indexDir(location.kbDir);
  if (values.json) {
    printJson({ ...report, ms: Math.round(report.ms), kbDir: location.kbDir, indexDir: dir });
    return 0;
  }
  const detail = report.mode === "fresh"
    ? "already up to date"
    : `${report.mode}: ${report.added} added, ${report.changed} changed, ${report.removed} removed`;
  if (report.damage) console.log(yellow(`The index was damaged (${report.damage}); rebuilt it.`));
  console.log(
    `Indexed ${plural(report.docCount, "entry", "entries")} (${detail}) in ${
      Math.round(report.ms)
    } ms → ${dir}`,
  );
  const left = report.invalid.length;
  if (left && !values.verbose) {
    const doctor = kbCommand("doctor", "--kb", location.kbDir);
    console.log(yellow(`${plural(left, "file", "files")} left out: run ${doctor}`));
  }
  if (left && values.verbose) {
    console.log(yellow(`${plural(left, "file", "files")} left out:`));
    for (const item of report.invalid) {
      console.log(yellow(`  ${item.path}: ${item.message.replace(/\n\s*/g, "; ")}`));
    }
  }
  return 0;
}
