/**
 * File helpers: atomic writes, JSON reads that tolerate absence, and the private cache's folders
 * and files (0700 and 0600, never through a symbolic link). The lock is in `lock.ts`.
 *
 * @module
 */
import { dirname, join } from "../core/path.ts";
import { shellQuote } from "../core/shell/quote.ts";
import { EXIT, KbError, type Refusal } from "../core/exit.ts";
import {
  cacheRefused,
  fullFolder,
  NO_WRITE_WORDS,
  noRoom,
  UNWRITABLE_CODES,
  unwritableCache,
  unwritableFolder,
} from "../core/unwritable.ts";
import type * as NodeFs from "node:fs";

let sequence = 0;

/** The mode of every folder git-kb makes in its cache: the user's alone. */
export const PRIVATE_DIR_MODE = 0o700;

/** The mode of every file git-kb writes in its cache: the user's alone. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Raised when something in git-kb's cache is not what git-kb made: a symbolic link, a
 * non-regular file, a folder of another user's. git-kb neither reads nor writes through it.
 */
export class UnsafeCacheError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UnsafeCacheError";
  }
}

/**
 * An {@link UnsafeCacheError} for a cache the file system refused a write in (no permission, a
 * read-only mount as in an agent's sandbox, no room): nothing is wrong with what is there, so a
 * command that only reads may go on without writing it.
 */
export class UnwritableCacheError extends UnsafeCacheError {
  constructor(message: string) {
    super(message);
    this.name = "UnwritableCacheError";
  }
}

/**
 * A temp file name beside `path`, unique across processes (pid, sequence and a random part:
 * `Math.random`, not the crypto source, whose first use costs a hook half a millisecond).
 */
function tempName(path: string): string {
  const nonce = Math.floor(Math.random() * 2 ** 32).toString(36);
  return join(dirname(path), `.${Deno.pid}-${nonce}-${sequence++}.tmp`);
}

/** Write text or bytes to `path`. */
export function writeData(
  path: string,
  data: string | Uint8Array,
  options?: Deno.WriteFileOptions,
): void {
  if (typeof data === "string") Deno.writeTextFileSync(path, data, options);
  else Deno.writeFileSync(path, data, options);
}

/**
 * Write `data` to a new temp file beside `path` (created exclusively, so never through a link
 * planted at its name), then rename it over `path`: a rename replaces a link at `path` itself
 * and never writes where it points.
 */
function replaceFile(path: string, data: string | Uint8Array, mode?: number): void {
  const temp = tempName(path);
  try {
    writeData(temp, data, { createNew: true, mode });
    // The umask narrowed the mode the temp file was created with: give it the one asked for.
    if (mode !== undefined) Deno.chmodSync(temp, mode);
    Deno.renameSync(temp, path);
  } catch (error) {
    try {
      Deno.removeSync(temp);
    } catch { /* the temp file was never created */ }
    throw error;
  }
}

/**
 * Write `data` to `path` so that readers see either the old file or the new one, never half:
 * write a temp file beside it (with exactly `mode`, when given: a rewrite passes the old file's
 * to keep it; else the umask's default), then rename it over. Creates missing
 * parent folders (with `mode`'s owner bits plus search rights: 0700 for 0600); `made`, for a
 * caller writing many files, holds the folders known to exist (and gets those this call makes),
 * so each is made once.
 */
export function writeFileAtomic(
  path: string,
  data: string | Uint8Array,
  { mode, made }: { mode?: number; made?: Set<string> } = {},
): void {
  const folder = dirname(path);
  if (!made?.has(folder)) {
    const folderMode = mode === undefined ? undefined : (mode & 0o700) | 0o100;
    Deno.mkdirSync(folder, { recursive: true, mode: folderMode });
    made?.add(folder);
  }
  replaceFile(path, data, mode);
}

/**
 * The refusal of a write in `folder` that the file system turned down, by the error's `code` or,
 * where there is none (git's words), by `message`: no room ({@link fullFolder}) or no write
 * ({@link unwritableFolder}); undefined for any other failure.
 */
export function writeRefusal(folder: string, message: string, code?: unknown): Refusal | undefined {
  if (noRoom(code, message)) return fullFolder(folder, message);
  const refused = typeof code === "string"
    ? UNWRITABLE_CODES.has(code)
    : NO_WRITE_WORDS.test(message);
  if (!refused) return undefined;
  const info = ifExists(() => Deno.statSync(folder));
  const ownModeLacksWrite = info?.uid === Deno.uid() && ((info?.mode ?? 0) & 0o200) === 0;
  return unwritableFolder(folder, message, ownModeLacksWrite);
}

/**
 * Run `write`, a write of `path` into a knowledge base; when the file system refuses it (a folder
 * without write permission, a read-only mount, a full disk), throw a {@link KbError} (exit 1) that
 * names the folder and a way on, instead of the OS's words on a temp file's name (see
 * core/unwritable.ts).
 */
export function writingIn<T>(path: string, write: () => T): T {
  try {
    return write();
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    // By its code only: the words of a Deno error that has none are no file system's.
    const refusal = writeRefusal(dirname(path), String((error as Error)?.message), code ?? "");
    if (!refusal) throw error;
    const { reason, commands } = refusal;
    throw new KbError(commands.length ? `${reason}:` : `${reason}.`, EXIT.failed, commands);
  }
}

/** What `read` returns, or undefined when the file it reads does not exist. */
export function ifExists<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/** The most bytes of a JSON file {@link readJsonFile} reads: a config names a few folders. */
const JSON_FILE_MAX_BYTES = 1024 * 1024;

/**
 * Read and parse a JSON file; undefined when it does not exist, does not parse, or is no regular
 * file of at most 1 MiB (a link to one is followed: a config kept in a dotfiles repository is
 * one). A FIFO there would hold the read, and every hook, for ever; `/dev/zero` would fill memory.
 * Looked at with `stat` first, not opened without waiting: that would load Node's `fs` into the
 * prompt hook, which reads the config on every prompt (see {@link readPrivateText}).
 */
export function readJsonFile(path: string): unknown {
  const info = ifExists(() => Deno.statSync(path));
  if (!info?.isFile || info.size > JSON_FILE_MAX_BYTES) return undefined;
  const text = ifExists(() => Deno.readTextFileSync(path));
  if (text === undefined) return undefined;
  return parseJsonOrUndefined(text);
}

function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** What is at `path`, not following a link; undefined when nothing is. */
export function lstatOrUndefined(path: string): Deno.FileInfo | undefined {
  return ifExists(() => Deno.lstatSync(path));
}

/** The one member of Node's `process` that {@link nodeFs} uses. */
interface NodeProcess {
  getBuiltinModule(id: "node:fs"): typeof NodeFs;
}

let nodeFsModule: typeof NodeFs | undefined;

/**
 * Node's `fs`, loaded at the first call: a static import would load Node compatibility at the
 * start of every hot hook (about 18 ms, see tests/hot_path_test.ts), which reads entry files only
 * when it rebuilds the index.
 */
function nodeFs(): typeof NodeFs {
  nodeFsModule ??= (globalThis as unknown as { process: NodeProcess }).process
    .getBuiltinModule("node:fs");
  return nodeFsModule;
}

/** Node's error for a failed open, as the Deno error callers test for, where there is one. */
function denoError(error: unknown): unknown {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === "ENOENT") return new Deno.errors.NotFound(message);
  if (code === "EACCES" || code === "EPERM") return new Deno.errors.PermissionDenied(message);
  return error;
}

/** A file opened by {@link openWithoutWaiting}: closed when disposed. */
export interface OpenedFile extends Disposable {
  /** Its size, device and inode when opened (`fstat`). */
  readonly info: { size: number; dev: number; ino: number };
  /** Read into `buffer` from byte `position` of the file; 0 at its end. */
  readAt(buffer: Uint8Array, position: number): number;
}

/**
 * The regular file at `path`, opened for reading without blocking and, unless `followLink`,
 * without following a link; undefined when something else is there (a link not followed, a
 * FIFO, a socket, a device, a folder). Deno's own open waits, on a FIFO, until something writes
 * into it, which may be never, so a look then an open leaves a swap in between to wait on: what
 * was opened is checked instead. Throws `Deno.errors.NotFound` when nothing is there.
 */
export function openWithoutWaiting(path: string, followLink: boolean): OpenedFile | undefined {
  const fs = nodeFs();
  const { O_RDONLY, O_NONBLOCK = 0, O_NOFOLLOW = 0 } = fs.constants;
  let fd: number;
  try {
    fd = fs.openSync(path, O_RDONLY | O_NONBLOCK | (followLink ? 0 : O_NOFOLLOW));
  } catch (error) {
    // A link (ELOOP with O_NOFOLLOW) or a socket (ENXIO) is there.
    const code = (error as { code?: unknown }).code;
    if (code === "ELOOP" || code === "ENXIO") return undefined;
    throw denoError(error);
  }
  const close = () => fs.closeSync(fd);
  try {
    const opened = fs.fstatSync(fd);
    if (!opened.isFile()) {
      close();
      return undefined;
    }
    const info = { size: opened.size, dev: opened.dev, ino: opened.ino };
    return {
      info,
      readAt: (buffer, position) => fs.readSync(fd, buffer, 0, buffer.length, position),
      [Symbol.dispose]: close,
    };
  } catch (error) {
    close();
    throw error;
  }
}

/**
 * The first `limit` bytes (all, when fewer or no limit is given) of the regular file at `path`
 * that `lstat` described as `seen`; undefined when another file, or something else, is there
 * now. It is opened without following a link and without waiting (see
 * {@link openWithoutWaiting}). Throws `Deno.errors.NotFound` when nothing is there.
 */
export function readSeenFile(
  path: string,
  seen: Deno.FileInfo,
  limit = Infinity,
): Uint8Array | undefined {
  using file = openWithoutWaiting(path, false);
  if (!file || file.info.ino !== seen.ino || file.info.dev !== seen.dev) return undefined;
  // One byte past the size seen tells a file that grew since.
  let buffer = new Uint8Array(Math.min(file.info.size + 1, limit));
  let total = 0;
  for (;;) {
    if (total === buffer.length) {
      if (total >= limit) return buffer;
      const grown = new Uint8Array(Math.min(buffer.length * 2, limit));
      grown.set(buffer);
      buffer = grown;
    }
    const read = file.readAt(buffer.subarray(total), total);
    if (read === 0) return buffer.subarray(0, total);
    total += read;
  }
}

/** What a file-system object is, for a message. */
function kindOf(info: Deno.FileInfo): string {
  if (info.isSymlink) return "a symbolic link";
  if (info.isDirectory) return "a folder";
  return info.isFile ? "a file" : "a special file (a FIFO, socket or device)";
}

/**
 * Make the folder `path` and each missing one above it, then give each one made mode 0700 where
 * the umask left it otherwise. One recursive `mkdir`: Deno grants it by the path of the last
 * folder alone, so a profile that may write only the cache root can still make `~/.cache`.
 */
function makePrivateDirs(path: string): void {
  const missing: string[] = [];
  for (let folder = path; !lstatOrUndefined(folder); folder = dirname(folder)) {
    missing.unshift(folder);
    if (dirname(folder) === folder) break;
  }
  Deno.mkdirSync(path, { recursive: true, mode: PRIVATE_DIR_MODE });
  for (const folder of missing) {
    const { mode } = Deno.lstatSync(folder);
    if (mode !== null && (mode & 0o777) !== PRIVATE_DIR_MODE) {
      Deno.chmodSync(folder, PRIVATE_DIR_MODE);
    }
  }
}

/** The line that, pasted, gives the shell a new cache root of the user's own (mktemp: 0700). */
export const NEW_CACHE_LINE = 'export XDG_CACHE_HOME="$(mktemp -d)"';

/**
 * `error` as the command's refusal when it is the file system refusing a write in the cache
 * folder `folder` (no permission, a read-only mount, a full disk): an {@link UnwritableCacheError}
 * naming the folder and the ways on, instead of the OS's words on a lock or temp file's name.
 * Any other error is returned as it is.
 */
export function cacheWriteError(error: unknown, folder: string): unknown {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (!cacheRefused(code, String(message))) return error;
  return new UnwritableCacheError(
    unwritableCache(folder, (error as Error).message, NEW_CACHE_LINE),
  );
}

/** Folders {@link ensurePrivateDir} checked in this process: each is checked once. */
const privateDirs = new Set<string>();

/**
 * Make sure `path` is a private folder of the current user's, creating it (and each missing
 * parent) with mode 0700: a real folder, not a symbolic link, owned by the current uid, and
 * neither group- nor other-accessible (a wider mode on a folder of ours is narrowed to 0700).
 * Throws {@link UnsafeCacheError} otherwise, an {@link UnwritableCacheError} when the file system
 * refuses to make it. Checked once per process and path; needs `--allow-sys=uid`. Returns `path`.
 */
export function ensurePrivateDir(path: string): string {
  if (privateDirs.has(path)) return path;
  let info = lstatOrUndefined(path);
  if (!info) {
    try {
      makePrivateDirs(path);
    } catch (error) {
      throw cacheWriteError(error, path);
    }
    info = Deno.lstatSync(path);
  }
  // Another user's first, whatever it is: removing it may not be yours to do (a sticky /tmp).
  const uid = Deno.uid();
  if (uid !== null && info.uid !== null && info.uid !== uid) {
    throw new UnsafeCacheError(
      `${path} (${kindOf(info)}) belongs to uid ${info.uid}, not to you (uid ${uid}): another ` +
        "user could read or plant what git-kb keeps there, so it is not used. Keep the cache in " +
        `a folder of your own, or have ${path} removed; for this shell, a new private one: ` +
        NEW_CACHE_LINE,
    );
  }
  if (!info.isDirectory) {
    throw new UnsafeCacheError(
      `${path} is ${kindOf(info)}, not a folder: git-kb keeps its cache only in a real folder ` +
        `of its own. Remove it (rm ${shellQuote(path)}) and run again.`,
    );
  }
  if (info.mode !== null && (info.mode & 0o077) !== 0) Deno.chmodSync(path, PRIVATE_DIR_MODE);
  privateDirs.add(path);
  return path;
}

/** Refuse anything at `path` but a regular file; what is there, or undefined when nothing is. */
function regularFileOrNothing(path: string): Deno.FileInfo | undefined {
  const info = lstatOrUndefined(path);
  if (info && !info.isFile) {
    throw new UnsafeCacheError(
      `${path} is ${kindOf(info)}, not a regular file: git-kb neither reads nor writes through ` +
        `one in its cache. Remove it (rm ${shellQuote(path)}) and run again.`,
    );
  }
  return info;
}

/**
 * Replace `path` atomically with `data`, in a private folder (see {@link ensurePrivateDir}): the
 * file is created 0600 beside it and renamed over it, so a link at `path` is replaced, never
 * followed. Readers see the old file or the new one.
 */
export function writePrivateFile(path: string, data: string | Uint8Array): void {
  ensurePrivateDir(dirname(path));
  replaceFile(path, data, PRIVATE_FILE_MODE);
}

const encoder = new TextEncoder();

/**
 * Write (or with `append`, append) `text` to `path` in place, in a private folder: a new file is
 * created exclusively, 0600; an existing one must be a regular file (a link, a folder or a FIFO
 * is refused with {@link UnsafeCacheError}). Returns the file's size after the write, from the
 * check before it (no second stat). For files rewritten whole where a torn write loses nothing,
 * and for logs appended a line at a time.
 */
export function writePrivateText(path: string, text: string, append = false): number {
  ensurePrivateDir(dirname(path));
  const bytes = encoder.encode(text);
  const before = regularFileOrNothing(path);
  if (!before) {
    try {
      // Appending from the create on: another process may append between our create and write.
      Deno.writeFileSync(path, bytes, { createNew: true, append, mode: PRIVATE_FILE_MODE });
      return bytes.length;
    } catch (error) {
      if (!(error instanceof Deno.errors.AlreadyExists)) throw error;
      return writePrivateText(path, text, append);
    }
  }
  Deno.writeFileSync(path, bytes, { append });
  return (append ? before.size : 0) + bytes.length;
}

/**
 * The text of a private file, or undefined when there is none. Anything but a regular file is
 * refused ({@link UnsafeCacheError}: a FIFO would block the read, a link point anywhere), and so
 * is a file over `maxBytes` (a planted `/dev/zero`-sized file would fill memory). A swap between
 * that look and the read is not guarded against, unlike {@link readSeenFile}: every file read
 * here sits under the cache root, a 0700 folder of the user's own ({@link ensurePrivateDir}), so
 * only the user's own processes could make one; and its open without waiting would load Node's
 * `fs` into the prompt hook, which reads its session ledger here on every prompt.
 */
export function readPrivateText(path: string, maxBytes: number): string | undefined {
  const info = regularFileOrNothing(path);
  if (!info) return undefined;
  if (info.size > maxBytes) {
    throw new UnsafeCacheError(
      `${path} is ${info.size} bytes, more than the ${maxBytes} git-kb ever writes there: ` +
        `remove it (rm ${shellQuote(path)}) and run again.`,
    );
  }
  return Deno.readTextFileSync(path);
}

/** {@link readPrivateText} of a JSON file, parsed; undefined when missing or not JSON. */
export function readPrivateJson(path: string, maxBytes: number): unknown {
  const text = readPrivateText(path, maxBytes);
  return text === undefined ? undefined : parseJsonOrUndefined(text);
}

/**
 * The text of a private scratch file, "" when there was none: it is then created empty, 0600,
 * for the caller to write next (a session's ledger). Refuses what {@link readPrivateText} does.
 */
export function readOrCreatePrivateText(path: string, maxBytes: number): string {
  const text = readPrivateText(path, maxBytes);
  if (text !== undefined) return text;
  writePrivateText(path, "", true);
  return "";
}
