/**
 * `git-kb sync`: bring the knowledge base in step with its remote (see io/sync/sync.ts) and say
 * what came in and what went out, by entry.
 *
 * @module
 */
import { entryLabel, type SyncedEntry } from "../core/sync/changes.ts";
import { resolveKb } from "../io/config.ts";
import { SyncConflictError, syncKb, type SyncReport } from "../io/sync/sync.ts";
import { type CommandSpec, helpText, NO_POSITIONALS, parseCommand } from "./args.ts";
import { printWarnings } from "./save_report.ts";
import { cyan, green, plural, printJson, yellow } from "./output.ts";

/** The command: its usage, options and positionals. */
export const command = {
  usage: ["sync [options]"],
  about: `Bring the knowledge base in step with its remote: fetch its branch, replay the
commits made here on top of what came in, push, and update the index. Lists the
entries that came in (added +, changed ~, removed -) and those that went out.
Uncommitted changes stay as they are, unless the remote changed the same file:
then nothing is changed and the message says how to commit them first. When both
sides changed the same entry each in its own way, nothing is changed either: the
entries are named, the remote's version is kept in refs/git-kb/sync-theirs, and
the commands that merge, resolve and finish are printed, one a line.`,
  options: {
    json: {
      type: "boolean",
      help: "print {outcome, branch, upstream, incoming, outgoing, rebased, index, warnings};\n" +
        "on a conflict, {outcome: conflict, entries, commands}",
    },
  },
  positionals: NO_POSITIONALS,
  notes: `Exit codes: 0 synced, already up to date, or no remote (NO_REMOTE: nothing to
sync with); 1 nothing changed: the remote cannot be reached, the repo is in a
state a save refuses, or uncommitted changes are in the way (the message says
what to run); 2 usage error; 3 what came in is in but the local commits could
not be pushed; 4 conflict: both sides changed the same entries, nothing changed,
the message lists the commands that finish.`,
} as const satisfies CommandSpec;

/** Help text. */
export const help: string = helpText(command);

/** How many entries a list prints before it says how many more. */
const SHOWN = 20;

/** The entries as indented lines, each with its mark; past {@link SHOWN}, a count of the rest. */
function entryLines(mark: string, entries: readonly SyncedEntry[]): string[] {
  const lines = entries.slice(0, SHOWN).map((entry) => `  ${mark} ${entryLabel(entry)}`);
  if (entries.length > SHOWN) lines.push(`  ${mark} …and ${entries.length - SHOWN} more`);
  return lines;
}

/** The report as lines for a terminal. */
function reportLines(report: SyncReport): string[] {
  const { incoming, outgoing, index } = report;
  const indexLine = `Index ${index.mode}: ${plural(index.docCount, "entry", "entries")}.`;
  if (report.outcome === "no-remote") {
    return [
      yellow(`NO_REMOTE: ${report.kbDir} has no git remote, so there is nothing to sync with.`) +
      " Add one with git remote add origin <url>, then sync.",
      indexLine,
    ];
  }
  if (report.outcome === "up-to-date") {
    return [
      `Already in step with ${cyan(report.upstream ?? "")}: nothing came in or went out.`,
      indexLine,
    ];
  }
  const lines = [
    `${green("Synced")} with ${cyan(report.upstream ?? "")}` +
    (report.rebased ? " (the commits made here were replayed on top of what came in)." : "."),
  ];
  if (incoming.commits) {
    lines.push(`Came in: ${plural(incoming.commits, "commit", "commits")}`);
    lines.push(
      ...entryLines("+", incoming.added),
      ...entryLines("~", incoming.changed),
      ...entryLines("-", incoming.removed),
    );
  }
  if (outgoing.commits) {
    lines.push(`Went out: ${plural(outgoing.commits, "commit", "commits")}`);
    lines.push(...entryLines("•", outgoing.entries));
  }
  lines.push(indexLine);
  return lines;
}

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const { values } = parseCommand(args, command.options, command);
  const { kbDir } = resolveKb(values.kb);
  const report = await syncKb(kbDir).catch((error) => {
    // The entries and the commands as data too; the message still goes to stderr.
    if (values.json && error instanceof SyncConflictError) {
      printJson({ outcome: "conflict", entries: error.entries, commands: error.commands });
    }
    throw error;
  });
  printWarnings(report);
  if (values.json) {
    printJson({ ...report, index: { ...report.index, ms: Math.round(report.index.ms) } });
  } else {
    for (const line of reportLines(report)) console.log(line);
  }
  return 0;
}
