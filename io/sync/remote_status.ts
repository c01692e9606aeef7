/**
 * How far the knowledge base's branch is from its remote, told truthfully: the remote branch is
 * fetched first (bounded), and when that cannot be done the figures say they are from the last
 * fetch, when that was, and why.
 *
 * @module
 */
import { join } from "../../core/path.ts";
import { git, remoteBranchName } from "../git.ts";
import { ifExists } from "../fs.ts";
import { fetchBranch } from "../remote/fetch.ts";
import { type PushTarget, pushTarget } from "../remote/target.ts";
import { LockTimeoutError, NotALockFileError, withLock } from "../save/lock.ts";
import { gitDir, saveLockPath } from "../save/repo_state.ts";

/** How long the fetch waits for a save or sync under way to let go of the save lock. */
const LOCK_WAIT_MS = 3_000;

/** What fetching the remote branch did. */
export type FetchOutcome =
  /** Fetched now: the figures are the remote's as it is. */
  | { state: "fetched" }
  /** The remote answered without the branch it had when last fetched: no figures hold. */
  | { state: "gone" }
  /** Not fetched (offline asked for, or the fetch failed or timed out): why, in a phrase. */
  | { state: "not-fetched"; reason: string; timedOut: boolean; skipped: boolean };

/** The branch against its remote. */
export interface RemoteStatus {
  /** The remote's name, `origin`. */
  remote: string;
  /** The remote branch, `origin/main`. */
  upstream: string;
  fetch: FetchOutcome;
  /** When the last fetch of the repo happened (FETCH_HEAD's time), when git ever fetched. */
  lastFetch?: Date;
  /** Commits here the remote branch lacks, and the other way round; undefined when it has none. */
  counts?: { ahead: number; behind: number };
}

/** How to tell the remote status. */
export interface RemoteStatusOptions {
  /** Skip the fetch: the figures are from the last one. */
  offline: boolean;
  /** Bound of the fetch, in ms. */
  timeoutMs: number;
}

/**
 * The branch of `kbDir` against the remote branch it syncs with; undefined when the repo has no
 * remote or no branch is checked out (doctor's git-state check names a detached HEAD).
 */
export async function remoteStatus(
  kbDir: string,
  options: RemoteStatusOptions,
): Promise<RemoteStatus | undefined> {
  const branch = await git(kbDir, ["symbolic-ref", "--short", "-q", "HEAD"]);
  if (branch.code !== 0) return undefined;
  const target = await pushTarget(kbDir, branch.stdout.trim());
  if (!target) return undefined;
  const fetch = options.offline
    ? {
      state: "not-fetched",
      reason: "--offline skips it",
      timedOut: false,
      skipped: true,
    } as const
    : await fetchUnderLock(kbDir, target, options);
  const fetchHead = join(await gitDir(kbDir), "FETCH_HEAD");
  const lastFetch = ifExists(() => Deno.statSync(fetchHead))?.mtime ?? undefined;
  const counts = await git(kbDir, [
    "rev-list",
    "--left-right",
    "--count",
    `HEAD...${target.tracking}`,
  ]);
  const [ahead, behind] = counts.stdout.trim().split(/\s+/).map(Number);
  return {
    remote: target.remote,
    upstream: remoteBranchName(target.tracking),
    fetch,
    lastFetch,
    counts: counts.code === 0 ? { ahead, behind } : undefined,
  };
}

/**
 * Fetch the remote branch (bounded; a remote without the branch is fetched: it has none) under
 * the save lock, so that it never moves the tracking ref under a save or sync that is replaying
 * onto it; while one runs (past a short wait), no fetch.
 */
async function fetchUnderLock(
  kbDir: string,
  target: PushTarget,
  options: RemoteStatusOptions,
): Promise<FetchOutcome> {
  try {
    const fetched = await withLock(
      await saveLockPath(kbDir),
      () => fetchBranch(kbDir, target, options.timeoutMs),
      { timeoutMs: LOCK_WAIT_MS },
    );
    return fetched.state !== "failed" ? { state: fetched.state } : {
      state: "not-fetched",
      reason: fetched.reason,
      timedOut: fetched.timedOut,
      skipped: false,
    };
  } catch (error) {
    if (error instanceof NotALockFileError) {
      const reason = "the save lock's path holds no lock file, as the lock line says";
      return { state: "not-fetched", reason, timedOut: false, skipped: true };
    }
    if (!(error instanceof LockTimeoutError)) throw error;
    const reason = "a save or sync under way holds the save lock";
    return { state: "not-fetched", reason, timedOut: false, skipped: true };
  }
}
