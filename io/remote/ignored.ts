/**
 * Ignored files in the way of a branch that moves onto what came from the remote (a sync's
 * `git reset --keep`, a save's replay, the SessionStart pull's fast-forward): git would overwrite
 * them without a word, so each of the three asks here first and stops with the same refusal
 * (core/sync/ignored.ts words it).
 *
 * @module
 */
import type { Refusal } from "../../core/exit.ts";
import {
  ignoredInTheWay,
  ignoredRefusal,
  parseStatus,
  type SetAside,
  type WorkTreeStatus,
} from "../../core/sync/ignored.ts";
import { pathExists } from "../disk.ts";
import { git, GitError, gitOk, type GitOptions } from "../git.ts";
import { syncCommand } from "./target.ts";

/**
 * The work tree's uncommitted and ignored files among the top folders (and files) of `paths`,
 * each ignored file named on its own, also inside a folder an ignore rule names: git walks no
 * other folder, however much a rule keeps out of git elsewhere.
 */
export async function workTreeStatus(
  kbDir: string,
  paths: readonly string[],
  options: GitOptions = {},
): Promise<WorkTreeStatus> {
  const tops = [...new Set(paths.map((path) => path.split("/")[0]))];
  if (!tops.length) return parseStatus("");
  const args = ["status", "--porcelain=v1", "-z", "--ignored=traditional", "--untracked-files=all"];
  const within = tops.map((top) => `:(literal)${top}`);
  return parseStatus(await gitOk(kbDir, [...args, "--", ...within], options));
}

/** The files moving the branch from commit `from` to `to` writes or removes. */
export async function movedPaths(
  kbDir: string,
  from: string,
  to: string,
  options: GitOptions = {},
): Promise<string[]> {
  const diff = await gitOk(kbDir, ["diff", "--name-only", "--no-renames", "-z", from, to], options);
  return diff.split("\0").filter(Boolean);
}

/** The rule keeping each of `paths` out of git, `source:line:pattern`, by path. */
async function ignoreRules(
  kbDir: string,
  paths: readonly string[],
  options: GitOptions,
): Promise<Map<string, string>> {
  const args = ["check-ignore", "--verbose", "-z", "--stdin"];
  const checked = await git(kbDir, args, {
    ...options,
    stdin: paths.map((path) => `${path}\0`).join(""),
  });
  // Exit 1: no rule matches any of them (a folder that only holds ignored files).
  if (checked.code > 1) throw new GitError(args, checked);
  const words = checked.stdout.split("\0");
  const rules = new Map<string, string>();
  for (let at = 0; at + 3 < words.length; at += 4) {
    rules.set(words[at + 3], `${words[at]}:${words[at + 1]}:${words[at + 2]}`);
  }
  return rules;
}

/**
 * The refusal for the ignored files among `status` that the files `touched` (what a move onto
 * `remote`'s commits writes) would overwrite, each to be moved to `<path>.mine` (or `.mine-2`,
 * … when that is taken); undefined when none is in the way.
 */
export async function ignoredRefusalFor(
  kbDir: string,
  touched: readonly string[],
  status: WorkTreeStatus,
  remote: string,
  options: GitOptions = {},
): Promise<Refusal | undefined> {
  const blocked = ignoredInTheWay(touched, status.ignored);
  if (!blocked.length) return undefined;
  const rules = await ignoreRules(kbDir, blocked, options);
  const taken = new Set([...touched, ...blocked]);
  const asides: SetAside[] = blocked.map((path) => {
    let aside = `${path}.mine`;
    for (let n = 2; taken.has(aside) || pathExists(`${kbDir}/${aside}`); n++) {
      aside = `${path}.mine-${n}`;
    }
    taken.add(aside);
    return { path, aside, rule: rules.get(path) };
  });
  return ignoredRefusal(kbDir, asides, remote, syncCommand(kbDir));
}

/**
 * The refusal to move the branch from commit `from` to `to` (what came from `remote`) when
 * ignored files stand where the move writes, as {@link ignoredRefusalFor}; undefined when none.
 */
export async function ignoredInTheWayOf(
  kbDir: string,
  { from, to, remote }: { from: string; to: string; remote: string },
  options: GitOptions = {},
): Promise<Refusal | undefined> {
  const touched = await movedPaths(kbDir, from, to, options);
  const status = await workTreeStatus(kbDir, touched, options);
  return await ignoredRefusalFor(kbDir, touched, status, remote, options);
}
