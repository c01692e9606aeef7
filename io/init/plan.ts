/**
 * What `git-kb init` will do, decided before anything is written: clone a remote, adopt an
 * existing clone or create a new repo, and in which folder; and whether the config may point at
 * the result (a refusal changes nothing). The work itself: `repo.ts`.
 *
 * @module
 */
import { EXIT, KbError } from "../../core/exit.ts";
import { basename, dirname, join, resolveFrom } from "../../core/path.ts";
import { closestWord } from "../../core/text/closest.ts";
import { projectManifests } from "../../core/init/project.ts";
import { isRemoteUrl, remoteKey } from "../../core/git/remote_url.ts";
import { resolvePath, xdgFolder } from "../paths.ts";
import { configTarget, type KnowledgeBase, nameFromDir } from "../config.ts";
import { gitOk, isBareRepository, isInsideWorkTree, originUrl } from "../git.ts";
import { ENTRIES_DIR, listEntries, NotAKbError } from "../kb.ts";
import { plural } from "../../core/text/plural.ts";
import { isEmptyDir, isFile, pathExists, realPathOr, statOf } from "../disk.ts";
import { kbCommand, selfCommand } from "../self_command.ts";

/**
 * A call of init that cannot be carried out as asked, found before anything was changed: the
 * message says why and what to run instead. The CLI reports it as a usage error (exit 2).
 */
export class InitRefusal extends KbError {
  /** @param message why, and the command to run instead */
  constructor(message: string) {
    super(message, EXIT.usage);
    this.name = "InitRefusal";
  }
}

/**
 * The default folder of the first knowledge base, which names it: `personal`, or `kb` where an
 * earlier version made that folder (so running the same `init` again finds it).
 */
const FIRST_KB_FOLDER = "personal";
const EARLIER_FIRST_KB_FOLDER = "kb";

/**
 * The default folder of a knowledge base named `name` (none: the first), when `dirGiven` says
 * whether --dir chose one.
 */
export function defaultFolder(name: string | undefined, dirGiven: boolean): string {
  return name ?? (dirGiven ? FIRST_KB_FOLDER : firstKbFolder());
}

/** The first knowledge base's default folder: see {@link FIRST_KB_FOLDER}. */
function firstKbFolder(): string {
  const earlier = statOf(defaultDir(EARLIER_FIRST_KB_FOLDER));
  return earlier?.isDirectory && !isEmptyDir(defaultDir(EARLIER_FIRST_KB_FOLDER))
    ? EARLIER_FIRST_KB_FOLDER
    : FIRST_KB_FOLDER;
}

/** The default path of the folder `folder` of a knowledge base. */
function defaultDir(folder: string): string {
  const pluginData = Deno.env.get("CLAUDE_PLUGIN_DATA");
  if (pluginData) return join(pluginData, folder);
  const data = xdgFolder("XDG_DATA_HOME", join(".local", "share"));
  if (!data) {
    throw new InitRefusal("cannot choose a default folder without HOME; pass --dir <path>");
  }
  return join(data, "git-kb", folder);
}

/**
 * True when `dir` is a work tree whose `origin` names the repository `source` names, however each
 * spells it (`file://`, a trailing slash or `.git`, a link to the same folder).
 */
async function isCloneOf(dir: string, source: string): Promise<boolean> {
  if (!statOf(dir)?.isDirectory || !await isInsideWorkTree(dir)) return false;
  const origin = await originUrl(dir);
  return origin !== undefined &&
    repositoryKey(origin, dir) === repositoryKey(source, Deno.cwd());
}

/** What init will do, decided before anything is written. */
export type InitPlan =
  | { mode: "cloned"; kbDir: string; from: string }
  | { mode: "existing"; kbDir: string; from?: string }
  | { mode: "created"; kbDir: string };

/**
 * Decide what init does with `source` (a remote, a bare repository, a clone, or a folder to
 * create) and `dir` (`--dir`; else the default folder `folder` names), before anything is
 * written. Throws {@link InitRefusal}, or an error naming the folder, when it cannot be done.
 */
export async function planInit(
  source: string | undefined,
  dir: string | undefined,
  folder: string,
  adopting: Adopting = { again: ["init"] },
): Promise<InitPlan> {
  const sourceStat = source && !isRemoteUrl(source) ? statOf(resolvePath(source)) : undefined;
  if (
    source &&
    (isRemoteUrl(source) ||
      (sourceStat?.isDirectory && await isBareRepository(resolvePath(source))))
  ) {
    const kbDir = resolvePath(dir ?? defaultDir(folder));
    const from = isRemoteUrl(source) ? source : resolvePath(source);
    if (await isCloneOf(kbDir, from)) return { mode: "existing", kbDir, from };
    const taken = inTheWay(kbDir);
    if (taken) {
      const configured = configTarget().kbs.find((kb) => samePlace(kb.kbDir, kbDir));
      if (configured && dir === undefined) {
        const name = nameFromDir(from.replace(/\/+$/, "").replace(/\.git$/, ""));
        throw new InitRefusal(
          `${kbDir} already holds the knowledge base "${configured.name}" the config names, ` +
            `a clone of another remote; nothing was changed. To add ${from} beside it, run ` +
            kbCommand("init", source, "--name", name),
        );
      }
      throw new Error(`${kbDir} already exists and ${taken}; pass --dir <new folder>`);
    }
    return { mode: "cloned", kbDir, from };
  }
  if (source && sourceStat?.isDirectory && await isInsideWorkTree(resolvePath(source))) {
    const kbDir = (await gitOk(resolvePath(source), ["rev-parse", "--show-toplevel"])).trim();
    return await adopted(kbDir, adopting);
  }
  if (source && sourceStat && !(sourceStat.isDirectory && isEmptyDir(resolvePath(source)))) {
    const path = resolvePath(source);
    if (!sourceStat.isDirectory) {
      throw new Error(
        `${path} is a file: give init a clone URL, a git repo, or a new or empty folder`,
      );
    }
    // A folder of notes: init never writes into it; import copies its notes into entries.
    const bring = configTarget().kbs.length
      ? `import them into your knowledge base: ${kbCommand("import", path)}`
      : `start one and import them: ${kbCommand("init")} && ${kbCommand("import", path)}`;
    throw new Error(
      `${path} exists but is neither a git repo nor an empty folder, so init leaves it alone; ` +
        `to bring the notes in it into a knowledge base, ${bring}`,
    );
  }
  if (source && (dir !== undefined || source.endsWith(".git"))) {
    const path = resolvePath(source);
    const near = nearbyRepo(path);
    const meant = near ? `; did you mean ${near}? ${kbCommand("init", near)}. Else ` : "; ";
    throw new InitRefusal(
      `${path} does not exist, so there is nothing to clone${meant}check the path, ` +
        `or to create a new knowledge base run ${selfCommand()} init <new folder>`,
    );
  }
  const kbDir = resolvePath(source ?? dir ?? defaultDir(folder));
  // Run again, `init` (or `init --dir D`) finds the repo it made: adopted, as a path to it is.
  if (statOf(kbDir)?.isDirectory && await isRepoTop(kbDir)) {
    return await adopted(kbDir, adopting);
  }
  const taken = inTheWay(kbDir);
  if (taken) throw new Error(`${kbDir} already exists and ${taken}; pass an empty or new folder`);
  return { mode: "created", kbDir };
}

/**
 * The git repository beside `path`, which does not exist, that it most likely mistypes: one whose
 * name is one or two characters off (`remot.git` for `remote.git`); undefined when none is.
 */
function nearbyRepo(path: string): string | undefined {
  let names: string[];
  try {
    names = [...Deno.readDirSync(dirname(path))].map((item) => item.name);
  } catch {
    return undefined; // its folder is missing or unreadable: nothing to suggest
  }
  const near = closestWord(basename(path) ?? "", names);
  const candidate = near === undefined ? undefined : join(dirname(path), near);
  return candidate && (isFile(join(candidate, "HEAD")) || pathExists(join(candidate, ".git")))
    ? candidate
    : undefined;
}

/** What is in the way of a new clone or repo at `kbDir` ("is not empty", "is a file"), if any. */
function inTheWay(kbDir: string): string | undefined {
  const info = statOf(kbDir);
  if (!info) return undefined;
  if (!info.isDirectory) return "is a file";
  return isEmptyDir(kbDir) ? undefined : "is not empty";
}

/** How init may adopt an existing repo: `--force`, and the words of the init run, to print. */
export interface Adopting {
  force?: boolean;
  /** The command as run (`init . --name proj`), printed with `--force` after it. */
  again: readonly string[];
}

/**
 * The plan that adopts the repo at `kbDir`, unless it has no entries/ folder and its files say
 * it is a project's ({@link projectManifests}): then, without `force`, a refusal that says so,
 * before anything is written in it.
 */
async function adopted(kbDir: string, { force, again }: Adopting): Promise<InitPlan> {
  if (force || statOf(join(kbDir, ENTRIES_DIR))) return { mode: "existing", kbDir };
  const files = await gitOk(kbDir, [
    "ls-files",
    "-z",
    "--cached",
    "--others",
    "--exclude-standard",
  ]);
  const manifests = projectManifests(files.split("\0").filter(Boolean));
  if (!manifests.length) return { mode: "existing", kbDir };
  throw new InitRefusal(
    `${kbDir} is a project's git repo (it holds ${manifests.join(", ")}), not a knowledge ` +
      "base: init would commit entries/ into it, and every save would push to its remote; " +
      "nothing was changed. A knowledge base is a repo of its own: start one with " +
      `${kbCommand("init")}, or clone yours with ${selfCommand()} init <clone-url>; to make ` +
      `this repo one all the same: ${kbCommand(...again, "--force")}`,
  );
}

/** Whether `dir` is the top folder of a git work tree (not a folder inside another repo). */
async function isRepoTop(dir: string): Promise<boolean> {
  if (!await isInsideWorkTree(dir)) return false;
  return samePlace((await gitOk(dir, ["rev-parse", "--show-toplevel"])).trim(), dir);
}

/** Whether two paths name the same folder, links resolved. */
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
export function guardConfig(
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
  throw new InitRefusal(
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
export function guardName(
  kbDir: string,
  name: string,
  force: boolean | undefined,
): string | undefined {
  const { file, kbs } = configTarget();
  const taken = kbs.find((kb) => kb.name === name);
  if (!taken) {
    return kbs.length
      ? `Added the knowledge base "${name}" beside ${kbs.map((kb) => kb.name).join(", ")}`
      : undefined;
  }
  if (samePlace(taken.kbDir, kbDir)) return undefined;
  if (force) return `The name "${name}" named ${taken.kbDir}; it now names ${kbDir}`;
  throw new InitRefusal(
    `the config ${file} already has a knowledge base named "${name}" (${taken.kbDir}); ` +
      "nothing was changed. Choose another --name, or pass --force to point the name at " +
      kbDir,
  );
}

/** What identifies the repository `url` names, a local path's links resolved (from `base`). */
function repositoryKey(url: string, base: string): string {
  return remoteKey(isRemoteUrl(url) ? url : realPathOr(resolveFrom(base, url)));
}

/** How init was asked, for the command printed when it refuses: every flag but `--json`. */
export interface InitAsked {
  source?: string;
  dir?: string;
  name?: string;
  default?: boolean;
  shared?: boolean;
}

/**
 * Refuse (unless `force`) a plan that clones, or adopts in another folder, the remote another
 * configured knowledge base is a clone of already: every entry would be served twice (under two
 * names), and each save would reach the other clone only by a sync. The refusal names that
 * knowledge base and the command that makes the second clone all the same, under a name the
 * config does not give to another folder.
 */
export async function guardSameRemote(
  plan: InitPlan,
  force: boolean | undefined,
  asked: InitAsked,
): Promise<void> {
  if (force || plan.mode === "created") return;
  const from = plan.from ?? await originUrl(plan.kbDir);
  if (!from) return;
  const key = repositoryKey(from, plan.kbDir);
  const { kbs } = configTarget();
  // A knowledge base the config names already is run again, not cloned a second time.
  if (kbs.some((kb) => samePlace(kb.kbDir, plan.kbDir))) return;
  for (const kb of kbs) {
    if (!statOf(kb.kbDir)?.isDirectory) continue;
    const origin = await originUrl(kb.kbDir).catch(() => undefined);
    if (!origin || repositoryKey(origin, kb.kbDir) !== key) continue;
    const count = entryCount(kb.kbDir);
    const held = count === undefined ? "" : `, ${plural(count, "entry", "entries")}`;
    const name = freeName(asked.name ?? nameFromDir(plan.kbDir), kbs, plan.kbDir);
    throw new InitRefusal(
      `${from} is cloned already: the config names a clone of it, the knowledge base ` +
        `"${kb.name}" (${kb.kbDir}${held}); nothing was changed. Search, get and the hooks read it already, ` +
        `and ${kbCommand("sync", kb.name)} brings it up to date. A second clone would serve ` +
        "every entry twice; to make one all the same, run " +
        kbCommand(
          "init",
          ...asked.source === undefined ? [] : [asked.source],
          ...asked.dir === undefined ? [] : ["--dir", asked.dir],
          "--name",
          name,
          ...asked.default ? ["--default"] : [],
          ...asked.shared ? ["--shared"] : [],
          "--force",
        ),
    );
  }
}

/** `wanted`, or `wanted-2`, `-3`…: the first the config does not give to a folder but `kbDir`. */
function freeName(wanted: string, kbs: readonly KnowledgeBase[], kbDir: string): string {
  const taken = (name: string) => kbs.some((kb) => kb.name === name && !samePlace(kb.kbDir, kbDir));
  let name = wanted;
  for (let n = 2; taken(name); n++) name = `${wanted.slice(0, 29)}-${n}`;
  return name;
}
