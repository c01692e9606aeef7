/**
 * Checking and saving an entry for `add` and `edit`: the checks the save pipeline makes plus
 * the exact-value checks of the fields written unquoted, run before any editor opens and on
 * every draft; a draft is removed once its entry is committed and kept when the save fails.
 *
 * @module
 */
import { type Entry, parseEntryText, type Problem, toEntry } from "../core/entry/entry.ts";
import { readKbFile } from "../io/kb.ts";
import type { Draft } from "../io/editor.ts";
import {
  entryPaths,
  saveEntry,
  type SaveRequest,
  type SaveResult,
  validateForSave,
  ValidationError,
} from "../io/save/save.ts";
import { exitCodeOf } from "./errors.ts";
import { kbCommand } from "../io/self_command.ts";

/** Every problem a save of `request` would refuse, found without writing anything. */
export async function entryProblems(request: SaveRequest): Promise<Problem[]> {
  return await validateForSave(request);
}

/** Check `request` and save it; throws {@link ValidationError} listing every problem. */
export async function checkAndSave(request: SaveRequest, what: string): Promise<SaveResult> {
  const problems = await entryProblems(request);
  if (problems.length) throw new ValidationError(what, problems);
  return await saveEntry(request);
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
    if (exitCodeOf(error) === 3) {
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
 * For each entry `entry` says it supersedes that is still active, a note with the command that
 * marks it superseded (the link alone does not change the older entry).
 */
export function supersededNotes(kbDir: string, entry: Entry, kbFlag: string[]): string[] {
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
      `${link.to} is still active although ${entry.id} supersedes it; mark it: ` +
        kbCommand("edit", link.to, "--status", "superseded", ...kbFlag),
    );
  }
  return notes;
}

/** Print {@link supersededNotes} on stderr, one `note:` line each, after a save that worked. */
export function printSupersededNotes(kbDir: string, entry: Entry, kbFlag: string[]): void {
  for (const note of supersededNotes(kbDir, entry, kbFlag)) console.error(`note: ${note}`);
}
