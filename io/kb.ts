/**
 * The knowledge base on disk: entry files under `entries/`, listed with their sizes and mtimes.
 *
 * @module
 */
import { join } from "../core/path.ts";

/** The folder of entry files inside a knowledge base. */
export const ENTRIES_DIR = "entries";

/** Size and modification time of an entry file. */
export interface FileStat {
  size: number;
  mtime: number;
}

/** Raised when a folder is not a knowledge base. */
export class NotAKbError extends Error {
  constructor(kbDir: string) {
    super(
      `${kbDir} is not a git-kb knowledge base (it has no entries/ folder). ` +
        "Run `git-kb init` to create or connect one.",
    );
    this.name = "NotAKbError";
  }
}

/**
 * List `entries/*.md` with size and mtime, keyed by path relative to the knowledge base
 * (always with `/`). Throws {@link NotAKbError} when there is no entries folder.
 */
export function scanEntries(kbDir: string): Map<string, FileStat> {
  const files = new Map<string, FileStat>();
  const prefix = `${kbDir}/`;
  for (const path of listEntries(kbDir)) {
    try {
      let stat = Deno.lstatSync(prefix + path);
      if (stat.isSymlink) stat = Deno.statSync(prefix + path);
      if (stat.isFile) files.set(path, { size: stat.size, mtime: stat.mtime?.getTime() ?? 0 });
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return files;
}

/**
 * Paths of `entries/*.md` relative to the knowledge base, from the folder listing alone (no
 * stat). Throws {@link NotAKbError} when there is no entries folder.
 */
export function listEntries(kbDir: string): string[] {
  let listing: Iterable<Deno.DirEntry>;
  try {
    listing = Deno.readDirSync(join(kbDir, ENTRIES_DIR));
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw new NotAKbError(kbDir);
    throw error;
  }
  const paths: string[] = [];
  for (const item of listing) {
    if (item.name.endsWith(".md") && !item.name.startsWith(".")) {
      paths.push(`${ENTRIES_DIR}/${item.name}`);
    }
  }
  return paths;
}

/** Read an entry file by its path relative to the knowledge base. */
export function readKbFile(kbDir: string, path: string): string {
  return Deno.readTextFileSync(`${kbDir}/${path}`);
}

/**
 * Whether every file in a flat [path, ordinal, size, mtime, …] list still has that size and
 * mtime. Stops at the first difference; the common all-unchanged case builds nothing.
 */
export function filesUnchanged(kbDir: string, rows: readonly unknown[]): boolean {
  const prefix = `${kbDir}/`;
  for (let at = 0; at + 4 <= rows.length; at += 4) {
    try {
      let stat = Deno.lstatSync(prefix + rows[at]);
      if (stat.isSymlink) stat = Deno.statSync(prefix + rows[at]);
      if (stat.size !== rows[at + 2] || (stat.mtime?.getTime() ?? 0) !== rows[at + 3]) return false;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return false;
      throw error;
    }
  }
  return true;
}
