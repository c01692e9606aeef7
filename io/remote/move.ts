/**
 * Moving the checked-out branch onto what came from the remote (a sync's `git reset --keep`, a
 * save's replay, the SessionStart pull's fast-forward) so that a move git could not finish leaves
 * no file half-written. Git writes the files first and moves the branch last: on a full disk or in
 * a folder it may not write, it stops part-way and leaves what it wrote (a file cut short, empty
 * files where new entries go). The next sync then read them as the user's own uncommitted changes
 * and said to commit them. Here the files the move writes that were clean before it are put back
 * as the branch has them once it failed.
 *
 * @module
 */
import { join } from "../../core/path.ts";
import { git, gitOk, type GitOptions, type GitResult } from "../git.ts";
import { movedPaths, workTreeStatus } from "./ignored.ts";

/** The files of `paths` commit `rev` holds (a pathspec each, taken literally). */
async function heldBy(
  kbDir: string,
  rev: string,
  paths: readonly string[],
  options: GitOptions,
): Promise<Set<string>> {
  if (!paths.length) return new Set();
  const listed = await gitOk(kbDir, [
    "ls-tree",
    "-r",
    "-z",
    "--name-only",
    rev,
    "--",
    ...paths.map((path) => `:(literal)${path}`),
  ], options);
  return new Set(listed.split("\0").filter(Boolean));
}

/**
 * Put the files of `clean` back as commit `from` holds them (removing those it has none of), when
 * the branch is still at `from`. Best effort: whatever cannot be put back is left for git status.
 */
async function putBack(
  kbDir: string,
  from: string,
  clean: readonly string[],
  options: GitOptions,
): Promise<void> {
  const head = await git(kbDir, ["rev-parse", "--verify", "--quiet", "HEAD"], options);
  if (head.code !== 0 || head.stdout.trim() !== from) return;
  const held = await heldBy(kbDir, from, clean, options);
  // The new files first: removing them frees the room the others may need.
  for (const path of clean.filter((path) => !held.has(path))) {
    await Deno.remove(join(kbDir, path)).catch(() => {});
  }
  if (held.size) {
    const pathspecs = [...held].map((path) => `:(literal)${path}`);
    await git(kbDir, ["checkout", "--quiet", from, "--", ...pathspecs], options);
  }
}

/**
 * Run `args` (a git command that moves the branch checked out in `kbDir` from commit `from` to
 * commit `to`, writing the files that differ) and resolve to its result; when it fails or throws
 * (a timeout) with the branch still at `from`, the files it writes that had no uncommitted change
 * and were not ignored before are first put back as `from` holds them. Uncommitted changes, which
 * git keeps or refuses to overwrite, are never touched.
 */
export async function moveBranchFiles(
  kbDir: string,
  { from, to }: { from: string; to: string },
  args: string[],
  options: GitOptions = {},
): Promise<GitResult> {
  const touched = await movedPaths(kbDir, from, to, options);
  const status = await workTreeStatus(kbDir, touched, options);
  const ignored = new Set(status.ignored);
  const clean = touched.filter((path) => !status.uncommitted.has(path) && !ignored.has(path));
  let moved: GitResult;
  try {
    moved = await git(kbDir, args, options);
  } catch (error) {
    await putBack(kbDir, from, clean, options);
    throw error;
  }
  if (moved.code !== 0) await putBack(kbDir, from, clean, options);
  return moved;
}
