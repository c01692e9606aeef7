/**
 * The entry files of a knowledge base by id, read from their names (`entries/<id>-<slug>.md`):
 * the id → path map every save validates against, the one file a command changes, and a fresh id.
 *
 * @module
 */
import { idFromPath, meantId } from "../../core/entry/identity.ts";
import { shellQuote } from "../../core/shell/quote.ts";
import { displaySafe } from "../../core/text/display.ts";
import { readEntryForgivingly } from "../../core/entry/repair.ts";
import { listEntries, readKbFile } from "../kb.ts";
import { selfCommand } from "../self_command.ts";

/** Id → path of every entry file, read from the file names (`entries/<id>-<slug>.md`). */
export function entryPaths(kbDir: string): Map<string, string> {
  const ids = new Map<string, string>();
  for (const path of listEntries(kbDir)) {
    const id = idFromPath(path);
    if (id) ids.set(id, path);
  }
  return ids;
}

/**
/**
 * Why `id` names no entry: none of the entry files `paths` carries it; with the id it most likely
 * meant when one is near, and `findIds`, what finds ids.
 */
function noEntry(kbDir: string, id: string, paths: string[], findIds: string): string {
  const near = meantId(id, paths.map(idFromPath).filter((known) => known !== undefined));
  if (!near) return `no entry ${id} in ${kbDir}; find ids with ${findIds}`;
  const path = paths.find((path) => idFromPath(path) === near)!;
  return `no entry ${id} in ${kbDir}; did you mean ${near} (${displaySafe(path)})? Give that ` +
    `id, or find ids with ${findIds}`;
}

/**
 * Whether the entry file `path`, whose name does not carry `id`, is read as entry `id` all the
 * same, as the index reads it: its frontmatter's `id:` says so (a copy made by hand under another
 * name, a file named without its id). A file that cannot be read is not.
 */
function readAsId(kbDir: string, path: string, id: string): boolean {
  let text: string;
  try {
    text = readKbFile(kbDir, path);
  } catch {
    return false;
  }
  if (!text.includes(id)) return false;
  const read = readEntryForgivingly(text, { path, fallbackDate: () => "1970-01-01" });
  return read.entry?.id === id;
}

/**
 * The one entry file of `id`, for a command that changes it. Throws when there is none (naming
 * the id it most likely meant, if one is near, and `findIds`, what finds ids: the CLI's search by
 * default), and when two files carry the id, in their names or their frontmatter (neither is
 * changed until one gets another id: the index serves neither).
 */
export function entryPathOf(
  kbDir: string,
  id: string,
  findIds = `${selfCommand()} search <words> --kb ${shellQuote(kbDir)}`,
): string {
  const all = listEntries(kbDir);
  const paths = filesOfId(kbDir, id, all);
  if (!paths.length) throw new Error(noEntry(kbDir, id, all, findIds));
  if (paths.length > 1) {
    throw new Error(
      `id ${id} is used by ${paths.join(" and ")}, so neither is changed; give one of them ` +
        "a new id (in its file name and its id: field) or delete the copy, then run the command again",
    );
  }
  return paths[0];
}

/**
 * The entry files that carry `id`, in their names or their frontmatter, sorted: every file is
 * read whose name does not carry it (`paths`, all of the knowledge base's unless given).
 */
export function filesOfId(
  kbDir: string,
  id: string,
  paths: readonly string[] = listEntries(kbDir),
): string[] {
  return paths.filter((path) => idFromPath(path) === id || readAsId(kbDir, path, id)).sort();
}

/** A fresh random id that no entry in `taken` has (a map or set of ids, or an index's lookup). */
export function newId(taken: { has(id: string): boolean }): string {
  const alphabet = "0123456789abcdefghijklmnopqrstuvwxyz";
  for (;;) {
    const bytes = crypto.getRandomValues(new Uint8Array(5));
    const id = `kb-${[...bytes].map((byte) => alphabet[byte % 36]).join("")}`;
    if (!taken.has(id)) return id;
  }
}
