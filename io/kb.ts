/**
 * The knowledge base on disk: entry files under `entries/`, listed with their sizes and mtimes,
 * and the files there that are not read as entries, each with the reason. Nothing here opens a
 * file before `lstat` says it is a regular one (a FIFO would block the read for ever), and no
 * symlink is followed out of the knowledge base.
 *
 * @module
 */
import type { InvalidFile } from "../core/index/reader.ts";
import { join } from "../core/path.ts";
import { shellQuote } from "../core/shell/quote.ts";
import { decodeUtf8Strict, NotUtf8Error } from "../core/text/utf8.ts";
import { selfCommand } from "./self_command.ts";

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
        `Run \`${selfCommand()} init\` to create or connect one.`,
    );
    this.name = "NotAKbError";
  }
}

/** Raised when a file under `entries/` cannot be read as an entry; nothing was opened. */
export class UnreadableEntryError extends Error {
  /** The file, relative to the knowledge base. */
  readonly path: string;
  /** Why it is not read, as a phrase: "is a FIFO, not an entry file". */
  readonly reason: string;
  constructor(path: string, reason: string) {
    super(`Cannot read entry "${path}": ${reason}`);
    this.name = "UnreadableEntryError";
    this.path = path;
    this.reason = reason;
  }
}

/** The entry files under `entries/`, and the files there left out, each with the reason. */
export interface EntryListing {
  /** Paths of entry files relative to the knowledge base, always with `/`. */
  entries: string[];
  /** Files that are not read as entries. Dotfiles (`.gitkeep`) are not listed at all. */
  leftOut: InvalidFile[];
}

const OUTSIDE_ENTRIES = `is not inside ${ENTRIES_DIR}/, where entry files live`;

function kindOf(info: Deno.FileInfo): string {
  if (info.isDirectory) return "a folder";
  if (info.isFifo) return "a FIFO";
  if (info.isSocket) return "a socket";
  if (info.isCharDevice || info.isBlockDevice) return "a device";
  return "not a regular file";
}

/** Why the symlink at `path` is not read as an entry, or undefined when it ends at one. */
function symlinkProblem(kbDir: string, path: string): string | undefined {
  let target: string;
  try {
    target = Deno.realPathSync(`${kbDir}/${path}`);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return "is a symlink to nothing (it dangles)";
    if (error instanceof Deno.errors.FilesystemLoop) return "is a symlink loop";
    return `is a symlink that cannot be followed (${(error as Error).message})`;
  }
  if (!target.startsWith(`${Deno.realPathSync(kbDir)}/`)) {
    return `is a symlink to ${target}, outside the knowledge base`;
  }
  const info = Deno.statSync(target);
  return info.isFile ? undefined : `is a symlink to ${kindOf(info)}, not to an entry file`;
}

/**
 * Why the file at `path` (relative to the knowledge base) is not read as an entry, or undefined
 * when it is: it must be a `.md` regular file in `entries/` or one of its sub-folders, or a
 * symlink there to a regular file inside the knowledge base. Looks with `lstat` only, and only at
 * a path inside `entries/`. Throws `Deno.errors.NotFound` when there is no such file.
 */
export function leftOutReason(kbDir: string, path: string): string | undefined {
  if (!path.endsWith(".md")) return "is not an entry file (entry files end in .md)";
  const segments = path.split("/");
  if (segments[0] !== ENTRIES_DIR || segments.some((segment) => !segment || segment === "..")) {
    return OUTSIDE_ENTRIES;
  }
  const info = Deno.lstatSync(`${kbDir}/${path}`);
  if (info.isSymlink) return symlinkProblem(kbDir, path);
  return info.isFile ? undefined : `is ${kindOf(info)}, not an entry file`;
}

/** Add what `folder` holds to `listing`, and what its sub-folders hold (symlinks not followed). */
function collect(kbDir: string, folder: string, listing: EntryListing): void {
  for (const item of Deno.readDirSync(join(kbDir, folder))) {
    if (item.name.startsWith(".")) continue;
    const path = `${folder}/${item.name}`;
    if (item.isDirectory && !item.name.endsWith(".md")) {
      try {
        collect(kbDir, path, listing);
      } catch (error) {
        listing.leftOut.push({ path, message: `cannot be listed (${(error as Error).message})` });
      }
      continue;
    }
    // A regular .md file is an entry by the listing alone, without a stat.
    const plain = item.isFile && item.name.endsWith(".md");
    try {
      const message = plain ? undefined : leftOutReason(kbDir, path);
      if (message) listing.leftOut.push({ path, message });
      else listing.entries.push(path);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
}

/**
 * The entry files of the knowledge base and the files under `entries/` left out, with why (see
 * {@link leftOutReason}). Throws {@link NotAKbError} when there is no entries folder.
 */
export function listEntryFiles(kbDir: string): EntryListing {
  const listing: EntryListing = { entries: [], leftOut: [] };
  try {
    collect(kbDir, ENTRIES_DIR, listing);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) throw new NotAKbError(kbDir);
    throw error;
  }
  return listing;
}

/**
 * Paths of the entry files relative to the knowledge base (see {@link listEntryFiles}). Throws
 * {@link NotAKbError} when there is no entries folder.
 */
export function listEntries(kbDir: string): string[] {
  return listEntryFiles(kbDir).entries;
}

/** `lstat` of a file, or `stat` of what a symlink points at when it can be followed. */
function entryStat(kbDir: string, path: string): Deno.FileInfo {
  const link = Deno.lstatSync(`${kbDir}/${path}`);
  if (!link.isSymlink) return link;
  try {
    return Deno.statSync(`${kbDir}/${path}`);
  } catch {
    return link;
  }
}

/**
 * Size and mtime of every file the index accounts for, keyed by path relative to the knowledge
 * base: the entry files, and the files left out, which {@link readKbFile} refuses with the
 * reason so that the index lists them as invalid. Throws {@link NotAKbError} when there is no
 * entries folder.
 */
export function scanEntries(kbDir: string): Map<string, FileStat> {
  const { entries, leftOut } = listEntryFiles(kbDir);
  const files = new Map<string, FileStat>();
  for (const path of [...entries, ...leftOut.map((file) => file.path)]) {
    try {
      const stat = entryStat(kbDir, path);
      files.set(path, { size: stat.size, mtime: stat.mtime?.getTime() ?? 0 });
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return files;
}

/**
 * Read an entry file by its path relative to the knowledge base, as strict UTF-8 (a leading
 * byte-order mark is kept; `splitFrontmatter` reads past it). Throws {@link UnreadableEntryError}
 * without opening it when it is not an entry file (see {@link leftOutReason}), and when it is not UTF-8; `Deno.errors.NotFound`
 * when it does not exist.
 */
export function readKbFile(kbDir: string, path: string): string {
  const reason = leftOutReason(kbDir, path);
  if (reason) throw new UnreadableEntryError(path, reason);
  try {
    return decodeUtf8Strict(Deno.readFileSync(`${kbDir}/${path}`));
  } catch (error) {
    if (!(error instanceof NotUtf8Error)) throw error;
    const convert = `iconv -f latin1 -t utf-8 ${shellQuote(path)} > ${shellQuote(`${path}.utf8`)}`;
    throw new UnreadableEntryError(path, `${error.message}; save it as UTF-8, e.g. ${convert}`);
  }
}

/** The text of the file at `path` in the knowledge base, read as it is (no checks). */
export function readEntryText(kbDir: string, path: string): string {
  return Deno.readTextFileSync(join(kbDir, path));
}

/**
 * Whether every file in a flat [path, ordinal, size, mtime, …] list still has that size and
 * mtime. Stops at the first difference; the common all-unchanged case builds nothing.
 */
export function filesUnchanged(kbDir: string, rows: readonly unknown[]): boolean {
  for (let at = 0; at + 4 <= rows.length; at += 4) {
    try {
      const stat = entryStat(kbDir, rows[at] as string);
      if (stat.size !== rows[at + 2] || (stat.mtime?.getTime() ?? 0) !== rows[at + 3]) return false;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return false;
      throw error;
    }
  }
  return true;
}
