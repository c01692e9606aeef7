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
}

/** Every entry file that is served only through a repair, in path order. */
export async function repairableEntries(kbDir: string): Promise<RepairableEntry[]> {
  const found: RepairableEntry[] = [];
  for (const path of listEntryFiles(kbDir).entries.sort()) {
    let text: string;
    try {
      text = readKbFile(kbDir, path);
    } catch {
      continue;
    }
    let needsDate = false;
    let read = readEntryForgivingly(text, {
      path,
      fallbackDate: () => (needsDate = true, "1970-01-01"),
    });
    if (needsDate) {
      const date = await lastCommitDate(kbDir, path);
      read = readEntryForgivingly(text, { path, fallbackDate: () => date });
    }
    const { entry, repairs } = read;
    if (!entry) continue;
    const fixedPath = namedForId(path, entry);
    if (!repairs.length && fixedPath === path) continue;
    if (fixedPath !== path) {
      repairs.push({
        field: "file",
        message: `name does not start with ${entry.id}- (as ${entry.id}-<slug>.md)`,
      });
    }
    found.push({ path, fixedPath, text, entry, repairs });
  }
  return found;
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
