/**
 * A remote branch that is gone: the remote answers, but no longer has the branch this clone
 * fetched before (deleted, or renamed, as when a host's default branch becomes `main`). Its
 * tracking ref still holds the tip last fetched, which is no longer the remote's history: a save
 * or a sync must neither replay onto it nor read the missing branch as a rewrite that dropped
 * every commit (whose way out, back to that stale tip, would only meet the same refusal). Both
 * stop instead, naming the remote's default branch when it has another, with the commands that
 * follow it or publish the branch again.
 *
 * @module
 */
import type { Refusal } from "../../core/exit.ts";
import { gitCommand } from "../../core/shell/quote.ts";
import { displaySafe } from "../../core/text/display.ts";
import { git, GitTimeoutError } from "../git.ts";
import { type PushTarget, remoteBranch, syncCommand } from "./target.ts";

/** The branch the remote's `HEAD` names, when it names one; undefined when unknown. */
async function defaultBranch(
  kbDir: string,
  remote: string,
  timeoutMs: number,
): Promise<string | undefined> {
  try {
    const listed = await git(kbDir, ["ls-remote", "--symref", remote, "HEAD"], { timeoutMs });
    return /^ref: refs\/heads\/(\S+)\tHEAD$/m.exec(listed.stdout)?.[1];
  } catch (error) {
    if (error instanceof GitTimeoutError) return undefined;
    throw error;
  }
}

/**
 * What stops a save or a sync of `branch` when the remote of `target` no longer has the branch
 * it was fetched from: the cause, then the commands that follow the remote's default branch
 * (when it is another) and the one that publishes `branch` there again.
 */
export async function goneBranchRefusal(
  kbDir: string,
  target: PushTarget,
  branch: string,
  timeoutMs: number,
): Promise<Refusal> {
  const { remote } = target;
  const name = remoteBranch(target);
  const found = await defaultBranch(kbDir, remote, timeoutMs);
  const other = found !== undefined && found !== name ? found : undefined;
  const where = other ? `; its default branch is ${displaySafe(other)}` : "";
  const publish = `publish ${branch}${branch === name ? "" : ` as ${displaySafe(name)}`} again`;
  const follow = other
    ? [
      `${gitCommand(kbDir, "fetch", "--quiet", remote, other)} && ${
        gitCommand(kbDir, "branch", `--set-upstream-to=${remote}/${other}`, branch)
      } && ${syncCommand(kbDir)}`,
    ]
    : [];
  return {
    reason: `${remote} no longer has the branch ${displaySafe(name)} (it was deleted or renamed ` +
      `there${where}), so there is nothing to bring in and nowhere to push; ` +
      (other ? `follow ${displaySafe(other)} (the first command), or ${publish}` : publish),
    commands: [
      ...follow,
      gitCommand(kbDir, "push", "--set-upstream", remote, `${branch}:${name}`),
    ],
  };
}
