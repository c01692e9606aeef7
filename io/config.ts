/**
 * Which knowledge bases to use: the `--kb` flag, then `KB_DIR` (each names exactly one), then the
 * plugin's config file, then the XDG config file. Every command and hook resolves them the same
 * way.
 *
 * A config file lists named knowledge bases and says which one takes the saves:
 * `{ "kbs": [{ "name": "personal", "dir": "/abs" }, { "name": "team", "dir": "/abs2" }],
 * "default": "personal" }`. The older `{ "kbDir": "/abs" }` still reads, as one knowledge base
 * named after its folder, and is rewritten in the new form by the next {@link writeConfig}. A
 * folder written relative is read from the config file's own folder (`~/…` from the home folder)
 * and written back absolute by the next {@link writeConfig}; `doctor` names it meanwhile.
 *
 * @module
 */
import { basename, dirname, isAbsolute, isFromHome, resolveFrom } from "../core/path.ts";
import { KB_NAME_PATTERN } from "../core/kbs/qualified.ts";
import { closestWord } from "../core/text/closest.ts";
import { resolvePath, userPath } from "./paths.ts";
import { readJsonFile, writeFileAtomic } from "./fs.ts";
import { pluginConfigFile, xdgConfigFile } from "./paths.ts";
import { selfCommand } from "./self_command.ts";

/** One configured knowledge base: its name and its folder. */
export interface KnowledgeBase {
  /** The name results carry when several are configured (`team` in `team:kb-7q2mx`). */
  name: string;
  /** The knowledge base folder, absolute. */
  kbDir: string;
}

/** Where the knowledge base was found, and by which rule. */
export interface KbLocation {
  /** The knowledge base folder, absolute. */
  kbDir: string;
  /** `--kb`, `KB_DIR`, or the config file's path. */
  source: string;
  /** Its name in the config file; undefined for `--kb` and `KB_DIR`. */
  name?: string;
}

/** The knowledge bases in use, the default (the one saves go to) first, and which rule found them. */
export interface KbSet {
  /** At least one; the default first. */
  kbs: KnowledgeBase[];
  /** `--kb`, `KB_DIR`, or the config file's path. */
  source: string;
}

/** Raised when no rule names a knowledge base. */
export class NotConfiguredError extends Error {
  constructor() {
    super(
      `No knowledge base is configured. Run \`${selfCommand()} init <clone-url|path>\` to ` +
        `clone yours (or use a folder), or \`${selfCommand()} init\` to start a new one; or pass ` +
        "--kb <dir> or set KB_DIR.",
    );
    this.name = "NotConfiguredError";
  }
}

/** Raised when a name given on the command line is not a configured knowledge base. */
export class UnknownKbError extends Error {
  constructor(name: string, known: readonly KnowledgeBase[], source: string) {
    const names = known.map((kb) => kb.name);
    const near = closestWord(name, names);
    super(
      `no knowledge base named "${name}" is configured (${source} names ${
        names.join(", ") || "none"
      }); ${near ? `did you mean "${near}"? Else ` : ""}add one with ${selfCommand()} init ` +
        `<clone-url|path> --name ${name}`,
    );
    this.name = "UnknownKbError";
  }
}

/** Why `name` is not a valid knowledge base name, or undefined when it is. */
export function kbNameProblem(name: string): string | undefined {
  return KB_NAME_PATTERN.test(name) ? undefined : `"${name}" is not a knowledge base name: use ` +
    "1 to 32 lowercase letters, digits, - and _, starting with a letter or digit";
}

/** The name a knowledge base gets from its folder (`~/kb/team` → `team`), else `default`. */
export function nameFromDir(kbDir: string): string {
  const name = (basename(kbDir) ?? "").toLowerCase().replace(/[^a-z0-9_-]/g, "-").slice(0, 32);
  return kbNameProblem(name) ? "default" : name;
}

/** A config file and what it says: its knowledge bases (the default first), if it names any. */
export interface ConfigCandidate {
  /** The config file. */
  file: string;
  /** The default knowledge base's folder, when the file names one. */
  kbDir?: string;
  /** Every knowledge base the file names, the default first; empty when it names none. */
  kbs: KnowledgeBase[];
  /** Whether the file is in the old `{ "kbDir": … }` form. */
  legacy: boolean;
  /**
   * The knowledge bases whose folder the file writes relative (not from `~`), each with the
   * folder as written.
   */
  relative: RelativeFolder[];
}

/** A knowledge base a config file names by a relative folder. */
export interface RelativeFolder extends KnowledgeBase {
  /** The folder as the file writes it; {@link KnowledgeBase.kbDir} is what it is read as. */
  written: string;
}

/**
 * A folder a config file writes, made absolute: `~` and `~/…` from the home folder, any other
 * relative folder from the config file's own folder. Never from the current folder, which
 * differs for every command and every shell an agent opens.
 */
function configuredFolder(dir: string, file: string): string {
  return resolveFrom(resolvePath(dirname(file)), userPath(dir));
}

/**
 * The knowledge bases a config file's data names, the default first, their folders made
 * absolute ({@link configuredFolder}). Read forgivingly: an item without a usable name or
 * folder, or with a name or folder seen before, is passed over.
 */
function readCandidate(file: string): ConfigCandidate {
  const data: unknown = readJsonFile(file);
  const none: ConfigCandidate = { file, kbs: [], legacy: false, relative: [] };
  if (typeof data !== "object" || data === null) return none;
  const { kbs, kbDir, default: preferred } = data as Record<string, unknown>;
  const written: { name: string; dir: string }[] = [];
  const legacy = !Array.isArray(kbs) && typeof kbDir === "string" && kbDir !== "";
  if (legacy) written.push({ name: nameFromDir(kbDir), dir: kbDir });
  for (const item of Array.isArray(kbs) ? kbs : []) {
    const { name, dir } = (item ?? {}) as Record<string, unknown>;
    if (typeof name === "string" && !kbNameProblem(name) && typeof dir === "string" && dir) {
      written.push({ name, dir });
    }
  }
  const found: KnowledgeBase[] = [];
  const relative: RelativeFolder[] = [];
  for (const { name, dir } of written) {
    const kb = { name, kbDir: configuredFolder(dir, file) };
    if (found.some((other) => other.name === name || other.kbDir === kb.kbDir)) continue;
    found.push(kb);
    if (!isAbsolute(dir) && !isFromHome(dir)) relative.push({ ...kb, written: dir });
  }
  const at = found.findIndex((kb) => kb.name === preferred);
  if (at > 0) found.unshift(...found.splice(at, 1));
  return { file, kbDir: found[0]?.kbDir, kbs: found, legacy, relative };
}

function configFiles(): string[] {
  return [pluginConfigFile(), xdgConfigFile()].filter((file): file is string => !!file);
}

/** The config files in the order they are consulted, with what each says. */
export function configCandidates(): ConfigCandidate[] {
  return configFiles().map(readCandidate);
}

/**
 * The value of setting `key` in the first config file that has it (`{"capture": false}`), read
 * forgivingly: undefined when no file has it or none can be read.
 */
export function configSetting(key: string): unknown {
  for (const file of configFiles()) {
    let data: unknown;
    try {
      data = readJsonFile(file);
    } catch {
      continue; // unreadable: it says nothing
    }
    if (typeof data === "object" && data !== null && Object.hasOwn(data, key)) {
      return (data as Record<string, unknown>)[key];
    }
  }
  return undefined;
}

/**
 * Every knowledge base in use, the default first: the one `--kb` or `KB_DIR` names, else those
 * of the first config file that names any. Throws {@link NotConfiguredError} when nothing names
 * one. Reads config files only until one names a knowledge base: a hook pays for every file it
 * opens.
 */
export function resolveKbs(flag?: string): KbSet {
  if (flag) return one(resolvePath(flag), "--kb");
  const fromEnv = Deno.env.get("KB_DIR");
  if (fromEnv) return one(resolvePath(fromEnv), "KB_DIR");
  const configured = configuredKbs();
  if (configured) return configured;
  throw new NotConfiguredError();
}

/**
 * Whether git-kb run without `--kb` reads the knowledge base in `kbDir`: `KB_DIR` names it, or
 * (without `KB_DIR`) the config lists it.
 */
export function readWithoutFlag(kbDir: string): boolean {
  try {
    const dir = resolvePath(kbDir);
    return resolveKbs().kbs.some((kb) => kb.kbDir === dir);
  } catch (error) {
    if (error instanceof NotConfiguredError) return false;
    throw error;
  }
}

/** The knowledge bases of the first config file that names any, whatever `--kb` and `KB_DIR` say. */
function configuredKbs(): KbSet | undefined {
  for (const file of configFiles()) {
    const { kbs } = readCandidate(file);
    if (kbs.length) return { kbs, source: file };
  }
  return undefined;
}

/**
 * `KB_DIR` as set, when it chose the knowledge bases (`source`, as {@link resolveKbs} reports it)
 * and is a relative folder (not `~/…`, read from the home folder): read from the current folder,
 * it names another knowledge base for every command and agent shell started elsewhere. Undefined
 * otherwise.
 */
export function relativeKbDir(source: string): string | undefined {
  const set = Deno.env.get("KB_DIR") ?? "";
  return source === "KB_DIR" && !isAbsolute(set) && !isFromHome(set) ? set : undefined;
}

function one(kbDir: string, source: string): KbSet {
  return { kbs: [{ name: nameFromDir(kbDir), kbDir }], source };
}

/** Whether `source` (as {@link KbSet.source} gives it) is a config file, not `--kb` or `KB_DIR`. */
export function isConfigFile(source: string): boolean {
  return source !== "--kb" && source !== "KB_DIR";
}

/**
 * The default knowledge base, the one saves go to (see {@link resolveKbs}); throws
 * {@link NotConfiguredError} when nothing names one.
 */
export function resolveKb(flag?: string): KbLocation {
  const { kbs: [first], source } = resolveKbs(flag);
  return isConfigFile(source)
    ? { kbDir: first.kbDir, source, name: first.name }
    : { kbDir: first.kbDir, source };
}

/**
 * The knowledge base a save goes to: the one named `to` when given (which `--kb` and `KB_DIR`
 * cannot be combined with), else the default ({@link resolveKb}). Throws {@link UnknownKbError}
 * for a name the config does not list, and says so when `--kb` or `KB_DIR` keeps the config
 * from being read for one it lists.
 */
export function resolveKbNamed(to: string | undefined, flag?: string): KbLocation {
  if (to === undefined) return resolveKb(flag);
  const { kbs, source } = resolveKbs(flag);
  const found = kbs.find((kb) => kb.name === to);
  const named = source === "--kb" || source === "KB_DIR";
  if (named && configuredKbs()?.kbs.some((kb) => kb.name === to)) {
    throw new Error(
      `${source} names one knowledge base (${kbs[0].kbDir}), so "${to}", which the config ` +
        `lists, is not read; ${
          source === "--kb" ? "run the command again without --kb" : "unset KB_DIR"
        } to use "${to}"`,
    );
  }
  if (!found || named) throw new UnknownKbError(to, kbs, source);
  return { kbDir: found.kbDir, source, name: found.name };
}

/**
 * The config file `init` writes, with the knowledge bases it names now:
 * `$CLAUDE_PLUGIN_DATA/config.json` when that is set, else the XDG config file.
 */
export function configTarget(): ConfigCandidate {
  const file = pluginConfigFile() ?? xdgConfigFile();
  if (!file) {
    throw new Error("Cannot tell where to write the config: set HOME or XDG_CONFIG_HOME.");
  }
  return readCandidate(file);
}

/** How {@link writeConfig} records a knowledge base. */
export interface ConfigChange {
  /**
   * Add (or move) the knowledge base of this name. Without a name, the default knowledge base
   * is replaced by `kbDir` (the only one, when the config names none).
   */
  name?: string;
  /** Make it the default, the one saves go to. The first knowledge base always is. */
  makeDefault?: boolean;
}

/**
 * Record `kbDir` in the {@link configTarget} file as `change` says, in the `kbs` form (an old
 * `kbDir` config is migrated; other keys are kept). Returns the file.
 */
export function writeConfig(kbDir: string, change: ConfigChange = {}): string {
  const { file, kbs } = configTarget();
  const dir = resolvePath(kbDir);
  const listedAs = kbs.find((kb) => kb.kbDir === dir)?.name;
  // Without a name, the folder takes the default's place (unless it is listed already).
  const dropped = change.name ?? listedAs ?? kbs[0]?.name;
  const others = kbs.filter((kb) => kb.name !== dropped && kb.kbDir !== dir);
  const fromDir = nameFromDir(dir);
  const name = change.name ?? listedAs ??
    (others.some((kb) => kb.name === fromDir) ? dropped ?? "default" : fromDir);
  const isDefault = change.makeDefault || !others.length || kbs[0]?.name === dropped;
  writeKbList(file, [...others, { name, kbDir: dir }], isDefault ? name : others[0].name);
  return file;
}

/**
 * Write config file `file`: its other keys kept (the old `kbDir` migrated away), `kbs` listed in
 * the `kbs` form and `defaultName` the default (no default when undefined: none is left).
 */
function writeKbList(
  file: string,
  kbs: readonly KnowledgeBase[],
  defaultName: string | undefined,
): void {
  const existing = readJsonFile(file);
  const data = typeof existing === "object" && existing !== null ? { ...existing } : {};
  delete (data as Record<string, unknown>).kbDir;
  const written: Record<string, unknown> = {
    ...data,
    kbs: kbs.map((kb) => ({ name: kb.name, dir: kb.kbDir })),
    default: defaultName, // JSON leaves an undefined value out
  };
  writeFileAtomic(file, JSON.stringify(written, null, 2) + "\n");
}

/**
 * Take the knowledge base named `name` out of config file `file` (`doctor <name> --fix --write`,
 * for one whose folder is gone): the others are kept, written as {@link writeConfig} writes them,
 * and when it was the default the next one is. Returns the default now; undefined when none is
 * left.
 */
export function dropFromConfig(file: string, name: string): string | undefined {
  const kept = readCandidate(file).kbs.filter((kb) => kb.name !== name);
  writeKbList(file, kept, kept[0]?.name);
  return kept[0]?.name;
}
