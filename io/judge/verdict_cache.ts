/**
 * The judge's verdict cache: one small JSON file per verdict under the knowledge base's cache
 * folder (`<cache>/verdicts/<key>.json`), written atomically, so parallel hooks never see half a
 * file. Bounded: a verdict older than a week is not used, and once the folder holds more than
 * {@link VERDICT_CACHE_LIMITS}.maxEntries files the expired and then the oldest are deleted.
 *
 * @module
 */
import { parseVerdict, type Verdict } from "../../core/judge/verdict.ts";
import { join } from "../../core/path.ts";
import { readPrivateText, writePrivateFile } from "../fs.ts";

/** How many verdicts are kept, and for how long one is trusted. */
export const VERDICT_CACHE_LIMITS = { maxEntries: 500, maxAgeMs: 7 * 24 * 60 * 60 * 1000 };

/** The folder of cached verdicts in a knowledge base's cache folder. */
export function verdictDir(cacheDir: string): string {
  return join(cacheDir, "verdicts");
}

function verdictPath(cacheDir: string, key: string): string {
  if (!/^[0-9a-z]+$/.test(key)) throw new Error(`invalid verdict cache key: ${key}`);
  return join(verdictDir(cacheDir), `${key}.json`);
}

/** The most bytes read of a verdict file: a verdict holds at most 32 clipped violations. */
const VERDICT_FILE_CAP = 64 * 1024;

/** The verdict cached under `key`, unless it is missing, unreadable or expired. */
export function readCachedVerdict(
  cacheDir: string,
  key: string,
  now = Date.now(),
): Verdict | undefined {
  const path = verdictPath(cacheDir, key);
  try {
    const mtime = Deno.statSync(path).mtime?.getTime() ?? 0;
    if (now - mtime > VERDICT_CACHE_LIMITS.maxAgeMs) return undefined;
    const text = readPrivateText(path, VERDICT_FILE_CAP);
    return text === undefined ? undefined : parseVerdict(text) ?? undefined;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
}

/** Cache `verdict` under `key`, then prune the folder if it grew past its bound. */
export function writeCachedVerdict(cacheDir: string, key: string, verdict: Verdict): void {
  writePrivateFile(verdictPath(cacheDir, key), JSON.stringify(verdict));
  pruneVerdicts(verdictDir(cacheDir));
}

/**
 * When `dir` holds more than `maxEntries` verdicts, delete the expired ones and then the
 * oldest until it is back at the bound. Returns how many files were deleted.
 */
export function pruneVerdicts(
  dir: string,
  limits = VERDICT_CACHE_LIMITS,
  now = Date.now(),
): number {
  const names = [...Deno.readDirSync(dir)].filter((item) => item.name.endsWith(".json"))
    .map((item) => item.name);
  if (names.length <= limits.maxEntries) return 0;
  const files = names.map((name) => {
    try {
      return { name, mtime: Deno.statSync(join(dir, name)).mtime?.getTime() ?? 0 };
    } catch {
      return { name, mtime: -Infinity };
    }
  }).sort((a, b) => a.mtime - b.mtime);
  let removed = 0;
  for (const [index, file] of files.entries()) {
    const surplus = files.length - index > limits.maxEntries;
    if (!surplus && now - file.mtime <= limits.maxAgeMs) continue;
    try {
      Deno.removeSync(join(dir, file.name));
      removed++;
    } catch { /* pruned by a parallel hook */ }
  }
  return removed;
}
