/**
 * `git-kb review`: the proposals waiting on the knowledge base's `git-kb/proposals` branch (see
 * io/proposals/store.ts), listed with a diff against each entry's current text, and accepted
 * (through the same save pipeline as `add` and `edit`), edited then accepted, or rejected (never
 * offered again). Before listing, what the prompt hook's receipts show (pointers never fetched,
 * entries found only by a search) is turned into proposals in the same queue.
 *
 * @module
 */
import { defaultOnlyNote } from "../io/kbs/default_only.ts";
import { type Entry, parseEntryText, serializeEntry, toEntry } from "../core/entry/entry.ts";
import { readDraft, withNotes } from "../core/entry/draft.ts";
import {
  acceptedEntry,
  findProposal,
  type ProposalRecord,
  rejectedProposals,
  reviewedBothWays,
  type Verdict,
} from "../core/proposals/proposal.ts";
import { unifiedDiff } from "../core/text/unified_diff.ts";
import { displaySafe } from "../core/text/display.ts";
import { gitCommand } from "../core/shell/quote.ts";
import { PROPOSALS_BRANCH } from "../core/proposals/branch.ts";
import { resolveKb } from "../io/config.ts";
import { type DraftCheck, editUntilValid } from "../io/editor.ts";
import { assertKb, readKbFile } from "../io/kb.ts";
import { blobTexts } from "../io/git.ts";
import { entryPaths } from "../io/save/entry_files.ts";
import { PushError } from "../io/save/publish.ts";
import { pushSaved } from "../io/save/save.ts";
import type { SaveRequest } from "../io/save/request.ts";
import { ValidationError } from "../io/save/validate.ts";
import { kbCommand } from "../io/self_command.ts";
import { pendingMentions } from "../io/kernel/acceptance.ts";
import { pendingNotice } from "../core/kernel/acceptance.ts";
import {
  blobIdOf,
  fileAt,
  filesAt,
  mergeTexts,
  type ProposalsState,
  readProposals,
  recordResolution,
  recordResolutions,
  secretsIn,
  settleCopied,
  strayFiles,
} from "../io/proposals/store.ts";
import { proposeFromReceipts } from "../io/proposals/from_receipts.ts";
import { proposalsCheckedOut } from "../io/proposals/checked_out.ts";
import { proposalsBehind, shareReviews } from "../io/proposals/sync.ts";
import { type CommandSpec, helpText, parseCommand, UsageError } from "./args.ts";
import { EXIT, KbError } from "../core/exit.ts";
import { describeError, exitCodeOf, messageOf } from "./errors.ts";
import {
  checkAndSave,
  entryProblems,
  entryToEdit,
  newEntryRequest,
  planEdit,
  readRepairable,
  saveDraft,
} from "./entry_save.ts";
import { cyan, dim, green, plural, printJson, yellow } from "./output.ts";
import { printWarnings, reportingUnpushed, reportSave } from "./save_report.ts";
import { readTextArgument } from "./entry_flags.ts";

/** The command: its usage, options and positionals. */
export const command = {
  usage: [
    "review [--rejected] [--json]",
    "review accept <proposal>... | --all",
    "review edit <proposal> [--from-draft <file>]",
    "review reject <proposal>... | --all [--why <text>]",
  ],
  about: `Review the proposals waiting on the knowledge base's git-kb/proposals branch:
entries captured from sessions, and changes the prompt hook's receipts suggest.
Nothing of a proposal is indexed or reaches a prompt until it is accepted.

With no action, first turns this machine's receipts into proposals (an entry
pointed at in many sessions and never fetched: narrow its applies_to, or archive
it; an entry fetched right after a search, without a pointer: those words as its
aliases), then lists every pending proposal: its commit, kind, entry, title,
reason and source, and a diff against the entry's current text; --rejected lists
the proposals rejected instead, which are never offered again.

accept saves a proposal through the same save pipeline as add and edit
(validate, refuse credentials, commit, push, reindex; several: one push); edit opens the proposed
text in $VISUAL/$EDITOR first (when what you saved is not valid and no terminal
is there to reopen it, it is kept in a draft and the command printed carries on
with it: review edit <proposal> --from-draft <file>). reject records the rejection on the proposals
branch (shared through the remote): the same proposal is never offered again.
A <proposal> is its commit (the first 12 digits the list shows, or any unique
prefix) or the entry id when one proposal alone is for it. Merging the
git-kb/proposals branch on your git host accepts what it holds, too.`,
  options: {
    all: { type: "boolean", help: "accept or reject every pending proposal" },
    rejected: {
      type: "boolean",
      help: "list the proposals rejected, which are never offered again, with\nwhen and why",
    },
    why: { type: "string", value: "<text>", help: "why the proposals are rejected (recorded)" },
    "from-draft": {
      type: "string",
      value: "<file>",
      help: "edit: carry on with the draft an earlier edit kept",
    },
    json: {
      type: "boolean",
      help: "list: one JSON object a line {commit, kind, entryId, title, reason,\n" +
        "source, path, date, diff}; --rejected: {commit, kind, entryId, title,\n" +
        "rejected, why}; accept: what each save did",
    },
  },
  positionals: { name: "<action> <proposal>" },
  notes: `Exit codes: 0 done (or nothing pending), 1 a proposal could not be accepted or
recorded (the message says why and what to run), 2 usage error, 3 accepted and
committed locally but not pushed, or the reviews recorded here could not be
pushed to git-kb/proposals (the message says why; git-kb sync sends them).`,
} as const satisfies CommandSpec;

/** Help text. */
export const help: string = helpText(command);

/** The actions review takes, the first being what it does with none named. */
const ACTIONS = ["list", "accept", "edit", "reject"] as const;

/** One of {@link ACTIONS}. */
type Action = typeof ACTIONS[number];

/** How many characters of a commit a listing shows, and a command names. */
const SHORT = 12;

/**
 * How many proposals' files a listing reads with one git call: each may be as large as an entry
 * file can be (1 MiB), and a batch is held whole while it is read.
 */
const READ_TOGETHER = 64;

/** The knowledge base reviewed, and how the commands printed must name it. */
interface Reviewing {
  kbDir: string;
  /** `--kb <dir>` when the command was given it, so a printed command reaches the same one. */
  kbFlag: string[];
  json?: boolean;
}

/** A `git-kb review …` command to paste, for the same knowledge base. */
function reviewCommand(on: Reviewing, ...words: string[]): string {
  return kbCommand("review", ...words, ...on.kbFlag);
}

/** The entry of `text`, or undefined when it is not a valid one. */
function entryOf(text: string, path: string): Entry | undefined {
  try {
    return toEntry(parseEntryText(text, path)).entry;
  } catch {
    return undefined;
  }
}

/**
 * The entry's current file and text in the work tree, when there is one (`paths`: the entry
 * files by id, read once by a caller that looks up many).
 */
function currentFile(
  kbDir: string,
  id: string,
  paths: ReadonlyMap<string, string> = entryPaths(kbDir),
): { path: string; text: string } | undefined {
  const path = paths.get(id);
  return path ? { path, text: readKbFile(kbDir, path) } : undefined;
}

/** One pending proposal as the list shows it. */
interface Listed {
  commit: string;
  kind: string;
  entryId: string;
  title: string;
  reason: string;
  source: string;
  path: string;
  date: string;
  diff: string;
}

/**
 * The entry file an accept would write, the `updated` date aside: the proposed text for a new
 * entry or an edit; for an alias, a narrowing or an archiving, its one field applied to the
 * entry as it is now (see {@link acceptedEntry}), so a change made since shows as kept. And
 * whether that is the proposed entry itself (`whole`, the `updated` date aside): not so when an
 * alias, a narrowing or an archiving proposes a file that changes more than its one field,
 * which a merge of the branch would bring in whole.
 */
function acceptedView(
  record: ProposalRecord,
  proposed: string,
  current: { path: string; text: string } | undefined,
): { text: string; whole: boolean } {
  if (!current || record.kind === "new" || record.kind === "edit") {
    return { text: proposed, whole: true };
  }
  const now = entryOf(current.text, current.path);
  const offered = entryOf(proposed, record.path);
  if (!now || !offered) return { text: proposed, whole: true };
  const accepted = acceptedEntry(record.kind, now, offered);
  const undated = (entry: Entry) => serializeEntry({ ...entry, updated: "" });
  return { text: serializeEntry(accepted), whole: undated(accepted) === undated(offered) };
}

/**
 * A pending proposal with its diff against the entry's current file (`current`; its proposed
 * file: `text`, undefined when unread), and whether that diff shows its file as the branch holds
 * it: not so for a file too large to read, nor for an alias, a narrowing or an archiving whose
 * file changes more than its one field (the diff shows what an accept writes; a merge of the
 * branch would bring in the whole file).
 */
function listed(
  record: ProposalRecord,
  text: string | undefined,
  current: { path: string; text: string } | undefined,
): [Listed, boolean] {
  const view = text === undefined ? undefined : acceptedView(record, text, current);
  const diff = view === undefined
    ? `(no file ${record.path} in this proposal, or one larger than an entry can be)\n`
    : unifiedDiff(current?.text ?? "", view.text, {
      from: current ? current.path : "/dev/null",
      to: record.path,
    });
  const { commit, kind, entryId, title, reason, source, path, date } = record;
  return [{ commit, kind, entryId, title, reason, source, path, date, diff }, view?.whole === true];
}

/**
 * Before listing: record as accepted what a squash merge on the host brought in (so the branch
 * stops adding it), and turn the receipts into proposals. Either failing is a warning: the list
 * still shows what was proposed before.
 */
async function prepare(on: Reviewing): Promise<void> {
  const say = (line: string) => on.json || console.log(line);
  try {
    const settled = await settleCopied(on.kbDir);
    if (settled) say(`${plural(settled, "proposal", "proposals")} merged on the host recorded.`);
  } catch (error) {
    console.error(yellow(
      `warning: proposals merged on the host were not recorded (${messageOf(error)}); ` +
        `the list may show them again; run the command again: ${reviewCommand(on)}`,
    ));
  }
  try {
    const made = await proposeFromReceipts(on.kbDir);
    if (made) say(`${plural(made, "new proposal", "new proposals")} from the receipts.`);
  } catch (error) {
    console.error(yellow(
      `warning: the receipts were not turned into proposals (${messageOf(error)}); the ` +
        `proposals made before are listed; check the cache: ${kbCommand("doctor", ...on.kbFlag)}`,
    ));
  }
}

/** How many of the files a merge would bring in unseen a warning names. */
const STRAY_NAMED = 10;

/**
 * Warn (stderr) when merging the proposals branch would bring in files the list does not show
 * (see {@link strayFiles}; `unseen`: proposals' files the list shows otherwise than the branch
 * holds them), with the git command that shows them; and when it would bring in a file as an
 * older proposal of it has it, taking the newer one for merged, with the reviews that settle it.
 */
async function warnStray(
  on: Reviewing,
  state: ProposalsState,
  unseen: string[],
): Promise<void> {
  const { kbDir } = on;
  const stray = await strayFiles(kbDir, state);
  const { meet } = stray;
  const paths = [...new Set([...stray.paths, ...unseen])];
  if (paths.length) {
    const named = paths.slice(0, STRAY_NAMED);
    const more = paths.length > named.length ? ` and ${paths.length - named.length} more` : "";
    console.error(yellow(
      `warning: merging ${PROPOSALS_BRANCH} (on your git host or by hand) would also bring in ` +
        `${plural(paths.length, "file", "files")} no proposal listed here shows as the branch ` +
        `holds it: ${named.map((path) => displaySafe(JSON.stringify(path))).join(", ")}${more}; ` +
        "accepting with review takes only what is listed; see what the branch holds: " +
        gitCommand(kbDir, "diff", meet.slice(0, SHORT), PROPOSALS_BRANCH, "--", ...named),
    ));
  }
  if (stray.older.length) {
    const list = stray.older.map(({ path, holds, newest }) =>
      `${displaySafe(JSON.stringify(path))} (as ${holds.slice(0, SHORT)} has it, not as the ` +
      `newer ${newest.slice(0, SHORT)})`
    );
    const more = list.length > STRAY_NAMED ? ` and ${list.length - STRAY_NAMED} more` : "";
    const first = stray.older[0].newest.slice(0, SHORT);
    console.error(yellow(
      `warning: merging ${PROPOSALS_BRANCH} (on your git host or by hand) would bring in ` +
        `${plural(list.length, "file", "files")} as an older proposal has it, and take the ` +
        `newer proposal of the same file for merged without its text: ` +
        `${list.slice(0, STRAY_NAMED).join(", ")}${more}; review one of the two here before ` +
        `merging, e.g. ${reviewCommand(on, "accept", first)} or ` +
        reviewCommand(on, "reject", first),
    ));
  }
}

/**
 * Say (stderr) when the remote's proposals branch, as last fetched, holds what the local one
 * lacks (a fresh clone has only the remote's): the list leaves it out until a sync takes it in.
 */
async function noteBehind(kbDir: string): Promise<void> {
  const behind = await proposalsBehind(kbDir).catch(() => undefined);
  if (!behind) return;
  console.error(
    `note: ${behind.remote}'s ${PROPOSALS_BRANCH} holds ` +
      `${plural(behind.commits, "commit", "commits")} (proposals or reviews made elsewhere) ` +
      `this clone has not taken in, which this list leaves out; take them in: ${
        kbCommand("sync", "--kb", kbDir)
      }`,
  );
}

/** Print the pending proposals (after {@link prepare}). */
async function list(on: Reviewing): Promise<number> {
  const { kbDir, json } = on;
  await prepare(on);
  await noteBehind(kbDir);
  const state = await readProposals(kbDir);
  const { pending } = state;
  const paths = entryPaths(kbDir);
  const items: Listed[] = [];
  const unseen: string[] = [];
  // Read in batches: anyone who can push the branch decides how many proposals it holds.
  for (let at = 0; at < pending.length; at += READ_TOGETHER) {
    const batch = pending.slice(at, at + READ_TOGETHER);
    const texts = await filesAt(kbDir, batch.map(({ commit, path }) => [commit, path]));
    batch.forEach((record, index) => {
      const current = currentFile(kbDir, record.entryId, paths);
      const [item, shown] = listed(record, texts[index], current);
      items.push(item);
      if (!shown) unseen.push(item.path);
    });
  }
  await warnStray(on, state, unseen);
  if (json) {
    for (const item of items) console.log(JSON.stringify(item));
    return 0;
  }
  const rejected = rejectedProposals(state.log).length;
  // Set aside for good, and so never listed here: said, with the command that lists them.
  const setAside = () =>
    rejected && console.log(dim(
      `(${plural(rejected, "proposal rejected before is", "proposals rejected before are")} ` +
        `not offered again; list them: ${reviewCommand(on, "--rejected")})`,
    ));
  if (!items.length) {
    console.log(`No proposals wait for review in ${kbDir}.`);
    setAside();
    return 0;
  }
  console.log(
    `${plural(items.length, "proposal waits", "proposals wait")} for review in ${kbDir}:`,
  );
  for (const item of items) {
    console.log("");
    console.log(
      `${cyan(item.commit.slice(0, SHORT))}  ${item.kind} ${item.entryId}  ${
        displaySafe(item.title)
      }`,
    );
    console.log(`  why: ${displaySafe(item.reason) || dim("(no reason given)")}`);
    console.log(`  from: ${displaySafe(item.source) || dim("(no source given)")}`);
    for (const line of item.diff.trimEnd().split("\n")) console.log(`  ${displaySafe(line)}`);
  }
  const first = items[0].commit.slice(0, SHORT);
  console.log("");
  console.log(`Accept:   ${reviewCommand(on, "accept", first)}`);
  console.log(`Edit:     ${reviewCommand(on, "edit", first)}`);
  console.log(`Reject:   ${reviewCommand(on, "reject", first)}`);
  console.log(dim("(reject takes --why <text> to record why; accept and reject take --all)"));
  setAside();
  return 0;
}

/**
 * What a proposal reviewed both ways left in the knowledge base (the accept saved it), and the
 * commands that take it out: its entry for a new one, its change for the others (the sync first
 * brings in what the other clone saved).
 */
function undoBothWays(on: Reviewing, record: ProposalRecord): string {
  const sync = kbCommand("sync", ...on.kbFlag);
  return record.kind === "new"
    ? `its entry ${record.entryId} is in the knowledge base; take it out: ${sync} && ${
      kbCommand("rm", record.entryId, ...on.kbFlag)
    }`
    : `its ${record.kind} of ${record.entryId} is saved; undo it in the editor: ${sync} && ${
      kbCommand("edit", record.entryId, ...on.kbFlag)
    }`;
}

/**
 * Warn (stderr) when a proposal reviewed here was reviewed the other way on another clone before
 * either saw the other's review (two machines at once, or one offline), which sharing the
 * reviews just brought in: accepted there and rejected here, or the reverse. Its change is in the
 * knowledge base while its key is never offered again; said with the commands that undo it.
 */
async function warnReviewedBothWays(
  on: Reviewing,
  records: ProposalRecord[],
  verdict: Verdict,
): Promise<void> {
  const state = await readProposals(on.kbDir).catch(() => undefined);
  if (!state) return;
  for (const both of reviewedBothWays(state.log, records.map(({ commit }) => commit))) {
    const record = records.find(({ commit }) => commit === both.proposal)!;
    const label = `proposal ${record.commit.slice(0, SHORT)} (${record.kind} ${record.entryId})`;
    const other = verdict === "accepted" ? both.rejected : both.accepted;
    const why = other.why ? `: ${displaySafe(other.why)}` : "";
    console.error(yellow(
      `warning: ${label} was also ${other.verdict} on another clone (${
        other.date.slice(0, 10)
      }${why}) before the two reviews met, so it is both: ` + undoBothWays(on, record),
    ));
  }
}

/** Print the proposals rejected (never offered again), newest first, with when and why. */
async function listRejected(on: Reviewing): Promise<number> {
  const rejected = rejectedProposals((await readProposals(on.kbDir)).log);
  for (const { proposal, rejection, accepted } of rejected) {
    const { commit, kind, entryId, title } = proposal;
    const why = rejection.why ?? "";
    if (on.json) {
      console.log(JSON.stringify({
        commit,
        kind,
        entryId,
        title,
        rejected: rejection.date,
        why,
        ...accepted ? { accepted: accepted.date } : {},
      }));
      continue;
    }
    console.log(`${cyan(commit.slice(0, SHORT))}  ${kind} ${entryId}  ${displaySafe(title)}`);
    console.log(
      `  rejected ${rejection.date.slice(0, 10)}: ${displaySafe(why) || dim("(no reason given)")}`,
    );
    if (accepted) {
      console.log(yellow(
        `  accepted too, ${accepted.date.slice(0, 10)}, on a clone that had not seen the ` +
          `rejection: ${undoBothWays(on, proposal)}`,
      ));
    }
  }
  if (!rejected.length && !on.json) console.log(`No proposal was rejected in ${on.kbDir}.`);
  return 0;
}

/** The proposed entry of `record`; throws when its text is gone or not a valid entry. */
async function proposedEntry(on: Reviewing, record: ProposalRecord): Promise<Entry> {
  const text = await fileAt(on.kbDir, record.commit, record.path);
  const entry = text === undefined ? undefined : entryOf(text, record.path);
  if (entry?.id !== record.entryId) {
    throw new Error(
      `proposal ${record.commit.slice(0, SHORT)} holds no valid entry ${record.entryId} at ` +
        `${record.path}; reject it: ${reviewCommand(on, "reject", record.commit.slice(0, SHORT))}`,
    );
  }
  return entry;
}

/**
 * Refuse a change proposed to an entry that is no longer in the knowledge base (removed since
 * the proposal was made), naming the reject that takes it off the list.
 */
function assertEntryThere(on: Reviewing, record: ProposalRecord): void {
  if (record.kind === "new" || entryPaths(on.kbDir).has(record.entryId)) return;
  const short = record.commit.slice(0, SHORT);
  throw new Error(
    `${record.entryId} is no longer in ${on.kbDir} (removed since proposal ${short} was made), ` +
      `so this ${record.kind} proposal has no entry to change; take it off the list: ${
        reviewCommand(on, "reject", short, "--why", "its entry was removed")
      }`,
  );
}

/**
 * The save that accepts `proposed` for `record`: a new entry at the path its id and title give,
 * else an edit of the entry's file as it is now. An edit proposal whose entry changed since it
 * was made is refused (its text would undo that change), and so is a new entry whose id was
 * taken since by a different entry; the other kinds apply their one field to the entry as it is
 * now. Undefined when the entry already is as proposed (accepted on another machine, or by an
 * accept cut short before it was recorded).
 */
async function acceptRequest(
  on: Reviewing,
  record: ProposalRecord,
  proposed: Entry,
  edited: boolean,
): Promise<SaveRequest | undefined> {
  const { kbDir } = on;
  // A proposal's words are a teammate's or a model's: a kernel rule in it waits for `kernel`.
  if (record.kind === "new" && !entryPaths(kbDir).has(record.entryId)) {
    return { ...newEntryRequest(kbDir, proposed, false), othersWords: true };
  }
  assertEntryThere(on, record);
  const { path, previousText } = entryToEdit(kbDir, record.entryId);
  const { entry: before } = readRepairable(previousText, path, record.entryId);
  const next = edited ? proposed : acceptedEntry(record.kind, before, proposed);
  const plan = planEdit(kbDir, path, previousText, before, next, false);
  if (!plan.changed.length) return undefined;
  const short = record.commit.slice(0, SHORT);
  const undoes = record.kind === "new"
    ? `${record.entryId} was added since proposal ${short} was made, and differs from it, so ` +
      "accepting it as it is would replace that entry"
    : record.kind === "edit" && record.base !== undefined &&
        record.base !== await blobIdOf(kbDir, previousText)
    ? `${record.entryId} changed since proposal ${short} was made, so accepting its text as it ` +
      "is would undo that change"
    : undefined;
  if (undoes && !edited) {
    throw new Error(
      `${undoes}; open it in the editor, keep what you want of both, and save: ${
        reviewCommand(on, "edit", short)
      }`,
    );
  }
  return { ...plan.request, othersWords: true };
}

/**
 * Say so when `entry`, just saved from a proposal, is an active kernel rule this user has not
 * accepted as it reads now: it applies to no prompt until they accept it with `git-kb kernel`.
 */
function noteKernelWaiting(on: Reviewing, entry: Entry | undefined): void {
  if (!entry?.kernel || entry.status !== "active") return;
  const waiting = pendingMentions([entry]);
  if (waiting.length) {
    console.error(`note: ${pendingNotice(waiting, kbCommand("kernel", ...on.kbFlag))}`);
  }
}

/**
 * Save `saving` (none: the entry already is as proposed) with `save` and record `record`
 * accepted; a save that committed but could not push is accepted too (the commit stands), and
 * its error is thrown after.
 */
async function saveAndRecord(
  on: Reviewing,
  record: ProposalRecord,
  saving: SaveRequest | undefined,
  save: () => Promise<void>,
): Promise<void> {
  let notPushed: PushError | undefined;
  try {
    await save();
  } catch (error) {
    if (!(error instanceof PushError)) throw error;
    notPushed = error;
  }
  await recordResolution(on.kbDir, record, { verdict: "accepted" });
  noteKernelWaiting(on, saving?.entry);
  if (notPushed) throw notPushed;
}

/**
 * Accept one proposal as it is; with `held`, commit it without pushing (the batch it is part of
 * pushes once, {@link pushAccepted}). Resolves to the path committed, if a commit was made.
 */
async function acceptOne(
  on: Reviewing,
  record: ProposalRecord,
  held = false,
): Promise<string | undefined> {
  const { json } = on;
  const proposed = await proposedEntry(on, record);
  const accepting = await acceptRequest(on, record, proposed, false);
  const request = accepting && held ? { ...accepting, push: false } : accepting;
  let committed: string | undefined;
  await saveAndRecord(on, record, request, async () => {
    if (!request) {
      if (json) printJson({ commit: record.commit, id: record.entryId, changed: false });
      else console.log(`${record.entryId} already is as proposed; nothing to commit.`);
      return;
    }
    let saved;
    try {
      saved = await reportingUnpushed(
        json,
        request,
        () => checkAndSave(request, `Entry ${record.entryId}`),
      );
    } catch (error) {
      // The proposal is someone else's text: what review can do with it is edit or reject it.
      if (error instanceof ValidationError) {
        const short = record.commit.slice(0, SHORT);
        error.message += `\nfix it in the editor: ${reviewCommand(on, "edit", short)}` +
          `\nor reject it: ${reviewCommand(on, "reject", short)}`;
      }
      throw error;
    }
    if (saved.commit) committed = saved.path;
    reportSave("Accepted", saved, json);
  });
  return committed;
}

/**
 * Push what a batch of accepts committed (`paths`), in one push; a failure is the error of a
 * save that could not push (exit 3, the commits kept), naming the batch.
 */
async function pushAccepted(on: Reviewing, paths: readonly string[]): Promise<void> {
  const pushed = await pushSaved(on.kbDir, paths);
  printWarnings(pushed);
  if (on.json || pushed.push === "NO_REMOTE") return;
  console.log(`Pushed ${plural(paths.length, "accepted entry", "accepted entries")} at once`);
}

/**
 * `text` with the frontmatter's `updated:` line made `line` (none: as it is), so that two
 * versions of an entry dated on different days merge without a conflict on that line.
 */
function datedAs(text: string, line: string | undefined): string {
  const end = text.indexOf("\n---", 3);
  if (line === undefined || end < 0) return text;
  return text.slice(0, end).replace(/^updated: .*$/m, line) + text.slice(end);
}

/**
 * The text `review edit` opens: what an accept would write; for an edit proposal whose entry
 * changed since it was made, the proposal merged into the entry as it is now (git's three-way
 * merge from the text it was proposed on; the `updated` dates set alike, the save sets it), with
 * notes at the top saying so: the proposal's text alone would undo the change made since.
 */
async function editorText(on: Reviewing, record: ProposalRecord): Promise<string> {
  const current = currentFile(on.kbDir, record.entryId);
  const proposed = await fileAt(on.kbDir, record.commit, record.path) ?? "";
  const { text } = acceptedView(record, proposed, current);
  if (
    record.kind !== "edit" || !current || record.base === undefined ||
    record.base === await blobIdOf(on.kbDir, current.text)
  ) {
    return text;
  }
  const short = record.commit.slice(0, SHORT);
  const changed = `${record.entryId} changed since proposal ${short} was made`;
  const [base] = await blobTexts(on.kbDir, [record.base]).catch(() => [undefined]);
  if (base === undefined) {
    return withNotes(text, [
      `${changed}, and the text it was made on is not in this clone: saved as it is, this text`,
      `undoes that change; the entry as it is now: ${current.path}`,
    ]);
  }
  const end = current.text.indexOf("\n---", 3);
  const now = end < 0 ? undefined : /^updated: .*$/m.exec(current.text.slice(0, end))?.[0];
  const merged = await mergeTexts(
    on.kbDir,
    { ours: current.text, base: datedAs(base, now), theirs: datedAs(proposed, now) },
    ["the entry now", `the entry when ${short} was proposed`, `proposal ${short}`],
  );
  return withNotes(
    merged.text,
    merged.clean
      ? [
        `${changed}: this is the proposal merged into the entry`,
        "as it is now, both changes kept.",
      ]
      : [
        `${changed}: this is the proposal merged into the entry as it is now. Where both changed`,
        "the same lines, both versions are between the <<<<<<< and >>>>>>> lines (the entry now",
        "first): keep what you want of both and delete the marker lines.",
      ],
  );
}

/**
 * Open the proposal (or the draft `fromDraft` an earlier edit of it kept) in the editor, then
 * accept what the user saved.
 */
async function editOne(on: Reviewing, record: ProposalRecord, fromDraft?: string): Promise<void> {
  assertEntryThere(on, record);
  const text = fromDraft === undefined
    ? await editorText(on, record)
    : await readTextArgument(fromDraft, "--from-draft");
  const short = record.commit.slice(0, SHORT);
  const draft = await editUntilValid<SaveRequest | undefined>({
    text,
    from: fromDraft,
    name: record.entryId,
    what: `Proposal ${short} (${record.entryId})`,
    check: async (edited): Promise<DraftCheck<SaveRequest | undefined>> => {
      const { entry, problems } = readDraft(edited, record.path);
      if (!entry) return { problems };
      if (entry.id !== record.entryId) {
        return {
          problems: [{
            field: "id",
            message: `the proposal is for ${record.entryId}; keep its id`,
          }],
        };
      }
      const request = await acceptRequest(on, record, entry, true);
      return { value: request, problems: request ? await entryProblems(request) : [] };
    },
    resume: (path) => reviewCommand(on, "edit", short, "--from-draft", path),
    instead: `accept it as proposed: ${reviewCommand(on, "accept", short)}`,
  });
  const request = draft.value;
  await saveAndRecord(on, record, request, async () => {
    if (!request) {
      draft.discard();
      console.log(`${record.entryId} already is as you saved it; nothing to commit.`);
      return;
    }
    const saved = await reportingUnpushed(on.json, request, () => saveDraft(draft, request));
    reportSave("Accepted", saved, on.json);
  });
}

/**
 * Reject `records`, recording why: one move of the proposals branch for them all, however many
 * (anyone who can push the branch decides how many there are).
 */
async function reject(on: Reviewing, records: ProposalRecord[], why?: string): Promise<void> {
  const recorded = new Set(
    (await recordResolutions(on.kbDir, records, { verdict: "rejected", why })).map(({ commit }) =>
      commit
    ),
  );
  for (const record of records) {
    const short = record.commit.slice(0, SHORT);
    if (recorded.has(record.commit)) {
      console.log(`${green("Rejected")} ${short} (${record.kind} ${record.entryId}).`);
    } else console.log(`${short} was reviewed already; nothing to record.`);
  }
}

/** The pending proposals the arguments name (every one with `--all`). */
function chosen(
  on: Reviewing,
  pending: ProposalRecord[],
  wanted: string[],
  all: boolean,
): ProposalRecord[] {
  if (all) return pending;
  const problems: string[] = [];
  const found: ProposalRecord[] = [];
  for (const name of wanted) {
    const match = findProposal(pending, name);
    if (typeof match === "string") problems.push(match);
    else if (!found.includes(match)) found.push(match);
  }
  if (problems.length) {
    // The call is well formed; what it names is not there (as `get` of an id no entry has).
    throw new KbError(
      problems.map((problem) => `${problem}; list them with ${reviewCommand(on)}`).join("\n"),
      EXIT.failed,
    );
  }
  return found;
}

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, command.options, command);
  const [named = "list", ...wanted] = positionals;
  if (!(ACTIONS as readonly string[]).includes(named)) {
    throw new UsageError(`unknown action ${named}; review takes ${ACTIONS.join(", ")}`);
  }
  const action = named as Action;
  const { kbDir } = resolveKb(values.kb);
  assertKb(kbDir);
  const checkedOut = proposalsCheckedOut(kbDir);
  if (checkedOut) {
    // Every proposal is in what it has checked out, so each would look merged, none pending.
    throw new KbError(
      `${kbDir} has ${checkedOut} checked out, not the knowledge base's own branch, which ` +
        "review compares the proposals with and saves accepted ones to; switch back to your branch",
      EXIT.failed,
      [gitCommand(kbDir, "switch", "-")],
    );
  }
  const others = action === "list" ? defaultOnlyNote(values.kb, ["review"]) : undefined;
  if (others) console.error(`note: ${others}`);
  const on = { kbDir, kbFlag: values.kb !== undefined ? ["--kb", kbDir] : [], json: values.json };
  if (action === "list") {
    if (wanted.length || values.all) throw new UsageError("list takes no proposals and no --all");
    return values.rejected ? await listRejected(on) : await list(on);
  }
  if (values.rejected) throw new UsageError("--rejected goes with the list, not with an action");
  if (values.why !== undefined && action !== "reject") {
    throw new UsageError("--why goes with reject");
  }
  const leaks = secretsIn(values.why ?? "", "text");
  if (leaks.length) {
    // Recorded in a commit of the branch that is pushed: as for a proposal's own reason.
    throw new UsageError(
      `--why holds ${leaks.join(", ")}; a rejection's words are pushed with ${PROPOSALS_BRANCH} ` +
        "and stay in the history of every clone, so nothing was recorded; give --why without it",
    );
  }
  if (values["from-draft"] !== undefined && action !== "edit") {
    throw new UsageError("--from-draft goes with edit");
  }
  if (values.all && action === "edit") throw new UsageError("edit takes one proposal, not --all");
  if (!values.all && !wanted.length) throw new UsageError(`${action} needs a proposal or --all`);
  if (values.all && wanted.length) throw new UsageError("give proposals or --all, not both");
  if (action === "edit" && wanted.length > 1) throw new UsageError("edit takes one proposal");
  const records = chosen(on, (await readProposals(kbDir)).pending, wanted, values.all === true);
  if (!records.length) {
    console.log(`No proposals wait for review in ${kbDir}.`);
    return 0;
  }
  let code: number;
  try {
    code = await review(on, action, records, values);
  } catch (error) {
    await share(kbDir, true);
    throw error;
  }
  await share(kbDir);
  await warnReviewedBothWays(on, records, action === "reject" ? "rejected" : "accepted");
  return code;
}

/**
 * Review `records` as `action` says (`why` for reject, `from-draft` for edit); resolves to the
 * exit code (several accepts: the worst).
 */
async function review(
  on: Reviewing,
  action: Exclude<Action, "list">,
  records: ProposalRecord[],
  values: { why?: string; "from-draft"?: string },
): Promise<number> {
  if (action === "edit") {
    await editOne(on, records[0], values["from-draft"]);
    return 0;
  }
  if (action === "reject") {
    await reject(on, records, values.why);
    return 0;
  }
  if (records.length === 1) {
    await acceptOne(on, records[0]);
    return 0;
  }
  // Several: each committed as it is accepted, then all of them pushed at once.
  let code = 0;
  const worst = (error: unknown, what: string) => {
    console.error(describeError(error, what));
    const failed = exitCodeOf(error);
    code = failed === 3 || code === 3 ? 3 : Math.max(code, failed);
  };
  const committed: string[] = [];
  for (const record of records) {
    try {
      const path = await acceptOne(on, record, true);
      if (path) committed.push(path);
    } catch (error) {
      worst(error, `review accept ${record.commit.slice(0, SHORT)}`);
    }
  }
  if (committed.length) {
    await pushAccepted(on, committed).catch((error) => worst(error, "review accept"));
  }
  return code;
}

/**
 * Send what was recorded to the other machines and the host now, not at the next sync. Reviews
 * recorded here that did not go out end the command with exit 3, their cause and the sync that
 * sends them (thrown; printed instead when the command is `failing` with an error of its own);
 * any other failure is a warning.
 */
async function share(kbDir: string, failing = false): Promise<void> {
  const { warnings, notPushed } = await shareReviews(kbDir);
  for (const warning of warnings) console.error(yellow(`warning: ${warning}`));
  if (notPushed && !failing) throw notPushed;
  if (notPushed) console.error(describeError(notPushed, "review"));
}
