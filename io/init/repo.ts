/**
 * The git work of `git-kb init`, once `plan.ts` has decided it: clone or create the repo, commit
 * the scaffold (entries/, a README, the shared marker), publish the set-up commit to an empty
 * remote, and find the markdown files git-kb will not read.
 *
 * @module
 */
import { join } from "../../core/path.ts";
import { EXIT, KbError } from "../../core/exit.ts";
import { isGitKbBranch } from "../../core/proposals/branch.ts";
import { gitCommand, shellCommand } from "../../core/shell/quote.ts";
import { displaySafe } from "../../core/text/display.ts";
import { fullFolder, noRoom } from "../../core/unwritable.ts";
import { ifExists, writeFileAtomic } from "../fs.ts";
import {
  commitPaths,
  git,
  GitError,
  gitOk,
  gitReason,
  GitTimeoutError,
  keepEntriesAsWritten,
  networkTimeoutMs,
  originUrl,
} from "../git.ts";
import { KB_SETTINGS_FILE, readKbSettings, SHARED_SETTINGS_TEXT } from "../kb_settings.ts";
import { ENTRIES_DIR } from "../kb.ts";
import { existingFolderOf, isEmptyDir, makeDirs, statOf } from "../disk.ts";
import { refusalWords } from "../remote/push.ts";
import type { InitPlan } from "./plan.ts";

const README = `# Knowledge base

Entries managed by git-kb: one markdown file per entry under \`entries/\`, named
\`<id>-<slug>.md\`, with YAML frontmatter. Add entries with \`git-kb add\`.
`;

/**
 * Commit what a knowledge base needs and lacks (entries/, a README, with `shared` the shared
 * marker) as `message`; returns the paths committed, none when nothing was missing.
 */
export async function commitScaffold(
  kbDir: string,
  message: string,
  shared: boolean,
): Promise<string[]> {
  const entries = join(kbDir, ENTRIES_DIR);
  makeDirs(entries);
  const added: string[] = [];
  // Written unless the file itself says shared: --shared asks for the marker, not a history.
  const settings = shared ? await readKbSettings(kbDir) : undefined;
  if (settings && (!settings.shared || settings.markedIn)) {
    writeFileAtomic(join(kbDir, KB_SETTINGS_FILE), SHARED_SETTINGS_TEXT);
    added.push(KB_SETTINGS_FILE);
  }
  if (!statOf(join(entries, ".gitkeep")) && isEmptyDir(entries)) {
    writeFileAtomic(join(entries, ".gitkeep"), "");
    added.push(`${ENTRIES_DIR}/.gitkeep`);
  }
  if (!statOf(join(kbDir, "README.md"))) {
    writeFileAtomic(join(kbDir, "README.md"), README);
    added.push("README.md");
  }
  if (!added.length) return added;
  await gitOk(kbDir, ["add", "--", ...added]);
  await commitPaths(kbDir, message, added);
  return added;
}

/** Markdown files outside entries/ (the top-level README aside): git-kb never reads them. */
export async function strayMarkdown(kbDir: string): Promise<string[]> {
  const listed = await git(kbDir, [
    "ls-files",
    "-z",
    "--cached",
    "--others",
    "--exclude-standard",
    "--",
    "*.md",
  ]);
  if (listed.code !== 0) return [];
  return [...new Set(listed.stdout.split("\0"))].filter((path) =>
    path.endsWith(".md") && path !== "README.md" && !path.startsWith(`${ENTRIES_DIR}/`)
  );
}

/** git's words on one line, without a closing full stop (a sentence of ours follows). */
function oneLine(words: string): string {
  return words.replace(/\s*\n\s*/g, " ").replace(/\.+$/, "");
}

/**
 * Clone `from` into `kbDir`, its files checked out only once entries are kept as the bytes
 * committed, whatever the clone's `.gitattributes` asks ({@link keepEntriesAsWritten}). A filter
 * stays in force: git-crypt sets its driver up after the clone, and its unlock checks the entries
 * out again through it. A teammate's filter only runs its smudge here (git-lfs's and git-crypt's
 * pass through what they do not recognize); whether its clean runs is decided at each save.
 */
async function cloneInto(from: string, kbDir: string, rerun: string): Promise<string[]> {
  const before = statOf(kbDir);
  try {
    await gitOk(".", ["clone", "--quiet", "--no-checkout", from, kbDir], {
      timeoutMs: networkTimeoutMs(),
    });
  } catch (error) {
    if (error instanceof GitError && noRoom(undefined, error.result.stderr)) {
      // What the remote sent found no room here, which no address or access explains.
      const folder = existingFolderOf(kbDir);
      const { reason } = fullFolder(folder, gitReason(error.result.stderr));
      throw new KbError(`${reason}:`, EXIT.failed, [rerun]);
    }
    if (error instanceof GitError) {
      // git's own failed clone leaves nothing made behind; its words say why (refused, denied,
      // not found), and ls-remote shows what git gets from the address without cloning.
      throw new KbError(
        `cannot clone ${from}: ${oneLine(error.message)}. Nothing was changed ` +
          "(no clone, no config). Check the remote's address and your access to it (the first " +
          "line below asks the remote for its branches, as the clone did), then run init again:",
        EXIT.failed,
        [shellCommand(["git", "ls-remote", "--heads", "--", from]), rerun],
      );
    }
    if (!(error instanceof GitTimeoutError)) throw error;
    // A clone stopped mid-way cannot clean up after itself: what it made goes, as git's own
    // failed clone leaves nothing (the folder, when it was there before, stays empty).
    const made = before
      ? [...Deno.readDirSync(kbDir)].map(({ name }) => join(kbDir, name))
      : [kbDir];
    for (const path of made) ifExists(() => Deno.removeSync(path, { recursive: true }));
    throw new KbError(
      `cannot reach ${from}: ${error.message}. Nothing was changed (no clone, no config). ` +
        "Check the network and the remote's address, then run init again:",
      EXIT.failed,
      [rerun],
    );
  }
  await keepEntriesAsWritten(kbDir, true);
  if (!await hasCommit(kbDir)) return await checkOutRemoteBranch(kbDir, from, rerun);
  await gitOk(kbDir, ["checkout", "--quiet"]);
  return [];
}

/** Whether the repo at `kbDir` has a commit checked out (HEAD is not an unborn branch). */
async function hasCommit(kbDir: string): Promise<boolean> {
  return (await git(kbDir, ["rev-parse", "--verify", "--quiet", "HEAD"])).code === 0;
}

/**
 * In a clone of `from` with no commit checked out (an empty remote, or one whose HEAD names a
 * branch it does not have), check out the branch {@link branchToCheckOut} picks; the step done.
 */
async function checkOutRemoteBranch(kbDir: string, from: string, rerun: string): Promise<string[]> {
  const branch = await branchToCheckOut(kbDir, from, rerun);
  if (branch === undefined) return [];
  await gitOk(kbDir, ["checkout", "--quiet", "-b", branch, "--track", `origin/${branch}`]);
  return [`Checked out ${branch}: the remote's HEAD names a branch it does not have`];
}

/**
 * The branch to check out of a clone of `from` whose remote's HEAD names a branch it does not have
 * (a bare repository made with another default branch than the one pushed): its only branch, else
 * `main` or `master`; undefined when it has none (an empty remote). Throws, naming them with the
 * commands that choose one, when it has several and none of those.
 */
async function branchToCheckOut(
  kbDir: string,
  from: string,
  rerun: string,
): Promise<string | undefined> {
  const listed = await gitOk(kbDir, [
    "for-each-ref",
    "--format=%(refname:lstrip=3)",
    "refs/remotes/origin",
  ]);
  const branches = listed.split("\n").filter((name) =>
    name && name !== "HEAD" && !isGitKbBranch(name)
  );
  if (branches.length <= 1) return branches[0];
  const known = ["main", "master"].find((name) => branches.includes(name));
  if (known) return known;
  throw new KbError(
    `${from} has the branches ${branches.map(displaySafe).join(", ")}, and its HEAD names none ` +
      `of them, so ${kbDir} has nothing checked out; check out the one the knowledge base is on ` +
      "(one of these), then run init again:",
    EXIT.failed,
    branches.map((name) =>
      `${
        gitCommand(kbDir, "checkout", "--quiet", "-b", name, "--track", `origin/${name}`)
      } && ${rerun}`
    ),
  );
}

/**
 * Clone or create the repo as `plan` says, with the steps done added to `steps`; `rerun` is the
 * init command to run again once what stops it is cleared.
 */
export async function carryOut(plan: InitPlan, steps: string[], rerun: string): Promise<void> {
  if (plan.mode === "cloned") {
    const checkedOut = await cloneInto(plan.from, plan.kbDir, rerun);
    steps.push(`Cloned ${plan.from} into ${plan.kbDir}`, ...checkedOut);
  } else if (plan.mode === "created") {
    makeDirs(plan.kbDir);
    await gitOk(plan.kbDir, ["init", "--quiet"]);
    steps.push(`Created a new knowledge base repo in ${plan.kbDir}`);
  } else {
    steps.push(
      plan.from
        ? `Using ${plan.kbDir}, already a clone of ${plan.from}`
        : `Using the existing clone ${plan.kbDir}`,
    );
    // A clone made before, of such a remote, has no commit either: never one of its own.
    if (plan.from && !await hasCommit(plan.kbDir)) {
      steps.push(...await checkOutRemoteBranch(plan.kbDir, plan.from, rerun));
    }
  }
}

/**
 * Raised when the set-up commit could not be pushed to the empty remote: it is committed, and the
 * push printed finishes. Exit code 3, as a save's.
 */
export class FirstPushError extends KbError {
  /** The first commit of `kbDir` did not reach the empty remote `from` because of `cause`. */
  constructor(kbDir: string, from: string, cause: string) {
    super(
      `the knowledge base is set up in ${kbDir}, but its first commit is not pushed to the ` +
        `empty remote ${from}: ${cause}. It is committed here; to push it, run:`,
      EXIT.notPushed,
      [gitCommand(kbDir, "push", "--set-upstream", "origin", "HEAD")],
    );
    this.name = "FirstPushError";
  }
}

/**
 * Push the set-up commit when `origin` is an empty repository (a clone of a new, bare remote
 * has nothing to track): after this, saves push and other machines can clone it. Returns the
 * step to print, or undefined when there is no origin or it already has branches; throws
 * {@link FirstPushError} when the push fails (the remote's words: a hook, permissions) or does
 * not finish in time.
 */
export async function publishToEmptyRemote(kbDir: string): Promise<string | undefined> {
  const from = await originUrl(kbDir);
  if (!from) return undefined;
  const heads = await git(kbDir, ["ls-remote", "--heads", "origin"], {
    timeoutMs: networkTimeoutMs(),
  });
  if (heads.code !== 0 || heads.stdout.trim()) return undefined;
  const pushed = await git(
    kbDir,
    ["push", "--porcelain", "--set-upstream", "origin", "HEAD"],
    { timeoutMs: networkTimeoutMs() },
  ).catch((error) => {
    // A push that hangs is stopped; the rest of init is done, and the report says so.
    if (error instanceof GitTimeoutError) throw new FirstPushError(kbDir, from, error.message);
    throw error;
  });
  if (pushed.code === 0) return `Pushed the set-up commit to the empty remote ${from}`;
  throw new FirstPushError(kbDir, from, refusalWords(pushed));
}
