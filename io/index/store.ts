/**
 * The index on disk: open it, and notice that the knowledge base changed (by any route: save,
 * git pull, an editor) from a cheap stamp. Bringing it up to date is `refresh.ts`, loaded
 * only when the stamp moved or the last full check is too old, so the prompt hook's usual path
 * loads none of it. An edit in place that moves no part of the stamp waits for a check of every
 * file: while a Claude Code session runs, its freshness watch (`./watch.ts`) makes one every 30
 * seconds in the background, so such an edit reaches the prompt hook within 30 seconds and the
 * check's time (see {@link HOOK_TRUST_MS} for the bounds without a watch).
 *
 * @module
 */
import { join, resolveFrom } from "../../core/path.ts";
import {
  type FreshnessStamp,
  INDEX_VERSION,
  type InvalidFile,
  isEntryPath,
  type Manifest,
} from "../../core/index/format.ts";
import {
  checkFile,
  DamagedIndexError,
  type IndexLoader,
  IndexReader,
} from "../../core/index/reader.ts";
import { proposalsCheckedOut } from "../proposals/checked_out.ts";
import { EXIT, KbError } from "../../core/exit.ts";
import { gitCommand } from "../../core/shell/quote.ts";
import { ENTRIES_DIR, readKbFile, UnreadableEntryError } from "../kb.ts";
import { cacheWriteError } from "../fs.ts";
import { indexDir, kbCacheDir } from "../paths.ts";
import { rebuildDue } from "./rebuild_due.ts";

/**
 * How long the hooks trust an index whose stamp has not moved before they stat every entry file
 * again. The stamp watches the entries folder and its sub-folders (so a save by rename, as vim,
 * emacs, JetBrains editors and `sed -i` make it, anywhere under `entries/`, is seen by the next
 * prompt), and one by one the kernel rules and the {@link WATCHED_RECENT} most recently changed
 * entry files (so an entry being worked on is seen by the next prompt even when an editor
 * rewrites it in place, as VS Code, nano or Obsidian do). Any other in-place edit is taken in
 * within 30 seconds while a Claude Code session runs, by the session's freshness watch
 * (`./watch.ts`, a background SessionStart hook that checks every file each period and stamps
 * the check, so the hooks go on trusting it); without one, within a minute in a knowledge base
 * of up to {@link SMALL_KB_FILES} files, else within ten minutes (at once by the agent's own
 * `git-kb get` or `search`, which trust it for {@link READ_TRUST_MS}). Statting 5,000 files
 * costs 35–80 ms, 50,000 ten times that: more than the rest of the hook, so the prompt hook
 * never pays for it while a watch runs. A user's prompts come minutes apart while the agent
 * works in between, so a one-minute window made nearly every prompt pay for it; the search
 * augment's checks during that work renew the window.
 */
export const HOOK_TRUST_MS = 10 * 60_000;

/**
 * How many of the most recently changed entry files the stamp watches one by one: a stat each,
 * about 5 µs, on every open.
 */
export const WATCHED_RECENT = 16;

/**
 * A knowledge base of at most this many files is checked file by file at least every
 * {@link SMALL_KB_TRUST_MS} whatever the caller trusts: statting 100 files costs about half a
 * millisecond, so even the hooks see any in-place edit within a minute.
 */
export const SMALL_KB_FILES = 100;

/** How long a small knowledge base's stamp is trusted at most (see {@link SMALL_KB_FILES}). */
export const SMALL_KB_TRUST_MS = 60_000;

/** How long the index described by `manifest` may go without a check file by file. */
function trustFor(manifest: Manifest, trustStampMs: number): number {
  const files = manifest.docCount + manifest.invalid.length;
  return files <= SMALL_KB_FILES ? Math.min(trustStampMs, SMALL_KB_TRUST_MS) : trustStampMs;
}

/**
 * The same for search and get: an in-place edit is seen within 10 seconds, while a burst of
 * searches (a model passing its query expansions one call after another) pays for one check.
 */
export const READ_TRUST_MS = 10_000;

/**
 * The longest a hook waits for another process's build of the index before it answers from the
 * index it has (or nothing): Claude Code kills a hook after 10 seconds.
 */
export const HOOK_LOCK_WAIT_MS = 1_500;

/** The longest a command waits for another process's build of the index. */
export const COMMAND_LOCK_WAIT_MS = 60_000;

/**
 * The most entry files a hook reads to bring the index up to date. Reading and parsing an entry
 * costs about 1.5 ms on a loaded 2-core machine, so 500 take under a second, well inside the
 * 10 seconds Claude Code gives a hook, while a whole build of 5,000 entries took 7.8 s and one of
 * 50,000 more than a minute. A hook with more to read answers from the index as it is (or, with
 * none, from nothing) and leaves the rebuild to the session's watch or a command (see
 * `rebuild_due.ts`).
 */
export const HOOK_INLINE_READS = 500;

/**
 * Raised when bringing the index up to date would read more entry files than the caller may
 * ({@link OpenOptions.maxReads}) and there is no index to answer from: nothing was changed.
 */
export class IndexDeferredError extends Error {
  /** `reads`: the entry files to read, undefined when a note said so before counting. */
  constructor(readonly reads: number | undefined, readonly limit: number) {
    super(
      `bringing the index up to date needs ${reads ?? "more"} entry files read, more than a ` +
        `hook reads (${limit}); left to the session's watch or git-kb index`,
    );
    this.name = "IndexDeferredError";
  }
}

/** What bringing the index up to date did. */
export interface RefreshReport {
  /**
   * `fresh`: nothing to do; `incremental`: changed entries only; `full`: rebuilt from scratch;
   * `stale`: more changed than a hook reads, so the index is as it was (a rebuild is due).
   */
  mode: "fresh" | "incremental" | "full" | "stale";
  /** Entries taken in that the index did not hold. */
  added: number;
  /** Entries read again because their file changed. */
  changed: number;
  /** Entries dropped because their file is gone. */
  removed: number;
  /** How many entries the index holds now. */
  docCount: number;
  /** Entry files left out because they break the contract. */
  invalid: InvalidFile[];
  /** How long bringing the index up to date took, in ms. */
  ms: number;
  /** What was found damaged in the index (which was then rebuilt), if anything. */
  damage?: string;
  /** With `stale`: how many entry files the rebuild left to others will read. */
  deferred?: number;
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
  /**
   * Check every index file's checksum and every kernel rule against its entry file first, and
   * rebuild on damage: `index` and `doctor`.
   */
  verify?: boolean;
  /**
   * Open for a hook: check only the sizes of the files read (a command checks every file's
   * size on open, and the checksums of those it reads), wait for another process's build at
   * most {@link HOOK_LOCK_WAIT_MS}, then answer from the index at hand, and read at most
   * {@link HOOK_INLINE_READS} entry files unless `maxReads` says otherwise.
   */
  hook?: boolean;
  /**
   * The most entry files to read to bring the index up to date: with more to read, answer from
   * the index as it is (mode `stale`) and note that a rebuild is due (see `rebuild_due.ts`), or
   * throw {@link IndexDeferredError} when there is none. {@link HOOK_INLINE_READS} for a hook,
   * no limit for a command; the watch, a hook with time, passes `Infinity`.
   */
  maxReads?: number;
}

/** An index ready to read, and what it took to get it there. */
export interface OpenIndex {
  /** Read access to the index. */
  reader: IndexReader;
  /** What bringing it up to date did. */
  report: RefreshReport;
}

function mtimeOf(path: string): number {
  try {
    return Deno.statSync(path).mtime?.getTime() ?? 0;
  } catch {
    return 0;
  }
}

/** Size and mtime of a file (a symlink's own, as the listing reads it); -1 when gone. */
function sizeAndMtime(path: string): [number, number] {
  try {
    const info = Deno.lstatSync(path);
    return [info.size, info.mtime?.getTime() ?? 0];
  } catch {
    return [-1, 0];
  }
}

/**
 * The cheap signals of change: the mtimes of the entries folder and of the sub-folders and the
 * entry files the stamp of the last check watched (`previous`), git's HEAD and index. Without a
 * HEAD (not a plain git checkout, where the folder mtimes still count) the index is not looked
 * for: each missing file is an exception, and a process's first one costs a hook about a
 * millisecond.
 */
export function readStamp(kbDir: string, previous?: FreshnessStamp): FreshnessStamp {
  let head = "";
  try {
    head = Deno.readTextFileSync(join(kbDir, ".git", "HEAD")).trim();
  } catch { /* not a plain git checkout */ }
  const stamp: FreshnessStamp = {
    entriesMtime: mtimeOf(join(kbDir, ENTRIES_DIR)),
    head,
    gitIndexMtime: head ? mtimeOf(join(kbDir, ".git", "index")) : 0,
  };
  const prefix = `${kbDir}/`;
  if (previous?.folders) {
    stamp.folders = previous.folders.map(([path]) => [path, mtimeOf(prefix + path)]);
  }
  if (previous?.files) {
    stamp.files = previous.files.map(([path]) => [path, ...sizeAndMtime(prefix + path)]);
  }
  return stamp;
}

/** Whether two lists of watched paths hold the same paths with the same numbers. */
function sameRows(
  a: readonly (readonly (string | number)[])[] = [],
  b: readonly (readonly (string | number)[])[] = [],
): boolean {
  return a.length === b.length &&
    a.every((row, at) => row.length === b[at].length && row.every((cell, i) => cell === b[at][i]));
}

/** Whether two stamps say the same. */
export function sameStamp(a: FreshnessStamp, b: FreshnessStamp): boolean {
  return a.entriesMtime === b.entriesMtime && a.head === b.head &&
    a.gitIndexMtime === b.gitIndexMtime && sameRows(a.folders, b.folders) &&
    sameRows(a.files, b.files);
}

/** The manifest's file name in an index folder. */
export const MANIFEST = "manifest.json";

const MIB = 1024 * 1024;

/**
 * The most bytes read from a cache file of each kind, so a planted or runaway file costs a
 * bounded read: far above what 50,000 entries need.
 */
function capOf(name: string): number {
  if (name === MANIFEST) return 16 * MIB;
  if (name.startsWith("docs/")) return 8 * MIB;
  return name.endsWith(".lock") ? 4096 : 128 * MIB;
}

/**
 * The bytes of the cache file at `path` (`name` in messages), or undefined when there is none.
 * It is looked at (lstat) before it is opened: only a regular file of at most its kind's cap is
 * read, never a symlink, FIFO or device. Throws {@link DamagedIndexError} otherwise.
 */
export function readCacheFile(path: string, name: string): Uint8Array | undefined {
  let info: Deno.FileInfo;
  try {
    info = Deno.lstatSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  if (!info.isFile) throw new DamagedIndexError(name, "not a regular file");
  const cap = capOf(name);
  if (info.size > cap) throw new DamagedIndexError(name, `${info.size} bytes, over ${cap}`);
  return Deno.readFileSync(path);
}

const decoder = new TextDecoder();

/** An index file's bytes as its readers take them: `.json` parsed, `.txt` text, `.bin` bytes. */
function decodeIndexFile(name: string, bytes: Uint8Array): unknown {
  if (name.endsWith(".bin")) return bytes;
  const text = decoder.decode(bytes);
  if (!name.endsWith(".json")) return text;
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new DamagedIndexError(name, (error as Error).message);
  }
}

/**
 * A loader that reads index files from `dir`, each in its own format (see `IndexLoader`),
 * checking each against `manifest`: its size, and with `checksums` its checksum. A file that
 * does not match is damage unless another process has brought the index up to date meanwhile
 * and the manifest now on disk vouches for it. Names are the index's own relative paths
 * (`shard/3.txt`), so they are appended to `dir` as they are, not joined: a firing prompt loads
 * a dozen files, and each join is a cold scan of the path.
 */
export function loaderFor(dir: string, manifest: Manifest, checksums: boolean): IndexLoader {
  const prefix = dir.endsWith("/") ? dir : `${dir}/`;
  return (name: string): unknown => {
    const bytes = readCacheFile(prefix + name, name);
    try {
      if (bytes === undefined && manifest.sums[name]) {
        throw new DamagedIndexError(name, "missing");
      }
      if (bytes) checkFile(manifest, name, bytes, checksums);
    } catch (error) {
      const now = newerManifest(dir, manifest);
      if (!now || !(error instanceof DamagedIndexError)) throw error;
      if (bytes) checkFile(now, name, bytes, checksums);
      else if (now.sums[name]) throw error;
    }
    return bytes && decodeIndexFile(name, bytes);
  };
}

/** The manifest on disk in `dir` when it is another build than `manifest`. */
function newerManifest(dir: string, manifest: Manifest): Manifest | undefined {
  const now = readManifest(dir);
  return now && now.builtAt !== manifest.builtAt ? now : undefined;
}

/**
 * A reader of the index in `dir` described by `manifest`. Damage it finds sets the index aside
 * (its manifest is removed, unless another build replaced it), so whoever opens it next
 * rebuilds it.
 */
export function readerFor(dir: string, manifest: Manifest, checksums: boolean): IndexReader {
  const setAside = () => {
    if (newerManifest(dir, manifest)) return;
    try {
      Deno.removeSync(join(dir, MANIFEST));
    } catch { /* already gone */ }
  };
  return new IndexReader(manifest, loaderFor(dir, manifest, checksums), setAside);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Whether parsed JSON is a manifest of this version of the index, with every field it needs. */
export function isManifest(value: unknown): value is Manifest {
  return isObject(value) && value.version === INDEX_VERSION &&
    isObject(value.stamp) && typeof value.verifiedAt === "number" &&
    typeof value.nextOrd === "number" && typeof value.shardCount === "number" &&
    Array.isArray(value.kernel) && value.kernel.every(isObject) &&
    Array.isArray(value.invalid) && isObject(value.sums) &&
    Array.isArray(value.dead) && Array.isArray(value.deltaOrds);
}

/**
 * Read the manifest of the index in `dir`; undefined when missing, not a regular file, too
 * large, corrupt or outdated (the index is then rebuilt).
 */
export function readManifest(dir: string): Manifest | undefined {
  let manifest: unknown;
  try {
    const bytes = readCacheFile(join(dir, MANIFEST), MANIFEST);
    if (!bytes) return undefined;
    manifest = JSON.parse(decoder.decode(bytes));
  } catch {
    return undefined;
  }
  return isManifest(manifest) ? manifest : undefined;
}

/**
 * What is wrong with the files of the index in `dir`, if anything: a file missing, not
 * regular or of another size than the manifest says (a stat each), and with `checksums` of
 * another checksum (every file read).
 */
export function findDamage(
  dir: string,
  manifest: Manifest,
  checksums: boolean,
): string | undefined {
  const prefix = `${dir}/`;
  for (const name in manifest.sums) {
    try {
      if (checksums) {
        const bytes = readCacheFile(prefix + name, name);
        if (!bytes) throw new DamagedIndexError(name, "missing");
        checkFile(manifest, name, bytes, true);
        continue;
      }
      const info = Deno.lstatSync(prefix + name);
      if (!info.isFile) throw new DamagedIndexError(name, "not a regular file");
      if (info.size !== manifest.sums[name][0]) {
        throw new DamagedIndexError(
          name,
          `${info.size} bytes where the manifest says ${manifest.sums[name][0]}`,
        );
      }
    } catch (error) {
      if (error instanceof DamagedIndexError) return `${name}: ${error.detail}`;
      if (error instanceof Deno.errors.NotFound) return `${name}: missing`;
      throw error;
    }
  }
  return undefined;
}

/** Raised when an entry path from the index does not lead to a regular file in `entries/`. */
export class UnsafeEntryPathError extends Error {
  constructor(readonly path: string, detail: string) {
    super(`the index names ${JSON.stringify(path)} for an entry, which ${detail}; not read`);
    this.name = "UnsafeEntryPathError";
  }
}

/**
 * Read the entry file of entry `id` at `path`, a path the index gave: only when it names a file
 * inside `<kbDir>/entries/` (or a sub-folder of it) that the listing would read (a regular file
 * reached through no symlink: see `io/kb.ts` `readKbFile`) and is not larger than an entry can
 * be: the cache is not trusted to point anywhere else. Throws {@link UnsafeEntryPathError}, or `Deno.errors.NotFound` when the file is gone.
 */
export function readIndexedEntry(kbDir: string, id: string, path: string): string {
  const entries = `${resolveFrom("/", kbDir)}/${ENTRIES_DIR}/`;
  const full = resolveFrom(kbDir, path);
  if (
    !isEntryPath(path) || !full.startsWith(entries)
  ) {
    throw new UnsafeEntryPathError(path, `is not a file of ${id} in ${entries}`);
  }
  try {
    return readKbFile(kbDir, path);
  } catch (error) {
    if (error instanceof UnreadableEntryError) throw new UnsafeEntryPathError(path, error.reason);
    throw error;
  }
}

/** The most entry files an open with `options` may read (see {@link OpenOptions.maxReads}). */
export function readLimit(options: OpenOptions): number {
  return options.maxReads ?? (options.hook ? HOOK_INLINE_READS : Infinity);
}

/**
 * Raised when the knowledge base's work tree is a branch git-kb keeps for itself (the proposals
 * branch, checked out by hand): its files are proposals waiting for review, and nothing of a
 * proposal is indexed, searched or reaches a prompt until it is accepted.
 */
export class GitKbBranchCheckedOutError extends KbError {
  constructor(kbDir: string, branch: string) {
    super(
      `${kbDir} has ${branch} checked out: its files are proposals waiting for review, not ` +
        "entries, so they are not indexed, searched or shown to the model; switch back to your " +
        "branch",
      EXIT.failed,
      [gitCommand(kbDir, "switch", "-")],
    );
    this.name = "GitKbBranchCheckedOutError";
  }
}

/**
 * Open the index of `kbDir`, first bringing it up to date with the files on disk.
 * Concurrent callers serialize on a lock in the cache folder. Throws
 * {@link GitKbBranchCheckedOutError} when the work tree is a git-kb branch (the proposals), or a
 * detached HEAD at one of its commits.
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
  let current = readManifest(dir);
  const stamp = readStamp(kbDir, current?.stamp);
  const checkedOut = proposalsCheckedOut(kbDir, stamp.head);
  if (checkedOut) throw new GitKbBranchCheckedOutError(kbDir, checkedOut);
  const finish = (manifest: Manifest, reader?: IndexReader): OpenIndex => {
    report.docCount = manifest.docCount;
    report.invalid = manifest.invalid;
    report.ms = performance.now() - started;
    return { reader: reader ?? readerFor(dir, manifest, !options.hook), report };
  };
  const damage = current && !options.hook && !options.full
    ? findDamage(dir, current, options.verify ?? false)
    : undefined;
  if (damage) {
    report.damage = damage;
    current = undefined;
  }
  if (
    current?.stamp.files && !options.full && !options.verify && sameStamp(current.stamp, stamp) &&
    Math.abs(Date.now() - current.verifiedAt) < trustFor(current, options.trustStampMs ?? 0)
  ) {
    return finish(current);
  }
  if (readLimit(options) < Infinity && rebuildDue(kbDir)) {
    // A hook already found too much to read, and a rebuild is on its way: no look at every file.
    if (!current) throw new IndexDeferredError(undefined, readLimit(options));
    report.mode = "stale";
    return finish(current);
  }
  const { refreshIndex } = await import("./refresh.ts");
  const { manifest, reader } = await refreshIndex({ kbDir, dir, current, stamp, options, report })
    .catch((error) => {
      throw cacheWriteError(error, kbCacheDir(kbDir));
    });
  return finish(manifest, reader);
}
