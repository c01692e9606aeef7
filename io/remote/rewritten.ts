/**
 * A remote whose history was rewritten: someone force-pushed a branch without commits it had (a
 * purge of a leaked secret, a reset). This clone still holds them, and a sync's or save's push
 * would publish them again, undoing the purge without a word. Before pushing, sync and the save
 * pipeline count the commits they would send that the remote had before (any value its
 * remote-tracking ref held: git's reflog of that ref, which every fetch writes, including the
 * session's pull and doctor's) and no longer has; any such commit stops the push until the user
 * says which history wins.
 *
 * @module
 */
import type { Refusal } from "../../core/exit.ts";
import { gitCommand } from "../../core/shell/quote.ts";
import { plural } from "../../core/text/plural.ts";
import { git, remoteBranchName } from "../git.ts";
import { kbCommand } from "../self_command.ts";

/** The commits reachable from `tips` and not from `except` (none excluded when undefined). */
async function commitsOf(kbDir: string, tips: string[], except?: string): Promise<string[]> {
  const stdin = [...tips, ...except ? [`^${except}`] : []].join("\n") + "\n";
  const listed = await git(kbDir, ["rev-list", "--stdin"], { stdin });
  return listed.code === 0 ? listed.stdout.split("\n").filter(Boolean) : [];
}

/**
 * Every value the ref `tracking` held, newest first, as far as its reflog goes, and the value it
 * held before its first entry; [] without a reflog. That earliest value matters: a clone starts
 * its remote-tracking refs without a log, so after the first fetch the commits the clone came
 * with are named only as the old value of that fetch's entry (`git log -g` lists new values).
 */
async function valuesOf(kbDir: string, tracking: string): Promise<string[]> {
  const log = await git(kbDir, ["log", "--walk-reflogs", "--format=%H", tracking, "--"]);
  if (log.code !== 0) return [];
  const values = log.stdout.split("\n").filter(Boolean);
  if (!values.length) return [];
  // One step past the oldest entry, git answers with that entry's old value.
  const earliest = await git(kbDir, [
    "rev-parse",
    "--verify",
    "--quiet",
    `${tracking}@{${values.length}}^{commit}`,
  ]);
  if (earliest.code === 0) values.push(earliest.stdout.trim());
  return [...new Set(values)];
}

/**
 * The commits of `head` a push would send that the remote had before (reachable from a value its
 * remote-tracking ref `tracking` held) and that its branch, now at `theirs` (undefined: the branch
 * is gone), no longer has.
 */
export async function republishedCommits(
  kbDir: string,
  tracking: string,
  head: string,
  theirs: string | undefined,
): Promise<string[]> {
  const sent = await commitsOf(kbDir, [head], theirs);
  if (!sent.length) return [];
  const seen = await valuesOf(kbDir, tracking);
  if (!seen.length) return [];
  const dropped = new Set(await commitsOf(kbDir, seen, theirs));
  return sent.filter((commit) => dropped.has(commit));
}

/** The sync flag that republishes what a rewritten remote dropped. */
export const FORCE_REPUBLISH = "--force-republish";

/**
 * What a rewritten remote means and the two ways out (back to the remote's history, a backup
 * kept, or republish), for `count` commits of `branch` (now at `head`) that `upstream`
 * (`origin/main`) dropped by a rewrite of its history.
 */
function rewrittenAdvice(
  kbDir: string,
  { branch, head, upstream, count }: {
    branch: string;
    head: string;
    upstream: string;
    count: number;
  },
): Refusal {
  const backup = `git-kb-before-rewrite-${head.slice(0, 7)}`;
  const commits = plural(count, "commit", "commits");
  return {
    reason:
      `${upstream}'s history was rewritten (a force-push dropped commits it had, as a purge ` +
      `of a leaked secret does): ${commits} of ${branch} that ${upstream} had before ` +
      `${count === 1 ? "is" : "are"} no longer on it, and pushing would publish ` +
      `${count === 1 ? "it" : "them"} again. If the rewrite was meant, take ` +
      `${upstream}'s history (your branch is kept as ${backup}; commits made here since are on ` +
      `it to pick from); if the commits should be back, republish them`,
    commands: [
      // Not `reset --keep`, which overwrites a file the ignore rules keep out of git where the
      // remote's history has one: this checkout moves the branch the same way and refuses that.
      `${gitCommand(kbDir, "branch", backup, branch)} && ${
        gitCommand(kbDir, "checkout", "--quiet", "--no-overwrite-ignore", "-B", branch, upstream)
      }`,
      kbCommand("sync", FORCE_REPUBLISH, "--kb", kbDir),
    ],
  };
}

/**
 * What stops a push of `head`, the tip of `branch`, that would publish again commits the remote
 * dropped by a rewrite (see {@link republishedCommits}): `tracking` is the remote-tracking ref
 * (`refs/remotes/origin/main`), `theirs` the remote branch's tip as fetched. Undefined when the
 * push would republish none.
 */
export async function republishRefusal(
  kbDir: string,
  { tracking, branch, head, theirs }: {
    tracking: string;
    branch: string;
    head: string;
    theirs: string | undefined;
  },
): Promise<Refusal | undefined> {
  const count = (await republishedCommits(kbDir, tracking, head, theirs)).length;
  if (!count) return undefined;
  const upstream = remoteBranchName(tracking);
  return rewrittenAdvice(kbDir, { branch, head, upstream, count });
}
