/**
 * `git-kb sync`: bring the knowledge base in step with its remote (see io/sync/sync.ts) and say
 * what came in and what went out, by entry.
 *
 * @module
 */
import { EXIT } from "../core/exit.ts";
import { displaySafe } from "../core/text/display.ts";
import { entryLabel, type SyncedEntry } from "../core/sync/changes.ts";
import { type PendingMention, pendingNotice } from "../core/kernel/acceptance.ts";
import { openIndex, READ_TRUST_MS } from "../io/index/store.ts";
import { assertKb } from "../io/kb.ts";
import { pendingMentions } from "../io/kernel/acceptance.ts";
import { kbCommand } from "../io/self_command.ts";
import { type KnowledgeBase, resolveKbNamed, resolveKbs } from "../io/config.ts";
import { type EntryTraffic, SyncConflictError, syncKb, type SyncReport } from "../io/sync/sync.ts";
import { ProposalsPushError } from "../io/proposals/sync.ts";
import { addRemoteCommand } from "../io/remote/target.ts";
import { type CommandSpec, helpText, parseCommand } from "./args.ts";
import { describeError, exitCodeOf, messageOf } from "./errors.ts";
import { indexJson, printWarnings } from "./save_report.ts";
import { cyan, green, plural, printJson, yellow } from "./output.ts";

/** The command: its usage, options and positionals. */
export const command = {
  usage: ["sync [<name>] [options]"],
  about:
    `Bring each configured knowledge base (or the one named) in step with its remote: fetch its branch, replay the
commits made here on top of what came in, push, and update the index. Lists the
entries that came in and those that went out (added +, changed ~, removed -),
and carries the git-kb/proposals branch (the proposals git-kb review lists, and
the reviews of them) both ways, saying which way it moved. Uncommitted changes
stay as they are and are not sent (a warning names those under entries/, with
the line that commits and sends them), unless the remote changed the same file:
then nothing is changed and the message says how to commit them first. When both sides changed
the same entry each in its own way, nothing is changed either: the entries are
named, the remote's version is kept in refs/git-kb/sync-theirs, and the commands
that merge, resolve and finish are printed, one a line.`,
  options: {
    "force-republish": {
      type: "boolean",
      help: "push commits the remote had and dropped by a rewrite of its history\n" +
        "(a purge by force-push), on the proposals branch too; refused without it",
    },
    json: {
      type: "boolean",
      help: "print {outcome, branch, upstream, incoming, outgoing, rebased, index,\n" +
        "proposals: {cameIn, wentOut, pending?, notPushed?, wayOut?}, warnings,\n" +
        "kernelWaiting};\n" +
        "on a conflict, {outcome: conflict, entries, commands}; with several knowledge\n" +
        "bases, an array of those, each with its name, one that failed as\n" +
        "{name, kbDir, outcome: failed, exitCode, error}",
    },
  },
  positionals: { name: "<name>", max: 1 },
  notes: `Exit codes: 0 synced, already up to date, or no remote (NO_REMOTE: nothing to
sync with); 1 nothing changed: the remote cannot be reached, the repo is in a
state a save refuses, or uncommitted changes are in the way (the message says
what to run); 2 usage error; 3 what came in is in but the local commits could
not be pushed, or the entries are synced but the proposals and reviews made
here could not be (the report first, then why); 4 conflict: both sides changed
the same entries, nothing changed, the message lists the commands that finish.
With several knowledge bases, each is synced in turn, one failing does not stop
the others, and the exit code is the worst of theirs (4, then 3, then 1).`,
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

/** The entries `traffic` added (+), changed (~) and removed (-), one a line. */
function changeLines({ added, changed, removed }: EntryTraffic): string[] {
  return [
    ...entryLines("+", added),
    ...entryLines("~", changed),
    ...entryLines("-", removed),
  ];
}

/** Which way the proposals branch moved ("came in", "went out", both), or "" when it did not. */
function proposalsWay({ proposals: { cameIn, wentOut } }: SyncReport): string {
  return [cameIn ? "came in" : "", wentOut ? "went out" : ""].filter(Boolean).join(" and ");
}

/** How many proposals wait for a review, with the command that lists them when any do. */
function pendingWords(report: SyncReport): string {
  const { pending } = report.proposals;
  const review = kbCommand("review", "--kb", report.kbDir);
  if (pending === undefined) return ` (pending: ${review})`;
  if (!pending) return "; none waits for review";
  return `: ${plural(pending, "proposal waits", "proposals wait")} for review (${review})`;
}

/**
 * The lines saying how the proposals branch moved and how many proposals wait, with the command
 * that lists them, and that those made here are not pushed, when they are not (the cause follows
 * the report).
 */
function proposalsLines(report: SyncReport): string[] {
  const way = proposalsWay(report);
  const moved = way
    ? [`Proposals and reviews on git-kb/proposals ${way}${pendingWords(report)}.`]
    : [];
  if (report.proposals.notPushed === undefined) return moved;
  return [
    ...moved,
    yellow(
      "Proposals and reviews recorded here on git-kb/proposals are committed here but not " +
        `pushed (why, and ${
          report.proposals.wayOut ? "the ways out" : "the sync that sends them"
        }, below).`,
    ),
  ];
}

/** How many of the files that came in and were left out {@link leftOutLine} names. */
const NAMED_LEFT_OUT = 3;

/**
 * The line saying that files under entries/ are left out of the index (not served), those that
 * came in named first, with the doctor that says why and how to fix each; none when none is.
 */
function leftOutLine(report: SyncReport): string[] {
  const invalid = report.index?.invalid ?? [];
  if (!invalid.length) return [];
  const came = new Set([...report.incoming.added, ...report.incoming.changed].map((e) => e.path));
  const cameIn = invalid.filter((file) => came.has(file.path)).map((file) =>
    displaySafe(file.path)
  );
  const named = cameIn.length > NAMED_LEFT_OUT
    ? `${cameIn.slice(0, NAMED_LEFT_OUT).join(", ")} and ${cameIn.length - NAMED_LEFT_OUT} more`
    : cameIn.join(", ");
  const which = cameIn.length ? `, ${cameIn.length} of what came in among them (${named})` : "";
  const doctor = kbCommand("doctor", "--kb", report.kbDir);
  return [
    yellow(
      `${plural(invalid.length, "file", "files")} under entries/ left out of the index, not ` +
        `served${which}; why, and how to fix each: ${doctor}`,
    ),
  ];
}

/** The report as lines for a terminal. */
function reportLines(report: SyncReport): string[] {
  const { incoming, outgoing, index } = report;
  const indexLines = index
    ? [
      `Index ${index.mode}: ${plural(index.docCount, "entry", "entries")}.`,
      ...leftOutLine(report),
    ]
    : [yellow("Index not updated (see the warning).")];
  if (report.outcome === "no-remote") {
    return [
      yellow(`NO_REMOTE: ${report.kbDir} has no git remote, so there is nothing to sync with.`) +
      ` Add one, with your repo's URL in place of <url>: ${addRemoteCommand(report.kbDir)}`,
      ...indexLines,
    ];
  }
  if (report.outcome === "up-to-date") {
    // Proposals that moved, or that should have gone out and did not, are more than nothing.
    const proposals = proposalsWay(report) || report.proposals.notPushed !== undefined;
    const what = proposals ? "no entry" : "nothing";
    return [
      `Already in step with ${cyan(report.upstream ?? "")}: ${what} came in or went out.`,
      ...proposalsLines(report),
      ...indexLines,
    ];
  }
  const lines = [
    `${green("Synced")} with ${cyan(report.upstream ?? "")}` +
    (report.rebased ? " (the commits made here were replayed on top of what came in)." : "."),
  ];
  if (incoming.commits) {
    lines.push(`Came in: ${plural(incoming.commits, "commit", "commits")}`);
    lines.push(...changeLines(incoming));
  }
  if (outgoing.commits) {
    lines.push(`Went out: ${plural(outgoing.commits, "commit", "commits")}`);
    lines.push(...changeLines(outgoing));
  }
  lines.push(...proposalsLines(report), ...indexLines);
  return lines;
}

/** How bad an exit code is: a conflict is worst, then a failed push, then any other failure. */
function severity(code: number): number {
  return code === EXIT.conflict ? 3 : code === EXIT.notPushed ? 2 : code === EXIT.ok ? 0 : 1;
}

/** The worse of two exit codes, by {@link severity}. */
function worse(a: number, b: number): number {
  return severity(b) > severity(a) ? b : a;
}

/**
 * The kernel rules of the knowledge base in `kbDir` waiting for acceptance (ids qualified with
 * `name` when several are synced): what came in may hold some.
 */
async function waitingRules(kbDir: string, name?: string): Promise<PendingMention[]> {
  const { reader } = await openIndex(kbDir, { trustStampMs: READ_TRUST_MS });
  return pendingMentions(reader.manifest.kernel, name);
}

/**
 * Sync one knowledge base and print its report; resolves to 0, or throws what stopped the sync
 * (after the report, {@link ProposalsPushError} when the proposals made here did not go out).
 * `name` qualifies the ids it names, where several are synced.
 */
async function syncOne(
  kbDir: string,
  { json, forceRepublish }: { json?: (report: object) => void; forceRepublish?: boolean },
  name?: string,
): Promise<number> {
  assertKb(kbDir);
  const report = await syncKb(kbDir, { forceRepublish }).catch((error) => {
    // The entries and the commands as data too; the message still goes to stderr.
    if (json && error instanceof SyncConflictError) {
      json({ outcome: "conflict", entries: error.entries, commands: error.commands });
    }
    throw error;
  });
  printWarnings(report);
  // The rules waiting are read from the index: with none (its warning printed above), none named.
  const waiting = report.index ? await waitingRules(kbDir, name) : [];
  if (json) {
    json({ ...report, index: indexJson(report.index), kernelWaiting: waiting });
  } else {
    for (const line of reportLines(report)) console.log(line);
    if (waiting.length) console.log(yellow(pendingNotice(waiting, kbCommand("kernel"))));
  }
  // The report first, as it happened; then why the proposals made here did not go out (exit 3).
  const { notPushed, wayOut } = report.proposals;
  if (notPushed !== undefined) throw new ProposalsPushError(kbDir, notPushed, wayOut);
  return 0;
}

/**
 * The knowledge bases to sync: the one named, the one `--kb`/`KB_DIR` gives, or every one the
 * config lists.
 */
function targets(name: string | undefined, flag: string | undefined): KnowledgeBase[] {
  if (name !== undefined) {
    const { kbDir } = resolveKbNamed(name, flag);
    return [{ name, kbDir }];
  }
  return resolveKbs(flag).kbs;
}

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, command.options, command);
  const kbs = targets(positionals[0], values.kb);
  const forceRepublish = values["force-republish"];
  if (kbs.length === 1) {
    return await syncOne(kbs[0].kbDir, {
      json: values.json ? printJson : undefined,
      forceRepublish,
    });
  }
  // Several: one JSON array of their reports, each named, one that failed with its error too.
  const reports: object[] = [];
  let code = 0;
  for (const { name, kbDir } of kbs) {
    if (!values.json) console.log(cyan(`== ${name} (${kbDir})`));
    let reported = false;
    const json = values.json
      ? (report: object) => {
        reports.push({ name, ...report });
        reported = true;
      }
      : undefined;
    try {
      code = worse(code, await syncOne(kbDir, { json, forceRepublish }, name));
    } catch (error) {
      console.error(describeError(error, `sync ${name}`));
      code = worse(code, exitCodeOf(error));
      if (values.json && !reported) {
        reports.push({
          name,
          kbDir,
          outcome: "failed",
          exitCode: exitCodeOf(error),
          error: messageOf(error),
        });
      }
    }
  }
  if (values.json) printJson(reports);
  return code;
}
