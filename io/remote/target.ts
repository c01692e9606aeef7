/**
 * Where a knowledge base's branch goes on its remote, and the commands that bring the two in step
 * (printed by save, sync and doctor).
 *
 * @module
 */
import { gitCommand } from "../../core/shell/quote.ts";
import { git, remoteNames } from "../git.ts";
import { kbCommand } from "../self_command.ts";

/** Where the branch is pushed: its configured upstream, else the same name on origin. */
export interface PushTarget {
  /** The remote's name, `origin`. */
  remote: string;
  /** The remote branch's full ref, `refs/heads/main`. */
  ref: string;
  /** The local ref the remote branch is fetched into, `refs/remotes/origin/main`. */
  tracking: string;
  /** Whether the branch has an upstream configured (else it is set after the first push). */
  configured: boolean;
}

/** Where `branch` is pushed (see {@link PushTarget}); undefined when there is no remote. */
export async function pushTarget(kbDir: string, branch: string): Promise<PushTarget | undefined> {
  const remotes = await remoteNames(kbDir);
  if (!remotes.length) return undefined;
  const config = async (key: string) =>
    (await git(kbDir, ["config", "--get", `branch.${branch}.${key}`])).stdout.trim();
  const [upstreamRemote, upstreamRef] = [await config("remote"), await config("merge")];
  const remote = remotes.includes(upstreamRemote)
    ? upstreamRemote
    : remotes.includes("origin")
    ? "origin"
    : remotes[0];
  const ref = remote === upstreamRemote && upstreamRef ? upstreamRef : `refs/heads/${branch}`;
  const tracking = `refs/remotes/${remote}/${ref.replace(/^refs\/heads\//, "")}`;
  return { remote, ref, tracking, configured: remote === upstreamRemote && Boolean(upstreamRef) };
}

/** The remote branch's short name, `main`. */
export function remoteBranch(target: PushTarget): string {
  return target.ref.replace(/^refs\/heads\//, "");
}

/** The remote branch's tip as last fetched into its tracking ref; undefined when never fetched. */
export async function trackedTip(kbDir: string, target: PushTarget): Promise<string | undefined> {
  const found = await git(kbDir, ["rev-parse", "--verify", "--quiet", target.tracking]);
  return found.code === 0 ? found.stdout.trim() : undefined;
}

/**
 * The command that brings a knowledge base in step with its remote, which is how a push that
 * cannot be made by replaying is finished: `git-kb sync` names what is in the way (a conflict,
 * uncommitted changes, merge commits) and prints the commands for each case.
 */
export function syncCommand(kbDir: string): string {
  return kbCommand("sync", "--kb", kbDir);
}

/**
 * The line that gives a knowledge base with no remote one and pushes what it holds, with the
 * user's repo URL in place of `<url>`: `git remote add` run in that folder (wherever the user
 * pastes it), then {@link syncCommand}.
 */
export function addRemoteCommand(kbDir: string): string {
  return `${gitCommand(kbDir, "remote", "add", "origin")} <url> && ${syncCommand(kbDir)}`;
}
