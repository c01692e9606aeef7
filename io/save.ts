/**
 * The save pipeline every write goes through: validate against the contract, write the file
 * atomically, `git commit` it, push when there is a remote (rebasing once the remote moved),
 * and bring the index up to date. Invalid input writes and commits nothing.
 *
 * @module
 */
import { join } from "../core/path.ts";
import {
  checkAgainstKb,
  checkEntryFields,
  type Entry,
  formatProblems,
  parseEntryText,
  type Problem,
  serializeEntry,
  toEntry,
} from "../core/entry.ts";
import { kernelRuleCost, LIMITS } from "../core/schema.ts";
import { withLock, writeFileAtomic } from "./fs.ts";
import { git, gitOk, gitReason, identityArgs } from "./git.ts";
import { HOOK_TRUST_MS, openIndex, type RefreshReport } from "./index_store.ts";
import { ENTRIES_DIR, listEntries, readKbFile, UnreadableEntryError } from "./kb.ts";

/** Raised when an entry breaks the contract; nothing was written. */
export class ValidationError extends Error {
  readonly problems: Problem[];
  readonly exitCode = 1;
  constructor(what: string, problems: Problem[]) {
    super(`${what} is not valid; nothing was written:\n${formatProblems(problems)}`);
    this.name = "ValidationError";
    this.problems = problems;
  }
}

/** Raised when the entry was committed locally but could not be pushed. Exit code 3. */
export class PushError extends Error {
  readonly exitCode = 3;
  readonly commit: string;
  constructor(message: string, commit: string) {
    super(message);
    this.name = "PushError";
    this.commit = commit;
  }
}

/** What happened to the commit after it was made. */
export type PushOutcome = "pushed" | "rebased-and-pushed" | "NO_REMOTE";

/** What a save did. */
export interface SaveResult {
  id: string;
  path: string;
  commit: string;
  push: PushOutcome;
  index: RefreshReport;
}

/** An entry to write: new (path chosen from id and slug) or a replacement of `previousText`. */
export interface SaveRequest {
  kbDir: string;
  entry: Entry;
  /** Path relative to the knowledge base, `entries/<id>-<slug>.md`. */
  path: string;
  /** What `git log` will say. */
  message: string;
  /** For an edit: the file's text as it was read, to detect a concurrent change. */
  previousText?: string;
}

/** Id → path of every entry file, read from the file names (`entries/<id>-<slug>.md`). */
export function entryPaths(kbDir: string): Map<string, string> {
  const ids = new Map<string, string>();
  for (const path of listEntries(kbDir)) {
    const match = /^entries\/(kb-[0-9a-z]{5})-/.exec(path);
    if (match) ids.set(match[1], path);
  }
  return ids;
}

/** A lowercase ASCII slug of a title, at most 50 characters, for the file name. */
export function slugify(title: string): string {
  const slug = title.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return slug.slice(0, 50).replace(/-+$/, "") || "entry";
}

/** A fresh random id that no entry in `taken` has. */
export function newId(taken: ReadonlyMap<string, string>): string {
  const alphabet = "0123456789abcdefghijklmnopqrstuvwxyz";
  for (;;) {
    const bytes = crypto.getRandomValues(new Uint8Array(5));
    const id = `kb-${[...bytes].map((byte) => alphabet[byte % 36]).join("")}`;
    if (!taken.has(id)) return id;
  }
}

/** Validate an entry in the context of the knowledge base as it is now. */
export async function validateForSave(request: SaveRequest): Promise<Problem[]> {
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
  problems.push(...checkAgainstKb(entry, { ids: entryPaths(kbDir), path }));
  const idIsValid = !problems.some((problem) => problem.field === "id");
  if (idIsValid && (!path.startsWith(`${ENTRIES_DIR}/${entry.id}-`) || path.includes(".."))) {
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

function isRejected(stderr: string): boolean {
  return /\[rejected\]|non-fast-forward|fetch first|failed to push some refs/i.test(stderr);
}

async function push(kbDir: string, path: string, commit: string): Promise<PushOutcome> {
  const remotes = (await gitOk(kbDir, ["remote"])).split("\n").filter(Boolean);
  if (!remotes.length) return "NO_REMOTE";
  const upstream = await git(kbDir, ["rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{u}"]);
  const remote = upstream.code === 0
    ? upstream.stdout.trim().split("/")[0]
    : remotes.includes("origin")
    ? "origin"
    : remotes[0];
  const branch = (await gitOk(kbDir, ["rev-parse", "--abbrev-ref", "HEAD"])).trim();
  const identity = await identityArgs(kbDir);
  let rebased = false;
  for (let attempt = 0; attempt < 3; attempt++) {
    const result = await git(kbDir, ["push", "--porcelain", remote, `HEAD:refs/heads/${branch}`]);
    if (result.code === 0) {
      if (upstream.code !== 0) {
        await git(kbDir, ["branch", `--set-upstream-to=${remote}/${branch}`]);
      }
      return rebased ? "rebased-and-pushed" : "pushed";
    }
    if (!isRejected(result.stderr + result.stdout)) {
      throw new PushError(
        `Saved ${path} in commit ${commit.slice(0, 7)}, but the push to ${remote} failed: ` +
          `${gitReason(result.stderr)}. The commit is kept; run ` +
          `git -C ${kbDir} push when the remote is reachable.`,
        commit,
      );
    }
    const pull = await git(kbDir, [
      ...identity,
      "pull",
      "--rebase",
      "--no-autostash",
      remote,
      branch,
    ]);
    if (pull.code !== 0) {
      await git(kbDir, ["rebase", "--abort"]);
      throw new PushError(
        `Saved ${path} in commit ${commit.slice(0, 7)}, but the remote changed the same entry ` +
          `and the change does not rebase cleanly. Your commit is kept locally. Resolve it with: ` +
          `cd ${kbDir} && git pull --rebase (fix the conflict, git rebase --continue) && git push`,
        commit,
      );
    }
    rebased = true;
  }
  throw new PushError(
    `Saved ${path} in commit ${commit.slice(0, 7)}, but ${remote} kept moving; the commit is ` +
      `kept. Run git -C ${kbDir} pull --rebase && git -C ${kbDir} push.`,
    commit,
  );
}

function restore(kbDir: string, path: string, previousText: string | undefined): void {
  try {
    if (previousText === undefined) Deno.removeSync(join(kbDir, path));
    else writeFileAtomic(join(kbDir, path), previousText);
  } catch { /* nothing was written */ }
}

/**
 * Validate, write, commit, push and reindex, holding the knowledge base's save lock from the
 * write to the push so concurrent saves (other processes included) line up one after another.
 * Throws {@link ValidationError} before touching anything, {@link PushError} after the commit.
 */
export async function saveEntry(request: SaveRequest): Promise<SaveResult> {
  const { kbDir, entry, path, message, previousText } = request;
  const lockPath = join(kbDir, ".git", "git-kb.lock");
  const { commit, outcome } = await withLock(lockPath, async () => {
    const problems = await validateForSave(request);
    const absolute = join(kbDir, path);
    let current: string | undefined;
    try {
      current = readKbFile(kbDir, path);
    } catch (error) {
      if (error instanceof UnreadableEntryError) {
        problems.push({ field: "file", message: `${path} ${error.reason}` });
      } else if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    if (previousText === undefined && current !== undefined) {
      problems.push({ field: "id", message: `${path} already exists` });
    }
    if (previousText !== undefined && current !== previousText) {
      problems.push({
        field: "body",
        message: `${path} changed on disk while it was being edited; run the edit again`,
      });
    }
    if (problems.length) throw new ValidationError(`Entry ${entry.id}`, problems);
    writeFileAtomic(absolute, serializeEntry(entry));
    try {
      await gitOk(kbDir, ["add", "--", path]);
      const status = await gitOk(kbDir, ["status", "--porcelain", "--", path]);
      if (!status.trim()) return { commit: "", outcome: "NO_REMOTE" as PushOutcome };
      await gitOk(kbDir, [
        ...await identityArgs(kbDir),
        "commit",
        "--quiet",
        "--no-verify",
        "-m",
        message,
        "--",
        path,
      ]);
    } catch (error) {
      restore(kbDir, path, previousText);
      await git(kbDir, ["reset", "--quiet", "--", path]).catch(() => undefined);
      throw error;
    }
    const commit = (await gitOk(kbDir, ["rev-parse", "HEAD"])).trim();
    const outcome = await push(kbDir, path, commit).catch(async (error) => {
      // The commit stands whatever the push did, so the index must show it.
      if (error instanceof PushError) await openIndex(kbDir).catch(() => undefined);
      throw error;
    });
    const pushed = outcome === "rebased-and-pushed"
      ? (await gitOk(kbDir, ["rev-parse", "HEAD"])).trim()
      : commit;
    return { commit: pushed, outcome };
  });
  const { report } = await openIndex(kbDir);
  return { id: entry.id, path, commit, push: outcome, index: report };
}
