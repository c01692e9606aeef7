/**
 * The index on disk: open it, and notice that the knowledge base changed (by any route: save,
 * git pull, an editor) from a cheap stamp. Bringing it up to date is `index_refresh.ts`, loaded
 * only when the stamp moved or the last full check is too old, so the prompt hook's usual path
 * loads none of it.
 *
 * @module
 */
import { join } from "../core/path.ts";
import {
  type FreshnessStamp,
  INDEX_VERSION,
  IndexReader,
  type InvalidFile,
  type Manifest,
} from "../core/index.ts";
import { ifExists, readJsonFile } from "./fs.ts";
import { ENTRIES_DIR } from "./kb.ts";
import { indexDir } from "./paths.ts";

/**
 * How long the hooks trust an index whose stamp has not moved before they stat every entry file
 * again, so an in-place edit that moved none of the cheap signals is still noticed within ten
 * minutes (at once by the agent's own `git-kb get` or `search`, which trust it for
 * {@link READ_TRUST_MS}). Statting 5,000 files costs 50–80 ms, 50,000 ten times that: more than
 * the rest of the hook. A user's prompts come minutes apart while the agent works in between, so
 * a one-minute window made nearly every prompt pay for it; the search augment's checks during
 * that work renew the window.
 */
export const HOOK_TRUST_MS = 10 * 60_000;

/**
 * The same for search and get: an in-place edit is seen within 10 seconds, while a burst of
 * searches (a model passing its query expansions one call after another) pays for one check.
 */
export const READ_TRUST_MS = 10_000;

/** What bringing the index up to date did. */
export interface RefreshReport {
  /** `fresh`: nothing to do; `incremental`: changed entries only; `full`: rebuilt from scratch. */
  mode: "fresh" | "incremental" | "full";
  added: number;
  changed: number;
  removed: number;
  docCount: number;
  invalid: InvalidFile[];
  ms: number;
}

/** How hard to look for changes. */
export interface OpenOptions {
  /**
   * How long after the last full check an unchanged stamp (the entries folder's mtime, git's
   * HEAD and index: a handful of stats) is trusted on its own. 0, the default, stats every
   * entry file, which also notices an in-place edit that moved none of those. Adding, deleting
   * or renaming a file, git operations and saves through git-kb move the stamp.
   */
  trustStampMs?: number;
  /** Rebuild from scratch whatever the state. */
  full?: boolean;
}

/** An index ready to read, and what it took to get it there. */
export interface OpenIndex {
  reader: IndexReader;
  report: RefreshReport;
}

function mtimeOf(path: string): number {
  try {
    return Deno.statSync(path).mtime?.getTime() ?? 0;
  } catch {
    return 0;
  }
}

/**
 * The cheap signals of change: the entries folder's mtime, git's HEAD and index. Without a HEAD
 * (not a plain git checkout, where the folder mtime still counts) the index is not looked for:
 * each missing file is an exception, and a process's first one costs a hook about a millisecond.
 */
export function readStamp(kbDir: string): FreshnessStamp {
  let head = "";
  try {
    head = Deno.readTextFileSync(join(kbDir, ".git", "HEAD")).trim();
  } catch { /* not a plain git checkout */ }
  return {
    entriesMtime: mtimeOf(join(kbDir, ENTRIES_DIR)),
    head,
    gitIndexMtime: head ? mtimeOf(join(kbDir, ".git", "index")) : 0,
  };
}

/** Whether two stamps say the same. */
export function sameStamp(a: FreshnessStamp, b: FreshnessStamp): boolean {
  return a.entriesMtime === b.entriesMtime && a.head === b.head &&
    a.gitIndexMtime === b.gitIndexMtime;
}

/**
 * A loader that reads index files from `dir`, each in its own format (see `IndexLoader`). Names
 * are the index's own relative paths (`shard/3.txt`), so they are appended to `dir` as they are,
 * not joined: a firing prompt loads a dozen files, and each join is a cold scan of the path.
 */
export function loaderFor(dir: string): (name: string) => unknown {
  const prefix = dir.endsWith("/") ? dir : `${dir}/`;
  return (name: string): unknown => {
    const path = prefix + name;
    if (name.endsWith(".json")) return readJsonFile(path);
    return ifExists(() =>
      name.endsWith(".bin") ? Deno.readFileSync(path) : Deno.readTextFileSync(path)
    );
  };
}

/** Read the manifest of the index in `dir`; undefined when missing, corrupt or outdated. */
export function readManifest(dir: string): Manifest | undefined {
  const manifest = readJsonFile(join(dir, "manifest.json")) as Manifest | undefined;
  if (
    typeof manifest !== "object" || manifest === null || manifest.version !== INDEX_VERSION ||
    typeof manifest.stamp !== "object" || typeof manifest.verifiedAt !== "number" ||
    !Array.isArray(manifest.kernel) ||
    !Array.isArray(manifest.invalid) ||
    !Array.isArray(manifest.dead) || !Array.isArray(manifest.deltaOrds)
  ) return undefined;
  return manifest;
}

/**
 * Open the index of `kbDir`, first bringing it up to date with the files on disk.
 * Concurrent callers serialize on a lock in the cache folder.
 */
export async function openIndex(kbDir: string, options: OpenOptions = {}): Promise<OpenIndex> {
  const started = performance.now();
  const dir = indexDir(kbDir);
  const report: RefreshReport = {
    mode: "fresh",
    added: 0,
    changed: 0,
    removed: 0,
    docCount: 0,
    invalid: [],
    ms: 0,
  };
  const current = readManifest(dir);
  const stamp = readStamp(kbDir);
  const finish = (manifest: Manifest, reader?: IndexReader): OpenIndex => {
    report.docCount = manifest.docCount;
    report.invalid = manifest.invalid;
    report.ms = performance.now() - started;
    return { reader: reader ?? new IndexReader(manifest, loaderFor(dir)), report };
  };
  if (
    current && !options.full && sameStamp(current.stamp, stamp) &&
    Math.abs(Date.now() - current.verifiedAt) < (options.trustStampMs ?? 0)
  ) {
    return finish(current);
  }
  const { refreshIndex } = await import("./index_refresh.ts");
  const { manifest, reader } = await refreshIndex({ kbDir, dir, current, stamp, options, report });
  return finish(manifest, reader);
}
