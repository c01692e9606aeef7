/**
 * The state of a knowledge base's git repo as a save sees it: on a branch or not, an operation
 * under way (rebase, merge, cherry-pick, revert, bisect), unresolved conflicts, git's own
 * lock files left behind (`index.lock`, `HEAD.lock`, a branch's ref lock), and entry files git
 * does not track yet. A save and a sync refuse the first kinds before they write anything
 * ({@link readyBranch}); doctor reports all of them (the `check*` functions).
 *
 * @module
 */
import type { Refusal } from "../../core/exit.ts";
import type { Finding } from "../../core/setup/finding.ts";
import { join } from "../../core/path.ts";
import { gitCommand, shellCommand } from "../../core/shell/quote.ts";
import { displaySafe } from "../../core/text/display.ts";
import { plural } from "../../core/text/plural.ts";
import { ifExists } from "../fs.ts";
import { git, gitOk, pastedIdentityArgs, remoteNames } from "../git.ts";
import { ENTRIES_DIR } from "../kb.ts";
import { checkLock } from "./lock.ts";
import { isGitKbBranch } from "../../core/proposals/branch.ts";

/** Where the repo is: on a branch (ready to save) or in a state a save must not touch. */
export type RepoState =
  | { state: "branch"; branch: string }
  | {
    state:
      | "detached"
      | "side-branch"
      | "rebase"
      | "merge"
      | "cherry-pick"
      | "revert"
      | "bisect"
      | "conflict";
    /** One line: what the state is. */
    message: string;
    /** Commands that get out of it, each pasteable. */
    commands: string[];
  };

/** The repo's git folder, absolute (a worktree's or submodule's too). */
export async function gitDir(kbDir: string): Promise<string> {
  return (await gitOk(kbDir, ["rev-parse", "--absolute-git-dir"])).trim();
}

/** Operations git records with a file or folder in its git dir, checked in this order. */
const OPERATIONS = [
  { state: "rebase", marks: ["rebase-merge", "rebase-apply"], verb: "rebase" },
  { state: "merge", marks: ["MERGE_HEAD"], verb: "merge" },
  { state: "cherry-pick", marks: ["CHERRY_PICK_HEAD"], verb: "cherry-pick" },
  { state: "revert", marks: ["REVERT_HEAD"], verb: "revert" },
] as const;

/**
 * The branch to come back to from a detached HEAD: the local branch that tracks a remote one,
 * else the only local branch, else `main`.
 */
async function homeBranch(kbDir: string): Promise<string> {
  const listing = await gitOk(kbDir, [
    "for-each-ref",
    "--format=%(refname:short) %(upstream)",
    "refs/heads",
  ]);
  const branches = listing.split("\n").filter(Boolean).map((line) => line.split(" "))
    .filter(([name]) => !isGitKbBranch(name));
  const tracking = branches.find(([, upstream]) => upstream);
  return tracking?.[0] ?? (branches.length === 1 ? branches[0][0] : "main");
}

/**
 * The branch saves must go to, when the current branch `name` is not plainly it: undefined when
 * `name` tracks a remote branch, there is no remote, or the remote has no branches yet (a first
 * push); else the remote's default branch (its `HEAD`, when it names a branch fetched), or the one
 * local branch that tracks it.
 */
async function trackedBranch(kbDir: string, name: string): Promise<string | undefined> {
  const upstream = await git(kbDir, ["rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{u}"]);
  if (upstream.code === 0) return undefined;
  const remotes = await remoteNames(kbDir);
  const remote = remotes.includes("origin") ? "origin" : remotes[0];
  if (!remote) return undefined;
  const head = await git(kbDir, ["symbolic-ref", "--short", "-q", `refs/remotes/${remote}/HEAD`]);
  // Only while it names a branch fetched: a dangling one (a remote's HEAD naming a branch it
  // never had) would send the save to a branch that is nowhere.
  const named = await git(kbDir, [
    "rev-parse",
    "--verify",
    "--quiet",
    `refs/remotes/${remote}/HEAD`,
  ]);
  if (head.code === 0 && named.code === 0) return head.stdout.trim().slice(remote.length + 1);
  const known = (await gitOk(kbDir, [
    "for-each-ref",
    "--format=%(refname:short)",
    `refs/remotes/${remote}/`,
  ])).split("\n").filter(Boolean).map((ref) => ref.slice(remote.length + 1))
    .filter((branch) => !isGitKbBranch(branch));
  if (!known.length || known.includes(name)) return undefined;
  const home = await homeBranch(kbDir);
  return known.includes(home) ? home : known[0];
}

/**
 * Which state the repo at `kbDir` is in. Anything but `branch` means a save would commit off
 * the tracked branch or into someone's unfinished operation, so it refuses.
 */
export async function repoState(kbDir: string): Promise<RepoState> {
  const dir = await gitDir(kbDir);
  const has = (name: string) => ifExists(() => Deno.statSync(join(dir, name))) !== undefined;
  const operation = OPERATIONS.find(({ marks }) => marks.some(has));
  if (!operation && has("BISECT_LOG")) {
    return {
      state: "bisect",
      message: `${kbDir} is in the middle of a git bisect; end it first`,
      commands: [gitCommand(kbDir, "bisect", "reset")],
    };
  }
  // NUL-separated: a name git would quote (non-ASCII, a quote) comes back as it is.
  const unmerged = await gitOk(kbDir, ["diff", "--name-only", "--diff-filter=U", "-z"]);
  const paths = [...new Set(unmerged.split("\0").filter(Boolean))];
  const conflicts = paths.length
    ? `unresolved conflicts in ${paths.map(displaySafe).join(", ")}`
    : undefined;
  const resolve = gitCommand(kbDir, "add", "--", ...paths);
  if (operation) {
    const { state, verb } = operation;
    const carryOn = gitCommand(kbDir, verb, "--continue");
    // `--continue` refuses while a file is unmerged: the line marks them resolved first.
    return {
      state,
      message: conflicts
        ? `${kbDir} is in the middle of a ${verb}, with ${conflicts}; fix the conflict ` +
          "markers, then mark them resolved and finish it, or abort it first"
        : `${kbDir} is in the middle of a ${verb}; finish it or abort it first`,
      commands: [
        conflicts ? `${resolve} && ${carryOn}` : carryOn,
        gitCommand(kbDir, verb, "--abort"),
      ],
    };
  }
  if (conflicts) {
    return {
      state: "conflict",
      message: `${kbDir} has ${conflicts}; fix the conflict markers, then mark them resolved`,
      commands: [resolve],
    };
  }
  const branch = await git(kbDir, ["symbolic-ref", "--short", "-q", "HEAD"]);
  if (branch.code === 0) {
    const name = branch.stdout.trim();
    const tracked = await trackedBranch(kbDir, name);
    if (tracked === undefined || tracked === name) return { state: "branch", branch: name };
    return {
      state: "side-branch",
      message: `${kbDir} is on branch ${name}, which tracks no remote branch, while the ` +
        `knowledge base's branch is ${tracked}; a save there would never reach it`,
      commands: [gitCommand(kbDir, "switch", tracked)],
    };
  }
  return {
    state: "detached",
    message: `${kbDir} has a detached HEAD (no branch checked out), so a save has no branch ` +
      "to commit to; switch back to the knowledge base's branch first",
    commands: [gitCommand(kbDir, "switch", await homeBranch(kbDir))],
  };
}

/** Doctor's check of {@link repoState}: ok on a branch, else an error with the way out. */
export async function checkRepoState(kbDir: string): Promise<Finding> {
  const found = await repoState(kbDir);
  if (found.state === "branch") {
    return { level: "ok", check: "git", message: `on branch ${found.branch}` };
  }
  return {
    level: "error",
    check: "git",
    message: `${found.message}: ${found.commands.join(" or ")}`,
  };
}

/** The lock files git leaves at the top of its folders: the index, HEAD, packed refs, config. */
const TOP_LOCKS = {
  gitDir: ["index.lock", "HEAD.lock"],
  common: ["packed-refs.lock", "config.lock"],
};

/** Every `*.lock` file under `folder` (a ref's lock: `refs/heads/main.lock`), depth first. */
function lockFilesUnder(folder: string): string[] {
  const found: string[] = [];
  const items = ifExists(() => [...Deno.readDirSync(folder)]) ?? [];
  for (const item of items.sort((a, b) => a.name < b.name ? -1 : 1)) {
    const path = join(folder, item.name);
    if (item.isDirectory) found.push(...lockFilesUnder(path));
    else if (item.name.endsWith(".lock")) found.push(path);
  }
  return found;
}

/**
 * Git's own lock files in the repo of `kbDir`, each held by a git command running now or left by
 * one that was killed: `index.lock`, `HEAD.lock`, a ref's lock (`refs/heads/main.lock`, a remote
 * branch's), `packed-refs.lock`, `config.lock`. Absolute paths; empty when there is none. With
 * `branch`, only those that stop a commit on it, or its fetch and push: the index's, HEAD's, the
 * branch's and the remote branches' (a save and a sync refuse on these).
 */
export async function gitLockPaths(kbDir: string, branch?: string): Promise<string[]> {
  const [dir, common] = (await gitOk(kbDir, [
    "rev-parse",
    "--path-format=absolute",
    "--git-dir",
    "--git-common-dir",
  ])).trim().split("\n");
  const present = (path: string) => ifExists(() => Deno.lstatSync(path)) !== undefined;
  const top = [
    ...TOP_LOCKS.gitDir.map((name) => join(dir, name)),
    ...branch === undefined ? TOP_LOCKS.common.map((name) => join(common, name)) : [],
  ].filter(present);
  if (branch === undefined) return [...top, ...lockFilesUnder(join(common, "refs"))];
  const own = join(common, "refs", "heads", `${branch}.lock`);
  return [
    ...top,
    ...present(own) ? [own] : [],
    ...lockFilesUnder(join(common, "refs", "remotes")),
  ];
}

/** What git's lock files `paths` mean: what they block and why they may be there. */
function gitLocksProblem(paths: readonly string[]): string {
  const [files, them] = paths.length === 1
    ? [`git's lock file ${paths[0]} exists`, "it"]
    : [`git's lock files ${paths.join(", ")} exist`, "them"];
  return `${files}: a git command is running in this repo, or one was killed and left ${them}, ` +
    "and git changes nothing it locks until the lock is gone";
}

/** What a save refused by git's lock files `paths` says: the problem, then how to clear them. */
export function gitLocksMessage(paths: readonly string[]): string {
  return `${gitLocksProblem(paths)}. Check that no git process is running (ps -e | grep git), ` +
    `then remove ${paths.length === 1 ? "it" : "them"}: ${shellCommand(["rm", "-f", ...paths])}`;
}

/**
 * The branch a save or a sync may write to: the repo's, with nothing under way and none of git's
 * lock files in the way. Else throws what `refuse` makes of the refusal (the state or the lock
 * files, and the commands that get out of it), before anything is written.
 */
export async function readyBranch(
  kbDir: string,
  refuse: (refusal: Refusal) => Error,
): Promise<string> {
  const found = await repoState(kbDir);
  if (found.state !== "branch") {
    throw refuse({ reason: found.message, commands: found.commands });
  }
  const locks = await gitLockPaths(kbDir, found.branch);
  if (locks.length) throw refuse({ reason: gitLocksMessage(locks), commands: [] });
  return found.branch;
}

/** Doctor's check of git's lock files, with the command that removes them. */
export async function checkGitLocks(kbDir: string): Promise<Finding> {
  const paths = await gitLockPaths(kbDir);
  if (!paths.length) return { level: "ok", check: "git", message: "no git lock file left behind" };
  return {
    level: "error",
    check: "git",
    message: `${gitLocksProblem(paths)} (check that no git process runs: ps -e | grep git); ` +
      `fix: ${shellCommand(["rm", "-f", ...paths])}`,
  };
}

/**
 * Entry files under `entries/` that git does not have in a commit: untracked (a `.gitignore`
 * ignoring them included: the index reads them all the same, and a teammate can commit one that
 * ignores `entries/`), or added but not committed (a save killed between writing and committing,
 * or a file put there by hand). Paths relative to the knowledge base, sorted.
 */
export async function findOrphans(kbDir: string): Promise<UncommittedFile[]> {
  return (await uncommittedFiles(kbDir, [ENTRIES_DIR], { ignored: true }))
    // `AD`: staged, and its file gone since; no file to commit ({@link stagedOnly} names it).
    .filter(({ status }) => /^(\?\?|!!|A[^D])$/.test(status))
    .filter(({ path }) => path.endsWith(".md") && !path.split("/").pop()!.startsWith("."))
    .sort((a, b) => a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}

/** A file `git status` lists: its two-letter status (`??`, `!!`, ` M`, `A `…) and its path. */
export interface UncommittedFile {
  status: string;
  /** Relative to the knowledge base. */
  path: string;
}

/**
 * The files under `paths` (relative to the knowledge base) whose content no commit holds as it
 * is: untracked ones included, each listed, in `git status`'s order; with `ignored`, the untracked
 * files a `.gitignore` ignores too (status `!!`).
 */
export async function uncommittedFiles(
  kbDir: string,
  paths: readonly string[],
  { ignored = false }: { ignored?: boolean } = {},
): Promise<UncommittedFile[]> {
  const args = [
    "status",
    "--porcelain=v1",
    "-z",
    "--untracked-files=all",
    ...ignored ? ["--ignored=traditional"] : [],
    "--",
    ...paths,
  ];
  return (await gitOk(kbDir, args)).split("\0").filter(Boolean)
    .map((item) => ({ status: item.slice(0, 2), path: item.slice(3) }));
}

/** How many files {@link handEdits} and {@link stagedOnly} name; the rest are counted. */
const NAMED_FILES = 5;

/** The paths, shown safely on one line: up to {@link NAMED_FILES}, the rest counted. */
function namedPaths(paths: readonly string[]): string {
  const shown = paths.slice(0, NAMED_FILES).map(displaySafe).join(", ");
  return paths.length > NAMED_FILES ? `${shown} and ${paths.length - NAMED_FILES} more` : shown;
}

/**
 * The entry files under entries/ that no commit holds as they are: `edited`, those whose file
 * differs from the last commit (or that no commit has), and `staged`, those whose file is as the
 * last commit has it (or gone, as it has none) while git's index holds another version (a save
 * that could not unstage what it staged), which only a `git reset` clears: adding them gives a
 * commit nothing to record. Each in `git status`'s order.
 */
async function changedEntryFiles(kbDir: string): Promise<{ edited: string[]; staged: string[] }> {
  const changed = (await uncommittedFiles(kbDir, [ENTRIES_DIR]))
    .filter(({ path }) => path.endsWith(".md"));
  if (!changed.length) return { edited: [], staged: [] };
  // The files that differ from the last commit; none is known before a first commit.
  const differ = await git(kbDir, [
    "diff",
    "HEAD",
    "--name-only",
    "--no-renames",
    "-z",
    "--",
    ENTRIES_DIR,
  ]);
  const differing = differ.code === 0 ? new Set(differ.stdout.split("\0")) : undefined;
  const indexOnly = ({ status, path }: UncommittedFile) =>
    differing !== undefined && status !== "??" && !differing.has(path);
  return {
    edited: changed.filter((file) => !indexOnly(file)).map(({ path }) => path),
    staged: changed.filter(indexOnly).map(({ path }) => path),
  };
}

/** Changes under entries/ that no commit holds: what they are, and the line that commits them. */
export interface HandEdits {
  /** How many, and which (up to {@link NAMED_FILES}, shown safely on one line). */
  summary: string;
  /** `git add` and `git commit` of every change to an entry file, to paste. */
  commit: string;
}

/**
 * Changes to entry files that no commit holds yet (hand edits, or the files of an import or save
 * stopped before its commit, `edits`), and changes git's index alone holds (`staged`), each
 * undefined when there are none; from one reading of git's status. A save commits only its own
 * entry and a sync sends only commits, so edits stay on this machine until committed. A file
 * under entries/ that is not an entry file (`….md.mine`, a backup) is the index's to name, never
 * one to commit.
 */
export async function uncommittedEntryChanges(
  kbDir: string,
): Promise<{ edits?: HandEdits; staged?: StagedOnly }> {
  const { edited, staged } = await changedEntryFiles(kbDir);
  return {
    edits: edited.length ? await handEdits(kbDir, edited) : undefined,
    staged: staged.length ? stagedOnly(kbDir, staged) : undefined,
  };
}

/** The hand edits `edited` (entry files that differ from the last commit), named, with their commit. */
async function handEdits(kbDir: string, edited: readonly string[]): Promise<HandEdits> {
  const identity = await pastedIdentityArgs(kbDir);
  return {
    summary: `${plural(edited.length, "uncommitted change", "uncommitted changes")} under ` +
      `${ENTRIES_DIR}/ (${namedPaths(edited)})`,
    commit: `${gitCommand(kbDir, "add", "--", `${ENTRIES_DIR}/*.md`)} && ` +
      gitCommand(kbDir, ...identity, "commit", "-m", "kb: commit hand edits"),
  };
}

/** Changes git's index alone holds under entries/: what they are, and the line that clears them. */
export interface StagedOnly {
  /** How many, and which, in a phrase that says why no commit should record them. */
  summary: string;
  /** The `git reset` that unstages them, to paste. */
  unstage: string;
}

/**
 * The changes under entries/ `staged` in git's index that no file holds (see
 * {@link changedEntryFiles}): a commit of the index would record them, so the way on is to
 * unstage them.
 */
function stagedOnly(kbDir: string, staged: readonly string[]): StagedOnly {
  return {
    summary: `${plural(staged.length, "change", "changes")} under ${ENTRIES_DIR}/ staged in ` +
      `git's index that no file holds (${namedPaths(staged)}), which a commit would record`,
    unstage: gitCommand(kbDir, "reset", "--quiet", "--", ...staged),
  };
}

/**
 * One line naming orphan files and the commands that commit them (`git add --force` when an
 * ignore rule, of a `.gitignore` or `.git/info/exclude`, keeps one out, which a plain `git add`
 * refuses; git-kb's stand-in identity when git has none, which a plain `git commit` refuses).
 */
export async function orphansMessage(
  kbDir: string,
  orphans: readonly UncommittedFile[],
): Promise<string> {
  const files = orphans.length === 1
    ? `1 entry file under ${ENTRIES_DIR}/ is`
    : `${orphans.length} entry files under ${ENTRIES_DIR}/ are`;
  const ignored = orphans.filter(({ status }) => status === "!!").length;
  const why = ignored
    ? `, ${ignored === orphans.length ? "ignored" : `${ignored} of them ignored`} by an ignore rule`
    : "";
  const paths = orphans.map(({ path }) => path);
  return `${files} not committed (${paths.map(displaySafe).join(", ")})${why}; commit them: ` +
    gitCommand(kbDir, "add", ...ignored ? ["--force"] : [], "--", ...paths) + " && " +
    gitCommand(
      kbDir,
      ...await pastedIdentityArgs(kbDir),
      "commit",
      "-m",
      "kb: commit orphaned entries",
    );
}

/** Doctor's check of {@link findOrphans}. */
export async function checkOrphans(kbDir: string): Promise<Finding> {
  const orphans = await findOrphans(kbDir);
  return orphans.length
    ? { level: "warn", check: "entries", message: await orphansMessage(kbDir, orphans) }
    // Said of new files only: a hand edit of a committed one is the git check's warning.
    : { level: "ok", check: "entries", message: "no entry file waits for its first commit" };
}

/**
 * The save lock of the knowledge base at `kbDir`, `git-kb.lock` in its git folder: every save and
 * sync holds it, so they line up (other processes included).
 */
export async function saveLockPath(kbDir: string): Promise<string> {
  return join(await gitDir(kbDir), "git-kb.lock");
}

/** Doctor's check of the save lock: a stale one is named with the command that clears it. */
export async function checkSaveLock(kbDir: string): Promise<Finding> {
  return checkLock(await saveLockPath(kbDir), "lock");
}
