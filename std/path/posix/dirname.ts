/**
 * `@std/path/posix/dirname`: the folder part of a POSIX path. A stand-in for the JSR module of
 * that name (see std/README.md).
 *
 * @module
 */

/**
 * The folder part of `path`: everything before its last segment, trailing `/` ignored; `.` for a
 * bare name and `/` for a segment under the root.
 *
 * @example
 * ```ts
 * dirname("/kb/entries/kb-7q2mx.md"); // "/kb/entries"
 * ```
 */
export function dirname(path: string | URL): string {
  const text = path instanceof URL ? decodeURIComponent(path.pathname) : path;
  const trimmed = text.replace(/(?<=.)\/+$/, "");
  const cut = trimmed.lastIndexOf("/");
  if (cut < 0) return ".";
  return trimmed.slice(0, cut).replace(/(?<=.)\/+$/, "") || "/";
}
