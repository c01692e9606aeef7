/**
 * `@std/path/posix/normalize`: a POSIX path with `.` and `..` segments resolved and repeated
 * separators joined. A stand-in for the JSR module of that name (see std/README.md).
 *
 * @module
 */

/**
 * Normalize a POSIX path: resolve `.` and `..` segments and join repeated `/`, keeping a
 * trailing `/`. `..` never climbs above the root of an absolute path; a relative path keeps the
 * `..` it cannot resolve, and one that resolves to nothing is `.`.
 *
 * @example
 * ```ts
 * normalize("/a//b/./c/../d"); // "/a/b/d"
 * ```
 */
export function normalize(path: string | URL): string {
  if (path instanceof URL) path = decodeURIComponent(path.pathname);
  const absolute = path.startsWith("/");
  const kept: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment !== "..") kept.push(segment);
    else if (kept.length && kept[kept.length - 1] !== "..") kept.pop();
    else if (!absolute) kept.push("..");
  }
  let result = kept.join("/");
  if (!result && !absolute) result = ".";
  if (result && path.endsWith("/")) result += "/";
  return absolute ? `/${result}` : result;
}
