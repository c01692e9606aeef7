/**
 * Pushing the branch to where it belongs, and only there: the one push that save and sync make.
 * It holds a lease on the remote branch's tip as last fetched, tells a push the remote rejected
 * because it moved (fetch, bring in, try again) from one it refused (a hook, permissions: the
 * remote's own words), and gives the branch its upstream after a first push.
 *
 * @module
 */
import { displaySafe } from "../../core/text/display.ts";
import { scrubSecrets } from "../../core/text/secrets.ts";
import {
  git,
  gitReason,
  type GitResult,
  GitTimeoutError,
  isAncestor,
  remoteBranchName,
} from "../git.ts";
import type { PushTarget } from "./target.ts";

/**
 * How many times a push is made in all when the remote keeps rejecting it because it moved, each
 * time after fetching it and bringing the branch in step.
 */
export const PUSH_ATTEMPTS = 3;

/** What a push did. */
export type Pushed =
  /** The remote branch is now the local one. */
  | { outcome: "pushed" }
  /** The remote moved since the last fetch (or was rewritten: the lease held): fetch, try again. */
  | { outcome: "rejected" }
  /** It could not be made: `reason` says why (the remote's words, or the call that ran out). */
  | { outcome: "failed"; reason: string };

/**
 * Why a push was refused, in the refuser's own words: the ref's status from `--porcelain`
 * (`[remote rejected] (pre-receive hook declined)`) and the first lines the remote sent
 * (`remote: …`); the repository's own `pre-push` hook's first lines, credentials masked, when it
 * stopped the push before it reached the remote; else git's last error line.
 */
export function refusalWords(pushed: GitResult): string {
  const status = pushed.stdout.split("\n").find((line) => line.startsWith("!"))?.split("\t").pop();
  const said = pushed.stderr.split("\n").filter((line) => line.startsWith("remote: "))
    .map((line) => line.slice("remote: ".length).trim()).filter(Boolean).slice(0, 3);
  const words = [...status ? [status.trim()] : [], ...said].map(displaySafe);
  if (words.length) return words.join("; ");
  const hook = prePushWords(pushed);
  if (hook === undefined) return gitReason(pushed.stderr);
  return `this repository's pre-push hook refused it${hook.length ? `: ${hook.join("; ")}` : ""}`;
}

/**
 * What the `pre-push` hook printed (its first three lines), when it is what stopped the push: git
 * then names no ref (no `To <url>` line), reached no remote (no `fatal:` line), and says only that
 * it "failed to push some refs". Undefined when the push failed otherwise.
 */
function prePushWords(pushed: GitResult): string[] | undefined {
  const stopped = /^error: failed to push some refs/m.test(pushed.stderr) &&
    !/^fatal:/m.test(pushed.stderr) && !/^To /m.test(pushed.stdout);
  if (!stopped) return undefined;
  return `${pushed.stderr}\n${pushed.stdout}`.split("\n").map((line) => line.trim())
    .filter((line) => line && !/^(error|hint):/.test(line)).slice(0, 3)
    .map((line) => displaySafe(scrubSecrets(line)));
}

/**
 * Whether the remote rejected the push because its branch is not where the push expected: not a
 * fast-forward, or the lease's tip gone (`[rejected] (fetch first)`, `(non-fast-forward)`,
 * `(stale info)`). A refusal by the remote itself is `[remote rejected]`, which is not this.
 */
function movedUnderUs(pushed: GitResult): boolean {
  return /^!\t[^\t]*\t\[rejected\]/m.test(pushed.stdout);
}

/**
 * The push's lease: when the remote-tracking ref's tip `tip` is an ancestor of the branch, the
 * push goes through only while the remote is still there, so a remote rewritten since the last
 * fetch (reset to an older commit, which the branch would fast-forward) rejects it, and the fetch
 * that follows finds the rewrite. Without such a tip (never fetched, or the branch went its own
 * way), a plain push.
 */
async function lease(
  kbDir: string,
  target: PushTarget,
  branch: string,
  tip: string | undefined,
): Promise<string[]> {
  if (!tip) return [];
  const ancestor = await isAncestor(kbDir, tip, `refs/heads/${branch}`);
  return ancestor ? [`--force-with-lease=${target.ref}:${tip}`] : [];
}

/**
 * Push `branch` to `target`'s remote branch, bounded by `timeoutMs`, with a lease on `tip`, the
 * remote branch's tip as last fetched (see {@link lease}). After a first push, the branch tracks
 * the remote branch.
 */
export async function pushBranch(
  kbDir: string,
  target: PushTarget,
  branch: string,
  { tip, timeoutMs }: { tip: string | undefined; timeoutMs: number },
): Promise<Pushed> {
  const refspec = `refs/heads/${branch}:${target.ref}`;
  const args = ["push", "--porcelain", ...await lease(kbDir, target, branch, tip)];
  let pushed;
  try {
    pushed = await git(kbDir, [...args, target.remote, refspec], { timeoutMs });
  } catch (error) {
    if (!(error instanceof GitTimeoutError)) throw error;
    return { outcome: "failed", reason: error.message };
  }
  if (pushed.code === 0) {
    if (!target.configured) {
      const upstream = remoteBranchName(target.tracking);
      await git(kbDir, ["branch", `--set-upstream-to=${upstream}`, branch]);
    }
    return { outcome: "pushed" };
  }
  if (movedUnderUs(pushed)) return { outcome: "rejected" };
  return {
    outcome: "failed",
    reason: `the push to ${target.remote} failed: ${refusalWords(pushed)}`,
  };
}
