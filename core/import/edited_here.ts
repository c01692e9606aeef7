/**
 * Which entries were edited in the knowledge base since the import that last wrote them, told
 * from git's history: an update takes the note's title, type, tags, aliases, dates, source, body
 * and other properties over the entry's, so an import that updates an entry edited since
 * (`git-kb edit`, a hand edit, a teammate's) would lose those edits. The import keeps such an
 * entry as it is and names it, unless asked to replace the edits.
 *
 * @module
 */
import { type Entry, parseEntryText, toEntry } from "../entry/entry.ts";
import { idFromPath } from "../entry/identity.ts";
import { IMPORTED_FOLDER, IMPORTED_FROM } from "./plan.ts";

/** How an import's commit message begins; the history is searched for it. */
export const IMPORT_SUBJECT = "kb: import ";

/** What an import last wrote of an entry: the file's path then, and its blob. */
export interface LastImport {
  path: string;
  blob: string;
}

/** A file's line of `git log --raw -z --no-abbrev`: `:<mode> <mode> <old> <new> <status>`. */
const RAW_CHANGE = /^:\d+ \d+ [0-9a-f]+ ([0-9a-f]+) [A-Z]\d*$/;

/**
 * From `git log -z --format=%x01%H --raw --no-abbrev --no-renames` of the import commits, newest
 * first: for each entry id, the path and blob of its file in the newest commit that wrote it (one
 * that removed it wrote nothing).
 */
export function lastImports(log: string): Map<string, LastImport> {
  const found = new Map<string, LastImport>();
  for (const record of log.split("\x01")) {
    const fields = record.split("\0").map((field) => field.replace(/^\n/, ""));
    for (let at = 1; at + 1 < fields.length; at += 2) {
      const blob = RAW_CHANGE.exec(fields[at])?.[1];
      const path = fields[at + 1];
      const id = path.startsWith("entries/") ? idFromPath(path) : undefined;
      if (blob && !/^0+$/.test(blob) && id && !found.has(id)) found.set(id, { path, blob });
    }
  }
  return found;
}

/**
 * The fields an import writes from its note, as one comparable text: with the values of the
 * other fields `kept` (the note's properties the entry has no field of its own for, which an
 * update writes again too).
 */
function importedFields(entry: Entry, kept: readonly string[]): string {
  const { title, type, tags, aliases, created, updated, source, body, extra } = entry;
  const properties = kept.map((name) => [name, extra[name] ?? null]);
  return JSON.stringify([
    title,
    type,
    tags,
    aliases,
    created,
    updated,
    source ?? null,
    body,
    properties,
  ]);
}

/**
 * Whether `current` (an entry file's text now) differs from `imported` (its text as the last
 * import wrote it) in a field an import writes: one of its own, or a property of the note it kept
 * (a field of the imported text that is not the import's key). A field added since (a promote's
 * `superseded_by`, the user's own) is the entry's, which an update keeps. A file that no longer
 * reads as an entry counts as edited: nothing is overwritten that cannot be compared.
 */
export function editedSince(imported: string, current: string): boolean {
  const before = entryOf(imported);
  const now = entryOf(current);
  if (!before || !now) return true;
  const kept = Object.keys(before.extra)
    .filter((name) => name !== IMPORTED_FROM && name !== IMPORTED_FOLDER).sort();
  return importedFields(before, kept) !== importedFields(now, kept);
}

/** The entry `text` reads as, or undefined when it reads as none. */
function entryOf(text: string): Entry | undefined {
  try {
    return toEntry(parseEntryText(text, "entry")).entry;
  } catch {
    return undefined;
  }
}
