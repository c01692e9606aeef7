/**
 * The session's freshness watch: while a Claude Code session lasts, every knowledge base is
 * checked file by file every {@link WATCH_PERIOD_MS} in the background (`openIndex` with no
 * trust: a stat per entry file, the changed entries taken in, the check stamped), so an entry
 * an editor rewrote in place, which the stamp the hooks trust does not see, reaches the prompt
 * hook within a period and a check. The prompt hook itself does not change: it goes on trusting
 * a recent check.
 *
 * One watch checks a knowledge base at a time: the one whose heartbeat (`watch.json` in the
 * knowledge base's private cache, written 0600 and never through a link) is fresh. The watch of
 * another session stands by, looking at the heartbeat once a period, and takes over when it
 * is gone (its watch ended) or older than {@link STALE_PERIODS} periods (its watch was killed).
 * A heartbeat that is not a regular file is refused: that knowledge base is left unwatched.
 *
 * @module
 */
import { join } from "../../core/path.ts";
import { readPrivateJson, UnsafeCacheError, writePrivateFile } from "../fs.ts";
import { indexDir, kbCacheDir } from "../paths.ts";
import { rebuildDue } from "./rebuild_due.ts";
import { openIndex, readManifest, type RefreshReport } from "./store.ts";

/**
 * How often a watch checks every entry file: an edit in place is in the index at most this
 * long (and the check's own time) after it was saved. A check costs a stat per file, 35–80 ms
 * at 5,000 files, in a process of its own.
 */
export const WATCH_PERIOD_MS = 30_000;

/** The longest a watch runs, whatever else happens. */
export const WATCH_LIFETIME_MS = 12 * 3_600_000;

/** How many periods a heartbeat may go unrenewed before its watch counts as gone. */
export const STALE_PERIODS = 3;

/** The heartbeat's file name in a knowledge base's cache folder. */
const HEARTBEAT = "watch.json";

/** The most bytes a heartbeat is read of (one is about 80). */
const HEARTBEAT_MAX_BYTES = 4096;

/**
 * How often a watch looks, between its checks, whether it should end: its session gone, or a
 * newer watch of its client took over. A look reads a few bytes (/proc, the claim file).
 */
export const LIVENESS_PERIOD_MS = 1_000;

/** Why a watch ended. */
export type WatchEnd = "stopped" | "session-gone" | "superseded" | "lifetime" | "refused";

/** How to watch. */
export interface WatchOptions {
  /** How often to check; {@link WATCH_PERIOD_MS} by default. */
  periodMs?: number;
  /** The longest to run; {@link WATCH_LIFETIME_MS} by default. */
  lifetimeMs?: number;
  /** Ends the watch when aborted (the session ended). */
  signal?: AbortSignal;
  /** Whether the session the watch serves still runs; asked every {@link LIVENESS_PERIOD_MS}. */
  sessionAlive?: () => boolean;
  /**
   * Whether a newer watch of the same client took over (see io/hook/client_watch.ts); asked
   * every {@link LIVENESS_PERIOD_MS}.
   */
  superseded?: () => boolean;
  /** Told of each check this watch made. */
  onCheck?: (kbDir: string, report: RefreshReport) => void;
  /** Told of a failure; a knowledge base whose heartbeat is unsafe is watched no more. */
  onFailure?: (kbDir: string, error: unknown) => void;
}

/** The heartbeat file of the knowledge base in `kbDir`. */
export function heartbeatPath(kbDir: string): string {
  return join(kbCacheDir(kbDir), HEARTBEAT);
}

/** What a heartbeat says: which watch wrote it, and when. */
export interface Heartbeat {
  /** The writing watch's own random token. */
  token: string;
  /** Its process id, for a person looking. */
  pid: number;
  /** When it was written, in ms since the epoch. */
  beatAt: number;
}

/**
 * The heartbeat at `path`, or undefined when there is none or it does not parse. Throws
 * {@link UnsafeCacheError} when something other than a regular file is there.
 */
export function readHeartbeat(path: string): Heartbeat | undefined {
  const beat = readPrivateJson(path, HEARTBEAT_MAX_BYTES) as Partial<Heartbeat> | undefined;
  return typeof beat?.token === "string" && typeof beat.beatAt === "number"
    ? beat as Heartbeat
    : undefined;
}

/**
 * Whether the watch with `token` is the one to check the knowledge base now: no other watch's
 * heartbeat is fresh. When it is, its heartbeat is written (renewed).
 */
function claim(kbDir: string, token: string, periodMs: number): boolean {
  const path = heartbeatPath(kbDir);
  const beat = readHeartbeat(path);
  const age = Date.now() - (beat?.beatAt ?? 0);
  if (beat && beat.token !== token && age < STALE_PERIODS * periodMs && age > -periodMs) {
    return false;
  }
  writePrivateFile(path, JSON.stringify({ token, pid: Deno.pid, beatAt: Date.now() }));
  return true;
}

/** Remove the heartbeat of `kbDir` when it is the watch's own, so another can take over. */
function release(kbDir: string, token: string): void {
  try {
    const path = heartbeatPath(kbDir);
    if (readHeartbeat(path)?.token === token) Deno.removeSync(path);
  } catch { /* gone already, or refused before */ }
}

/** Why the watch must end now, if it must: stopped, its session gone, or superseded. */
function endNow(options: WatchOptions): WatchEnd | undefined {
  if (options.signal?.aborted) return "stopped";
  if (options.sessionAlive && !options.sessionAlive()) return "session-gone";
  if (options.superseded?.()) return "superseded";
  return undefined;
}

/**
 * Wait `ms`, looking every {@link LIVENESS_PERIOD_MS} whether the watch must end (then at once);
 * resolves to why it must, if it must.
 */
async function pauseUnlessEnded(ms: number, options: WatchOptions): Promise<WatchEnd | undefined> {
  const until = Date.now() + ms;
  for (let left = ms; left > 0; left = until - Date.now()) {
    await pause(Math.min(left, LIVENESS_PERIOD_MS), options.signal);
    const end = endNow(options);
    if (end) return end;
  }
  return undefined;
}

/** Resolves after `ms`, or at once when `signal` is aborted. */
function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}

/**
 * Check the knowledge bases in `kbDirs` file by file once a period from the end of the first
 * one, each when no other watch does, until the session ends (`signal`, `sessionAlive`), a newer
 * watch of the client takes over (`superseded`), the lifetime passes, or every one was refused. Holds the index lock only while a check takes in a
 * change; never throws for a knowledge base (failures go to `onFailure`). Returns why it ended,
 * its heartbeats removed.
 */
export async function watchFreshness(
  kbDirs: readonly string[],
  options: WatchOptions = {},
): Promise<WatchEnd> {
  const periodMs = options.periodMs ?? WATCH_PERIOD_MS;
  const endAt = Date.now() + (options.lifetimeMs ?? WATCH_LIFETIME_MS);
  const token = crypto.randomUUID();
  const watched = new Set(kbDirs);
  try {
    for (let round = 0;; round++) {
      const end = endNow(options);
      if (end) return end;
      if (Date.now() >= endAt) return "lifetime";
      if (!watched.size) return "refused";
      for (const kbDir of watched) await takeTurn(kbDir, token, periodMs, watched, options, round);
      const ended = await pauseUnlessEnded(Math.min(periodMs, endAt - Date.now()), options);
      if (ended) return ended;
    }
  } finally {
    for (const kbDir of watched) release(kbDir, token);
  }
}

/** Whether the knowledge base has an index the hooks can answer from. */
function hasIndex(kbDir: string): boolean {
  return readManifest(indexDir(kbDir)) !== undefined;
}

/**
 * One knowledge base's turn: check it when it is this watch's to check. The first round only
 * claims it, since the session's start brought the index up to date already (the pull hook's
 * check), unless there is no index yet or a hook noted that a rebuild is due (more changed than a
 * hook may read): then the watch, which has the time, builds it at once.
 */
async function takeTurn(
  kbDir: string,
  token: string,
  periodMs: number,
  watched: Set<string>,
  options: WatchOptions,
  round: number,
): Promise<void> {
  try {
    if (!claim(kbDir, token, periodMs) || round === 0 && !rebuildDue(kbDir) && hasIndex(kbDir)) {
      return;
    }
    const { report } = await openIndex(kbDir, { hook: true, maxReads: Infinity });
    options.onCheck?.(kbDir, report);
  } catch (error) {
    if (error instanceof UnsafeCacheError) watched.delete(kbDir);
    options.onFailure?.(kbDir, error);
  }
}
