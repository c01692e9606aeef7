/**
 * What a sync moved, in entries: the file changes git reports between two commits, read as
 * entries added, changed and removed (a file renamed with its id kept is one entry changed), each
 * named by id and title.
 *
 * @module
 */
import { parseEntryText } from "../entry/entry.ts";
import { readEntryForgivingly } from "../entry/repair.ts";
import { idFromPath, isEntryId } from "../entry/identity.ts";
import { displaySafe } from "../text/display.ts";

/** An entry a sync brought in, sent out or stopped on. */
export interface SyncedEntry {
  /** The entry's id (from its frontmatter, else its file name; "" when neither has one). */
  id: string;
  /** Its title ("" when the file does not say). */
  title: string;
  /** Its file, relative to the knowledge base. */
  path: string;
}

/** One file git reports changed between two commits. */
export interface FileChange {
  /** `A` added, `D` deleted, anything else (`M`, `T`) changed. */
  status: string;
  /** The file, relative to the repository. */
  path: string;
}

/** The files of `git diff --name-status --no-renames -z` output. */
export function parseNameStatus(output: string): FileChange[] {
  const words = output.split("\0");
  const changes: FileChange[] = [];
  for (let at = 0; at + 1 < words.length; at += 2) {
    if (words[at]) changes.push({ status: words[at][0], path: words[at + 1] });
  }
  return changes;
}

/** Entry files by what happened to them, each a path. */
export interface EntryChanges {
  added: string[];
  changed: string[];
  removed: string[];
}

/**
 * Sort file changes into entries added, changed and removed: only `.md` files are entries, and
 * a file deleted while another with the same id (by file name) is added is that entry renamed,
 * so one change (the new path), not a removal and an addition.
 */
export function classifyChanges(changes: readonly FileChange[]): EntryChanges {
  const entries = changes.filter((change) => change.path.endsWith(".md"));
  const addedIds = new Set(
    entries.filter((change) => change.status === "A").map((change) => idFromPath(change.path)),
  );
  const renamed = new Set(
    entries.filter((change) => change.status === "D" && addedIds.has(idFromPath(change.path)))
      .map((change) => idFromPath(change.path)),
  );
  renamed.delete(undefined);
  const result: EntryChanges = { added: [], changed: [], removed: [] };
  for (const { status, path } of entries) {
    const id = idFromPath(path);
    if (status === "D") {
      if (!renamed.has(id)) result.removed.push(path);
    } else if (status === "A" && !renamed.has(id)) result.added.push(path);
    else result.changed.push(path);
  }
  return result;
}

/** The id and title frontmatter gives, however the rest of the file breaks the contract. */
function rawFields(text: string, path: string): { id?: unknown; title?: unknown } {
  try {
    return parseEntryText(text, path).fields;
  } catch {
    return {};
  }
}

/**
 * The entry in `text` (the file at `path`) as a sync names it: id and title read forgivingly,
 * else as the frontmatter has them, the id from the file name when the frontmatter gives none.
 */
export function describeEntry(text: string, path: string): SyncedEntry {
  const { entry } = readEntryForgivingly(text, { path, fallbackDate: () => "1970-01-01" });
  if (entry) return { id: entry.id, title: entry.title, path };
  const { id, title } = rawFields(text, path);
  return {
    id: isEntryId(id) ? id : idFromPath(path) ?? "",
    title: typeof title === "string" ? title : "",
    path,
  };
}

/**
 * An entry as one phrase for a terminal: `kb-1a2b3 "Title"`, or its path when it has no id;
 * control characters and escapes (a title from another machine may hold any) taken out.
 */
export function entryLabel(entry: SyncedEntry): string {
  const title = entry.title ? ` "${displaySafe(entry.title)}"` : "";
  return `${displaySafe(entry.id || entry.path)}${title}`;
}
