/**
 * `git-kb init [<clone-url|path>]`: connect a knowledge base (clone a remote, adopt an existing
 * clone, or create a new repo), record it in the config and build the index.
 *
 * @module
 */
import { join } from "../core/path.ts";
import { resolvePath } from "../io/paths.ts";
import { writeConfig } from "../io/config.ts";
import { writeFileAtomic } from "../io/fs.ts";
import { git, gitOk, identityArgs } from "../io/git.ts";
import { openIndex } from "../io/index_store.ts";
import { ENTRIES_DIR } from "../io/kb.ts";
import { homeDir } from "../io/paths.ts";
import { parseCommand, UsageError } from "./args.ts";
import { green, printJson } from "./output.ts";

/** Help text. */
export const help = `Usage: git-kb init [<clone-url | path>] [options]

Connect git-kb to a knowledge base repo, write the config, build the index.

  git-kb init git@github.com:me/kb.git    clone a remote (a local bare repo path works too)
  git-kb init ~/notes/kb                  use an existing local clone, or create a new repo
                                          there when the folder does not exist or is empty
  git-kb init                             create a new repo in the default folder

Options:
  --dir <path>    where to clone to, or create the new repo
                  (default: $CLAUDE_PLUGIN_DATA/kb, else ~/.local/share/git-kb/kb)
  --json          print what was done as JSON

The config goes to $CLAUDE_PLUGIN_DATA/config.json when that is set, else to
$XDG_CONFIG_HOME/git-kb/config.json (~/.config/git-kb/config.json).`;

const README = `# Knowledge base

Entries managed by git-kb: one markdown file per entry under \`entries/\`, named
\`<id>-<slug>.md\`, with YAML frontmatter. Add entries with \`git-kb add\`.
`;

function defaultDir(): string {
  const pluginData = Deno.env.get("CLAUDE_PLUGIN_DATA");
  if (pluginData) return join(pluginData, "kb");
  const data = Deno.env.get("XDG_DATA_HOME") ||
    (homeDir() ? join(homeDir()!, ".local", "share") : undefined);
  if (!data) throw new UsageError("cannot choose a default folder without HOME; pass --dir <path>");
  return join(data, "git-kb", "kb");
}

function exists(path: string): Deno.FileInfo | undefined {
  try {
    return Deno.statSync(path);
  } catch {
    return undefined;
  }
}

function isEmptyDir(path: string): boolean {
  for (const _ of Deno.readDirSync(path)) return false;
  return true;
}

function looksRemote(source: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(source) || /^[^/\\\s]+@[^:\s]+:/.test(source);
}

async function isWorkTree(path: string): Promise<boolean> {
  const result = await git(path, ["rev-parse", "--is-inside-work-tree"]);
  return result.code === 0 && result.stdout.trim() === "true";
}

async function isBareRepo(path: string): Promise<boolean> {
  const result = await git(path, ["rev-parse", "--is-bare-repository"]);
  return result.code === 0 && result.stdout.trim() === "true";
}

/** True when `dir` is a work tree whose `origin` is `source`. */
async function isCloneOf(dir: string, source: string): Promise<boolean> {
  if (!exists(dir)?.isDirectory || !await isWorkTree(dir)) return false;
  const origin = await git(dir, ["remote", "get-url", "origin"]);
  return origin.code === 0 && origin.stdout.trim() === source;
}

async function commitScaffold(kbDir: string, message: string): Promise<boolean> {
  const entries = join(kbDir, ENTRIES_DIR);
  Deno.mkdirSync(entries, { recursive: true });
  const added: string[] = [];
  if (!exists(join(entries, ".gitkeep")) && isEmptyDir(entries)) {
    writeFileAtomic(join(entries, ".gitkeep"), "");
    added.push(`${ENTRIES_DIR}/.gitkeep`);
  }
  if (!exists(join(kbDir, "README.md"))) {
    writeFileAtomic(join(kbDir, "README.md"), README);
    added.push("README.md");
  }
  if (!added.length) return false;
  await gitOk(kbDir, ["add", "--", ...added]);
  const identity = await identityArgs(kbDir);
  await gitOk(kbDir, [
    ...identity,
    "commit",
    "--quiet",
    "--no-verify",
    "-m",
    message,
    "--",
    ...added,
  ]);
  return true;
}

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, {
    dir: { type: "string" },
    json: { type: "boolean" },
  });
  if (positionals.length > 1) throw new UsageError("give at most one clone URL or path");
  const source = positionals[0];
  const steps: string[] = [];
  let kbDir: string;
  let mode: "cloned" | "existing" | "created";
  const sourceStat = source && !looksRemote(source) ? exists(resolvePath(source)) : undefined;
  if (
    source &&
    (looksRemote(source) || (sourceStat?.isDirectory && await isBareRepo(resolvePath(source))))
  ) {
    kbDir = resolvePath(values.dir ?? defaultDir());
    const from = looksRemote(source) ? source : resolvePath(source);
    if (await isCloneOf(kbDir, from)) {
      mode = "existing";
      steps.push(`Using ${kbDir}, already a clone of ${from}`);
    } else {
      if (exists(kbDir) && !isEmptyDir(kbDir)) {
        throw new Error(`${kbDir} already exists and is not empty; pass --dir <new folder>`);
      }
      await gitOk(".", ["clone", "--quiet", from, kbDir]);
      mode = "cloned";
      steps.push(`Cloned ${from} into ${kbDir}`);
    }
  } else if (source && sourceStat?.isDirectory && await isWorkTree(resolvePath(source))) {
    kbDir = (await gitOk(resolvePath(source), ["rev-parse", "--show-toplevel"])).trim();
    mode = "existing";
    steps.push(`Using the existing clone ${kbDir}`);
  } else if (source && sourceStat && !(sourceStat.isDirectory && isEmptyDir(resolvePath(source)))) {
    throw new Error(`${resolvePath(source)} exists but is neither a git repo nor an empty folder`);
  } else if (source && (values.dir !== undefined || source.endsWith(".git"))) {
    throw new UsageError(
      `${resolvePath(source)} does not exist, so there is nothing to clone; check the path, ` +
        `or to create a new knowledge base run git-kb init <new folder>`,
    );
  } else {
    kbDir = resolvePath(source ?? values.dir ?? defaultDir());
    if (exists(kbDir) && !isEmptyDir(kbDir)) {
      throw new Error(`${kbDir} already exists and is not empty; pass an empty or new folder`);
    }
    Deno.mkdirSync(kbDir, { recursive: true });
    await gitOk(kbDir, ["init", "--quiet"]);
    mode = "created";
    steps.push(`Created a new knowledge base repo in ${kbDir}`);
  }
  if (await commitScaffold(kbDir, "kb: set up the knowledge base")) {
    steps.push(`Committed the entries/ folder and a README`);
  }
  const configFile = writeConfig(kbDir);
  steps.push(`Wrote the config ${configFile}`);
  const { report } = await openIndex(kbDir, { full: true });
  steps.push(`Indexed ${report.docCount} entries in ${Math.round(report.ms)} ms`);
  if (values.json) {
    printJson({ kbDir, mode, configFile, entries: report.docCount, invalid: report.invalid });
  } else {
    for (const step of steps) console.log(`${green("✓")} ${step}`);
    for (const item of report.invalid) console.log(`  skipped ${item.path}: ${item.message}`);
  }
  return 0;
}
