/**
 * Which knowledge base to use: the `--kb` flag, then `KB_DIR`, then the plugin's config file,
 * then the XDG config file. Every command and hook resolves it the same way.
 *
 * @module
 */
import { resolvePath } from "./paths.ts";
import { readJsonFile, writeFileAtomic } from "./fs.ts";
import { pluginConfigFile, xdgConfigFile } from "./paths.ts";

/** Where the knowledge base was found, and by which rule. */
export interface KbLocation {
  /** The knowledge base folder, absolute. */
  kbDir: string;
  /** `--kb`, `KB_DIR`, or the config file's path. */
  source: string;
}

/** Raised when no rule names a knowledge base. */
export class NotConfiguredError extends Error {
  constructor() {
    super(
      "No knowledge base is configured. Run `git-kb init <clone-url|path>` to set one up, " +
        "or pass --kb <dir> or set KB_DIR.",
    );
    this.name = "NotConfiguredError";
  }
}

/** A config file and the knowledge base folder it names, if it names one. */
export interface ConfigCandidate {
  file: string;
  kbDir?: string;
}

/** A config file with what it says. */
function readCandidate(file: string): ConfigCandidate {
  const data = readJsonFile(file) as { kbDir?: unknown } | undefined;
  const kbDir = typeof data?.kbDir === "string" && data.kbDir ? data.kbDir : undefined;
  return { file, kbDir };
}

function configFiles(): string[] {
  return [pluginConfigFile(), xdgConfigFile()].filter((file): file is string => !!file);
}

/** The config files in the order they are consulted, with what each says. */
export function configCandidates(): ConfigCandidate[] {
  return configFiles().map(readCandidate);
}

/**
 * Resolve the knowledge base folder; throws {@link NotConfiguredError} when nothing names one.
 * Reads config files only until one names a folder: a hook pays for every file it opens.
 */
export function resolveKb(flag?: string): KbLocation {
  if (flag) return { kbDir: resolvePath(flag), source: "--kb" };
  const fromEnv = Deno.env.get("KB_DIR");
  if (fromEnv) return { kbDir: resolvePath(fromEnv), source: "KB_DIR" };
  for (const file of configFiles()) {
    const { kbDir } = readCandidate(file);
    if (kbDir) return { kbDir, source: file };
  }
  throw new NotConfiguredError();
}

/**
 * The config file `init` writes, with the knowledge base folder it names now:
 * `$CLAUDE_PLUGIN_DATA/config.json` when that is set, else the XDG config file.
 */
export function configTarget(): ConfigCandidate {
  const file = pluginConfigFile() ?? xdgConfigFile();
  if (!file) {
    throw new Error("Cannot tell where to write the config: set HOME or XDG_CONFIG_HOME.");
  }
  return readCandidate(file);
}

/** Record `kbDir` as the knowledge base in the {@link configTarget} file. Returns the file. */
export function writeConfig(kbDir: string): string {
  const { file } = configTarget();
  const existing = readJsonFile(file);
  const data = typeof existing === "object" && existing !== null ? existing : {};
  writeFileAtomic(file, JSON.stringify({ ...data, kbDir: resolvePath(kbDir) }, null, 2) + "\n");
  return file;
}
