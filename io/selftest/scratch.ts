/**
 * The throwaway world of `git-kb selftest`: a scratch folder under the cache root with a
 * knowledge base repo (three seeded entries, no remote), its own config file, cache folder and
 * git config, and the environment that points child processes at them. Also the snapshot of the
 * user's own config files and knowledge base, taken before and compared after, which proves the
 * run left them alone.
 *
 * @module
 */
import { join } from "../../core/path.ts";
import { type FinalState, seedFiles } from "../../core/setup/selftest_plan.ts";
import { resolveKb } from "../config.ts";
import { lstatOrUndefined, writeFileAtomic } from "../fs.ts";
import { ENTRIES_DIR, listEntries } from "../kb.ts";
import { cacheRoot, kbCacheDir, pluginConfigFile, xdgConfigFile } from "../paths.ts";
import { git } from "../git.ts";
import type { ProcessOutput } from "../process.ts";
import { selfCommand } from "../self_command.ts";

/** The file in a scratch folder that says what it is and holds the user's snapshot. */
export const STATE_FILE = "selftest.json";

/** What the user's own setup looked like: config files, and their knowledge base in git. */
export interface UserSnapshot {
  /** Each config file git-kb reads, with its text (null when it does not exist). */
  configs: { file: string; text: string | null }[];
  /** The knowledge base the user's config names, if any: HEAD and `git status`. */
  kb?: { dir: string; head: string; status: string };
}

/** A scratch knowledge base and what child processes need to use it. */
export interface Scratch {
  /** The scratch folder; removing it removes everything the run made. */
  dir: string;
  kbDir: string;
  /** The children's TMPDIR: their cache lives under it. */
  tmp: string;
  /** What the children's environment changes (it is inherited otherwise). */
  env: Record<string, string>;
  /** The user's setup before the run. */
  user: UserSnapshot;
}

/** Raised when a folder is not one `selftest --setup-only` made. */
export class NotAScratchError extends Error {
  constructor(dir: string, why: string) {
    super(
      `${dir} is not a selftest scratch folder (${why}); pass the folder that ` +
        `\`${selfCommand()} selftest --setup-only\` printed`,
    );
    this.name = "NotAScratchError";
  }
}

function readOrNull(file: string): string | null {
  try {
    return Deno.readTextFileSync(file);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return null;
    throw error;
  }
}

async function gitOut(cwd: string, args: string[], env?: Record<string, string>) {
  const result = await git(cwd, args, { env });
  if (result.code !== 0) {
    throw new Error(`git ${args.join(" ")} failed in ${cwd}: ${firstLine(result)}`);
  }
  return result.stdout;
}

/** The first line of what a process said on stderr (else stdout). */
export function firstLine(result: ProcessOutput): string {
  return (result.stderr.trim() || result.stdout.trim()).split("\n")[0] || `exit ${result.code}`;
}

/**
 * The user's config files and the knowledge base they resolve to (`--kb` as given to selftest,
 * `KB_DIR`, the config files), read without writing anything: `git status` runs with
 * `--no-optional-locks`, so not even git's index is refreshed.
 */
export async function snapshotUser(kbFlag?: string): Promise<UserSnapshot> {
  const files = [pluginConfigFile(), xdgConfigFile()].filter((file): file is string => !!file);
  const configs = files.map((file) => ({ file, text: readOrNull(file) }));
  let dir: string;
  try {
    dir = resolveKb(kbFlag).kbDir;
  } catch {
    return { configs };
  }
  const head = await git(dir, ["rev-parse", "HEAD"]).catch(() => undefined);
  const status = await git(dir, [
    "--no-optional-locks",
    "status",
    "--porcelain",
    "--untracked-files=all",
  ]).catch(() => undefined);
  return {
    configs,
    kb: {
      dir,
      head: head?.code === 0 ? head.stdout.trim() : "(no git HEAD)",
      status: status?.code === 0 ? status.stdout : "(no git status)",
    },
  };
}

/** What differs between two snapshots of the user's setup, one line each; empty when nothing. */
export function snapshotChanges(before: UserSnapshot, after: UserSnapshot): string[] {
  const changes: string[] = [];
  for (const { file, text } of before.configs) {
    const now = after.configs.find((config) => config.file === file);
    if (now?.text !== text) changes.push(`config file ${file} changed`);
  }
  if (before.kb?.dir !== after.kb?.dir) {
    const name = (kb?: { dir: string }) => kb?.dir ?? "none";
    changes.push(`the knowledge base in use changed from ${name(before.kb)} to ${name(after.kb)}`);
  } else if (before.kb && after.kb) {
    if (before.kb.head !== after.kb.head) {
      changes.push(`${before.kb.dir} HEAD moved from ${before.kb.head} to ${after.kb.head}`);
    }
    if (before.kb.status !== after.kb.status) changes.push(`${before.kb.dir}: git status changed`);
  }
  return changes;
}

/** One line on what a snapshot protects. */
export function describeSnapshot(snapshot: UserSnapshot): string {
  const configs = snapshot.configs.map(({ file, text }) =>
    `${file}${text === null ? " (none)" : ""}`
  );
  const kb = snapshot.kb
    ? `${snapshot.kb.dir} at ${snapshot.kb.head.slice(0, 12)}`
    : "no knowledge base configured";
  return `config ${configs.join(", ") || "(none)"}; ${kb}`;
}

/** The children's environment for a scratch folder. */
function scratchEnv(dir: string, tmp: string): Record<string, string> {
  return {
    TMPDIR: tmp,
    TEMP: tmp,
    TMP: tmp,
    XDG_CONFIG_HOME: join(dir, "config"),
    CLAUDE_PLUGIN_DATA: join(dir, "plugin-data"),
    // Empty is unset for git-kb: the user's own values must not win over the scratch config.
    KB_DIR: "",
    KB_HOOK_DEBUG: "",
    KB_HOOK_THRESHOLD: "",
    KB_HOOK_MAX_ENTRIES: "",
    VISUAL: "",
    EDITOR: "",
    NO_COLOR: "1",
    GIT_CONFIG_GLOBAL: join(dir, "gitconfig"),
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_TERMINAL_PROMPT: "0",
  };
}

/**
 * Make a scratch folder under the cache root: a knowledge base repo with the seeded entries in
 * one commit and no remote, a config file naming it, an empty git config and a cache folder.
 * The state file records `user`, so a later `--teardown` can check the user's setup.
 */
export async function createScratch(user: UserSnapshot): Promise<Scratch> {
  let root: string;
  try {
    root = cacheRoot();
  } catch (error) {
    throw new Error(
      `cannot use the cache folder for the scratch knowledge base ` +
        `(${(error as Error).message}); point XDG_CACHE_HOME at a writable folder of your own`,
    );
  }
  const dir = Deno.makeTempDirSync({ dir: root, prefix: "selftest-" });
  const tmp = join(dir, "tmp");
  const scratch: Scratch = { dir, kbDir: join(dir, "kb"), tmp, env: scratchEnv(dir, tmp), user };
  try {
    await fillScratch(scratch);
  } catch (error) {
    Deno.removeSync(dir, { recursive: true });
    throw error;
  }
  return scratch;
}

async function fillScratch(scratch: Scratch): Promise<void> {
  const { dir, kbDir, tmp, env } = scratch;
  writeFileAtomic(join(dir, STATE_FILE), JSON.stringify(scratch, null, 2) + "\n");
  Deno.mkdirSync(join(kbDir, ENTRIES_DIR), { recursive: true });
  Deno.mkdirSync(join(tmp, "git-kb"), { recursive: true });
  Deno.mkdirSync(env.CLAUDE_PLUGIN_DATA, { recursive: true });
  Deno.writeTextFileSync(env.GIT_CONFIG_GLOBAL, "");
  writeFileAtomic(join(env.XDG_CONFIG_HOME, "git-kb", "config.json"), JSON.stringify({ kbDir }));
  for (const [path, text] of seedFiles()) Deno.writeTextFileSync(join(kbDir, path), text);
  const git = (args: string[]) => gitOut(kbDir, args, env);
  await git(["init", "--quiet", "-b", "main"]);
  await git(["add", "--", ENTRIES_DIR]);
  await git([
    "-c",
    "user.name=git-kb selftest",
    "-c",
    "user.email=selftest@git-kb.invalid",
    "commit",
    "--quiet",
    "--no-verify",
    "-m",
    "selftest: three seeded entries",
  ]);
}

/** The scratch in `dir`, from its state file; refuses any other folder. */
export function loadScratch(dir: string): Scratch {
  const text = readOrNull(join(dir, STATE_FILE));
  if (text === null && !lstatOrUndefined(dir)) {
    throw new NotAScratchError(dir, "there is no such folder: torn down already?");
  }
  if (text === null) throw new NotAScratchError(dir, `it has no ${STATE_FILE}`);
  const scratch = JSON.parse(text) as Scratch;
  if (scratch.dir !== dir.replace(/\/+$/, "") || typeof scratch.kbDir !== "string") {
    throw new NotAScratchError(dir, `its ${STATE_FILE} describes another folder`);
  }
  return scratch;
}

/**
 * Remove a scratch folder, and the cache that commands run without its environment (the
 * agents of /git-kb:test-skill pass only --kb) made for its knowledge base.
 */
export function removeScratch(scratch: Scratch): string[] {
  const removed: string[] = [];
  for (const dir of [kbCacheDir(scratch.kbDir), scratch.dir]) {
    try {
      Deno.removeSync(dir, { recursive: true });
      removed.push(dir);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
  }
  return removed;
}

/** The scratch knowledge base as git and the file system show it now. */
export async function finalState(scratch: Scratch): Promise<FinalState> {
  const git = (args: string[]) => gitOut(scratch.kbDir, args, scratch.env);
  const files = new Map<string, string>();
  for (const path of listEntries(scratch.kbDir).sort()) {
    files.set(path, Deno.readTextFileSync(join(scratch.kbDir, path)));
  }
  return {
    subjects: (await git(["log", "--reverse", "--format=%s"])).trim().split("\n"),
    files,
    status: await git(["status", "--porcelain", "--untracked-files=all"]),
    remotes: await git(["remote"]),
  };
}
