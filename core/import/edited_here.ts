/**
 * Which entries were edited in the knowledge base since the import that last wrote them, told
 * from git's history: an update takes the note's title, type, tags, aliases, dates, source and
 * body over the entry's, so an import that updates an entry edited since (`git-kb edit`, a hand
 * edit, a teammate's) would lose those edits. The import keeps such an entry as it is and names
 * it, unless asked to replace the edits.
 *
 * @module
 */
import { type Entry, parseEntryText, toEntry } from "../entry/entry.ts";
import { idFromPath } from "../entry/identity.ts";

/** How an import's commit message begins; the history is searched for it. */
export const IMPORT_SUBJECT = "kb: import ";

/** Where an entry was last written by an import: the commit, and the file's path in it. */
export interface LastImport {
  commit: string;
  path: string;
}

/**
 * From `git log -z --format=%x01%H --name-only` of the import commits, newest first: for each
 * entry id, the newest commit that wrote its file, and the path it had there.
 */
export function lastImports(log: string): Map<string, LastImport> {
  const found = new Map<string, LastImport>();
  for (const record of log.split("\x01")) {
    const [commit, ...paths] = record.split("\0").map((part) => part.replace(/^\n/, ""));
    for (const path of paths) {
      const id = path.startsWith("entries/") ? idFromPath(path) : undefined;
      if (id && !found.has(id)) found.set(id, { commit, path });
    }
  }
  return found;
}

/** The fields an import writes from its note, as one comparable text. */
function importedFields(entry: Entry): string {
  const { title, type, tags, aliases, created, updated, source, body } = entry;
  return JSON.stringify([title, type, tags, aliases, created, updated, source ?? null, body]);
}

/**
 * Whether `current` (an entry file's text now) differs from `imported` (its text as the last
 * import wrote it) in a field an import writes. A file that no longer reads as an entry counts
 * as edited: nothing is overwritten that cannot be compared.
 */
export function editedSince(imported: string, current: string): boolean {
  const before = entryOf(imported);
  const now = entryOf(current);
  return !before || !now || importedFields(before) !== importedFields(now);
}

/** The entry `text` reads as, or undefined when it reads as none. */
function entryOf(text: string): Entry | undefined {
  try {
    return toEntry(parseEntryText(text, "entry")).entry;
  } catch {
    return undefined;
  }
}
