/**
 * Where git-kb keeps its files outside the knowledge base: the cache under the OS temp dir and
 * the config file. Reads environment variables only.
 *
 * @module
 */
import { basename, isAbsolute, join, resolveFrom } from "../core/path.ts";
import { plainName } from "../core/chars.ts";
import { contentHash } from "../core/hash.ts";

/** `path` made absolute against the current directory. */
export function resolvePath(path: string): string {
  return isAbsolute(path) ? resolveFrom("/", path) : resolveFrom(Deno.cwd(), path);
}

/** The OS temp dir: `TMPDIR`, `TEMP` or `TMP` when set, else `/tmp`. */
export function tempDir(): string {
  return Deno.env.get("TMPDIR") || Deno.env.get("TEMP") || Deno.env.get("TMP") || "/tmp";
}

/** The folder every knowledge base's cache lives under. Deleting it is always safe. */
export function cacheRoot(): string {
  return join(tempDir(), "git-kb");
}

/** The last cache folder named, by the cache root and knowledge base path it was named for. */
let lastCacheDir: { key: string; dir: string } | undefined;

/**
 * The cache folder of one knowledge base, named after its folder and a hash of its path. A hook
 * asks twice (its own files, then the index's), and the name is worked out once.
 */
export function kbCacheDir(kbDir: string): string {
  const absolute = resolvePath(kbDir);
  const root = cacheRoot();
  const key = `${root}\n${absolute}`;
  if (lastCacheDir?.key !== key) {
    const safe = plainName(basename(absolute) ?? "kb", "_.-").slice(0, 40);
    lastCacheDir = { key, dir: join(root, `${safe}-${contentHash(absolute).slice(0, 10)}`) };
  }
  return lastCacheDir.dir;
}

/** The folder holding the index files of one knowledge base. */
export function indexDir(kbDir: string): string {
  return join(kbCacheDir(kbDir), "index");
}

/** The user's home folder, or undefined when the environment does not say. */
export function homeDir(): string | undefined {
  return Deno.env.get("HOME") || Deno.env.get("USERPROFILE") || undefined;
}

/** The XDG config file: `$XDG_CONFIG_HOME/git-kb/config.json`, by default under `~/.config`. */
export function xdgConfigFile(): string | undefined {
  const base = Deno.env.get("XDG_CONFIG_HOME") ||
    (homeDir() ? join(homeDir()!, ".config") : undefined);
  return base ? join(base, "git-kb", "config.json") : undefined;
}

/** The plugin's config file, when Claude Code set `CLAUDE_PLUGIN_DATA`. */
export function pluginConfigFile(): string | undefined {
  const data = Deno.env.get("CLAUDE_PLUGIN_DATA");
  return data ? join(data, "config.json") : undefined;
}
