/**
 * Bringing the index up to date (see `store.ts`): check every entry file against it, and
 * take in what changed, incrementally when little did, else by a full build into a staging folder
 * swapped in by rename. Loaded only when the cheap stamp moved or the last full check is old.
 *
 * @module
 */
import { dirname, join } from "../../core/path.ts";
import { splitFrontmatter } from "../../core/entry/frontmatter.ts";
import { contentHash } from "../../core/hash.ts";
import { kernelRuleHash } from "../../core/kernel/acceptance.ts";
import {
  type FileRecord,
  type FreshnessStamp,
  type KernelRule,
  type Manifest,
  shardCountFor,
} from "../../core/index/format.ts";
import { DamagedIndexError, type IndexReader } from "../../core/index/reader.ts";
import { sealFiles } from "../../core/index/writer.ts";
import { type EntryAnalysis, type EntryFile, IndexEditor } from "../../core/index/editor.ts";
import { ensurePrivateDir, PRIVATE_FILE_MODE, writeData, writePrivateFile } from "../fs.ts";
import { LockTimeoutError, withLock } from "../save/lock.ts";
import { type FileStat, filesUnchanged, scanEntries } from "../kb.ts";
import { kbCacheDir } from "../paths.ts";
import { clearRebuildDue, noteRebuildDue } from "./rebuild_due.ts";
import {
  COMMAND_LOCK_WAIT_MS,
  HOOK_LOCK_WAIT_MS,
  IndexDeferredError,
  loaderFor,
  type OpenOptions,
  readerFor,
  readIndexedEntry,
  readLimit,
  readManifest,
  type RefreshReport,
  sameStamp,
  WATCHED_RECENT,
} from "./store.ts";

/**
 * Whether the entries folder provably has the same file names as at the last full check: its
 * mtime is unchanged and was already a second old then (mtimes are read in milliseconds).
 */
function listingUnchanged(
  current: Manifest | undefined,
  stamp: FreshnessStamp,
): current is Manifest {
  return current !== undefined && stamp.entriesMtime !== 0 &&
    stamp.entriesMtime === current.stamp.entriesMtime &&
    stamp.entriesMtime < current.verifiedAt - 1000;
}

/**
 * The stamp to record with an index of `files`: `stamp`, read before they were listed, watching
 * the sub-folders they sit in and, one by one, the kernel rules' files and the
 * {@link WATCHED_RECENT} most recently changed files. A sub-folder the last stamp did not watch
 * is recorded with mtime 0, since its mtime was not read before the listing: the next open
 * reads it and checks once more.
 */
function watchedStamp(
  stamp: FreshnessStamp,
  files: Map<string, FileStat>,
  kernel: readonly KernelRule[],
): FreshnessStamp {
  const known = new Map(stamp.folders ?? []);
  const folders = new Set<string>();
  for (const path of files.keys()) {
    for (let cut = path.lastIndexOf("/"); cut > 0; cut = path.lastIndexOf("/", cut - 1)) {
      const folder = path.slice(0, cut);
      if (!folder.includes("/") || folders.has(folder)) break;
      folders.add(folder);
    }
  }
  const recent = [...files].sort((a, b) => b[1].mtime - a[1].mtime).slice(0, WATCHED_RECENT)
    .map(([path]) => path);
  const watched = [...new Set([...kernel.map((rule) => rule.path), ...recent])]
    .filter((path) => files.has(path));
  return {
    entriesMtime: stamp.entriesMtime,
    head: stamp.head,
    gitIndexMtime: stamp.gitIndexMtime,
    folders: [...folders].sort().map((folder) => [folder, known.get(folder) ?? 0]),
    files: watched.map((path) => [path, files.get(path)!.size, files.get(path)!.mtime]),
  };
}

/** Reads, parses and analyzes one entry file (see `io/index/analyze.ts`). */
type Analyzer = (path: string) => EntryAnalysis;

/**
 * An analyzer for the entry files of `kbDir`. Loads the entry parser (and with it the YAML
 * library) on first use only: the prompt hook gets here only when the knowledge base changed.
 */
async function loadAnalyzer(kbDir: string): Promise<Analyzer> {
  const { analyzeFile } = await import("./analyze.ts");
  return (path) => analyzeFile(kbDir, path);
}

/** Entry files by path as the editor takes them in. */
function entryFiles(paths: string[], files: Map<string, FileStat>): EntryFile[] {
  return paths.map((path) => ({ path, ...files.get(path)! }));
}

/**
 * Write index files, the manifest last, each file's size and checksum recorded in it. `atomic`
 * writes each through a temp file and a rename, for an index readers may be looking at; a
 * staging folder nobody reads yet does not need it.
 */
function writeAll(dir: string, files: Map<string, unknown>, atomic: boolean): void {
  (files.get("manifest.json") as Manifest).verifiedAt = Date.now();
  const sealed = sealFiles(files);
  for (const [name, data] of sealed) {
    if (name === "manifest.json") continue;
    const path = join(dir, name);
    if (atomic) writePrivateFile(path, data);
    else {
      ensurePrivateDir(dirname(path));
      writeData(path, data, { createNew: true, mode: PRIVATE_FILE_MODE });
    }
  }
  writePrivateFile(join(dir, "manifest.json"), sealed.get("manifest.json")!);
}

/** Remove a folder and what it holds, if it is there. */
function removeTree(path: string): void {
  try {
    Deno.removeSync(path, { recursive: true });
  } catch { /* never made, or already gone */ }
}

/**
 * Build the whole index into a staging folder beside `target` and swap it in by rename. A build
 * that fails leaves no staging folder behind; those of builds that were killed are swept first.
 */
async function buildFull(
  kbDir: string,
  target: string,
  files: Map<string, FileStat>,
  stamp: FreshnessStamp,
) {
  sweepLeftovers(target);
  const editor = IndexEditor.create(kbDir, shardCountFor(files.size), () => undefined);
  editor.takeIn(entryFiles([...files.keys()], files), await loadAnalyzer(kbDir));
  const staging = `${target}.build-${Deno.pid}-${Date.now()}`;
  try {
    const watched = watchedStamp(stamp, files, editor.manifest.kernel);
    writeAll(staging, editor.changedFiles(new Date().toISOString(), watched), false);
    const retired = `${target}.old-${Deno.pid}-${Date.now()}`;
    try {
      Deno.renameSync(target, retired);
    } catch (error) {
      if (!(error instanceof Deno.errors.NotFound)) throw error;
    }
    Deno.renameSync(staging, target);
    removeTree(retired);
  } catch (error) {
    removeTree(staging);
    throw error;
  }
  return editor.manifest;
}

/** A staging or retired folder of a build beside the index: `index.build-<pid>-<ms>`. */
const LEFTOVER = /^index\.(?:build|old)-\d+-(\d+)$/;

/** A build's folder this old belongs to a build that was killed: none takes this long. */
const LEFTOVER_MS = 10 * 60_000;

/** Remove the staging and retired folders that killed builds left beside `target`. */
function sweepLeftovers(target: string): void {
  const parent = dirname(target);
  let listing: Deno.DirEntry[];
  try {
    listing = [...Deno.readDirSync(parent)];
  } catch {
    return;
  }
  for (const item of listing) {
    const started = LEFTOVER.exec(item.name)?.[1];
    if (started && Date.now() - Number(started) > LEFTOVER_MS) removeTree(join(parent, item.name));
  }
}

/** What {@link refreshIndex} works from: what `openIndex` read and was asked. */
export interface RefreshRequest {
  kbDir: string;
  /** The index folder. */
  dir: string;
  /** The manifest on disk, if there is a usable one. */
  current: Manifest | undefined;
  stamp: FreshnessStamp;
  options: OpenOptions;
  /** Filled in with what was done. */
  report: RefreshReport;
}

/**
 * Bring the index up to date with the files on disk: check every entry file (and the kernel
 * rules against theirs), then take in what changed (incrementally, or by a full build when much
 * did or the index is damaged). Concurrent callers serialize on a lock in the cache folder; a
 * hook waits for it briefly, then answers from the index at hand. Returns the manifest, and a
 * reader when one was opened on the way.
 */
export async function refreshIndex(
  { kbDir, dir, current, stamp, options, report }: RefreshRequest,
): Promise<{ manifest: Manifest; reader?: IndexReader }> {
  let files: Map<string, FileStat> | undefined;
  if (current && options.verify && !report.damage) report.damage = kernelDamage(kbDir, current);
  if (
    current?.stamp.files && !options.full && !report.damage && sameStamp(current.stamp, stamp)
  ) {
    try {
      const reader = readerFor(dir, current, true);
      const fresh =
        (listingUnchanged(current, stamp) && filesUnchanged(kbDir, reader.fileRows())) ||
        !changes(compare(files = scanEntries(kbDir), reader.files()));
      report.damage = fresh ? kernelDamage(kbDir, current) : undefined;
      if (fresh && !report.damage) return { manifest: markVerified(dir, current), reader };
    } catch (error) {
      if (!(error instanceof DamagedIndexError)) throw error;
      report.damage = `${error.file}: ${error.detail}`;
    }
  }
  files ??= scanEntries(kbDir);
  const lock = join(ensurePrivateDir(kbCacheDir(kbDir)), "index.lock");
  const timeoutMs = options.hook ? HOOK_LOCK_WAIT_MS : COMMAND_LOCK_WAIT_MS;
  try {
    const manifest = await withLock(
      lock,
      () => update(kbDir, dir, files, stamp, options, report),
      { timeoutMs },
    );
    clearRebuildDue(kbDir);
    return { manifest };
  } catch (error) {
    const usable = current && !report.damage;
    if (error instanceof LockTimeoutError && options.hook && usable) return { manifest: current };
    if (!(error instanceof IndexDeferredError)) throw error;
    noteRebuildDue(kbDir, error.reads ?? files.size);
    if (!usable) throw error;
    report.mode = "stale";
    report.deferred = error.reads;
    return { manifest: current };
  }
}

/** Refuse (nothing changed) to read `reads` entry files when that is over what `options` allow. */
function assertMayRead(reads: number, options: OpenOptions): void {
  const limit = readLimit(options);
  if (reads > limit) throw new IndexDeferredError(reads, limit);
}

/**
 * Under the lock: take the changes into the index on disk (which another process may have
 * brought up to date meanwhile), or build it anew when there is none, it is damaged, or much
 * changed.
 */
async function update(
  kbDir: string,
  dir: string,
  files: Map<string, FileStat>,
  stamp: FreshnessStamp,
  options: OpenOptions,
  report: RefreshReport,
): Promise<Manifest> {
  const latest = options.full || report.damage ? undefined : readManifest(dir);
  let addedFiles = [...files.keys()];
  if (latest) {
    try {
      const editor = new IndexEditor(latest, loaderFor(dir, latest, true));
      const { added, changed, removed } = compare(files, editor.files());
      addedFiles = added;
      report.changed = changed.length;
      report.removed = removed.length;
      const touched = added.length + changed.length + removed.length;
      if (
        touched <= Math.max(50, files.size / 4) &&
        shardCountFor(files.size) <= latest.shardCount * 4
      ) {
        assertMayRead(changed.length + added.length, options);
        for (const path of [...removed, ...changed]) editor.remove(path);
        editor.takeIn(entryFiles([...changed, ...added], files), await loadAnalyzer(kbDir));
        report.added = takenIn(added, editor.manifest);
        report.mode = touched ? "incremental" : "fresh";
        if (editor.needsCompaction()) editor.compact();
        const watched = watchedStamp(stamp, files, editor.manifest.kernel);
        writeAll(dir, editor.changedFiles(new Date().toISOString(), watched), true);
        return editor.manifest;
      }
    } catch (error) {
      if (error instanceof Deno.errors.NotCapable || error instanceof IndexDeferredError) {
        throw error;
      }
      if (error instanceof DamagedIndexError) report.damage = `${error.file}: ${error.detail}`;
    }
  }
  assertMayRead(files.size, options);
  report.mode = "full";
  const manifest = await buildFull(kbDir, dir, files, stamp);
  report.added = takenIn(addedFiles, manifest);
  return manifest;
}

/** How many of the entry files `added` the index took in: those it left out are not entries. */
function takenIn(added: string[], manifest: Manifest): number {
  const leftOut = new Set(manifest.invalid.map((file) => file.path));
  return added.filter((path) => !leftOut.has(path)).length;
}

/** Whether a comparison found anything added, changed or removed. */
function changes(diff: ReturnType<typeof compare>): boolean {
  return diff.added.length + diff.changed.length + diff.removed.length > 0;
}

/**
 * What is wrong with the kernel rules of `manifest`, if anything: each must be the body of an
 * active kernel entry file whose content hash the rule records, and the hash the rule records of
 * its title and body must be theirs (the user's acceptances are matched against it). A rule the
 * entries do not back (a forged manifest) is never injected: the index is rebuilt.
 */
export function kernelDamage(kbDir: string, manifest: Manifest): string | undefined {
  for (const rule of manifest.kernel) {
    const { id, path, hash, body } = rule;
    let text: string;
    try {
      text = readIndexedEntry(kbDir, String(id), path);
    } catch (error) {
      return `kernel rule ${id}: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (contentHash(text) !== hash) return `kernel rule ${id}: ${path} changed since`;
    let parts: { frontmatter: string; body: string };
    try {
      parts = splitFrontmatter(text, path);
    } catch {
      return `kernel rule ${id}: ${path} is not an entry`;
    }
    if (parts.body.trim() !== body || !/^kernel:\s*true\s*$/m.test(parts.frontmatter)) {
      return `kernel rule ${id}: not the kernel body of ${path}`;
    }
    if (rule.ruleHash !== undefined && rule.ruleHash !== kernelRuleHash(rule)) {
      return `kernel rule ${id}: its recorded hash is not that of its title and body`;
    }
  }
  return undefined;
}

/** Record that every entry file was just found unchanged. */
function markVerified(dir: string, manifest: Manifest): Manifest {
  manifest.verifiedAt = Date.now();
  writePrivateFile(join(dir, "manifest.json"), JSON.stringify(manifest));
  return manifest;
}

/** Which entry files were added, changed (size or mtime) or removed since the index saw them. */
function compare(files: Map<string, FileStat>, known: Map<string, FileRecord>) {
  const added: string[] = [];
  const changed: string[] = [];
  const removed: string[] = [];
  files.forEach((stat, path) => {
    const record = known.get(path);
    if (!record) added.push(path);
    else if (record[1] !== stat.size || record[2] !== stat.mtime) changed.push(path);
  });
  known.forEach((_, path) => {
    if (!files.has(path)) removed.push(path);
  });
  return { added, changed, removed };
}
