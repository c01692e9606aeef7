/**
 * Minimal path helpers. The prompt hook's hot path cannot afford `node:path` (loading Node
 * compatibility costs about 18 ms of start-up on these machines), and `/` works as a separator
 * on every platform Deno runs on. Written as character scans, not regular expressions: every
 * hook joins paths, and a regular expression is compiled on its first use in a process (a split
 * on one cost a cold hook half a millisecond).
 *
 * @module
 */
const SLASH = 47;
const BACKSLASH = 92;
const COLON = 58;
const LOWER_A = 97;
const LOWER_Z = 122;
/** ORed into the code of an ASCII capital letter, gives its small letter's. */
const LOWERCASE_BIT = 32;

function isSeparator(code: number): boolean {
  return code === SLASH || code === BACKSLASH;
}

/** The length of a `C:` drive prefix at the start of `path`: 2, or 0 without one. */
function driveLength(path: string): number {
  const letter = path.charCodeAt(0) | LOWERCASE_BIT;
  return letter >= LOWER_A && letter <= LOWER_Z && path.charCodeAt(1) === COLON ? 2 : 0;
}

/** True for `/x`, `\\x` and `C:\x`-style paths. */
export function isAbsolute(path: string): boolean {
  return isSeparator(path.charCodeAt(0)) ||
    (driveLength(path) === 2 && isSeparator(path.charCodeAt(2)));
}

/** The segments of `path` between separators, empty ones included. */
function segments(path: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let index = 0; index <= path.length; index++) {
    if (index === path.length || isSeparator(path.charCodeAt(index))) {
      parts.push(path.slice(start, index));
      start = index + 1;
    }
  }
  return parts;
}

/**
 * Whether `path` is already what {@link normalize} would make of it: `/` separators only, no
 * empty, `.` or `..` segment, no trailing separator, no drive. Most paths the hooks build are,
 * and this check is a few native string searches where normalizing is a scan of every character.
 */
function isNormal(path: string): boolean {
  return path !== "" && path.charCodeAt(1) !== COLON && !path.startsWith(".") &&
    !path.endsWith("/") && !path.includes("\\") && !path.includes("//") && !path.includes("/.");
}

function normalize(path: string): string {
  if (isNormal(path)) return path;
  const absolute = isAbsolute(path);
  const drive = path.slice(0, driveLength(path));
  const parts: string[] = [];
  for (const part of segments(path.slice(drive.length))) {
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

/** The last segment of `path` that is not empty, or undefined when it has none. */
export function basename(path: string): string | undefined {
  return segments(path).filter(Boolean).pop();
}
