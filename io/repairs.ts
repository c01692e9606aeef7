/**
 * Entries the index serves only thanks to the forgiving read (core/entry/repair.ts), and their
 * repair: `git-kb doctor` names each with what was read differently, and `doctor --fix` writes
 * every one back to the contract in one commit through the save pipeline. A date the file lacks
 * is taken from its last commit here (the index, which must not run git, takes its mtime).
 *
 * @module
 */
import { type Entry, type Problem, serializeEntry } from "../core/entry/entry.ts";
import { slugify } from "../core/entry/edit.ts";
import { idForFile, idFromPath, nameWithId } from "../core/entry/identity.ts";
import { readEntryForgivingly } from "../core/entry/repair.ts";
import { git } from "./git.ts";
import { listEntryFiles, readKbFile } from "./kb.ts";
import type { Change, ChangesResult } from "./save/request.ts";
import { saveChanges } from "./save/save.ts";

/** An entry file that is served, but not as it is written. */
export interface RepairableEntry {
  /** The file, relative to the knowledge base. */
  path: string;
  /** Where the repaired entry is written: `path`, or a name that starts with its id. */
  fixedPath: string;
  /** The file's text now. */
  text: string;
  /** The entry as the index serves it. */
  entry: Entry;
  /** What was read differently from how it is written. */
  repairs: Problem[];
  /** The id given to a file that names none (served by no index until it is written). */
  newId?: string;
}

/**
 * Every entry file that is served only through a repair, in path order; and every file that names
 * no id (in its frontmatter or its name) but is an entry once given one, as a note written by hand
 * into entries/ is: served by no index, it is given a new id (the same on every run).
 */
export async function repairableEntries(kbDir: string): Promise<RepairableEntry[]> {
  const texts = new Map<string, string>();
  for (const path of listEntryFiles(kbDir).entries.sort()) {
    try {
      texts.set(path, readKbFile(kbDir, path));
    } catch {
      continue;
    }
  }
  const taken = new Set([...texts.keys()].map(idFromPath).filter((id) => id !== undefined));
  const found: RepairableEntry[] = [];
  const idless: string[] = [];
  for (const [path, text] of texts) {
    const read = await readRepaired(kbDir, path, text, path);
    if (read.entry) taken.add(read.entry.id);
    else if (idFromPath(path) === undefined) idless.push(path);
    if (read.entry) found.push(...repairable(path, text, read.entry, read.repairs));
  }
  for (const path of idless) {
    const id = idForFile(path, taken);
    const name = path.slice(path.lastIndexOf("/") + 1);
    const read = await readRepaired(
      kbDir,
      path,
      texts.get(path)!,
      `${path.slice(0, path.length - name.length)}${nameWithId(name, id)}`,
    );
    if (!read.entry) continue;
    taken.add(id);
    const repairs = read.repairs.filter((repair) => repair.field !== "id");
    repairs.unshift({ field: "id", message: `is missing; a new one is given: ${id}` });
    found.push(
      ...repairable(path, texts.get(path)!, read.entry, repairs).map((item) => ({
        ...item,
        newId: id,
      })),
    );
  }
  return found.sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}

/**
 * The file at `path` read forgivingly as if it were at `readAs` (another name gives another id),
 * a date it lacks taken from its last commit.
 */
async function readRepaired(kbDir: string, path: string, text: string, readAs: string) {
  let needsDate = false;
  const read = readEntryForgivingly(text, {
    path: readAs,
    fallbackDate: () => (needsDate = true, "1970-01-01"),
  });
  if (!needsDate) return read;
  const date = await lastCommitDate(kbDir, path);
  return readEntryForgivingly(text, { path: readAs, fallbackDate: () => date });
}

/** The file at `path` as a repairable entry, when it is not written as `entry` already. */
function repairable(
  path: string,
  text: string,
  entry: Entry,
  repairs: Problem[],
): RepairableEntry[] {
  const fixedPath = namedForId(path, entry);
  if (!repairs.length && fixedPath === path) return [];
  if (fixedPath !== path) {
    repairs.push({
      field: "file",
      message: `name does not start with ${entry.id}- (as ${entry.id}-<slug>.md)`,
    });
  }
  return [{ path, fixedPath, text, entry, repairs }];
}

/** `path`, or a path in the same folder named `<id>-<slug>.md` when its name lacks the id. */
function namedForId(path: string, entry: Entry): string {
  const slash = path.lastIndexOf("/");
  if (path.slice(slash + 1).startsWith(`${entry.id}-`)) return path;
  return `${path.slice(0, slash)}/${entry.id}-${slugify(entry.title)}.md`;
}

/** The day of the file's last commit, or today when git has none. */
async function lastCommitDate(kbDir: string, path: string): Promise<string> {
  const result = await git(kbDir, ["log", "-1", "--format=%as", "--", path]).catch(() => undefined);
  const date = result?.code === 0 ? result.stdout.trim() : "";
  return /^\d{4}-\d{2}-\d{2}$/.test(date) ? date : new Date().toISOString().slice(0, 10);
}

/** The text each repaired entry is written as. */
export function fixedText(item: RepairableEntry): string {
  return serializeEntry(item.entry);
}

/** Write every repaired entry in one commit (a renamed file is a delete and a write). */
export function fixEntries(kbDir: string, items: RepairableEntry[]): Promise<ChangesResult> {
  const changes: Change[] = [];
  for (const item of items) {
    if (item.fixedPath === item.path) {
      changes.push({ path: item.path, entry: item.entry, previousText: item.text });
    } else {
      changes.push({ path: item.path, previousText: item.text });
      changes.push({ path: item.fixedPath, entry: item.entry });
    }
  }
  const ids = items.map((item) => item.entry.id).join(", ");
  return saveChanges({
    kbDir,
    message: `kb: repair ${items.length === 1 ? ids : `${items.length} entries`} to the contract`,
    changes,
  });
}
