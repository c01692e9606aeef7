/**
 * `@std/path/posix/relative`: the relative path from one POSIX path to another. A stand-in for
 * the JSR module of that name (see std/README.md).
 *
 * @module
 */
import { normalize } from "./normalize.ts";

/** `path` made absolute against the working folder, normalized, without a trailing `/`. */
function absolute(path: string): string {
  const full = normalize(path.startsWith("/") ? path : `${Deno.cwd()}/${path}`);
  return full.length > 1 && full.endsWith("/") ? full.slice(0, -1) : full;
}

/**
 * The relative path that leads from `from` to `to`, both resolved against the working folder
 * first; `""` when they are the same.
 *
 * @example
 * ```ts
 * relative("/kb/entries", "/kb/index/shards"); // "../index/shards"
 * ```
 */
export function relative(from: string, to: string): string {
  const source = absolute(from).split("/").filter(Boolean);
  const target = absolute(to).split("/").filter(Boolean);
  let shared = 0;
  while (shared < source.length && shared < target.length && source[shared] === target[shared]) {
    shared++;
  }
  return [...source.slice(shared).map(() => ".."), ...target.slice(shared)].join("/");
}
