/**
 * `git-kb init [<clone-url|path>]`: connect a knowledge base (clone a remote, adopt an existing
 * clone, or create a new repo), record it in the config and build the index.
 *
 * @module
 */
import { join } from "../core/path.ts";
import { shellCommand } from "../core/shell/quote.ts";
import { resolvePath } from "../io/paths.ts";
import { configTarget, kbNameProblem, nameFromDir, writeConfig } from "../io/config.ts";
import { writeFileAtomic } from "../io/fs.ts";
import {
  commitIdentity,
  commitPaths,
  fallbackIdentityWarning,
  git,
  gitOk,
  gitReason,
  isBareRepository,
  isInsideWorkTree,
  NETWORK_TIMEOUT_MS,
  originUrl,
} from "../io/git.ts";
import { openIndex } from "../io/index/store.ts";
import { KB_SETTINGS_FILE, readKbSettings, SHARED_SETTINGS_TEXT } from "../io/kb_settings.ts";
import { ENTRIES_DIR, listEntries, NotAKbError } from "../io/kb.ts";
import { homeDir } from "../io/paths.ts";
import { type CommandSpec, helpText, parseCommand, UsageError } from "./args.ts";
import { green, plural, printJson, yellow } from "./output.ts";
import { isEmptyDir, makeDirs, realPathOr, statOf } from "../io/disk.ts";
import { kbCommand, selfCommand } from "../io/self_command.ts";

/** The command: its usage, options and positionals. */
export const command = {
  usage: ["init [<clone-url | path>] [options]"],
  about: `Connect git-kb to a knowledge base repo, write the config, build the index.

  git-kb init git@github.com:me/kb.git    clone a remote (a local bare repo path works too)
  git-kb init ~/notes/kb                  use an existing local clone, or create a new repo
                                          there when the folder does not exist or is empty
  git-kb init                             create a new repo in the default folder
  git-kb init <url> --name team           add a second knowledge base beside the first`,
  options: {
    dir: {
      type: "string",
      value: "<path>",
      help: "where to clone to, or create the new repo\n" +
        "(default: $CLAUDE_PLUGIN_DATA/personal, else\n" +
        "~/.local/share/git-kb/personal, whose name, personal, the\n" +
        "knowledge base takes; with --name, the name instead)",
    },
    name: {
      type: "string",
      value: "<name>",
      help: "add this knowledge base to the config under this name, beside\n" +
        "the ones there (search, get, context and the hooks read them all)",
    },
    default: {
      type: "boolean",
      help: "make this knowledge base the default, the one saves go to\n" +
        "(the first one configured is the default)",
    },
    force: {
      type: "boolean",
      help: "point the config at this knowledge base although it names\n" +
        "another one (without it init refuses, exit 2, and changes nothing)",
    },
    shared: {
      type: "boolean",
      help: "mark a team's knowledge base: commit git-kb.json saying so,\n" +
        "and every clone refuses --allow-secret",
    },
    json: { type: "boolean", help: "print what was done as JSON" },
  },
  positionals: { name: "<clone-url or path>", max: 1 },
  kb: false,
  notes: `Markdown files outside entries/ are not read; init names them.

The config goes to $CLAUDE_PLUGIN_DATA/config.json when that is set, else to
$XDG_CONFIG_HOME/git-kb/config.json (~/.config/git-kb/config.json).`,
} as const satisfies CommandSpec;

/** Help text. */
export const help: string = helpText(command);

const README = `# Knowledge base

Entries managed by git-kb: one markdown file per entry under \`entries/\`, named
\`<id>-<slug>.md\`, with YAML frontmatter. Add entries with \`git-kb add\`.
`;

/**
 * The default folder of the first knowledge base, which names it: `personal`, or `kb` where an
 * earlier version made that folder (so running the same `init` again finds it).
 */
const FIRST_KB_FOLDER = "personal";
const EARLIER_FIRST_KB_FOLDER = "kb";

function firstKbFolder(): string {
  const earlier = statOf(defaultDir(EARLIER_FIRST_KB_FOLDER));
  return earlier?.isDirectory && !isEmptyDir(defaultDir(EARLIER_FIRST_KB_FOLDER))
    ? EARLIER_FIRST_KB_FOLDER
    : FIRST_KB_FOLDER;
}

/** The default folder of a knowledge base: see {@link firstKbFolder}, or the name given. */
function defaultDir(folder: string): string {
  const pluginData = Deno.env.get("CLAUDE_PLUGIN_DATA");
  if (pluginData) return join(pluginData, folder);
  const data = Deno.env.get("XDG_DATA_HOME") ||
    (homeDir() ? join(homeDir()!, ".local", "share") : undefined);
  if (!data) throw new UsageError("cannot choose a default folder without HOME; pass --dir <path>");
  return join(data, "git-kb", folder);
}

function looksRemote(source: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(source) || /^[^/\\\s]+@[^:\s]+:/.test(source);
}

/** True when `dir` is a work tree whose `origin` is `source`. */
async function isCloneOf(dir: string, source: string): Promise<boolean> {
  if (!statOf(dir)?.isDirectory || !await isInsideWorkTree(dir)) return false;
  return await originUrl(dir) === source;
}

async function commitScaffold(kbDir: string, message: string, shared: boolean): Promise<string[]> {
  const entries = join(kbDir, ENTRIES_DIR);
  makeDirs(entries);
  const added: string[] = [];
  if (shared && !(await readKbSettings(kbDir)).shared) {
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

/** What init will do, decided before anything is written. */
type Plan =
  | { mode: "cloned"; kbDir: string; from: string }
  | { mode: "existing"; kbDir: string; from?: string }
  | { mode: "created"; kbDir: string };

async function plan(
  source: string | undefined,
  dir: string | undefined,
  folder: string,
): Promise<Plan> {
  const sourceStat = source && !looksRemote(source) ? statOf(resolvePath(source)) : undefined;
  if (
    source &&
    (looksRemote(source) ||
      (sourceStat?.isDirectory && await isBareRepository(resolvePath(source))))
  ) {
    const kbDir = resolvePath(dir ?? defaultDir(folder));
    const from = looksRemote(source) ? source : resolvePath(source);
    if (await isCloneOf(kbDir, from)) return { mode: "existing", kbDir, from };
    if (statOf(kbDir) && !isEmptyDir(kbDir)) {
      const configured = configTarget().kbs.find((kb) => samePlace(kb.kbDir, kbDir));
      if (configured && dir === undefined) {
        const name = nameFromDir(from.replace(/\/+$/, "").replace(/\.git$/, ""));
        throw new UsageError(
          `${kbDir} already holds the knowledge base "${configured.name}" the config names, ` +
            `a clone of another remote; nothing was changed. To add ${from} beside it, run ` +
            kbCommand("init", source, "--name", name),
        );
      }
      throw new Error(`${kbDir} already exists and is not empty; pass --dir <new folder>`);
    }
    return { mode: "cloned", kbDir, from };
  }
  if (source && sourceStat?.isDirectory && await isInsideWorkTree(resolvePath(source))) {
    const kbDir = (await gitOk(resolvePath(source), ["rev-parse", "--show-toplevel"])).trim();
    return { mode: "existing", kbDir };
  }
  if (source && sourceStat && !(sourceStat.isDirectory && isEmptyDir(resolvePath(source)))) {
    throw new Error(`${resolvePath(source)} exists but is neither a git repo nor an empty folder`);
  }
  if (source && (dir !== undefined || source.endsWith(".git"))) {
    throw new UsageError(
      `${resolvePath(source)} does not exist, so there is nothing to clone; check the path, ` +
        `or to create a new knowledge base run ${selfCommand()} init <new folder>`,
    );
  }
  const kbDir = resolvePath(source ?? dir ?? defaultDir(folder));
  if (statOf(kbDir) && !isEmptyDir(kbDir)) {
    throw new Error(`${kbDir} already exists and is not empty; pass an empty or new folder`);
  }
  return { mode: "created", kbDir };
}

function samePlace(a: string, b: string): boolean {
  return realPathOr(a) === realPathOr(b);
}

/** How many entries the knowledge base at `kbDir` holds; undefined when it is none. */
function entryCount(kbDir: string): number | undefined {
  try {
    return listEntries(kbDir).length;
  } catch (error) {
    if (!(error instanceof NotAKbError)) throw error;
    return undefined;
  }
}

/**
 * Refuse (unless `force`) to point the config away from another knowledge base that is still
 * there; the refusal says how to add the new one beside it instead. Returns a note to print
 * when the config named a folder that is gone or holds no knowledge base, or was repointed.
 */
function guardConfig(
  kbDir: string,
  force: boolean | undefined,
  rerun: string[],
): string | undefined {
  const { file, kbDir: configured, kbs } = configTarget();
  if (!configured || kbs.some((kb) => samePlace(kb.kbDir, kbDir))) return undefined;
  const count = entryCount(configured);
  if (count === undefined) {
    return `The config named ${configured}, which holds no knowledge base; it now names ${kbDir}`;
  }
  const entries = plural(count, "entry", "entries");
  if (force) return `The config named ${configured} (${entries}); it now names ${kbDir}`;
  const names = kbs.map((kb) => `${kb.name} (${kb.kbDir})`).join(", ");
  throw new UsageError(
    `the config ${file} already points at the knowledge base ${configured} ` +
      `(${entries}), not at ${kbDir}; nothing was changed. It lists ${names}. ` +
      `To add ${kbDir} beside it, run ${kbCommand(...rerun, "--name", nameFromDir(kbDir))}; ` +
      `to switch to ${kbDir}, run the same command with --force; to use another knowledge ` +
      `base for one command, pass --kb <dir> or set KB_DIR`,
  );
}

/**
 * Refuse (unless `force`) to give `name` to this knowledge base when the config gives it to
 * another folder. Returns a note when it did (with `force`), or when `name` is new.
 */
function guardName(kbDir: string, name: string, force: boolean | undefined): string | undefined {
  const { file, kbs } = configTarget();
  const taken = kbs.find((kb) => kb.name === name);
  if (!taken) {
    return kbs.length
      ? `Added the knowledge base "${name}" beside ${kbs.map((kb) => kb.name).join(", ")}`
      : undefined;
  }
  if (samePlace(taken.kbDir, kbDir)) return undefined;
  if (force) return `The name "${name}" named ${taken.kbDir}; it now names ${kbDir}`;
  throw new UsageError(
    `the config ${file} already has a knowledge base named "${name}" (${taken.kbDir}); ` +
      "nothing was changed. Choose another --name, or pass --force to point the name at " +
      kbDir,
  );
}

/** Markdown files outside entries/ (the top-level README aside): git-kb never reads them. */
async function strayMarkdown(kbDir: string): Promise<string[]> {
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

async function carryOut(plan: Plan, steps: string[]): Promise<void> {
  if (plan.mode === "cloned") {
    await gitOk(".", ["clone", "--quiet", plan.from, plan.kbDir]);
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
async function publishToEmptyRemote(kbDir: string): Promise<string | undefined> {
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

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, command.options, command);
  const problem = values.name === undefined ? undefined : kbNameProblem(values.name);
  if (problem) throw new UsageError(problem);
  const folder = values.name ?? (values.dir === undefined ? firstKbFolder() : FIRST_KB_FOLDER);
  const planned = await plan(positionals[0], values.dir, folder);
  const { kbDir, mode } = planned;
  const rerun = ["init", ...positionals, ...values.dir ? ["--dir", values.dir] : []];
  const replaced = values.name === undefined
    ? guardConfig(kbDir, values.force, rerun)
    : guardName(kbDir, values.name, values.force);
  const steps: string[] = [];
  await carryOut(planned, steps);
  const scaffold = await commitScaffold(
    kbDir,
    "kb: set up the knowledge base",
    values.shared === true,
  );
  if (scaffold.length) steps.push(`Committed ${scaffold.join(", ")}`);
  const warnings = (await commitIdentity(kbDir)).fallback ? [fallbackIdentityWarning()] : [];
  if (values.shared) steps.push(`Shared: ${KB_SETTINGS_FILE} says so; --allow-secret is refused`);
  const configFile = writeConfig(kbDir, { name: values.name, makeDefault: values.default });
  steps.push(`Wrote the config ${configFile}`);
  if (replaced) steps.push(replaced);
  const published = await publishToEmptyRemote(kbDir);
  if (published) steps.push(published);
  const { report } = await openIndex(kbDir, { full: true });
  steps.push(
    `Indexed ${plural(report.docCount, "entry", "entries")} in ${Math.round(report.ms)} ms`,
  );
  const notRead = await strayMarkdown(kbDir);
  if (values.json) {
    printJson({
      kbDir,
      mode,
      configFile,
      entries: report.docCount,
      invalid: report.invalid,
      notRead,
      warnings,
    });
    return 0;
  }
  for (const step of steps) console.log(`${green("✓")} ${step}`);
  for (const warning of warnings) console.log(`${yellow("!")} ${warning}`);
  if (report.invalid.length) {
    console.log(
      `${yellow("!")} ${plural(report.invalid.length, "file", "files")} under ${ENTRIES_DIR}/ ` +
        `left out: run ${kbCommand("doctor", "--kb", kbDir)}`,
    );
  }
  if (notRead.length) {
    const shown = notRead.slice(0, 5).join(", ") + (notRead.length > 5 ? ", …" : "");
    console.log(
      `${yellow("!")} ${
        plural(notRead.length, "markdown file", "markdown files")
      } outside ${ENTRIES_DIR}/ ` +
        `are not read by git-kb (${shown}): move them into ${ENTRIES_DIR}/, or bring a folder of ` +
        `notes in with ${selfCommand()} import <folder> (--dry-run first to see the report)`,
    );
  }
  return 0;
}
