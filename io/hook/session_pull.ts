/**
 * The SessionStart hook's pull: bring a knowledge base's branch up to its upstream by a
 * fast-forward and nothing else. Never a merge commit, never a rebase (`git-kb sync` does
 * those), never a change to a tree with uncommitted work, never over a file the ignore rules
 * keep out of git, and never while a save holds the save lock. Each case it leaves alone is a
 * report naming why, not an error: the hook only records it. The fetch runs in a process group
 * of its own, so a timeout or an abort (the session ending) stops the transport it started as
 * well.
 *
 * @module
 */
import { type Divergence, parseDivergence, pullStep } from "../../core/hook/session_start.ts";
import { errorSummary } from "../../core/hook/payload.ts";
import {
  git,
  GitError,
  gitReason,
  type GitResult,
  GitTimeoutError,
  keepEntriesAsWritten,
  remoteNames,
} from "../git.ts";
import { moveBranchFiles } from "../remote/move.ts";
import { ignoredInTheWayOf } from "../remote/ignored.ts";
import { LockTimeoutError, withLock } from "../save/lock.ts";
import { repoState } from "../save/repo_state.ts";
import { saveLockPath } from "../save/repo_state.ts";

/** How long the fetch may take, in ms: the session goes on meanwhile, so this can be short. */
export const PULL_FETCH_TIMEOUT_MS = 5_000;

/** How long each local git call of the pull may take, in ms. */
const LOCAL_TIMEOUT_MS = 5_000;

/** What a fast-forward pull did, or why it left the knowledge base alone. */
export type PullReport =
  | { outcome: "fast-forwarded"; behind: number; from: string; to: string }
  | { outcome: "up-to-date" | "ahead" | "diverged"; divergence: Divergence }
  | {
    outcome: "skipped";
    /**
     * `not-a-repo`, a repo state (`rebase`, `detached`, …), `no-remote`, `no-upstream`, `dirty`,
     * `save-lock-held`, `ignored-in-the-way` (a file the ignore rules keep out of git sits where
     * the upstream has one, which the fast-forward would overwrite: `detail` names it, and
     * `commands` move it aside and sync).
     */
    reason: string;
    detail?: string;
    /** The commands that clear the way, in order, when there are some. */
    commands?: string[];
  }
  | {
    outcome: "failed";
    /**
     * `fetch-timeout`, `fetch-failed`, `stopped` (aborted), `merge-failed`, `timeout` (a local
     * call), `error`.
     */
    reason: string;
    detail: string;
  };

/** How to pull. */
export interface PullOptions {
  /** Stops the fetch (and its transport) when aborted: the session is ending. */
  signal?: AbortSignal;
}

/** A failure report for `reason`, with git's own words. */
function failed(reason: string, detail: string): PullReport {
  return { outcome: "failed", reason, detail };
}

/** Run a local git call of the pull, bounded and in a group of its own (hooks may run). */
function local(kbDir: string, args: string[]): Promise<GitResult> {
  return git(kbDir, args, { timeoutMs: LOCAL_TIMEOUT_MS, ownGroup: true });
}

/**
 * Fast-forward the branch checked out in `kbDir` to its upstream, when that is all it takes.
 * Never throws for a state it leaves alone or a git call that fails: the report says which.
 */
export async function fastForwardPull(
  kbDir: string,
  options: PullOptions = {},
): Promise<PullReport> {
  try {
    return await pull(kbDir, options);
  } catch (error) {
    if (error instanceof GitTimeoutError) return failed("timeout", error.message);
    if (error instanceof LockTimeoutError) {
      return { outcome: "skipped", reason: "save-lock-held", detail: error.message };
    }
    if (options.signal?.aborted) return failed("stopped", errorSummary(error));
    return failed("error", errorSummary(error));
  }
}

async function pull(kbDir: string, options: PullOptions): Promise<PullReport> {
  let state;
  try {
    state = await repoState(kbDir);
  } catch (error) {
    if (!(error instanceof GitError)) throw error;
    return { outcome: "skipped", reason: "not-a-repo", detail: gitReason(error.result.stderr) };
  }
  if (state.state !== "branch") {
    return { outcome: "skipped", reason: state.state, detail: state.message };
  }
  const upstream = await local(kbDir, [
    "rev-parse",
    "--abbrev-ref",
    "--symbolic-full-name",
    "@{u}",
  ]);
  if (upstream.code !== 0) {
    const reason = (await remoteNames(kbDir)).length ? "no-upstream" : "no-remote";
    return { outcome: "skipped", reason, detail: gitReason(upstream.stderr) };
  }
  const remote = (await local(kbDir, ["config", `branch.${state.branch}.remote`])).stdout.trim();
  if (await isDirty(kbDir)) return { outcome: "skipped", reason: "dirty" };
  return await withLock(await saveLockPath(kbDir), async () => {
    const fetched = await fetch(kbDir, remote || "origin", options.signal);
    if (fetched) return fetched;
    const counts = await local(kbDir, ["rev-list", "--left-right", "--count", "HEAD...@{u}"]);
    const divergence = parseDivergence(counts.stdout);
    if (counts.code !== 0 || !divergence) {
      return failed("error", gitReason(counts.stderr || counts.stdout));
    }
    const step = pullStep(divergence);
    if (step !== "fast-forward") return { outcome: step, divergence };
    const from = (await local(kbDir, ["rev-parse", "HEAD"])).stdout.trim();
    const ignored = await ignoredInTheWayOf(
      kbDir,
      { from, to: "@{u}", remote: remote || "origin" },
      { timeoutMs: LOCAL_TIMEOUT_MS, ownGroup: true },
    );
    if (ignored) {
      const { reason: detail, commands } = ignored;
      return { outcome: "skipped", reason: "ignored-in-the-way", detail, commands };
    }
    await keepEntriesAsWritten(kbDir);
    // An ignored file written meanwhile where the upstream has one stops the merge, not lost.
    // A merge git cannot finish (a full disk, its time up) puts back what it had begun to write.
    const merged = await moveBranchFiles(
      kbDir,
      { from, to: "@{u}" },
      ["merge", "--ff-only", "--no-overwrite-ignore", "--quiet", "@{u}"],
      { timeoutMs: LOCAL_TIMEOUT_MS, ownGroup: true },
    );
    if (merged.code !== 0) return failed("merge-failed", gitReason(merged.stderr));
    const to = (await local(kbDir, ["rev-parse", "HEAD"])).stdout.trim();
    return { outcome: "fast-forwarded", behind: divergence.behind, from, to };
  }, { timeoutMs: 0 });
}

/** Whether a tracked file has changes, staged or not (untracked files a merge never overwrites). */
async function isDirty(kbDir: string): Promise<boolean> {
  const status = await local(kbDir, ["status", "--porcelain=v1", "-z", "--untracked-files=no"]);
  if (status.code !== 0) throw new GitError(["status"], status);
  return status.stdout !== "";
}

/** Fetch `remote`, bounded; a report when it did not work, undefined when it did. */
async function fetch(
  kbDir: string,
  remote: string,
  signal: AbortSignal | undefined,
): Promise<PullReport | undefined> {
  try {
    const fetched = await git(kbDir, ["fetch", "--quiet", "--no-tags", remote], {
      timeoutMs: PULL_FETCH_TIMEOUT_MS,
      ownGroup: true,
      signal,
    });
    return fetched.code === 0 ? undefined : failed("fetch-failed", gitReason(fetched.stderr));
  } catch (error) {
    if (error instanceof GitTimeoutError) return failed("fetch-timeout", error.message);
    throw error;
  }
}
