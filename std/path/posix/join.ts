/**
 * `@std/path/posix/join`: POSIX path segments joined and normalized. A stand-in for the JSR module
 * of that name (see std/README.md).
 *
 * @module
 */
import { normalize } from "./normalize.ts";

/**
 * Join POSIX path segments with `/` and normalize the result; empty segments are skipped, and
 * joining nothing gives `.`.
 *
 * @example
 * ```ts
 * join("/kb", "entries", "../index.json"); // "/kb/index.json"
 * ```
 */
export function join(path?: URL | string, ...paths: string[]): string {
  if (path === undefined) return ".";
  const first = path instanceof URL ? decodeURIComponent(path.pathname) : path;
  const joined = [first, ...paths].filter((segment) => segment !== "").join("/");
  return normalize(joined);
}
