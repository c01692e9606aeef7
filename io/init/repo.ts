/**
 * The git work of `git-kb init`, once `plan.ts` has decided it: clone or create the repo, commit
 * the scaffold (entries/, a README, the shared marker), publish the set-up commit to an empty
 * remote, and find the markdown files git-kb will not read.
 *
 * @module
 */
import { join } from "../../core/path.ts";
import { shellCommand } from "../../core/shell/quote.ts";
import { writeFileAtomic } from "../fs.ts";
import {
  commitPaths,
  git,
  gitOk,
  gitReason,
  keepEntriesAsWritten,
  NETWORK_TIMEOUT_MS,
  originUrl,
} from "../git.ts";
import { KB_SETTINGS_FILE, readKbSettings, SHARED_SETTINGS_TEXT } from "../kb_settings.ts";
import { ENTRIES_DIR } from "../kb.ts";
import { isEmptyDir, makeDirs, statOf } from "../disk.ts";
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

/**
 * Clone `from` into `kbDir`, its files checked out only once entries are kept as the bytes
 * committed, whatever the clone's `.gitattributes` asks ({@link keepEntriesAsWritten}). A filter
 * stays in force: git-crypt sets its driver up after the clone, and its unlock checks the entries
 * out again through it. A teammate's filter only runs its smudge here (git-lfs's and git-crypt's
 * pass through what they do not recognize); whether its clean runs is decided at each save.
 */
async function cloneInto(from: string, kbDir: string): Promise<void> {
  await gitOk(".", ["clone", "--quiet", "--no-checkout", from, kbDir]);
  await keepEntriesAsWritten(kbDir, true);
  // A clone of an empty remote has no commit to check out.
  if ((await git(kbDir, ["rev-parse", "--verify", "--quiet", "HEAD"])).code !== 0) return;
  await gitOk(kbDir, ["checkout", "--quiet"]);
}

/** Clone or create the repo as `plan` says, with the step done added to `steps`. */
export async function carryOut(plan: InitPlan, steps: string[]): Promise<void> {
  if (plan.mode === "cloned") {
    await cloneInto(plan.from, plan.kbDir);
    steps.push(`Cloned ${plan.from} into ${plan.kbDir}`);
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
  }
}

/**
 * Push the set-up commit when `origin` is an empty repository (a clone of a new, bare remote
 * has nothing to track): after this, saves push and other machines can clone it. Returns the
 * step to print, or undefined when there is no origin or it already has branches.
 */
export async function publishToEmptyRemote(kbDir: string): Promise<string | undefined> {
  const from = await originUrl(kbDir);
  if (!from) return undefined;
  const heads = await git(kbDir, ["ls-remote", "--heads", "origin"], {
    timeoutMs: NETWORK_TIMEOUT_MS,
  });
  if (heads.code !== 0 || heads.stdout.trim()) return undefined;
  const pushed = await git(kbDir, ["push", "--quiet", "--set-upstream", "origin", "HEAD"], {
    timeoutMs: NETWORK_TIMEOUT_MS,
  });
  if (pushed.code === 0) return `Pushed the set-up commit to the empty remote ${from}`;
  throw new Error(
    `the knowledge base is set up in ${kbDir}, but pushing its first commit to the empty ` +
      `remote ${from} failed (${gitReason(pushed.stderr)}); push it with ` +
      shellCommand(["git", "-C", kbDir, "push", "--set-upstream", "origin", "HEAD"]),
  );
}
