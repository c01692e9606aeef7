/**
 * An exclusive lock file with an owner. The file holds the pid, host, a random token and the
 * start time of the process holding it, as JSON, and that process keeps an OS lock (`flock`) on
 * it for as long as it holds it. The kernel drops that OS lock when the process ends, however it
 * ends (`kill -9` included), so a lock file whose OS lock is free has no live owner and is broken
 * at once, and one whose OS lock is held is never broken. A file without a readable owner (a
 * crash between creating and writing it, a full disk) counts as stale after a short grace; a lock
 * from another host (whose OS lock may not reach here) after an hour. Release removes the file
 * only while it still holds the releaser's token.
 *
 * @module
 */
import { dirname } from "../../core/path.ts";
import type { Finding } from "../../core/setup/finding.ts";
import { shellCommand } from "../../core/shell/quote.ts";
import { ifExists } from "../fs.ts";

/** Who holds a lock. */
export interface LockOwner {
  pid: number;
  host: string;
  /** Random, so that a release can tell its own lock from a successor's. */
  token: string;
  /** When the lock was taken, ISO 8601. */
  started: string;
}

/** Options for {@link withLock}. */
export interface LockOptions {
  /** Give up waiting after this long, in ms. */
  timeoutMs?: number;
}

/** How long a lock file without a readable owner may stand before it counts as stale. */
const GRACE_MS = 2_000;
/** A lock from another host counts as stale after this long. */
const FOREIGN_STALE_MS = 60 * 60_000;

/** What a lock file says about the lock. */
export type LockState =
  | { state: "free" }
  | { state: "held"; owner?: LockOwner }
  | { state: "stale"; reason: string };

/** Raised when a lock could not be taken in time; names the holder. */
export class LockTimeoutError extends Error {
  constructor(path: string, timeoutMs: number, holder: LockOwner | undefined) {
    const who = holder
      ? `process ${holder.pid} on ${holder.host}, running since ${holder.started}, holds it`
      : "another process holds it";
    super(
      `Timed out after ${timeoutMs} ms waiting for the lock ${path}: ${who}. ` +
        `Wait for it to finish; if no git-kb process is running: ${
          shellCommand(["rm", "-f", path])
        }`,
    );
    this.name = "LockTimeoutError";
  }
}

/**
 * Raised when a lock's path holds a folder (or another non-file): no git-kb process made it, and
 * no one can take the lock while it is there. Names it with the command that clears it.
 */
export class NotALockFileError extends Error {
  constructor(path: string) {
    super(
      `${path} is a folder or another non-file, not a lock file: no git-kb process made it, and ` +
        `nothing that needs the lock can run while it is there; remove it: ${
          shellCommand(["rm", "-r", path])
        }`,
    );
    this.name = "NotALockFileError";
  }
}

let hostName: string | undefined;

/**
 * This machine's name: /etc/hostname (any read permission will do), else `Deno.hostname()` when
 * allowed, else "unknown"; every git-kb process on one host gets the same answer.
 */
export function thisHost(): string {
  hostName ??= ifExists(() => Deno.readTextFileSync("/etc/hostname").trim()) || (() => {
    try {
      return Deno.hostname();
    } catch {
      return "unknown";
    }
  })();
  return hostName;
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const value = JSON.parse(text);
    const valid = typeof value?.pid === "number" && typeof value.host === "string" &&
      typeof value.token === "string" && typeof value.started === "string";
    return valid ? value : undefined;
  } catch {
    return undefined;
  }
}

function readText(file: Deno.FsFile): string {
  const size = file.statSync().size;
  const bytes = new Uint8Array(Math.min(size, 4096));
  file.seekSync(0, Deno.SeekMode.Start);
  let read = 0;
  while (read < bytes.length) {
    const count = file.readSync(bytes.subarray(read));
    if (count === null) break;
    read += count;
  }
  return new TextDecoder().decode(bytes.subarray(0, read));
}

/** Judge a lock file whose OS lock is free (or out of reach, on another host). */
function judgeUnheld(file: Deno.FsFile): LockState {
  const text = readText(file);
  const owner = parseOwner(text);
  const modified = file.statSync().mtime?.getTime() ?? Date.now();
  if (!owner) {
    return Date.now() - modified > GRACE_MS
      ? { state: "stale", reason: "it holds no owner (a crash or a full disk)" }
      : { state: "held" };
  }
  if (owner.host !== thisHost()) {
    const age = Date.now() - (Date.parse(owner.started) || modified);
    return age > FOREIGN_STALE_MS
      ? { state: "stale", reason: `its owner on ${owner.host} took it over an hour ago` }
      : { state: "held", owner };
  }
  return { state: "stale", reason: `its process ${owner.pid} is gone` };
}

/** Whether `path` is still the file open as `file` (not removed and made anew meanwhile). */
function sameFile(path: string, file: Deno.FsFile): boolean {
  const now = ifExists(() => Deno.lstatSync(path));
  const ours = file.statSync();
  return now !== undefined && (now.ino === null || now.ino === ours.ino);
}

/**
 * Judge the lock file at `path`: free, held by a live owner, or stale (and why); with `breakStale`,
 * also remove it when stale, while holding its OS lock so no one else judges it at that moment.
 */
function inspect(path: string, breakStale: boolean): LockState {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true });
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { state: "free" };
    throw error;
  }
  try {
    if (!file.statSync().isFile) throw new NotALockFileError(path);
    if (!file.tryLockSync(true)) {
      const text = ifExists(() => Deno.readTextFileSync(path));
      return { state: "held", owner: text === undefined ? undefined : parseOwner(text) };
    }
    const found = judgeUnheld(file);
    if (breakStale && found.state === "stale" && sameFile(path, file)) {
      ifExists(() => Deno.removeSync(path));
    }
    return found;
  } catch (error) {
    // Where an OS lock also bars reading (Windows), a file that cannot be read is held.
    if (error instanceof Deno.errors.PermissionDenied || error instanceof Deno.errors.Busy) {
      return { state: "held" };
    }
    throw error;
  } finally {
    file.close();
  }
}

/** Read the lock file at `path` and judge it: free, held by a live owner, or stale (and why). */
export function lockState(path: string): LockState {
  return inspect(path, false);
}

/** Create the lock file with our owner in it and its OS lock held; undefined when it exists. */
function tryCreate(path: string, owner: LockOwner): Deno.FsFile | undefined {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { createNew: true, write: true, read: true });
  } catch (error) {
    if (error instanceof Deno.errors.AlreadyExists) return undefined;
    throw error;
  }
  try {
    file.lockSync(true);
    file.writeSync(new TextEncoder().encode(JSON.stringify(owner)));
    return file;
  } catch (error) {
    file.close();
    ifExists(() => Deno.removeSync(path));
    // The OS's words alone (a full disk) would not say which file, nor that nothing ran.
    throw new Error(
      `could not write the lock file ${path} (${
        error instanceof Error ? error.message : String(error)
      }), so nothing that needs the lock was done`,
      { cause: error },
    );
  }
}

/** Remove the lock file if it still holds our token, then let go of its OS lock. */
function release(path: string, file: Deno.FsFile, owner: LockOwner): void {
  const text = ifExists(() => Deno.readTextFileSync(path));
  const ours = text !== undefined && parseOwner(text)?.token === owner.token;
  try {
    if (ours) Deno.removeSync(path);
  } catch { /* gone already, or (Windows) not removable while open: below */ }
  file.close();
  if (ours && ifExists(() => Deno.readTextFileSync(path)) === text) {
    ifExists(() => Deno.removeSync(path));
  }
}

/** A random token: `Math.random`, since it only tells locks apart (the crypto source costs a hook). */
function newToken(): string {
  return [0, 0].map(() => Math.floor(Math.random() * 2 ** 32).toString(36)).join("");
}

/**
 * Run `action` while holding an exclusive lock file at `path` (created with O_EXCL and kept under
 * an OS lock, so it works across processes). Waits with jittered backoff; breaks a stale lock at
 * once (see {@link lockState}), never a live one; on release removes the file only if it is
 * still ours.
 */
export async function withLock<T>(
  path: string,
  action: () => Promise<T> | T,
  options: LockOptions = {},
): Promise<T> {
  const { timeoutMs = 60_000 } = options;
  Deno.mkdirSync(dirname(path), { recursive: true });
  const owner: LockOwner = {
    pid: Deno.pid,
    host: thisHost(),
    token: newToken(),
    started: new Date().toISOString(),
  };
  const deadline = Date.now() + timeoutMs;
  let wait = 5;
  let file: Deno.FsFile | undefined;
  while (!(file = tryCreate(path, owner))) {
    const found = inspect(path, true);
    if (found.state !== "held") continue;
    if (Date.now() > deadline) throw new LockTimeoutError(path, timeoutMs, found.owner);
    await new Promise((done) => setTimeout(done, wait + Math.random() * wait));
    wait = Math.min(wait * 2, 200);
  }
  try {
    return await action();
  } finally {
    release(path, file, owner);
  }
}

/**
 * Doctor's check of a lock file: ok when free or held by a live process, a warning naming the
 * file, the reason and the command to clear it when stale, an error when it is no file at all.
 */
export function checkLock(path: string, check = "lock"): Finding {
  let found: LockState;
  try {
    found = lockState(path);
  } catch (error) {
    if (!(error instanceof NotALockFileError)) throw error;
    return { level: "error", check, message: error.message };
  }
  if (found.state === "stale") {
    return {
      level: "warn",
      check,
      message: `stale lock ${path}: ${found.reason}; the next save breaks it, or clear it now: ` +
        shellCommand(["rm", "-f", path]),
    };
  }
  if (found.state === "held") {
    const by = found.owner ? ` by process ${found.owner.pid} on ${found.owner.host}` : "";
    return { level: "ok", check, message: `${path} is held${by}, by a save under way` };
  }
  return { level: "ok", check, message: `no lock held (${path})` };
}
