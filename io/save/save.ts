/**
 * The save pipeline every write goes through: check that the repo is on its branch with nothing
 * under way, validate against the contract, write the files atomically, `git commit` them in one
 * commit, push when there is a remote (bringing in what the remote gained first, when it moved),
 * and bring the index up to date. A refused or invalid save writes and commits nothing.
 *
 * @module
 */
import { join } from "../../core/path.ts";
import {
  checkAgainstKb,
  checkEntryFields,
  type Entry,
  formatProblems,
  parseEntryText,
  type Problem,
  serializeEntry,
  toEntry,
} from "../../core/entry/entry.ts";
import { displaySafe } from "../../core/text/display.ts";
import { idFromPath } from "../../core/entry/identity.ts";
import { describeSecret, entrySecrets } from "../../core/entry/secrets.ts";
import { kernelRuleCost, LIMITS } from "../../core/entry/schema.ts";
import { gitCommand, shellQuote } from "../../core/shell/quote.ts";
import { ifExists, writeFileAtomic } from "../fs.ts";
import {
  commitIdentity,
  commitPaths,
  fallbackIdentityWarning,
  git,
  GitInterruptedError,
  gitOk,
  gitReason,
  type GitResult,
  GitTimeoutError,
  networkTimeoutMs,
  pathsWithConflictMarkers,
  remoteBranchName,
  remoteNames,
  replayOnto,
  stagedPaths,
  stagePaths,
} from "../git.ts";
import { type AttachmentFile, attachmentProblems, writeAttachments } from "./attachments.ts";
import { HOOK_TRUST_MS, openIndex, type RefreshReport } from "../index/store.ts";
import { indexAfterWrite } from "../index/after_write.ts";
import { ENTRIES_DIR, listEntries, readKbFile, UnreadableEntryError } from "../kb.ts";
import { KB_SETTINGS_FILE, readKbSettings } from "../kb_settings.ts";
import { checkLock, withLock } from "./lock.ts";
import type { Finding } from "../../core/setup/finding.ts";
import {
  findOrphans,
  gitDir,
  gitLockPaths,
  gitLocksMessage,
  orphansMessage,
  repoState,
} from "./repo_state.ts";
import { kbCommand, selfCommand } from "../self_command.ts";
import { acceptKernelRules } from "../kernel/acceptance.ts";
import { republishRefusal } from "./rewritten.ts";

/** Raised when an entry breaks the contract; nothing was written. */
export class ValidationError extends Error {
  /** Everything wrong with the entry. */
  readonly problems: Problem[];
  /** The exit code a command ends with. */
  readonly exitCode = 1;
  /** Problems of `what` (an entry or file), none written. */
  constructor(what: string, problems: Problem[]) {
    super(`${displaySafe(what)} is not valid; nothing was written:\n${formatProblems(problems)}`);
    this.name = "ValidationError";
    this.problems = problems;
  }
}

/** The commands of a message, one a line, indented under it. */
function commandLines(commands: readonly string[]): string {
  return commands.map((command) => `\n  ${command}`).join("");
}

/**
 * Raised before anything is written when the repo is in a state a save must not touch (a
 * detached HEAD, an operation under way, conflicts, git's lock files): one line saying so, then
 * the commands that get out of it. Exit code 1.
 */
export class SaveRefusedError extends Error {
  readonly exitCode = 1;
  readonly commands: string[];
  constructor(reason: string, commands: string[]) {
    super(`${reason}; nothing was written.${commandLines(commands)}`);
    this.name = "SaveRefusedError";
    this.commands = commands;
  }
}

/** Raised when the change was committed locally but could not be pushed. Exit code 3. */
export class PushError extends Error {
  /** The exit code a command ends with. */
  readonly exitCode = 3;
  /** The local commit that was not pushed. */
  readonly commit: string;
  /** Commands that finish the push, in order, each pasteable. */
  readonly commands: string[];
  /** `message` says why the push failed; `commit` was made; `commands` finish the push. */
  constructor(message: string, commit: string, commands: string[]) {
    super(`${message}${commandLines(commands)}`);
    this.name = "PushError";
    this.commit = commit;
    this.commands = commands;
  }
}

/** What happened to the commit after it was made. */
export type PushOutcome = "pushed" | "rebased-and-pushed" | "NO_REMOTE";

/** What a save of one entry did. */
export interface SaveResult {
  /** The entry's id. */
  id: string;
  /** Path of the entry file relative to the knowledge base. */
  path: string;
  /** The commit on the branch (after a rebase, the rebased one); "" when nothing changed. */
  commit: string;
  /** Whether the commit was pushed, pushed after a rebase, or there is no remote. */
  push: PushOutcome;
  /**
   * What bringing the index up to date after the save did; undefined when that failed (the save
   * stands: a warning says why and how to rebuild the index).
   */
  index?: RefreshReport;
  /** One line each: what the user should know although the save worked (fallback identity…). */
  warnings: string[];
}

/** What a save of a change set did. */
export interface ChangesResult extends Omit<SaveResult, "id" | "path"> {
  /** The paths written or deleted. */
  paths: string[];
}

/** One file of a change set: an entry to write, or (without `entry`) a file to delete. */
export interface Change {
  /** Path relative to the knowledge base, `entries/<id>-<slug>.md`. */
  path: string;
  /** The entry to write; undefined deletes the file. */
  entry?: Entry;
  /**
   * The file's text as it was read, for an edit or a delete: a file that changed since is
   * refused, never overwritten. Undefined for a new file, which must not exist yet.
   */
  previousText?: string;
}

/** Several files written or deleted in one commit. */
export interface ChangesRequest {
  /** The knowledge base folder, a git work tree. */
  kbDir: string;
  /** What `git log` will say. */
  message: string;
  /** The files to write or delete. */
  changes: Change[];
  /** Bound of each git call that reaches the remote; `networkTimeoutMs()` (45 s) by default. */
  networkTimeoutMs?: number;
  /**
   * Keep the credentials the entries hold (`--allow-secret`) instead of refusing them: honoured
   * in a private knowledge base only (see io/kb_settings.ts); the save warns of each one kept.
   */
  allowSecret?: boolean;
  /** Files that are not entries, written and committed with them (an import's attachments). */
  files?: readonly AttachmentFile[];
}

/** An entry to write: new (path chosen from id and slug) or a replacement of `previousText`. */
export interface SaveRequest extends Omit<ChangesRequest, "changes"> {
  /** The entry to write. */
  entry: Entry;
  /** Path relative to the knowledge base, `entries/<id>-<slug>.md`. */
  path: string;
  /** For an edit: the file's text as it was read, to detect a concurrent change. */
  previousText?: string;
}

/** How long a save waits for another save's lock. */
const SAVE_LOCK_WAIT_MS = 120_000;

/** The save lock of the knowledge base: `git-kb.lock` in its git folder. */
export async function saveLockPath(kbDir: string): Promise<string> {
  return join(await gitDir(kbDir), "git-kb.lock");
}

/** Doctor's check of the save lock: a stale one is named with the command that clears it. */
export async function checkSaveLock(kbDir: string): Promise<Finding> {
  return checkLock(await saveLockPath(kbDir), "lock");
}

/** Id → path of every entry file, read from the file names (`entries/<id>-<slug>.md`). */
export function entryPaths(kbDir: string): Map<string, string> {
  const ids = new Map<string, string>();
  for (const path of listEntries(kbDir)) {
    const id = idFromPath(path);
    if (id) ids.set(id, path);
  }
  return ids;
}

/**
 * The one entry file of `id`, for a command that changes it. Throws when there is none, and
 * when two files carry the id (neither is changed until one gets another id: the index serves
 * neither).
 */
export function entryPathOf(kbDir: string, id: string): string {
  const paths = listEntries(kbDir).filter((path) => idFromPath(path) === id).sort();
  if (!paths.length) {
    throw new Error(
      `no entry ${id} in ${kbDir}; find ids with ${selfCommand()} search <words> --kb ${
        shellQuote(kbDir)
      }`,
    );
  }
  if (paths.length > 1) {
    throw new Error(
      `id ${id} is used by ${paths.join(" and ")}, so neither is changed; give one of them ` +
        "a new id (in its file name and its id: field), then run the command again",
    );
  }
  return paths[0];
}

/** A fresh random id that no entry in `taken` has (a map or set of ids, or an index's lookup). */
export function newId(taken: { has(id: string): boolean }): string {
  const alphabet = "0123456789abcdefghijklmnopqrstuvwxyz";
  for (;;) {
    const bytes = crypto.getRandomValues(new Uint8Array(5));
    const id = `kb-${[...bytes].map((byte) => alphabet[byte % 36]).join("")}`;
    if (!taken.has(id)) return id;
  }
}

/** What {@link validateForSave} checks: an entry, where it goes, and whether it may keep a secret. */
export interface ValidationRequest {
  /** The knowledge base folder. */
  kbDir: string;
  /** The entry to check. */
  entry: Entry;
  /** Path relative to the knowledge base, `entries/<id>-<slug>.md`. */
  path: string;
  /** See {@link ChangesRequest.allowSecret}. */
  allowSecret?: boolean;
}

/**
 * The credentials of an entry, each a problem naming its field, its line in the file and what it
 * is (masked), unless `--allow-secret` keeps them in a private knowledge base. The settings are
 * read only when there is something to decide.
 */
async function secretProblems(request: ValidationRequest): Promise<Problem[]> {
  const { kbDir, entry, path, allowSecret } = request;
  const secrets = entrySecrets(entry);
  if (!secrets.length) return [];
  const { shared } = await readKbSettings(kbDir);
  if (allowSecret && !shared) return [];
  const override = shared
    ? `; --allow-secret is refused here: this knowledge base is shared (its ${KB_SETTINGS_FILE} ` +
      `says "shared": true)`
    : ", or keep it in this private knowledge base: run the command again with --allow-secret " +
      "(add, edit and import take it)";
  return secrets.map((secret) => ({
    field: secret.field,
    message: `holds ${describeSecret(secret, path)}; a credential committed here stays in the ` +
      "history of every clone: remove it (keep it in a password manager or an environment " +
      `variable)${override}`,
  }));
}

/** One warning for each credential an entry of `changes` keeps by `--allow-secret`. */
function keptSecretWarnings(changes: readonly Change[]): string[] {
  return changes.flatMap(({ entry, path }) =>
    entry
      ? entrySecrets(entry).map((secret) =>
        `kept ${describeSecret(secret, path)} (--allow-secret, a private knowledge base); ` +
        "anyone who can read this repository or a clone of it can read it"
      )
      : []
  );
}

/**
 * Validate an entry in the context of the knowledge base as it is now, or as `ids` (id → path)
 * says it will be after the rest of a change set. A credential in any field is a problem unless
 * `allowSecret` keeps it in a private knowledge base.
 */
export async function validateForSave(
  request: ValidationRequest,
  ids: ReadonlyMap<string, string> = entryPaths(request.kbDir),
): Promise<Problem[]> {
  const { kbDir, entry, path } = request;
  // Every value is checked as it is, before YAML could quote, trim or split it.
  const problems = checkEntryFields(entry);
  try {
    if (!problems.length) {
      problems.push(...toEntry(parseEntryText(serializeEntry(entry), path)).problems);
    }
  } catch (error) {
    return [{
      field: "frontmatter",
      message: error instanceof Error ? error.message : String(error),
    }];
  }
  problems.push(...checkAgainstKb(entry, { ids, path }));
  problems.push(...await secretProblems(request));
  const idIsValid = !problems.some((problem) => problem.field === "id");
  const name = path.slice(path.lastIndexOf("/") + 1);
  const inEntries = path.startsWith(`${ENTRIES_DIR}/`) && !path.split("/").includes("..");
  if (idIsValid && (!inEntries || !name.startsWith(`${entry.id}-`))) {
    problems.push({
      field: "id",
      message: `the file ${path} must be named ${ENTRIES_DIR}/${entry.id}-<slug>.md`,
    });
  }
  if (entry.kernel && entry.status === "active") {
    const { reader } = await openIndex(kbDir, { trustStampMs: HOOK_TRUST_MS });
    const others = reader.manifest.kernel.filter((rule) => rule.id !== entry.id);
    const total = others.reduce((sum, rule) => sum + kernelRuleCost(rule), 0) +
      kernelRuleCost(entry);
    if (total > LIMITS.kernelBudgetChars) {
      problems.push({
        field: "kernel",
        message: `kernel rules (headings and bodies) would total ${total} characters, over the ` +
          `${LIMITS.kernelBudgetChars} budget that every prompt pays; shorten the body or ` +
          "make it a normal entry",
      });
    }
  }
  return problems;
}

/** Id → path once the change set is applied: deletions gone, written entries in. */
function idsAfter(kbDir: string, changes: readonly Change[]): Map<string, string> {
  const ids = entryPaths(kbDir);
  for (const { path, entry } of changes) {
    if (!entry) ids.delete(idFromPath(path) ?? "");
  }
  for (const { path, entry } of changes) {
    if (entry && !ids.has(entry.id)) ids.set(entry.id, path);
  }
  return ids;
}

/**
 * Whether `path` names a `.md` file inside `entries/` (in a sub-folder too), one a change set may
 * delete: a hand-written file whose name lacks its id among them.
 */
function isEntryPath(path: string): boolean {
  return path.startsWith(`${ENTRIES_DIR}/`) && path.endsWith(".md") &&
    !path.split("/").includes("..");
}

/** The problems of one change against the file on disk. */
async function problemsOf(
  kbDir: string,
  change: Change,
  ids: ReadonlyMap<string, string>,
  allowSecret: boolean,
): Promise<Problem[]> {
  const { path, entry, previousText } = change;
  const problems: Problem[] = [];
  let current: string | undefined;
  try {
    current = readKbFile(kbDir, path);
  } catch (error) {
    if (error instanceof UnreadableEntryError) {
      problems.push({ field: "file", message: `${path} ${error.reason}` });
    } else if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  if (entry) {
    problems.push(...await validateForSave({ kbDir, entry, path, allowSecret }, ids));
    if (previousText === undefined && current !== undefined) {
      problems.push({ field: "id", message: `${path} already exists` });
    }
  } else if (!isEntryPath(path)) {
    problems.push({ field: "path", message: `${path} is not an entry file under ${ENTRIES_DIR}/` });
  } else if (current === undefined) {
    problems.push({ field: "path", message: `${path} does not exist` });
  }
  if (previousText !== undefined && current !== undefined && current !== previousText) {
    problems.push({
      field: "body",
      message: `${path} changed on disk while it was being edited; run the command again`,
    });
  }
  return problems;
}

/**
 * Every problem of a change set, against the files on disk; empty when it can be written. With
 * several changes, each field is prefixed with the entry it belongs to.
 */
async function changeProblems(
  kbDir: string,
  changes: readonly Change[],
  allowSecret: boolean,
): Promise<Problem[]> {
  const ids = idsAfter(kbDir, changes);
  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const change of changes) {
    const own = await problemsOf(kbDir, change, ids, allowSecret);
    if (seen.has(change.path)) {
      own.push({ field: "path", message: `${change.path} is in the change set twice` });
    }
    seen.add(change.path);
    const label = change.entry?.id ?? idFromPath(change.path) ?? change.path;
    problems.push(
      ...own.map((problem) =>
        changes.length > 1 ? { ...problem, field: `${label} ${problem.field}` } : problem
      ),
    );
  }
  return problems;
}

/** Refuse (before anything is written) unless the repo is on a branch with nothing under way. */
async function assertSaveable(kbDir: string): Promise<string> {
  const found = await repoState(kbDir);
  if (found.state !== "branch") throw new SaveRefusedError(found.message, found.commands);
  const locks = await gitLockPaths(kbDir, found.branch);
  if (locks.length) throw new SaveRefusedError(gitLocksMessage(locks), []);
  return found.branch;
}

/**
 * Write or delete each file; returns the texts they had, to put back on failure. A new entry's
 * file did not exist when the change set was validated under the lock, so it is not read again.
 */
function applyChanges(kbDir: string, changes: readonly Change[]): (string | undefined)[] {
  const made = new Set<string>();
  return changes.map(({ path, entry, previousText }) => {
    const absolute = join(kbDir, path);
    const before = entry && previousText === undefined
      ? undefined
      : ifExists(() => Deno.readTextFileSync(absolute));
    if (entry) writeFileAtomic(absolute, serializeEntry(entry), { made });
    else ifExists(() => Deno.removeSync(absolute));
    return before;
  });
}

function restore(kbDir: string, paths: readonly string[], texts: (string | undefined)[]): void {
  paths.forEach((path, at) => {
    const text = texts[at];
    try {
      if (text === undefined) Deno.removeSync(join(kbDir, path));
      else writeFileAtomic(join(kbDir, path), text);
    } catch { /* nothing was written there */ }
  });
}

/** Write the change set and commit exactly its paths; "" when nothing changed. */
async function commitChanges(
  kbDir: string,
  changes: readonly Change[],
  message: string,
  files: readonly AttachmentFile[] = [],
): Promise<string> {
  const deleted = changes.filter((change) => !change.entry).map((change) => change.path);
  // A deleted file git never tracked (a hand-written one, renamed by a repair) is no pathspec.
  const tracked = deleted.length
    ? new Set((await gitOk(kbDir, ["ls-files", "-z", "--", ...deleted])).split("\0"))
    : new Set<string>();
  const written = changes.map((change) => change.path);
  const gone = new Set(deleted);
  const paths = [
    ...written.filter((path) => !gone.has(path) || tracked.has(path)),
    ...files.map((file) => file.path),
  ];
  const before = applyChanges(kbDir, changes);
  let restoreFiles = () => {};
  try {
    restoreFiles = writeAttachments(kbDir, files);
    await stagePaths(kbDir, paths);
    const staged = await stagedPaths(kbDir);
    const ours = new Set(paths);
    if (!paths.some((path) => staged.has(path))) return "";
    const othersStaged = [...staged].some((path) => !ours.has(path));
    await commitPaths(kbDir, message, paths, !othersStaged);
  } catch (error) {
    restore(kbDir, written, before);
    restoreFiles();
    await git(kbDir, ["reset", "--quiet", "--", ...paths]).catch(() => undefined);
    throw error;
  }
  return (await gitOk(kbDir, ["rev-parse", "HEAD"])).trim();
}

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

/** What a save that is committed but not pushed tells the user. */
interface Unpushed {
  kbDir: string;
  /** What was saved, for the message: a path, or a count of files. */
  what: string;
  commit: string;
  target: PushTarget;
}

/** The remote branch's short name, `main`. */
function remoteBranch(target: PushTarget): string {
  return target.ref.replace(/^refs\/heads\//, "");
}

function notPushed(saved: Unpushed, cause: string, commands?: string[]): PushError {
  const { kbDir, what, commit, target } = saved;
  return new PushError(
    `Committed ${what} locally in ${commit.slice(0, 7)}, but it is not pushed: ${cause}. ` +
      "The commit is kept; to finish, run:",
    commit,
    commands ?? [gitCommand(kbDir, "push", target.remote, `HEAD:${remoteBranch(target)}`)],
  );
}

/** A git call to the remote, bounded; a timeout or a failure to reach it becomes exit 3. */
async function remoteCall(saved: Unpushed, args: string[], timeoutMs: number): Promise<GitResult> {
  try {
    return await git(saved.kbDir, args, { timeoutMs });
  } catch (error) {
    if (!(error instanceof GitTimeoutError)) throw error;
    throw notPushed(
      saved,
      error instanceof GitInterruptedError
        ? error.message
        : `${error.call} timed out after ${Math.round(timeoutMs / 1000)} s`,
    );
  }
}

/**
 * Why the remote refused a push, in its own words: the ref's status from `--porcelain` (`[remote
 * rejected] (pre-receive hook declined)`) and the first lines it sent (`remote: …`); else git's
 * last error line.
 */
function pushFailure(pushed: GitResult): string {
  const status = pushed.stdout.split("\n").find((line) => line.startsWith("!"))?.split("\t").pop();
  const said = pushed.stderr.split("\n").filter((line) => line.startsWith("remote: "))
    .map((line) => line.slice("remote: ".length).trim()).filter(Boolean).slice(0, 3);
  const words = [...status ? [status.trim()] : [], ...said].map(displaySafe);
  return words.length ? words.join("; ") : gitReason(pushed.stderr);
}

function isRejected(output: string): boolean {
  return /\[rejected\]|non-fast-forward|fetch first/i.test(output);
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

function conflictError(saved: Unpushed, paths: string[]): PushError {
  const named = paths.map((path) => idFromPath(path) ? `${idFromPath(path)} (${path})` : path);
  return notPushed(
    saved,
    `${saved.target.remote} changed the same entries in another way: ${named.join(", ")}; ` +
      "sync, which keeps both versions and prints how to finish",
    [syncCommand(saved.kbDir)],
  );
}

function dirtyError(saved: Unpushed, stderr: string): PushError {
  const paths = [...stderr.matchAll(/^error: .*?'([^']+)'/gm)].map((match) => match[1]);
  return notPushed(
    saved,
    `you have uncommitted changes to ${paths.join(", ") || "files"}, which ` +
      `${saved.target.remote} also changed, so its changes cannot come in ` +
      `(${gitReason(stderr)}); sync, which says how to commit them first`,
    [syncCommand(saved.kbDir)],
  );
}

/**
 * Refuse to publish conflict markers: an entry file changed by the commits to push that still
 * holds `<<<<<<<` or `>>>>>>>` lines (a merge finished by hand without resolving it) stays local.
 */
async function assertNoMarkers(saved: Unpushed, branch: string): Promise<void> {
  const { kbDir, target } = saved;
  const known = await git(kbDir, ["rev-parse", "--verify", "--quiet", target.tracking]);
  const range = known.code === 0 ? [`${target.tracking}..refs/heads/${branch}`] : [branch];
  const changed = await gitOk(kbDir, ["log", "--format=", "--name-only", ...range, "--"]);
  const paths = [...new Set(changed.split("\n").filter((path) => path.startsWith(ENTRIES_DIR)))];
  const marked = await pathsWithConflictMarkers(kbDir, branch, paths);
  if (!marked.length) return;
  const identity = await commitIdentity(kbDir);
  throw notPushed(
    saved,
    `${marked.join(", ")} still ${marked.length === 1 ? "holds" : "hold"} conflict markers ` +
      "(<<<<<<< or >>>>>>> lines), which git-kb never pushes; keep what you want of both " +
      "versions, commit, and sync",
    [
      ...marked.map((path) => `\${VISUAL:-\${EDITOR:-vi}} ${shellQuote(join(kbDir, path))}`),
      gitCommand(kbDir, "add", "--", ...marked),
      gitCommand(
        kbDir,
        ...identity.fallback ? identity.args : [],
        "commit",
        "-m",
        "kb: resolve conflict",
      ),
      syncCommand(kbDir),
    ],
  );
}

/**
 * Replay the branch's commits that the remote lacks onto the fetched remote branch, with
 * `git merge-tree` and `git commit-tree` (authors and messages kept), then move the branch there
 * with `git reset --keep`. Nothing here needs a clean work tree: uncommitted changes in files
 * the remote did not touch stay as they are; one in a file it did touch stops the reset (and
 * the save reports it). A real conflict leaves everything as it was.
 */
async function replayOntoRemote(saved: Unpushed, branch: string): Promise<void> {
  const { kbDir, target } = saved;
  const replay = await replayOnto(kbDir, target.tracking, `refs/heads/${branch}`);
  if (replay.outcome === "merges") {
    throw notPushed(
      saved,
      `${branch} and ${target.remote} have diverged and ${branch} holds merge commits, ` +
        "which a save does not rewrite; sync, which says how to merge them",
      [syncCommand(kbDir)],
    );
  }
  if (replay.outcome === "conflict") throw conflictError(saved, replay.paths);
  const reset = await git(kbDir, ["reset", "--quiet", "--keep", replay.tip]);
  if (reset.code !== 0) throw dirtyError(saved, reset.stderr);
}

/**
 * Push the branch to where it belongs, and only there. Rejected because the remote moved: fetch
 * it, replay ours on top ({@link replayOntoRemote}) and push again, up to 3 times. Anything that
 * stops the push is a {@link PushError} naming its cause.
 */
async function publish(saved: Unpushed, branch: string, timeoutMs: number): Promise<PushOutcome> {
  const { kbDir, target } = saved;
  let rebased = false;
  for (let attempt = 0; attempt < 3; attempt++) {
    await assertNoMarkers(saved, branch);
    const theirs = await trackedTip(kbDir, target);
    await refuseRewritten(saved, branch, theirs);
    const lease = await leaseOnTracking(saved, branch, theirs);
    const pushed = await remoteCall(
      saved,
      ["push", "--porcelain", ...lease, target.remote, `refs/heads/${branch}:${target.ref}`],
      timeoutMs,
    );
    if (pushed.code === 0) {
      if (!target.configured) {
        const upstream = remoteBranchName(target.tracking);
        await git(kbDir, ["branch", `--set-upstream-to=${upstream}`, branch]);
      }
      return rebased ? "rebased-and-pushed" : "pushed";
    }
    if (!isRejected(pushed.stderr + pushed.stdout)) {
      throw notPushed(saved, `the push to ${target.remote} failed: ${pushFailure(pushed)}`);
    }
    const fetched = await remoteCall(
      saved,
      ["fetch", "--quiet", target.remote, `+${target.ref}:${target.tracking}`],
      timeoutMs,
    );
    if (fetched.code !== 0) {
      throw notPushed(
        saved,
        `the push was rejected and fetching ${target.remote} failed: ${gitReason(fetched.stderr)}`,
      );
    }
    await refuseRewritten(saved, branch, await trackedTip(kbDir, target));
    await replayOntoRemote(saved, branch);
    rebased = true;
  }
  throw notPushed(
    saved,
    `${target.remote} kept moving while the save pushed`,
    [syncCommand(kbDir)],
  );
}

/** The remote branch's tip as last fetched into its tracking ref; undefined when never fetched. */
async function trackedTip(kbDir: string, target: PushTarget): Promise<string | undefined> {
  const found = await git(kbDir, ["rev-parse", "--verify", "--quiet", target.tracking]);
  return found.code === 0 ? found.stdout.trim() : undefined;
}

/**
 * Refuse (the commit kept, exit 3) when the branch holds commits the remote had and dropped by a
 * rewrite of its history, as last fetched (the remote branch now at `theirs`; see
 * io/save/rewritten.ts): before every push, and right after a fetch, before the branch is
 * replayed onto it (a replay would copy them under new hashes).
 */
async function refuseRewritten(
  saved: Unpushed,
  branch: string,
  theirs: string | undefined,
): Promise<void> {
  const { kbDir, target } = saved;
  const head = (await gitOk(kbDir, ["rev-parse", `refs/heads/${branch}`])).trim();
  const refusal = await republishRefusal(kbDir, {
    tracking: target.tracking,
    branch,
    head,
    theirs,
  });
  if (refusal) throw notPushed(saved, refusal.reason, refusal.commands);
}

/**
 * The push's lease: when the remote-tracking ref's tip `tip` is an ancestor of the branch, the
 * push goes through only while the remote is still there, so a remote rewritten since the last
 * fetch (reset to an older commit, which the branch would fast-forward) rejects it, and the fetch
 * that follows finds the rewrite. Without such a tip (never fetched, or the branch went its own
 * way), a plain push.
 */
async function leaseOnTracking(
  saved: Unpushed,
  branch: string,
  tip: string | undefined,
): Promise<string[]> {
  const { kbDir, target } = saved;
  if (!tip) return [];
  const ancestor = await git(kbDir, ["merge-base", "--is-ancestor", tip, `refs/heads/${branch}`]);
  return ancestor.code === 0 ? [`--force-with-lease=${target.ref}:${tip}`] : [];
}

/** The change set to save and its commit message, worked out under the lock. */
type Plan = () => Promise<{ message: string; changes: Change[] }>;

/**
 * The pipeline: under the save lock, refuse a repo off its branch, note orphans, validate,
 * commit, push; then reindex (also after a commit that could not be pushed).
 */
async function runSave(
  kbDir: string,
  plan: Plan,
  { timeoutMs, allowSecret, files = [] }: {
    timeoutMs: number;
    allowSecret: boolean;
    files?: readonly AttachmentFile[];
  },
): Promise<ChangesResult> {
  const done = await withLock(await saveLockPath(kbDir), async () => {
    const branch = await assertSaveable(kbDir);
    const { message, changes } = await plan();
    const paths = changes.map((change) => change.path);
    const warnings: string[] = [];
    const orphans = (await findOrphans(kbDir)).filter((path) => !paths.includes(path));
    if (orphans.length) warnings.push(orphansMessage(kbDir, orphans));
    const problems = [
      ...await changeProblems(kbDir, changes, allowSecret),
      ...attachmentProblems(kbDir, files),
    ];
    if (problems.length) {
      const what = changes.length === 1
        ? `Entry ${changes[0].entry?.id ?? idFromPath(paths[0]) ?? paths[0]}`
        : `The change set (${paths.join(", ")})`;
      throw new ValidationError(what, problems);
    }
    const identity = await commitIdentity(kbDir);
    const commit = changes.length ? await commitChanges(kbDir, changes, message, files) : "";
    if (!commit) return { paths, commit, push: "NO_REMOTE" as PushOutcome, warnings };
    if (allowSecret) warnings.push(...keptSecretWarnings(changes));
    if (identity.fallback) warnings.push(fallbackIdentityWarning());
    const target = await pushTarget(kbDir, branch);
    if (!target) return { paths, commit, push: "NO_REMOTE" as PushOutcome, warnings };
    const what = paths.length === 1 ? paths[0] : `${paths.length} files`;
    try {
      const push = await publish({ kbDir, what, commit, target }, branch, timeoutMs);
      return { paths, commit: (await gitOk(kbDir, ["rev-parse", "HEAD"])).trim(), push, warnings };
    } catch (error) {
      if (!(error instanceof PushError)) throw error;
      // The commit stands whatever the push did, so the index must show it.
      const { warning } = await indexAfterWrite(kbDir);
      if (warning) warnings.push(warning);
      error.message += warnings.map((warning) => `\nwarning: ${warning}`).join("");
      throw error;
    }
  }, { timeoutMs: SAVE_LOCK_WAIT_MS });
  const { report, warning } = await indexAfterWrite(kbDir);
  return {
    ...done,
    index: report,
    warnings: warning ? [...done.warnings, warning] : done.warnings,
  };
}

/**
 * Validate, write, commit, push and reindex a change set in ONE commit, holding the knowledge
 * base's save lock throughout, so concurrent saves (other processes included) line up.
 * Throws {@link SaveRefusedError} or {@link ValidationError} before touching anything,
 * {@link PushError} after the commit.
 */
export function saveChanges(request: ChangesRequest): Promise<ChangesResult> {
  const { kbDir, message, changes } = request;
  return runSave(kbDir, () => Promise.resolve({ message, changes }), {
    timeoutMs: request.networkTimeoutMs ?? networkTimeoutMs(),
    allowSecret: request.allowSecret === true,
    files: request.files,
  });
}

/**
 * Record an active kernel rule this user just saved as accepted on this machine: it is theirs, so
 * it applies at once (see io/kernel/acceptance.ts). Returns a warning when that failed; the save
 * itself stands.
 */
async function acceptSavedRule(entry: Entry): Promise<string | undefined> {
  if (!entry.kernel || entry.status !== "active") return undefined;
  try {
    await acceptKernelRules([entry]);
    return undefined;
  } catch (error) {
    return `${entry.id} was saved, but could not be recorded as a kernel rule you accepted ` +
      `(${error instanceof Error ? error.message : String(error)}), so it does not apply yet; ` +
      `accept it: ${kbCommand("kernel", "--accept", entry.id)}`;
  }
}

/**
 * {@link saveChanges} of one entry: a new file, or an edit of `previousText`. The command that
 * saves it (add, edit, promote) is this user's own doing: a kernel rule saved is accepted.
 */
export async function saveEntry(request: SaveRequest): Promise<SaveResult> {
  const { entry, path, previousText, ...rest } = request;
  let saved: ChangesResult;
  try {
    saved = await saveChanges({ ...rest, changes: [{ path, entry, previousText }] });
  } catch (error) {
    // Committed, not pushed: the rule is saved all the same.
    if (error instanceof PushError) {
      const warning = await acceptSavedRule(entry);
      if (warning) error.message += `\nwarning: ${warning}`;
    }
    throw error;
  }
  const warning = await acceptSavedRule(entry);
  const { paths: _, ...result } = saved;
  if (warning) result.warnings.push(warning);
  return { id: entry.id, path, ...result };
}
