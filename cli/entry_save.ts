/**
 * Checking and saving an entry for `add` and `edit`: the checks the save pipeline makes plus
 * the exact-value checks of the fields written unquoted, run before any editor opens and on
 * every draft; a draft is removed once its entry is committed and kept when the save fails.
 *
 * @module
 */
import {
  blankEntry,
  type Entry,
  linksToNoEntry,
  parseEntryText,
  type Problem,
  toEntry,
} from "../core/entry/entry.ts";
import {
  applyEdits,
  commitMessage,
  editOutcome,
  type EntryEdits,
  entryFileName,
  type ListField,
  vainRemovals,
} from "../core/entry/edit.ts";
import { displaySafe } from "../core/text/display.ts";
import { type ForgivingRead, readEntryForgivingly } from "../core/entry/repair.ts";
import { ENTRIES_DIR, readKbFile } from "../io/kb.ts";
import { type Draft, keepGivenText } from "../io/editor.ts";
import { entryPathOf, entryPaths, newId } from "../io/save/entry_files.ts";
import { saveEntry } from "../io/save/save.ts";
import type { SaveRequest, SaveResult } from "../io/save/request.ts";
import { validateForSave, ValidationError } from "../io/save/validate.ts";
import { exitCodeOf } from "./errors.ts";
import { EXIT } from "../core/exit.ts";
import { today } from "./entry_flags.ts";
import { kbCommand, removeLinksCommand } from "../io/self_command.ts";
import { openIndex, READ_TRUST_MS } from "../io/index/store.ts";
import { activeEntriesTitled } from "../core/index/same_title.ts";
import type { DocInfo } from "../core/index/format.ts";

/** A new entry for `kbDir` with `edits` applied: dated today, with `id` or a fresh one. */
export function newEntry(kbDir: string, edits: EntryEdits, id?: string): Entry {
  return applyEdits(blankEntry(id ?? newId(entryPaths(kbDir)), today()), edits);
}

/** The save of new entry `entry` into `kbDir`, at the path its id and title give. */
export function newEntryRequest(kbDir: string, entry: Entry, allowSecret: boolean): SaveRequest {
  const path = `${ENTRIES_DIR}/${entryFileName(entry)}`;
  return { kbDir, entry, path, message: commitMessage(entry), allowSecret };
}

/** Every problem a save of `request` would refuse, found without writing anything. */
export async function entryProblems(request: SaveRequest): Promise<Problem[]> {
  return await validateForSave(request);
}

/**
 * Run `save`, the save of an entry whose body was read from stdin when `fromStdin`: a body that
 * exists nowhere else. When that save fails having written nothing (exit 1), the entry as it was
 * to be saved (`text`) is kept in a draft, and the error says where, with the command `resume`
 * makes of it, so that what was typed or piped in is not lost.
 */
export async function keepingStdin<T>(
  fromStdin: boolean,
  save: () => Promise<T>,
  draft: { name: string; text: () => string; resume: (path: string) => string },
): Promise<T> {
  try {
    return await save();
  } catch (error) {
    if (!fromStdin || exitCodeOf(error) !== EXIT.failed) throw error;
    let text: string;
    try {
      text = draft.text();
    } catch {
      throw error;
    }
    const reason = error instanceof Error ? error.message : String(error);
    throw keepGivenText(draft.name, text, reason, draft.resume, EXIT.failed) ?? error;
  }
}

/** Check `request` and save it; throws {@link ValidationError} listing every problem. */
export async function checkAndSave(request: SaveRequest, what: string): Promise<SaveResult> {
  const problems = await entryProblems(request);
  if (problems.length) throw new ValidationError(what, problems);
  return await saveEntry(request);
}

/** The problems of an edit, and the links it kept to entries deleted since they were made. */
export interface EditProblems {
  /** Every problem, each link the entry kept to a deleted entry said as such. */
  problems: Problem[];
  /** The targets of links the entry had before the edit that no longer exist. */
  gone: string[];
}

/**
 * The links `plan`'s entry had before the edit and keeps, to entries deleted since: each target by
 * the field a problem names it with (`links[1].to`).
 */
function goneLinks(plan: PlannedEdit): Map<string, string> {
  const { kbDir, entry } = plan.request;
  const had = new Set(plan.before?.links.map((link) => link.to));
  const missing = linksToNoEntry(entry, entryPaths(kbDir));
  return new Map([...missing].filter(([, to]) => had.has(to)));
}

/**
 * The entry `plan` would save, less its links to entries deleted since ({@link goneLinks}): what
 * the draft of an edit whose body came piped keeps, so that carrying on with it goes through. Its
 * author typed the body, never saw those links, and the refusal says they must go.
 */
export function withoutGoneLinks(plan: PlannedEdit): Entry {
  const gone = new Set(goneLinks(plan).values());
  const { entry } = plan.request;
  return { ...entry, links: entry.links.filter(({ to }) => !gone.has(to)) };
}

/**
 * Every problem a save of `plan` would refuse ({@link entryProblems}), where a link the entry
 * already had before this edit points at an entry deleted since (`rm --force` leaves such links):
 * said so, instead of asking to link only to existing entries, which this edit did not do.
 */
export async function editProblems(plan: PlannedEdit): Promise<EditProblems> {
  const { entry } = plan.request;
  const goneAt = goneLinks(plan);
  const problems = (await entryProblems(plan.request)).map((problem) => {
    const to = goneAt.get(problem.field);
    if (to === undefined) return problem;
    const message = `${to} does not exist (deleted since ${entry.id} linked to it?); an edit ` +
      "that keeps the link is refused";
    return { ...problem, message };
  });
  const gone = [...new Set(goneAt.values())];
  return { problems, gone };
}

/**
 * Check the edit `plan` and save it; throws {@link ValidationError} listing every problem and,
 * when the entry kept links to entries deleted since, the `edit --remove-link` that takes them
 * out (with `kbFlag`, as the edit named its knowledge base).
 */
export async function checkEditAndSave(
  plan: PlannedEdit,
  what: string,
  kbFlag: readonly string[],
): Promise<SaveResult> {
  const { problems, gone } = await editProblems(plan);
  if (problems.length) {
    const fix = gone.length
      ? {
        lead: `Take ${gone.length === 1 ? "the link" : "those links"} out, then edit again:`,
        commands: [removeLinksCommand(plan.request.entry.id, gone, kbFlag)],
      }
      : undefined;
    throw new ValidationError(what, problems, fix);
  }
  return await saveEntry(plan.request);
}

/**
 * Save `request`, made from a checked draft. The draft is removed once the entry is committed (pushed or not);
 * when the save fails before that, it is kept with the reason and the error says where.
 */
export async function saveDraft(draft: Draft<unknown>, request: SaveRequest): Promise<SaveResult> {
  let result: SaveResult;
  try {
    result = await saveEntry(request);
  } catch (error) {
    if (exitCodeOf(error) === EXIT.notPushed) {
      draft.discard();
      throw error;
    }
    if (error instanceof ValidationError) {
      return draft.keep(error.message.split("\n")[0].replace(/:$/, ""), error.problems);
    }
    return draft.keep(
      error instanceof Error ? error.message : String(error),
      [],
      exitCodeOf(error),
    );
  }
  draft.discard();
  return result;
}

/**
 * For each entry `entry` says it supersedes that is still active, a note with what marks it
 * superseded (the link alone does not change the older entry): `mark` of the older one's id.
 */
export function supersededNotes(
  kbDir: string,
  entry: Entry,
  mark: (older: string) => string,
): string[] {
  const paths = entryPaths(kbDir);
  const notes: string[] = [];
  for (const link of entry.links) {
    const path = link.rel === "supersedes" ? paths.get(link.to) : undefined;
    if (!path) continue;
    let older: Entry | undefined;
    try {
      older = toEntry(parseEntryText(readKbFile(kbDir, path), path)).entry;
    } catch { /* an unreadable entry is doctor's to report */ }
    if (older?.status !== "active") continue;
    notes.push(
      `${link.to} is still active although ${entry.id} supersedes it; mark it: ${mark(link.to)}`,
    );
  }
  return notes;
}

/** Print {@link supersededNotes} on stderr, one `note:` line each, after a save that worked. */
export function printSupersededNotes(kbDir: string, entry: Entry, kbFlag: string[]): void {
  const mark = (older: string) => kbCommand("edit", older, "--status", "superseded", ...kbFlag);
  for (const note of supersededNotes(kbDir, entry, mark)) console.error(`note: ${note}`);
}

/**
 * After new entry `entry` was saved, a `note:` line on stderr for each other active entry with
 * its title (see core/index/same_title.ts), with the commands that take the new one out and
 * change the other instead. Said, not refused: two entries may share a title on purpose. An index
 * that cannot be opened or read (another process rewriting it meanwhile) says nothing here: the
 * save stands, and the next command that reads the index rebuilds what is damaged.
 */
export async function printSameTitleNotes(
  kbDir: string,
  entry: Entry,
  kbFlag: string[],
): Promise<void> {
  const id = entry.id;
  let others: DocInfo[];
  try {
    const { reader } = await openIndex(kbDir, { trustStampMs: READ_TRUST_MS });
    others = activeEntriesTitled(reader, entry.title, id);
  } catch {
    return;
  }
  // rm takes no --to: the folder names the knowledge base for both commands.
  const flag = kbFlag.length ? ["--kb", kbDir] : [];
  for (const other of others) {
    console.error(
      `note: ${other.id} ${JSON.stringify(other.title)} has the same title as ${id}; if ${id} ` +
        `repeats it, take ${id} out (${kbCommand("rm", id, ...flag)}) and change ${other.id} ` +
        `instead (${kbCommand("edit", other.id, ...flag)})`,
    );
  }
}

/** An edit ready to save, with what it changes. */
export interface PlannedEdit {
  /** The save that makes it. */
  request: SaveRequest;
  /** The entry as it was, when its file was a valid entry. */
  before?: Entry;
  /** The fields it changes; none when the entry stays as it is. */
  changed: string[];
}

/**
 * The entry read forgivingly, for an edit that writes it repaired. A repair that would drop or
 * replace what is written is for a person to decide: refused, naming it.
 */
export function readRepairable(text: string, path: string, id: string): ForgivingRead {
  const read = readEntryForgivingly(text, { path, fallbackDate: today });
  if (read.lossy.length) throw new ValidationError(`Entry ${id} (${path})`, read.lossy);
  return read;
}

/** The edit of the file at `path` (read as `previousText`) from `before` to `next`. */
export function planEdit(
  kbDir: string,
  path: string,
  previousText: string,
  before: Entry | undefined,
  next: Entry,
  allowSecret: boolean,
): PlannedEdit {
  const { entry, changed, message } = editOutcome(before, next, today());
  const request = { kbDir, entry, path, message, previousText, allowSecret };
  return { request, before, changed };
}

/** An entry's file as an edit starts from it. */
export interface EntryToEdit {
  kbDir: string;
  id: string;
  /** Its path relative to the knowledge base. */
  path: string;
  /** Its text as read, so that a change made meanwhile is refused rather than overwritten. */
  previousText: string;
}

/**
 * The one file of entry `id` in `kbDir` and its text; throws when there is none (naming
 * `findIds`, what finds ids: the CLI's search by default), or two.
 */
export function entryToEdit(kbDir: string, id: string, findIds?: string): EntryToEdit {
  const path = entryPathOf(kbDir, id, findIds);
  return { kbDir, id, path, previousText: readKbFile(kbDir, path) };
}

/**
 * The edit `edits` make to `target`, read forgivingly: an entry with a repairable problem is
 * written repaired. Throws {@link ValidationError} when the file cannot be read as an entry.
 */
export function planFieldEdit(
  target: EntryToEdit,
  edits: EntryEdits,
  allowSecret: boolean,
): PlannedEdit {
  const { kbDir, id, path, previousText } = target;
  const { entry: current, problems } = readRepairable(previousText, path, id);
  if (!current) throw new ValidationError(`Entry ${id} (${path})`, problems);
  return planEdit(kbDir, path, previousText, current, applyEdits(current, edits), allowSecret);
}

/**
 * A line for each list a removal of `edits` took nothing out of `before` (entry `id`), with what
 * that list holds; `removal` names the flag or argument that asked for it (`--remove-tag`).
 */
export function vainRemovalNotes(
  id: string,
  before: Entry,
  edits: EntryEdits,
  removal: (field: ListField) => string,
): string[] {
  return vainRemovals(before, edits).map(({ field, items, held }) => {
    const given = items.map((item) => `${removal(field)} ${item}`).join(", ");
    const holds = held.length ? `its ${field}: ${held.join(", ")}` : `it has no ${field}`;
    return displaySafe(`${given} took nothing out of ${id} (${holds})`);
  });
}
