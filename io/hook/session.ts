/**
 * Per-session state under the cache folder: the dedup ledger of what a session was shown, and
 * the debug log. Both are rebuildable scratch: losing them only means a pointer shows again.
 *
 * @module
 */
import type { Ledger } from "../../core/prompt/decision.ts";
import { join } from "../../core/path.ts";
import { contentHash } from "../../core/hash.ts";
import { readOrCreatePrivateText, writePrivateFile, writePrivateText } from "../fs.ts";

/**
 * Session files (ledgers and receipts) untouched for this long are deleted: long enough for
 * `git-kb stats` to see a week of sessions.
 */
const SESSION_MAX_AGE_MS = 7 * 24 * 60 * 60 * 1000;

/** The most session files kept; past it, the oldest are deleted at the next sweep. */
const MAX_SESSION_FILES = 2000;

/** The most a session file is read: a ledger of every entry of a large knowledge base fits. */
export const MAX_SESSION_FILE_BYTES = 8 * 1024 * 1024;

/**
 * A session's file under the cache's `sessions` folder: the id reduced to `[A-Za-z0-9_-]` (for a
 * person reading the folder), a hash of the whole id (so that `team.alice` and `team_alice`,
 * reduced alike, keep files apart), then `suffix` (`.json` for the ledger).
 */
export function sessionFile(cacheDir: string, sessionId: string, suffix = ".json"): string {
  const safe = sessionId.replace(/[^A-Za-z0-9_-]/g, "_").slice(0, 60) || "session";
  return join(cacheDir, "sessions", `${safe}-${contentHash(sessionId)}${suffix}`);
}

function ledgerPath(cacheDir: string, sessionId: string): string {
  return sessionFile(cacheDir, sessionId);
}

/**
 * The ledger of a session: entry id → content hash it was shown with. Empty when new; the file is
 * then created empty (see {@link readOrCreatePrivateText}), and {@link writeLedger} fills it in.
 */
export function readLedger(
  cacheDir: string,
  sessionId: string,
): { ledger: Ledger; isNew: boolean } {
  const text = readOrCreatePrivateText(ledgerPath(cacheDir, sessionId), MAX_SESSION_FILE_BYTES);
  let data: unknown;
  try {
    data = text ? JSON.parse(text) : undefined;
  } catch { /* damaged: start afresh */ }
  if (typeof data !== "object" || data === null || Array.isArray(data)) {
    return { ledger: {}, isNew: true };
  }
  return { ledger: data as Ledger, isNew: false };
}

/**
 * A session's ledger, read on first use only: a hook that shows nothing never reads it (nor
 * creates its file). Without a session id, an empty ledger.
 */
export function lazyLedger(
  cacheDir: string,
  sessionId: string | undefined,
): () => { ledger: Ledger; isNew: boolean } {
  let session: { ledger: Ledger; isNew: boolean } | undefined;
  return () =>
    session ??= sessionId ? readLedger(cacheDir, sessionId) : { ledger: {}, isNew: true };
}

/**
 * Add the pointers a session was shown to its ledger (read through `ledgerOf`, a
 * {@link lazyLedger}) and write it; nothing without a session or a pointer.
 */
export function recordShown(
  cacheDir: string,
  sessionId: string | undefined,
  ledgerOf: () => { ledger: Ledger; isNew: boolean },
  pointers: readonly { id: string; hash: string }[],
): void {
  if (!sessionId || !pointers.length) return;
  const { ledger, isNew } = ledgerOf();
  for (const pointer of pointers) ledger[pointer.id] = pointer.hash;
  writeLedger(cacheDir, sessionId, ledger, isNew);
}

/** How often, at most, a new session sweeps out old ledgers. */
const SWEEP_INTERVAL_MS = 60 * 60 * 1000;

/**
 * Record what a session was shown. A ledger with something in it is replaced atomically; a new
 * one (empty, or damaged) is written in place, as it has nothing to lose and the first rename a
 * process makes costs a hook half a millisecond. The first write of a new session also clears
 * out ledgers of sessions long gone, at most once an hour (a marker file's mtime says when it
 * last ran).
 */
export function writeLedger(
  cacheDir: string,
  sessionId: string,
  ledger: Ledger,
  isNew: boolean,
): void {
  const path = ledgerPath(cacheDir, sessionId);
  const text = JSON.stringify(ledger);
  if (!isNew) return writePrivateFile(path, text);
  writePrivateText(path, text);
  const marker = join(cacheDir, "sessions.swept");
  let last = 0;
  try {
    last = Deno.lstatSync(marker).mtime?.getTime() ?? 0;
  } catch { /* never swept */ }
  if (Date.now() - last < SWEEP_INTERVAL_MS) return;
  writePrivateText(marker, "");
  removeOldLedgers(join(cacheDir, "sessions"), Date.now() - SESSION_MAX_AGE_MS);
}

/**
 * Delete session files last written before `cutoff` (ms since the epoch), then the oldest of
 * those left past `keep`. Never follows a symbolic link: when `dir` is one (or not a folder),
 * nothing is deleted; a link inside it is deleted as a link, by its own age.
 */
export function removeOldLedgers(dir: string, cutoff: number, keep = MAX_SESSION_FILES): number {
  const kept: [string, number][] = [];
  let removed = 0;
  if (!Deno.lstatSync(dir).isDirectory) return 0;
  const remove = (path: string) => {
    try {
      Deno.removeSync(path);
      removed++;
    } catch { /* removed by another session's cleanup */ }
  };
  for (const item of Deno.readDirSync(dir)) {
    const path = join(dir, item.name);
    let mtime: number;
    try {
      mtime = Deno.lstatSync(path).mtime?.getTime() ?? Infinity;
    } catch {
      continue;
    }
    if (mtime < cutoff) remove(path);
    else kept.push([path, mtime]);
  }
  kept.sort((a, b) => b[1] - a[1]).slice(keep).forEach(([path]) => remove(path));
  return removed;
}

/** The debug log file of a knowledge base's cache. */
export function debugLogPath(cacheDir: string): string {
  return join(cacheDir, "debug.jsonl");
}

/**
 * The most bytes the debug log grows to: past it, the log is moved to `debug.jsonl.1` (replacing
 * the one before) and a new one begins, so the two hold the latest records and `git-kb stats`
 * reads at most twice this.
 */
export const DEBUG_LOG_MAX_BYTES = 16 * 1024 * 1024;

/** Append one JSON record to the debug log (one line; appends of a line are atomic enough). */
export function appendDebug(cacheDir: string, record: Record<string, unknown>): void {
  const path = debugLogPath(cacheDir);
  if (writePrivateText(path, JSON.stringify(record) + "\n", true) > DEBUG_LOG_MAX_BYTES) {
    Deno.renameSync(path, `${path}.1`);
  }
}
