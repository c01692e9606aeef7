/**
 * The system `git` binary as a subprocess. Every git call in git-kb goes through here. Calls
 * that reach a remote take a timeout, and one that runs out says which call it was.
 *
 * @module
 */
import { EXIT, KbError } from "../core/exit.ts";
import { entryAttributesLine, withEntryAttributesLine } from "../core/git/entry_attributes.ts";
import { GIT_REPO_ENV } from "../core/git/repo_env.ts";
import { gitCommand, shellCommand } from "../core/shell/quote.ts";
import {
  ProcessInterruptedError,
  type ProcessOutput,
  ProcessTimeoutError,
  runProcess,
} from "./process.ts";

/** What a git command printed and how it exited. */
export type GitResult = ProcessOutput;

/** How long one git call that reaches a remote (push, fetch, pull) may run, in ms. */
export const NETWORK_TIMEOUT_MS = 45_000;

/**
 * The bound of a git call that waits on something outside git (a remote, a signing program):
 * `defaultMs`, unless `KB_TEST_NETWORK_TIMEOUT_MS` shortens it (to no less than 200 ms) for the
 * tests of a remote or a signing program that never answers.
 */
export function networkTimeoutMs(defaultMs: number = NETWORK_TIMEOUT_MS): number {
  const asked = Number(Deno.env.get("KB_TEST_NETWORK_TIMEOUT_MS"));
  return Number.isFinite(asked) && asked > 0
    ? Math.min(Math.max(asked, 200), defaultMs)
    : defaultMs;
}

/** How many lines of git's output an error message keeps. */
const DETAIL_LINES = 3;

/**
 * The lines of git's output worth keeping in a message: the last few, and any `fatal:`/`error:`
 * line before them (the one naming a lock file, say), in their order.
 */
export function gitDetail(output: string): string {
  const lines = output.trim().split("\n");
  const tail = lines.length - DETAIL_LINES;
  return lines.filter((line, at) => at >= tail || /^(fatal|error):/.test(line)).join("\n");
}

/** Raised when a git command fails; carries git's own words. */
export class GitError extends Error {
  readonly result: GitResult;
  constructor(args: string[], result: GitResult) {
    super(
      `git ${args.join(" ")} failed (exit ${result.code}): ${
        gitDetail(result.stderr || result.stdout)
      }`,
    );
    this.name = "GitError";
    this.result = result;
  }
}

/** Raised when a git call outlived its timeout and was killed; names the call. */
export class GitTimeoutError extends Error {
  /** The call, as `git push origin main`. */
  readonly call: string;
  constructor(args: string[], timeoutMs: number) {
    const call = `git ${args.join(" ")}`;
    super(`${call} did not finish within ${Math.round(timeoutMs / 1000)} s and was stopped`);
    this.name = "GitTimeoutError";
    this.call = call;
  }
}

/**
 * Raised when this process was interrupted (Ctrl-C: SIGINT, SIGTERM, SIGHUP) during a git call
 * in a group of its own, which was then stopped with what it started. A kind of
 * {@link GitTimeoutError}: every caller that reports a call that did not finish reports it.
 */
export class GitInterruptedError extends GitTimeoutError {
  constructor(args: string[], signal: string) {
    super(args, 0);
    this.message = `${this.call} was stopped: git-kb got ${signal}`;
    this.name = "GitInterruptedError";
  }
}

/**
 * Raised when there is no git to run: not installed, or not on PATH. Every git call raises it in
 * the same words, so doctor names it once. Exit code 1.
 */
export class GitMissingError extends KbError {
  constructor() {
    super(
      "git is not installed or not on PATH: install git (https://git-scm.com/downloads), or " +
        "add its folder to PATH, then run the command again",
      EXIT.failed,
    );
    this.name = "GitMissingError";
  }
}

/**
 * `error`, which starting git in `cwd` raised, as a {@link GitMissingError} when git was not found
 * (Deno says NotFound for a `cwd` that is not there too); any other as it is.
 */
function spawnError(error: unknown, cwd: string): unknown {
  if (!(error instanceof Deno.errors.NotFound)) return error;
  try {
    Deno.statSync(cwd);
  } catch {
    return error;
  }
  return new GitMissingError();
}

/**
 * The line of git's stderr that says what went wrong: the first `fatal:` or `error:` line
 * without its prefix, else the first line; no trailing period, so it can sit in a sentence.
 */
export function gitReason(stderr: string): string {
  const lines = stderr.split("\n").map((line) => line.trim()).filter(Boolean);
  const line = lines.find((item) => /^(fatal|error):/.test(item)) ?? lines[0] ?? "no message";
  return line.replace(/^(fatal|error):\s*/, "").replace(/\.+$/, "");
}

/** Environment that keeps git from prompting or paging inside a tool. */
const QUIET_ENV = {
  GIT_TERMINAL_PROMPT: "0",
  GIT_PAGER: "cat",
  GIT_EDITOR: "true",
  LC_ALL: "C",
};

/**
 * The settings every git call gets over any config: `log.showSignature`, set in the user's
 * config, would put the check of a signed commit's signature ("No signature", gpg's lines)
 * before every `git log --format` record; `core.fsmonitor` names a program, run through the shell
 * by `status`, `ls-files`, `diff` and the like, which git-kb never needs (a knowledge base is
 * small) and which anyone who can write the knowledge base's `.git/config` (an agent that edits
 * files in the folder it works in, without asking) could name.
 */
const GIT_SETTINGS: Readonly<Record<string, string>> = {
  "log.showSignature": "false",
  "core.fsmonitor": "false",
};

/**
 * What {@link withoutRepoHooks} adds: no git hook of the repository runs (git looks for each
 * in `/dev/null/`, which holds none).
 */
const NO_HOOKS_SETTINGS: Readonly<Record<string, string>> = { "core.hooksPath": "/dev/null" };

let repoHooksRun = true;

/**
 * From now on, run no git hook of the knowledge base's repository (`post-merge`,
 * `post-checkout`, `reference-transaction`, `pre-auto-gc`, …) in this process's git calls. For
 * the hooks git-kb runs on its own (the session's pull, the capture worker): nobody asked for
 * their git calls, so none of them runs a program the repository names. A command the user runs
 * (`sync`, a save's push) runs them as git would, commit hooks aside (`--no-verify`).
 */
export function withoutRepoHooks(): void {
  repoHooksRun = false;
}

/** The environment of a git call: {@link QUIET_ENV} and the settings as `GIT_CONFIG_*`. */
function gitEnv(): Record<string, string> {
  const settings = Object.entries({
    ...GIT_SETTINGS,
    ...repoHooksRun ? {} : NO_HOOKS_SETTINGS,
  });
  const env: Record<string, string> = {
    ...QUIET_ENV,
    GIT_CONFIG_COUNT: String(settings.length),
  };
  settings.forEach(([key, value], at) => {
    env[`GIT_CONFIG_KEY_${at}`] = key;
    env[`GIT_CONFIG_VALUE_${at}`] = value;
  });
  return env;
}

let repoEnvCleared = false;

/**
 * Remove from this process's environment, once, the variables that would point git at another
 * repository than the knowledge base (core/git/repo_env.ts), so that no git call inherits them.
 * A variable git-kb may not touch (a launcher older than this list) is left as it is.
 */
function clearRepoEnv(): void {
  if (repoEnvCleared) return;
  repoEnvCleared = true;
  for (const name of GIT_REPO_ENV) {
    try {
      Deno.env.delete(name);
    } catch { /* not allowed: --allow-env without it */ }
  }
}

/** How to run one git call. */
export interface GitOptions {
  /** Text piped to stdin. */
  stdin?: string;
  /** More environment, on top of the quiet defaults. */
  env?: Record<string, string>;
  /** Stop the call after this many ms, throwing {@link GitTimeoutError}. */
  timeoutMs?: number;
  /**
   * Run git in a process group of its own (a new session), so that stopping it (a timeout,
   * `signal`, this process interrupted) also stops what it started: ssh or a remote helper. The
   * group is killed through the `kill` program, so such a command needs `--allow-run=git,kill`.
   * By default on for a call with `timeoutMs` (one that reaches a remote) unless stdin is a
   * terminal: there git stays in the terminal's session, so that ssh can ask for a key's
   * passphrase or to trust a host, and Ctrl-C reaches it and its transport as before.
   */
  ownGroup?: boolean;
  /** Stop the call when aborted, throwing the signal's reason. */
  signal?: AbortSignal;
}

/** Run `git args…` in `cwd` and return its output, whatever the exit code. */
export async function git(
  cwd: string,
  args: string[],
  options: GitOptions = {},
): Promise<GitResult> {
  const { env, ownGroup = options.timeoutMs !== undefined && !Deno.stdin.isTerminal(), ...run } =
    options;
  clearRepoEnv();
  try {
    return await runProcess("git", args, {
      cwd,
      env: { ...gitEnv(), ...env },
      ownGroup,
      ...run,
    });
  } catch (error) {
    if (error instanceof ProcessTimeoutError) throw new GitTimeoutError(args, run.timeoutMs!);
    if (error instanceof ProcessInterruptedError) throw new GitInterruptedError(args, error.signal);
    throw spawnError(error, cwd);
  }
}

/** Run `git args…` in `cwd`; throw {@link GitError} unless it exits 0. Returns stdout. */
export async function gitOk(
  cwd: string,
  args: string[],
  options: GitOptions = {},
): Promise<string> {
  const result = await git(cwd, args, options);
  if (result.code !== 0) throw new GitError(args, result);
  return result.stdout;
}

/** The identity commits fall back to when git has none configured. */
export const FALLBACK_IDENTITY = { name: "git-kb", email: "git-kb@localhost" } as const;

/** What git-kb commits under: `-c` arguments for what git lacks, and whether any was needed. */
export interface CommitIdentity {
  /** `-c user.name=… -c user.email=…` for what git's own config lacks; empty when both are set. */
  args: string[];
  /** Whether the fallback stands in for the user's name or email in the commits. */
  fallback: boolean;
}

let identityCache: Promise<CommitIdentity> | undefined;

/**
 * Whether the user's config has git sign every commit (`commit.gpgSign`), which `git commit` and
 * `git rebase` follow and `git commit-tree` does not.
 */
export async function signsEveryCommit(cwd: string): Promise<boolean> {
  const { code, stdout } = await git(cwd, ["config", "--type=bool", "--get", "commit.gpgSign"]);
  return code === 0 && stdout.trim() === "true";
}

/** Whether git, given `args`, would author or commit as the fallback (no env identity either). */
async function usesFallback(cwd: string, args: string[]): Promise<boolean> {
  for (const ident of ["GIT_AUTHOR_IDENT", "GIT_COMMITTER_IDENT"]) {
    const { stdout } = await git(cwd, [...args, "var", ident]);
    const fallbackName = stdout.startsWith(`${FALLBACK_IDENTITY.name} <`);
    if (fallbackName || stdout.includes(`<${FALLBACK_IDENTITY.email}>`)) return true;
  }
  return false;
}

/**
 * The identity git-kb commits under: the user's, with the fallback filling what git's config
 * lacks, so commits work on a machine where no identity was ever set (an identity given by
 * `GIT_AUTHOR_NAME` and the like still wins). Asked once per process.
 */
export function commitIdentity(cwd: string): Promise<CommitIdentity> {
  identityCache ??= git(cwd, ["config", "--get-regexp", "^user\\.(name|email)$"]).then(
    async ({ stdout }) => {
      const has = (key: string) => stdout.split("\n").some((line) => line.startsWith(`${key} `));
      const args = [
        ...(has("user.name") ? [] : ["-c", `user.name=${FALLBACK_IDENTITY.name}`]),
        ...(has("user.email") ? [] : ["-c", `user.email=${FALLBACK_IDENTITY.email}`]),
      ];
      return { args, fallback: args.length > 0 && await usesFallback(cwd, args) };
    },
  );
  return identityCache;
}

/** `-c user.name=… -c user.email=…` for what git's own config lacks (see {@link commitIdentity}). */
export async function identityArgs(cwd: string): Promise<string[]> {
  return (await commitIdentity(cwd)).args;
}

/**
 * The `-c user.name=… -c user.email=…` a printed commit command needs: the fallback's, when git
 * would commit under it (see {@link commitIdentity}); else none, so what the user set is used.
 */
export async function pastedIdentityArgs(cwd: string): Promise<string[]> {
  const identity = await commitIdentity(cwd);
  return identity.fallback ? identity.args : [];
}

/** The line to paste, with the user's own name and address, that gives git an identity. */
export const SET_IDENTITY_COMMAND: string = [
  shellCommand(["git", "config", "--global", "user.name", "Your Name"]),
  shellCommand(["git", "config", "--global", "user.email", "you@example.com"]),
].join(" && ");

/**
 * The one line a save prints when it committed under the fallback identity; with `committed`
 * false (an init that made no commit), what git-kb's commits will be authored as.
 */
export function fallbackIdentityWarning(committed = true): string {
  const authored = committed ? "the commit is authored" : "git-kb's commits will be authored";
  return `git has no user.name/user.email, so ${authored} ` +
    `${FALLBACK_IDENTITY.name} <${FALLBACK_IDENTITY.email}>; set yours (your name and address ` +
    `in place of these): ${SET_IDENTITY_COMMAND}`;
}

/**
 * Commit exactly `paths` (already staged) with `message`, under {@link commitIdentity}. When
 * nothing else is staged, the index is committed as it is: git matches every path of the index
 * against every path named, which costs seconds for an import of thousands of notes.
 */
export async function commitPaths(
  cwd: string,
  message: string,
  paths: readonly string[],
  nothingElseStaged = false,
): Promise<void> {
  const { args } = await commitIdentity(cwd);
  const named = nothingElseStaged ? [] : ["--", ...paths];
  const commit = [...args, "commit", "--quiet", "--no-verify", "-m", message, ...named];
  await commitSigned(cwd, commit, await signsEveryCommit(cwd));
}

/** How long git may wait on its signing program for one commit it signs, in ms. */
export const SIGNING_TIMEOUT_MS = 120_000;

/**
 * Raised when a commit git signs (commit.gpgSign) did not finish within
 * {@link SIGNING_TIMEOUT_MS}: its signing program waited for what no one gave it (a passphrase,
 * a PIN, a touch of a security key), so the call was stopped and nothing was committed. Names the
 * program's setting, how to unlock the key, and the line that turns signing off. Exit code 1.
 */
export class SigningTimeoutError extends KbError {
  /**
   * What happened and the ways on, as a phrase for a message of the caller's (a save whose own
   * commit stands, and only its replay onto the remote's was stopped).
   */
  readonly reason: string;
  constructor(kbDir: string, format: string, timeoutMs: number) {
    const ssh = format === "ssh";
    const program = ssh || format === "x509" ? `gpg.${format}.program` : "gpg.program";
    const unlock = ssh
      ? "in a terminal: ssh-add"
      : "in a terminal, where gpg can ask for the passphrase: echo | gpg --clearsign";
    const what = `git signs every commit in ${kbDir} (commit.gpgSign is true) and its signing ` +
      `program (${program}) did not finish within ${Math.round(timeoutMs / 1000)} s: it is ` +
      "most likely waiting for a passphrase, PIN or touch that cannot be given here";
    const way = `unlock the key first (${unlock}), or turn signing off for this knowledge ` +
      "base alone";
    const off = gitCommand(kbDir, "config", "commit.gpgSign", "false");
    super(
      `${what}. It was stopped and nothing was committed. To go on, ${way}, then run the ` +
        "command again",
      EXIT.failed,
      [off],
    );
    this.name = "SigningTimeoutError";
    this.reason = `${what}; ${way} (${off})`;
  }
}

/**
 * Run `git args…`, a call that makes a commit, in `cwd`, and return its stdout (see
 * {@link gitOk}). When git signs it (`signs`), its signing program may wait for input forever
 * (a locked key, a prompt no one sees): the call is bounded by {@link SIGNING_TIMEOUT_MS} and
 * one that runs out raises {@link SigningTimeoutError}.
 */
async function commitSigned(
  cwd: string,
  args: string[],
  signs: boolean,
  options: GitOptions = {},
): Promise<string> {
  if (!signs) return await gitOk(cwd, args, options);
  const timeoutMs = networkTimeoutMs(SIGNING_TIMEOUT_MS);
  try {
    return await gitOk(cwd, args, { ...options, timeoutMs });
  } catch (error) {
    if (!(error instanceof GitTimeoutError) || error instanceof GitInterruptedError) throw error;
    const format = (await git(cwd, ["config", "--get", "gpg.format"])).stdout.trim();
    throw new SigningTimeoutError(cwd, format, timeoutMs);
  }
}

/** From this many paths on, {@link stagePaths} writes their objects into one pack. */
const BULK_STAGE_PATHS = 100;

/**
 * Stage `paths` as they are in the work tree: added, changed or (gone from it) removed. The paths
 * go through stdin, so thousands of them cost no more than one index update; that many files'
 * objects are streamed into one pack (git's bulk check-in, which it uses for files past
 * `core.bigFileThreshold`) instead of a loose file each, ten times faster for an import. An entry
 * is staged as it is on disk, whatever a `.gitattributes` asks ({@link keepEntriesAsWritten}).
 */
export async function stagePaths(cwd: string, paths: readonly string[]): Promise<void> {
  if (!paths.length) return;
  await keepEntriesAsWritten(cwd);
  const bulk = paths.length >= BULK_STAGE_PATHS ? ["-c", "core.bigFileThreshold=1"] : [];
  await gitOk(cwd, [...bulk, "update-index", "--add", "--remove", "-z", "--stdin"], {
    stdin: paths.map((path) => `${path}\0`).join(""),
  });
}

/** The paths whose staged content differs from HEAD (every staged path before a first commit). */
export async function stagedPaths(cwd: string): Promise<Set<string>> {
  const head = await git(cwd, ["rev-parse", "--verify", "--quiet", "HEAD"]);
  const args = head.code === 0
    ? ["diff", "--cached", "--name-only", "--no-renames", "-z"]
    : ["ls-files", "-z"];
  return new Set((await gitOk(cwd, args)).split("\0").filter(Boolean));
}

/** Whether commit `a` is an ancestor of `b` (or the same commit) in the repository at `cwd`. */
export async function isAncestor(cwd: string, a: string, b: string): Promise<boolean> {
  return (await git(cwd, ["merge-base", "--is-ancestor", a, b])).code === 0;
}

/** Whether `dir` lies inside a git work tree. */
export async function isInsideWorkTree(dir: string): Promise<boolean> {
  const result = await git(dir, ["rev-parse", "--is-inside-work-tree"]);
  return result.code === 0 && result.stdout.trim() === "true";
}

/** Whether `dir` is a bare repository. */
export async function isBareRepository(dir: string): Promise<boolean> {
  const result = await git(dir, ["rev-parse", "--is-bare-repository"]);
  return result.code === 0 && result.stdout.trim() === "true";
}

/** The URL of the remote `origin` of the repository at `dir`, when it has one. */
export async function originUrl(dir: string): Promise<string | undefined> {
  const result = await git(dir, ["remote", "get-url", "origin"]);
  return result.code === 0 ? result.stdout.trim() : undefined;
}

/** A remote-tracking ref's short name: `refs/remotes/origin/main` → `origin/main`. */
export function remoteBranchName(tracking: string): string {
  return tracking.replace(/^refs\/remotes\//, "");
}

/** The names of the repository's remotes; throws {@link GitError} when git cannot list them. */
export async function remoteNames(dir: string): Promise<string[]> {
  return (await gitOk(dir, ["remote"])).split("\n").filter(Boolean);
}

/** Past this many paths, git grep searches the whole tree instead of matching each path named. */
const GREP_PATHSPEC_MAX = 256;

/**
 * The files among `paths` that hold conflict markers (a line starting `<<<<<<<` or `>>>>>>>`)
 * at `rev`. Many paths are searched as the whole tree, then picked: git matches every file
 * against every path named, which grows with their product. An entry a `.gitattributes` marks
 * binary (`-diff`), which git grep would skip, is searched ({@link keepEntriesAsWritten}).
 */
export async function pathsWithConflictMarkers(
  dir: string,
  rev: string,
  paths: readonly string[],
): Promise<string[]> {
  if (!paths.length) return [];
  await keepEntriesAsWritten(dir);
  const many = paths.length > GREP_PATHSPEC_MAX;
  // NUL-separated: a name git would quote (non-ASCII, a quote) comes back as it is; uncoloured,
  // whatever the user's config asks (color.ui=always wraps each name in escapes).
  const found = await git(dir, [
    "grep",
    "--no-color",
    "-I",
    "-l",
    "-z",
    "-E",
    "^(<{7}|>{7})( |$)",
    rev,
    ...many ? [] : ["--", ...paths],
  ]);
  const marked = found.stdout.split("\0").filter(Boolean).map((line) => line.slice(rev.length + 1));
  if (!many) return marked;
  const named = new Set(paths);
  return marked.filter((path) => named.has(path));
}

/**
 * The text of each blob of `blobs` (object ids), in order, read by one `git cat-file --batch`.
 * Throws {@link GitError} when git fails or one is not a blob.
 */
export async function blobTexts(cwd: string, blobs: readonly string[]): Promise<string[]> {
  if (!blobs.length) return [];
  const args = ["cat-file", "--batch"];
  clearRepoEnv();
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command("git", {
      args,
      cwd,
      env: gitEnv(),
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    throw spawnError(error, cwd);
  }
  // Fed while its output is read: git stops reading when a full pipe stops its writing.
  const writer = child.stdin.getWriter();
  const fed = writer.write(new TextEncoder().encode(blobs.map((blob) => `${blob}\n`).join("")))
    .then(() => writer.close());
  const [{ code, stdout, stderr }] = await Promise.all([child.output(), fed]);
  const failed = (detail: string) =>
    new GitError(args, { code: code || 1, stdout: "", stderr: detail });
  if (code !== 0) throw failed(new TextDecoder().decode(stderr));
  // Each: "<id> blob <size>\n", then the size's bytes, then "\n".
  const texts: string[] = [];
  let at = 0;
  for (const blob of blobs) {
    const end = stdout.indexOf(0x0a, at);
    const [id, type, size] = new TextDecoder().decode(stdout.subarray(at, end)).split(" ");
    if (type !== "blob" || !id) throw failed(`${blob} is not a blob`);
    at = end + 1 + Number(size);
    texts.push(new TextDecoder().decode(stdout.subarray(end + 1, at)));
    at += 1;
  }
  return texts;
}

/** What `git merge-tree` made of two commits. */
export interface MergedTree {
  /** The tree it wrote: the merge, with conflict markers in each conflicted file. */
  tree: string;
  /** Whether it merged without a conflict. */
  clean: boolean;
  /** The files both sides changed in their own ways, as git names them (never quoted). */
  conflicted: string[];
}

/**
 * Keep every entry of the repository at `cwd` as git-kb wrote it and merged by git's own
 * three-way merge, whatever its `.gitattributes` says, by the line in `info/attributes` (see
 * core/git/entry_attributes.ts), which leaves a filter in force when the repository's own config
 * sets up its driver, or when `keepFilter` says so: a fresh clone, whose filters a tool such as
 * git-crypt sets up after its first checkout. Called before git merges, stages or checks out
 * entries.
 */
export async function keepEntriesAsWritten(cwd: string, keepFilter = false): Promise<void> {
  const path =
    (await gitOk(cwd, ["rev-parse", "--path-format=absolute", "--git-path", "info/attributes"]))
      .trim();
  let attributes: string | undefined;
  try {
    attributes = await Deno.readTextFile(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  // A filter driver in the repository's own config (git-crypt's) was set up for these entries.
  const drivers = await git(cwd, [
    "config",
    "--local",
    "--name-only",
    "--get-regexp",
    "^filter\\.",
  ]);
  const ownFilter = drivers.code === 0 && drivers.stdout.trim() !== "";
  const updated = withEntryAttributesLine(attributes, entryAttributesLine(keepFilter || ownFilter));
  if (updated === undefined) return;
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(path, updated);
}

/**
 * Merge `ours` and `theirs` into a tree with `git merge-tree --write-tree` (no ref, index or file
 * touched), every entry by git's own three-way merge whatever the tree's `.gitattributes` asks
 * (`info/attributes` gets the line that says so). The conflicted files are read NUL-separated
 * (`-z`): a file name git would quote (non-ASCII, a quote, a backslash) comes back as it is, never
 * as `"entries/caf\303\251.md"`. Two histories that share no commit are merged only with
 * `unrelated`. Throws {@link GitError} when git could not merge them at all.
 */
export async function mergeTree(
  cwd: string,
  ours: string,
  theirs: string,
  { unrelated = false }: { unrelated?: boolean } = {},
): Promise<MergedTree> {
  await keepEntriesAsWritten(cwd);
  return await mergeTreeAsKept(cwd, ours, theirs, unrelated);
}

/** {@link mergeTree} once {@link keepEntriesAsWritten} has run for `cwd`. */
async function mergeTreeAsKept(
  cwd: string,
  ours: string,
  theirs: string,
  unrelated = false,
): Promise<MergedTree> {
  const args = [
    "merge-tree",
    "--write-tree",
    "--name-only",
    "-z",
    ...unrelated ? ["--allow-unrelated-histories"] : [],
    ours,
    theirs,
  ];
  const merged = await git(cwd, args);
  if (merged.code !== 0 && merged.code !== 1) throw new GitError(args, merged);
  const [tree, ...rest] = merged.stdout.split("\0");
  const clean = merged.code === 0;
  const conflicted = clean ? [] : [...new Set(rest.slice(0, rest.indexOf("")))];
  return { tree: tree.trim(), clean, conflicted };
}

/** What replaying a branch's own commits onto another commit gave. */
export type Replay =
  /** Every commit replayed: `tip` is the last (`onto` itself when there was none). */
  | { outcome: "replayed"; tip: string; count: number }
  /** A commit changes what `onto` changed too, in another way: the files, none replayed. */
  | { outcome: "conflict"; paths: string[] }
  /** The commits to replay hold a merge commit, which a replay does not rewrite. */
  | { outcome: "merges" };

/**
 * Replay the commits of `tip` that `onto` lacks onto `onto`, oldest first, with `git merge-tree`
 * and `git commit-tree` (authors and messages kept, committed under {@link commitIdentity}, signed
 * when the user's config asks it of every commit, as `git rebase` would sign them).
 * Touches no ref, no index and no file: the caller moves its branch to the new tip (with
 * `git reset --keep`, which keeps uncommitted changes in files the replay did not touch). Every
 * entry merges as {@link mergeTree} merges it.
 */
export async function replayOnto(cwd: string, onto: string, tip: string): Promise<Replay> {
  const listing = await gitOk(cwd, ["rev-list", "--reverse", "--parents", `${onto}..${tip}`]);
  const commits = listing.trim().split("\n").filter(Boolean).map((line) => line.split(" "));
  if (commits.some((parents) => parents.length > 2)) return { outcome: "merges" };
  await keepEntriesAsWritten(cwd);
  const identity = (await commitIdentity(cwd)).args;
  const signs = await signsEveryCommit(cwd);
  let base = (await gitOk(cwd, ["rev-parse", onto])).trim();
  for (const [commit] of commits) {
    const { tree, clean, conflicted } = await mergeTreeAsKept(cwd, base, commit);
    if (!clean) return { outcome: "conflict", paths: conflicted };
    const [name, email, date, body] = (await gitOk(cwd, [
      "log",
      "-1",
      "--format=%an%x00%ae%x00%aI%x00%B",
      commit,
    ])).split("\0");
    const commitTree = [...identity, "commit-tree", ...signs ? ["-S"] : [], tree, "-p", base];
    base = (await commitSigned(cwd, [...commitTree, "-F", "-"], signs, {
      stdin: body,
      env: { GIT_AUTHOR_NAME: name, GIT_AUTHOR_EMAIL: email, GIT_AUTHOR_DATE: date },
    })).trim();
  }
  return { outcome: "replayed", tip: base, count: commits.length };
}
