/**
 * Fetching the remote branch into its tracking ref, bounded: the one fetch that save, sync and
 * doctor's remote status make.
 *
 * @module
 */
import { git, gitReason, GitTimeoutError } from "../git.ts";
import { type PushTarget, trackedTip } from "./target.ts";

/** What fetching the remote branch did. */
export type Fetched =
  /** Fetched: `tip` is the remote branch's, undefined when the remote has no such branch yet. */
  | { state: "fetched"; tip: string | undefined }
  /**
   * The remote answered without the branch, which it had when last fetched (deleted or renamed
   * there): the tracking ref still holds that tip, no longer the remote's (see io/remote/gone.ts).
   */
  | { state: "gone" }
  /** Not fetched: why, in a phrase that sits in a sentence; whether the call ran out of time. */
  | { state: "failed"; reason: string; timedOut: boolean };

/**
 * Fetch the remote branch of `target` into its tracking ref, each call bounded by `timeoutMs`.
 * A call that runs out of time, or that this process was interrupted during, is stopped with what
 * it started (see io/git.ts) and reported as failed.
 */
export async function fetchBranch(
  kbDir: string,
  target: PushTarget,
  timeoutMs: number,
): Promise<Fetched> {
  const refspec = `+${target.ref}:${target.tracking}`;
  let fetched;
  try {
    fetched = await git(kbDir, ["fetch", "--quiet", "--no-tags", target.remote, refspec], {
      timeoutMs,
    });
  } catch (error) {
    if (!(error instanceof GitTimeoutError)) throw error;
    return { state: "failed", reason: error.message, timedOut: true };
  }
  if (fetched.code === 0) return { state: "fetched", tip: await trackedTip(kbDir, target) };
  if (/couldn't find remote ref/i.test(fetched.stderr)) {
    const stale = await trackedTip(kbDir, target);
    return stale ? { state: "gone" } : { state: "fetched", tip: undefined };
  }
  return { state: "failed", reason: gitReason(fetched.stderr), timedOut: false };
}
