/**
 * Where git-kb keeps its files outside the knowledge base: the per-user cache and the config
 * file. Reads environment variables; the cache root is checked (and made) before it is named.
 *
 * @module
 */
import { basename, fromHome, isAbsolute, join, resolveFrom } from "../core/path.ts";
import { contentHash } from "../core/hash.ts";
import { ensurePrivateDir, lstatOrUndefined } from "./fs.ts";

/** `path` made absolute against the current directory, `~` and `~/…` from the home folder. */
export function resolvePath(path: string): string {
  const typed = userPath(path);
  return isAbsolute(typed) ? resolveFrom("/", typed) : resolveFrom(Deno.cwd(), typed);
}

/**
 * A path as the user typed it, `~` and `~/…` read from the home folder (see `fromHome` in
 * core/path.ts); any other as it is, relative ones still relative.
 */
export function userPath(path: string): string {
  return fromHome(path, homeDir());
}

/** The OS temp dir: `TMPDIR`, `TEMP` or `TMP` when set, else `/tmp`. */
export function tempDir(): string {
  return Deno.env.get("TMPDIR") || Deno.env.get("TEMP") || Deno.env.get("TMP") || "/tmp";
}

/** Reads one environment variable; empty counts as unset. */
export type EnvLookup = (name: string) => string | undefined;

/**
 * Where the cache root is for an environment and a uid, without touching the disk:
 * `$XDG_CACHE_HOME/git-kb` (when it is an absolute path), else `$HOME/.cache/git-kb`, else
 * `git-kb-<uid>` under the temp dir (`git-kb` where there are no uids, on Windows). The plugin
 * launcher works out the same path in sh, to grant `--allow-write` on it.
 */
export function cacheRootFor(env: EnvLookup, uid: number | null): string {
  const xdg = env("XDG_CACHE_HOME");
  if (xdg && isAbsolute(xdg)) return join(xdg, "git-kb");
  const home = env("HOME");
  if (home) return join(home, ".cache", "git-kb");
  const temp = env("TMPDIR") || env("TEMP") || env("TMP") || "/tmp";
  return join(temp, uid === null ? "git-kb" : `git-kb-${uid}`);
}

/** The cache root of this process's environment, not yet checked (nor made). */
export function cacheRootPath(): string {
  return cacheRootFor((name) => Deno.env.get(name), Deno.uid());
}

/**
 * The folder every knowledge base's cache lives under (see {@link cacheRootFor}), made 0700 when
 * missing and checked once per process to be a real folder of the current user's that no one
 * else can enter ({@link ensurePrivateDir}: it throws otherwise). Deleting it is always safe.
 */
export function cacheRoot(): string {
  return ensurePrivateDir(cacheRootPath());
}

/**
 * The cache folder of one knowledge base, named after its folder and a hash of its path, not yet
 * checked (nor made): for doctor, which reports what is wrong with it.
 */
export function kbCachePath(kbDir: string): string {
  const absolute = resolvePath(kbDir);
  const safe = (basename(absolute) ?? "kb").replace(/[^A-Za-z0-9_.-]/g, "_").slice(0, 40);
  return join(cacheRoot(), `${safe}-${contentHash(absolute).slice(0, 10)}`);
}

/**
 * The cache folder of one knowledge base ({@link kbCachePath}), checked once per process, when it
 * is there, to be a real folder of the current user's ({@link ensurePrivateDir}: it throws
 * otherwise); a missing one is made as a real folder by the first write in it. Each folder in it
 * is checked where it is written, but a link in place of this one would lead every read and write
 * of them to another folder.
 */
export function kbCacheDir(kbDir: string): string {
  const path = kbCachePath(kbDir);
  return lstatOrUndefined(path) ? ensurePrivateDir(path) : path;
}

/** The folder holding the index files of one knowledge base. */
export function indexDir(kbDir: string): string {
  return join(kbCacheDir(kbDir), "index");
}

/** The user's home folder, or undefined when the environment does not say. */
export function homeDir(): string | undefined {
  return Deno.env.get("HOME") || Deno.env.get("USERPROFILE") || undefined;
}

/**
 * An XDG base folder: the variable `name` when it is an absolute path (the XDG spec has a relative
 * one ignored: it would name another folder for every command run elsewhere), else `underHome`
 * in the home folder; undefined when neither is known.
 */
export function xdgFolder(name: string, underHome: string): string | undefined {
  const set = Deno.env.get(name);
  if (set && isAbsolute(set)) return set;
  const home = homeDir();
  return home ? join(home, underHome) : undefined;
}

/** The XDG config file: `$XDG_CONFIG_HOME/git-kb/config.json`, by default under `~/.config`. */
export function xdgConfigFile(): string | undefined {
  const base = xdgFolder("XDG_CONFIG_HOME", ".config");
  return base ? join(base, "git-kb", "config.json") : undefined;
}

/** The plugin's config file, when Claude Code set `CLAUDE_PLUGIN_DATA`. */
export function pluginConfigFile(): string | undefined {
  const data = Deno.env.get("CLAUDE_PLUGIN_DATA");
  return data ? join(data, "config.json") : undefined;
}
