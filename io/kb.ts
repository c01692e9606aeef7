/**
 * The knowledge base on disk: entry files under `entries/`, listed with their sizes and mtimes,
 * and the files there that are not read as entries, each with the reason. Nothing here opens a
 * file before `lstat` says it is a regular one (a FIFO would block the read for ever), and no
 * symlink is ever followed for an entry: a knowledge base shared with others is input from them,
 * and a committed link could lead to `.git/config` or anywhere on the machine.
 *
 * @module
 */
import { LIMITS } from "../core/entry/schema.ts";
import type { InvalidFile } from "../core/index/format.ts";
import { join } from "../core/path.ts";
import { shellQuote } from "../core/shell/quote.ts";
import { decodeUtf8Strict, NotUtf8Error, utf16Encoding } from "../core/text/utf8.ts";
import { ifExists, readSeenFile } from "./fs.ts";
import { resolvePath } from "./paths.ts";
import { selfCommand } from "./self_command.ts";

/** The folder of entry files inside a knowledge base. */
export const ENTRIES_DIR = "entries";

/** Size and modification time of an entry file. */
export interface FileStat {
  size: number;
  mtime: number;
}

/**
 * Raised when a folder is not a knowledge base. When `KB_DIR` names the folder, the message says
 * so: `init` would not help, as `KB_DIR` would still name it (and `init <folder>` would make a
 * project mistaken for the knowledge base one).
 */
export class NotAKbError extends Error {
  /**
   * `found`: what is at `kbDir`: nothing (a mistyped path, a folder since deleted), a file, or a
   * folder with no `entries/` in it.
   */
  constructor(kbDir: string, found: "nothing" | "file" | "folder" = "folder") {
    const fromEnv = Deno.env.get("KB_DIR");
    const missing = found !== "folder";
    const why = found === "nothing"
      ? `${kbDir} is not a git-kb knowledge base: the folder does not exist`
      : found === "file"
      ? `${kbDir} is not a git-kb knowledge base: it is a file, not a folder`
      : `${kbDir} is not a git-kb knowledge base (it has no entries/ folder)`;
    super(
      fromEnv && resolvePath(fromEnv) === kbDir
        ? `${why}, and KB_DIR names it. Set KB_DIR to your knowledge base's folder, or unset it ` +
          "to use the one your config file names: unset KB_DIR"
        : missing
        ? `${why}. Check the folder given with --kb (or KB_DIR), or run ` +
          `\`${selfCommand()} init\` to create or connect one.`
        : `${why}. Run \`${selfCommand()} init\` to create or connect one.`,
    );
    this.name = "NotAKbError";
  }
}

/** The {@link NotAKbError} for `kbDir`, which has no `entries/` folder: says what is there. */
function notAKb(kbDir: string): NotAKbError {
  const info = ifExists(() => Deno.statSync(kbDir));
  return new NotAKbError(kbDir, !info ? "nothing" : info.isDirectory ? "folder" : "file");
}

/** Whether `error` says a path is not there: missing, or a file where a folder was looked for. */
function notThere(error: unknown): boolean {
  return error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory;
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

/**
 * Why a path with a backslash is left out: git-kb's paths read `\` as a separator (as Windows
 * does), so such a file, which git and Linux allow, would be another path to every write: a
 * teammate's `entries/x\..\..\CLAUDE.md` would have an edit write outside the knowledge base.
 */
const BACKSLASH = "has a backslash in its path, which git-kb reads as a folder separator; " +
  "rename it without one";

/**
 * What a file or folder name that is not UTF-8 (`café.md` written in Latin-1 by a teammate's
 * system) reads as when listed: each byte that is not UTF-8 becomes U+FFFD. No file has the name
 * so read, so the file can be neither opened nor looked at; it is named as left out, never
 * dropped without a word.
 */
export const NOT_UTF8_MARK = "\uFFFD";

/** Why a path that {@link NOT_UTF8_MARK} stands in is left out. */
const NOT_UTF8_NAME = `has a name that is not UTF-8 (shown with ${NOT_UTF8_MARK} for each byte ` +
  "that is not), which git-kb cannot open; rename it in UTF-8";

/** Whether `error`, met looking at `path`, is its name not being UTF-8 (see {@link NOT_UTF8_MARK}). */
function unnameable(error: unknown, path: string): boolean {
  return error instanceof Deno.errors.NotFound && path.includes(NOT_UTF8_MARK);
}

/**
 * The size {@link scanEntries} gives a file whose listed name is not its own (see
 * {@link NOT_UTF8_MARK}), which `lstat` cannot find: it stays listed, and unchanged, while its
 * folder is (a rename or removal changes the folder).
 */
const UNNAMEABLE_SIZE = -1;

function kindOf(info: Deno.FileInfo): string {
  if (info.isDirectory) return "a folder";
  if (info.isFifo) return "a FIFO";
  if (info.isSocket) return "a socket";
  if (info.isCharDevice || info.isBlockDevice) return "a device";
  return "not a regular file";
}

/**
 * Why the symlink at `path` is left out. A link is never followed for an entry, wherever it
 * leads: one committed by a teammate could lead to `.git/config` and its credentials.
 */
function symlinkReason(kbDir: string, path: string): string {
  let target = "";
  try {
    target = ` to ${JSON.stringify(Deno.readLinkSync(`${kbDir}/${path}`))}`;
  } catch { /* the link's text cannot be read; say so without it */ }
  return `is a symlink${target}; git-kb never reads an entry through a link (put the entry ` +
    `file itself there)`;
}

/**
 * The `lstat` of the entry file at `path` (relative to the knowledge base), or why it is not
 * read as an entry: it must be a `.md` regular file in `entries/` or one of its sub-folders, with
 * no backslash in its path, and neither it nor a folder on the way there may be a symlink. Throws
 * `Deno.errors.NotFound` when there is no such file.
 */
function lookAt(kbDir: string, path: string): Deno.FileInfo | string {
  const segments = path.split("/");
  if (segments[0] !== ENTRIES_DIR || segments.some((segment) => !segment || segment === "..")) {
    return OUTSIDE_ENTRIES;
  }
  if (path.includes("\\")) return BACKSLASH;
  try {
    return lookAtNamed(kbDir, path);
  } catch (error) {
    if (unnameable(error, path)) return NOT_UTF8_NAME;
    throw error;
  }
}

/** {@link lookAt} for a path inside `entries/`, with no backslash. */
function lookAtNamed(kbDir: string, path: string): Deno.FileInfo | string {
  for (let cut = path.indexOf("/"); cut > 0; cut = path.indexOf("/", cut + 1)) {
    const folder = path.slice(0, cut);
    if (Deno.lstatSync(`${kbDir}/${folder}`).isSymlink) {
      return `is inside ${folder}, which ${symlinkReason(kbDir, folder)}`;
    }
  }
  const info = Deno.lstatSync(`${kbDir}/${path}`);
  if (info.isSymlink) return symlinkReason(kbDir, path);
  if (path === ENTRIES_DIR) {
    const what = info.isFile ? "a file" : kindOf(info);
    return `is ${what} where the ${ENTRIES_DIR}/ folder should be: the commit that put it there ` +
      "took every entry away, and reverting it (git revert) brings them back";
  }
  if (!path.endsWith(".md")) return "is not an entry file (entry files end in .md)";
  return info.isFile ? info : `is ${kindOf(info)}, not an entry file`;
}

/**
 * Why the file at `path` (relative to the knowledge base) is not read as an entry, or undefined
 * when it is (see {@link lookAt}: a regular `.md` file inside `entries/`, reached through no
 * symlink). Looks with `lstat` only. Throws `Deno.errors.NotFound` when there is no such file.
 */
export function leftOutReason(kbDir: string, path: string): string | undefined {
  const found = lookAt(kbDir, path);
  return typeof found === "string" ? found : undefined;
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
        const message = unnameable(error, path)
          ? NOT_UTF8_NAME
          : `cannot be listed (${(error as Error).message})`;
        listing.leftOut.push({ path, message });
      }
      continue;
    }
    // A regular .md file is an entry by the listing alone, without a stat.
    const plain = item.isFile && item.name.endsWith(".md") && !path.includes("\\") &&
      !item.name.includes(NOT_UTF8_MARK);
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
 * {@link leftOutReason}): `entries` itself when it is no folder (a symlink, a file a teammate
 * committed in its place). Throws {@link NotAKbError} when there is no `entries`.
 */
export function listEntryFiles(kbDir: string): EntryListing {
  const listing: EntryListing = { entries: [], leftOut: [] };
  try {
    const info = Deno.lstatSync(join(kbDir, ENTRIES_DIR));
    if (info.isSymlink || !info.isDirectory) {
      listing.leftOut.push({ path: ENTRIES_DIR, message: leftOutReason(kbDir, ENTRIES_DIR)! });
      return listing;
    }
    collect(kbDir, ENTRIES_DIR, listing);
  } catch (error) {
    if (notThere(error)) throw notAKb(kbDir);
    throw error;
  }
  return listing;
}

/** Throw {@link NotAKbError} unless `kbDir` holds an `entries/` folder (a knowledge base). */
export function assertKb(kbDir: string): void {
  try {
    Deno.lstatSync(join(kbDir, ENTRIES_DIR));
  } catch (error) {
    if (notThere(error)) throw notAKb(kbDir);
    throw error;
  }
}

/**
 * Paths of the entry files relative to the knowledge base (see {@link listEntryFiles}). Throws
 * {@link NotAKbError} when there is no entries folder.
 */
export function listEntries(kbDir: string): string[] {
  return listEntryFiles(kbDir).entries;
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
      const stat = Deno.lstatSync(`${kbDir}/${path}`);
      files.set(path, { size: stat.size, mtime: stat.mtime?.getTime() ?? 0 });
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
      if (path.includes(NOT_UTF8_MARK)) files.set(path, { size: UNNAMEABLE_SIZE, mtime: 0 });
    }
  }
  return files;
}

/** Why a file of `size` bytes is not read as an entry. */
function oversize(size: number): string {
  const cap = LIMITS.maxEntryFileBytes;
  return `is ${size} bytes, over the ${cap} an entry file may hold (a body holds at most ` +
    `${LIMITS.maxBodyBytes}); not read: move it out of ${ENTRIES_DIR}/`;
}

/**
 * The bytes of the regular file at `full`, which `lstat` described as `seen`, read only up to
 * {@link LIMITS.maxEntryFileBytes} (one byte more tells a file that grew past it since). A swap
 * for a link, a FIFO or another file between the look and the open is refused, and never waited
 * on (see {@link readSeenFile}).
 */
function readSameFile(full: string, path: string, seen: Deno.FileInfo): Uint8Array {
  const cap = LIMITS.maxEntryFileBytes;
  if (seen.size > cap) throw new UnreadableEntryError(path, oversize(seen.size));
  const bytes = readSeenFile(full, seen, cap + 1);
  if (!bytes) {
    throw new UnreadableEntryError(path, "was replaced while it was being read; run it again");
  }
  if (bytes.length > cap) throw new UnreadableEntryError(path, oversize(bytes.length));
  return bytes;
}

/**
 * Read an entry file by its path relative to the knowledge base, as strict UTF-8 (a leading
 * byte-order mark is kept; `splitFrontmatter` reads past it). Throws {@link UnreadableEntryError}
 * without opening it when it is not an entry file (see {@link leftOutReason}: never through a
 * symlink, never outside `entries/`), when it is larger than an entry file may be
 * ({@link LIMITS.maxEntryFileBytes}: never read whole), and when it is not UTF-8 (UTF-16 named so);
 * `Deno.errors.NotFound` when it does not exist.
 */
export function readKbFile(kbDir: string, path: string): string {
  const found = lookAt(kbDir, path);
  if (typeof found === "string") throw new UnreadableEntryError(path, found);
  const bytes = readSameFile(`${kbDir}/${path}`, path, found);
  const convert = (from: string) =>
    `iconv -f ${from} -t utf-8 ${shellQuote(path)} > ${shellQuote(`${path}.utf8`)}`;
  const utf16 = utf16Encoding(bytes);
  if (utf16) {
    throw new UnreadableEntryError(
      path,
      `is ${utf16} text, not UTF-8 (git checks entries out so when a .gitattributes asks for ` +
        `working-tree-encoding=${utf16}); save it as UTF-8, e.g. ${convert(utf16)}`,
    );
  }
  try {
    return decodeUtf8Strict(bytes);
  } catch (error) {
    if (!(error instanceof NotUtf8Error)) throw error;
    throw new UnreadableEntryError(
      path,
      `${error.message}; save it as UTF-8, e.g. ${convert("latin1")}`,
    );
  }
}

/**
 * Whether every file in a flat [path, ordinal, size, mtime, …] list still has that size and
 * mtime. Stops at the first difference; the common all-unchanged case builds nothing.
 */
export function filesUnchanged(kbDir: string, rows: readonly unknown[]): boolean {
  for (let at = 0; at + 4 <= rows.length; at += 4) {
    try {
      const stat = Deno.lstatSync(`${kbDir}/${rows[at] as string}`);
      if (stat.size !== rows[at + 2] || (stat.mtime?.getTime() ?? 0) !== rows[at + 3]) return false;
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) {
        if (rows[at + 2] === UNNAMEABLE_SIZE) continue;
        return false;
      }
      throw error;
    }
  }
  return true;
}
