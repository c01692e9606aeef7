/**
 * Minimal path helpers. The prompt hook's hot path cannot afford `node:path` (loading Node
 * compatibility costs about 18 ms of start-up on these machines), and `/` works as a separator
 * on every platform Deno runs on.
 *
 * @module
 */

const SEPARATOR = /[\\/]+/;

/** True for `/x`, `\\x` and `C:\x`-style paths. */
export function isAbsolute(path: string): boolean {
  return /^(?:[\\/]|[A-Za-z]:[\\/])/.test(path);
}

function normalize(path: string): string {
  const absolute = isAbsolute(path);
  const drive = /^[A-Za-z]:/.test(path) ? path.slice(0, 2) : "";
  const parts: string[] = [];
  for (const part of path.slice(drive.length).split(SEPARATOR)) {
    if (!part || part === ".") continue;
    if (part === "..") {
      if (parts.length && parts[parts.length - 1] !== "..") parts.pop();
      else if (!absolute) parts.push("..");
    } else parts.push(part);
  }
  const joined = parts.join("/");
  if (absolute) return `${drive}/${joined}`;
  return joined || ".";
}

/** Join path segments with `/` and resolve `.` and `..` segments. */
export function join(...parts: string[]): string {
  return normalize(parts.filter(Boolean).join("/"));
}

/** `path` made absolute against `cwd`, normalized. */
export function resolveFrom(cwd: string, path: string): string {
  return isAbsolute(path) ? normalize(path) : join(cwd, path);
}

/** The folder part of a path. */
export function dirname(path: string): string {
  const normalized = normalize(path);
  const cut = normalized.lastIndexOf("/");
  if (cut < 0) return ".";
  return cut === 0 ? "/" : normalized.slice(0, cut);
}
