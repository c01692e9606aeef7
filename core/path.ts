/**
 * Minimal path helpers. The prompt hook's hot path cannot afford `node:path` (loading Node
 * compatibility costs about 18 ms of start-up on these machines), and `/` works as a separator
 * on every platform Deno runs on.
 *
 * @module
 */
import { normalize as normalizePosix } from "@std/path/posix/normalize";

/** The length of a `C:` drive prefix at the start of `path`: 2, or 0 without one. */
function driveLength(path: string): number {
  return /^[A-Za-z]:/.test(path) ? 2 : 0;
}

/** True for `/x`, `\\x` and `C:\x`-style paths. */
export function isAbsolute(path: string): boolean {
  return /^(?:[A-Za-z]:)?[/\\]/.test(path);
}

/** The segments of `path` between separators, empty ones included. */
function segments(path: string): string[] {
  return path.split(/[/\\]/);
}

/**
 * `path` with either separator read as `/`, then normalized as a POSIX path (see
 * `@std/path/posix/normalize`), without a trailing `/`; a drive (`C:`) stays before an absolute
 * path and is dropped from a relative one.
 */
function normalize(path: string): string {
  const drive = path.slice(0, driveLength(path));
  const rest = path.slice(drive.length).replaceAll("\\", "/");
  const normal = normalizePosix(rest).replace(/(?<=.)\/$/, "");
  return normal.startsWith("/") ? `${drive}${normal}` : normal;
}

/** Join path segments with `/` and resolve `.` and `..` segments. */
export function join(...parts: string[]): string {
  return normalize(parts.filter(Boolean).join("/"));
}

/** `path` made absolute against `cwd`, normalized. */
export function resolveFrom(cwd: string, path: string): string {
  return isAbsolute(path) ? normalize(path) : join(cwd, path);
}

/** Whether `path` is written from the home folder, as `~` alone or `~/…`. */
export function isFromHome(path: string): boolean {
  return path === "~" || path.startsWith("~/");
}

/**
 * `path` with its leading `~` read as the folder `home` when it is written from there
 * ({@link isFromHome}), as a shell reads it unquoted; any other path, or with no absolute `home`,
 * as it is. A path typed in quotes (`"~/My Notes"`) or set where no shell reads it (a settings
 * file's `KB_DIR`) reaches git-kb with its `~`, and read from the current folder it would name a
 * folder called `~` there.
 */
export function fromHome(path: string, home: string | undefined): string {
  return home && isAbsolute(home) && isFromHome(path) ? resolveFrom(home, path.slice(2)) : path;
}

/** The folder part of a path. */
export function dirname(path: string): string {
  const normalized = normalize(path);
  const cut = normalized.lastIndexOf("/");
  if (cut < 0) return ".";
  return cut === 0 ? "/" : normalized.slice(0, cut);
}

/** The last segment of `path` that is not empty, or undefined when it has none. */
export function basename(path: string): string | undefined {
  return segments(path).filter(Boolean).pop();
}

/**
 * Whether `path` is `folder` or lies below it, both absolute and normalized as {@link join}
 * writes them (no `.` or `..` segment, no trailing `/`; symbolic links resolved by the caller).
 */
export function isWithin(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder.endsWith("/") ? folder : `${folder}/`);
}
