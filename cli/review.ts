/**
 * `git-kb review`: the proposals waiting on the knowledge base's `git-kb/proposals` branch (see
 * io/proposals/store.ts), listed with a diff against each entry's current text, and accepted
 * (through the same save pipeline as `add` and `edit`), edited then accepted, or rejected (never
 * offered again). Before listing, what the prompt hook's receipts show (pointers never fetched,
 * entries found only by a search) is turned into proposals in the same queue.
 *
 * @module
 */
import { type Entry, parseEntryText, serializeEntry, toEntry } from "../core/entry/entry.ts";
import { readDraft } from "../core/entry/draft.ts";
import { acceptedEntry, findProposal, type ProposalRecord } from "../core/proposals/proposal.ts";
import { unifiedDiff } from "../core/text/unified_diff.ts";
import { displaySafe } from "../core/text/display.ts";
import { resolveKb } from "../io/config.ts";
import { type DraftCheck, editUntilValid } from "../io/editor.ts";
import { assertKb, readKbFile } from "../io/kb.ts";
import { entryPaths } from "../io/save/entry_files.ts";
import { PushError } from "../io/save/publish.ts";
import type { SaveRequest } from "../io/save/request.ts";
import { kbCommand } from "../io/self_command.ts";
import {
  blobIdOf,
  fileAt,
  readProposals,
  recordResolution,
  settleCopied,
} from "../io/proposals/store.ts";
import { proposeFromReceipts } from "../io/proposals/from_receipts.ts";
import { type CommandSpec, helpText, parseCommand, UsageError } from "./args.ts";
import { EXIT, KbError } from "../core/exit.ts";
import { describeError, exitCodeOf } from "./errors.ts";
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
import { reportSave } from "./save_report.ts";

/** The command: its usage, options and positionals. */
export const command = {
  usage: [
    "review [--json]",
    "review accept <proposal>... | --all",
    "review edit <proposal>",
    "review reject <proposal>... | --all [--why <text>]",
  ],
  about: `Review the proposals waiting on the knowledge base's git-kb/proposals branch:
entries captured from sessions, and changes the prompt hook's receipts suggest.
Nothing of a proposal is indexed or reaches a prompt until it is accepted.

With no action, first turns this machine's receipts into proposals (an entry
pointed at in many sessions and never fetched: narrow its applies_to, or archive
it; an entry fetched right after a search, without a pointer: those words as its
aliases), then lists every pending proposal: its commit, kind, entry, title,
reason and source, and a diff against the entry's current text.

accept saves a proposal through the same save pipeline as add and edit
(validate, refuse credentials, commit, push, reindex); edit opens the proposed
text in $VISUAL/$EDITOR first. reject records the rejection on the proposals
branch (shared through the remote): the same proposal is never offered again.
A <proposal> is its commit (the first 12 digits the list shows, or any unique
prefix) or the entry id when one proposal alone is for it. Merging the
git-kb/proposals branch on your git host accepts what it holds, too.`,
  options: {
    all: { type: "boolean", help: "accept or reject every pending proposal" },
    why: { type: "string", value: "<text>", help: "why the proposals are rejected (recorded)" },
    json: {
      type: "boolean",
      help: "list: one JSON object a line {commit, kind, entryId, title, reason,\n" +
        "source, path, date, diff}; accept: what each save did",
    },
  },
  positionals: { name: "<action> <proposal>" },
  notes: `Exit codes: 0 done (or nothing pending), 1 a proposal could not be accepted or
recorded (the message says why and what to run), 2 usage error, 3 accepted and
committed locally but not pushed.`,
} as const satisfies CommandSpec;

/** Help text. */
export const help: string = helpText(command);

/** The actions review takes, the first being what it does with none named. */
const ACTIONS = ["list", "accept", "edit", "reject"] as const;

/** One of {@link ACTIONS}. */
type Action = typeof ACTIONS[number];

/** How many characters of a commit a listing shows, and a command names. */
const SHORT = 12;

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

/** The entry's current file and text in the work tree, when there is one. */
function currentFile(kbDir: string, id: string): { path: string; text: string } | undefined {
  const path = entryPaths(kbDir).get(id);
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
 * entry as it is now (see {@link acceptedEntry}), so a change made since shows as kept.
 */
function acceptedText(
  record: ProposalRecord,
  proposed: string,
  current: { path: string; text: string } | undefined,
): string {
  if (!current || record.kind === "new" || record.kind === "edit") return proposed;
  const now = entryOf(current.text, current.path);
  const offered = entryOf(proposed, record.path);
  return now && offered ? serializeEntry(acceptedEntry(record.kind, now, offered)) : proposed;
}

/** A pending proposal with its diff against the entry's current text. */
async function listed(kbDir: string, record: ProposalRecord): Promise<Listed> {
  const current = currentFile(kbDir, record.entryId);
  const proposed = acceptedText(
    record,
    await fileAt(kbDir, record.commit, record.path) ?? "",
    current,
  );
  const diff = unifiedDiff(current?.text ?? "", proposed, {
    from: current ? current.path : "/dev/null",
    to: record.path,
  });
  const { commit, kind, entryId, title, reason, source, path, date } = record;
  return { commit, kind, entryId, title, reason, source, path, date, diff };
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

/** An error's message. */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Print the pending proposals (after {@link prepare}). */
async function list(on: Reviewing): Promise<number> {
  const { kbDir, json } = on;
  await prepare(on);
  const { pending } = await readProposals(kbDir);
  const items = await Promise.all(pending.map((record) => listed(kbDir, record)));
  if (json) {
    for (const item of items) console.log(JSON.stringify(item));
    return 0;
  }
  if (!items.length) {
    console.log(`No proposals wait for review in ${kbDir}.`);
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
 * The save that accepts `proposed` for `record`: a new entry at the path its id and title give,
 * else an edit of the entry's file as it is now. An edit proposal whose entry changed since it
 * was made is refused (its text would undo that change); the other kinds apply their one field
 * to the entry as it is now. Undefined when the entry already is as proposed.
 */
async function acceptRequest(
  on: Reviewing,
  record: ProposalRecord,
  proposed: Entry,
  edited: boolean,
): Promise<SaveRequest | undefined> {
  const { kbDir } = on;
  if (record.kind === "new") return newEntryRequest(kbDir, proposed, false);
  const target = entryToEdit(kbDir, record.entryId);
  const { path, previousText } = target;
  const changedSince = record.base !== undefined &&
    record.base !== await blobIdOf(kbDir, previousText);
  if (record.kind === "edit" && changedSince && !edited) {
    throw new Error(
      `${record.entryId} changed since proposal ${record.commit.slice(0, SHORT)} was made, ` +
        "so accepting its text as it is would undo that change; open it in the editor, keep " +
        `what you want of both, and save: ${
          reviewCommand(on, "edit", record.commit.slice(0, SHORT))
        }`,
    );
  }
  const { entry: before } = readRepairable(previousText, path, record.entryId);
  const next = edited ? proposed : acceptedEntry(record.kind, before, proposed);
  const plan = planEdit(kbDir, path, previousText, before, next, false);
  return plan.changed.length ? plan.request : undefined;
}

/**
 * Record `record` accepted; a save that committed but could not push is accepted too (the
 * commit stands), and its error is thrown after.
 */
async function saveAndRecord(
  { kbDir }: Reviewing,
  record: ProposalRecord,
  save: () => Promise<void>,
): Promise<void> {
  try {
    await save();
  } catch (error) {
    if (!(error instanceof PushError)) throw error;
    await recordResolution(kbDir, record, { verdict: "accepted" });
    throw error;
  }
  await recordResolution(kbDir, record, { verdict: "accepted" });
}

/** Accept one proposal as it is. */
async function acceptOne(on: Reviewing, record: ProposalRecord): Promise<void> {
  const { json } = on;
  const proposed = await proposedEntry(on, record);
  const request = await acceptRequest(on, record, proposed, false);
  await saveAndRecord(on, record, async () => {
    if (!request) {
      if (json) printJson({ commit: record.commit, id: record.entryId, changed: false });
      else console.log(`${record.entryId} already is as proposed; nothing to commit.`);
      return;
    }
    reportSave("Accepted", await checkAndSave(request, `Entry ${record.entryId}`), json);
  });
}

/** Open the proposal in the editor, then accept what the user saved. */
async function editOne(on: Reviewing, record: ProposalRecord): Promise<void> {
  const text = acceptedText(
    record,
    await fileAt(on.kbDir, record.commit, record.path) ?? "",
    currentFile(on.kbDir, record.entryId),
  );
  const short = record.commit.slice(0, SHORT);
  const draft = await editUntilValid<SaveRequest | undefined>({
    text,
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
    resume: () => reviewCommand(on, "edit", short),
  });
  const request = draft.value;
  await saveAndRecord(on, record, async () => {
    if (!request) {
      draft.discard();
      console.log(`${record.entryId} already is as you saved it; nothing to commit.`);
      return;
    }
    reportSave("Accepted", await saveDraft(draft, request), on.json);
  });
}

/** Reject one proposal, recording why. */
async function rejectOne(on: Reviewing, record: ProposalRecord, why?: string): Promise<void> {
  const recorded = await recordResolution(on.kbDir, record, { verdict: "rejected", why });
  const short = record.commit.slice(0, SHORT);
  if (recorded) console.log(`${green("Rejected")} ${short} (${record.kind} ${record.entryId}).`);
  else console.log(`${short} was reviewed already; nothing to record.`);
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
  const on = { kbDir, kbFlag: values.kb !== undefined ? ["--kb", kbDir] : [], json: values.json };
  if (action === "list") {
    if (wanted.length || values.all) throw new UsageError("list takes no proposals and no --all");
    return await list(on);
  }
  if (values.why !== undefined && action !== "reject") {
    throw new UsageError("--why goes with reject");
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
  if (action === "edit") {
    await editOne(on, records[0]);
    return 0;
  }
  let code = 0;
  for (const record of records) {
    try {
      if (action === "accept") await acceptOne(on, record);
      else await rejectOne(on, record, values.why);
    } catch (error) {
      if (records.length === 1) throw error;
      console.error(describeError(error, `review ${action} ${record.commit.slice(0, SHORT)}`));
      const failed = exitCodeOf(error);
      code = failed === 3 || code === 3 ? 3 : Math.max(code, failed);
    }
  }
  return code;
}
