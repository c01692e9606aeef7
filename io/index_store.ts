/**
 * The index on disk: open it, notice that the knowledge base changed (by any route: save, git
 * pull, an editor) and bring it up to date, incrementally when few entries changed.
 *
 * @module
 */
import { dirname, join } from "../core/path.ts";
import {
  type FileRecord,
  type FreshnessStamp,
  INDEX_VERSION,
  IndexEditor,
  IndexReader,
  type InvalidFile,
  type Manifest,
  shardCountFor,
} from "../core/index.ts";
import { readJsonFile, withLock, writeFileAtomic } from "./fs.ts";
import type { Analysis } from "./analyze.ts";
import { ENTRIES_DIR, type FileStat, filesUnchanged, scanEntries } from "./kb.ts";
import { indexDir, kbCacheDir } from "./paths.ts";

/**
 * How long the prompt hook trusts an index whose stamp has not moved before it stats every
 * entry file again, so an in-place edit that moved none of the cheap signals is still noticed
 * within a minute. Statting 5,000 files costs about 40 ms, more than the rest of the hook.
 */
export const HOOK_TRUST_MS = 60_000;

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

/** The cheap signals of change: the entries folder's mtime, git's HEAD and index. */
export function readStamp(kbDir: string): FreshnessStamp {
  let head = "";
  try {
    head = Deno.readTextFileSync(join(kbDir, ".git", "HEAD")).trim();
  } catch { /* not a plain git checkout: the folder mtime still counts */ }
  return {
    entriesMtime: mtimeOf(join(kbDir, ENTRIES_DIR)),
    head,
    gitIndexMtime: mtimeOf(join(kbDir, ".git", "index")),
  };
}

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

function sameStamp(a: FreshnessStamp, b: FreshnessStamp): boolean {
  return a.entriesMtime === b.entriesMtime && a.head === b.head &&
    a.gitIndexMtime === b.gitIndexMtime;
}

/** A loader that reads index files from `dir`, each in its own format (see `IndexLoader`). */
function loaderFor(dir: string) {
  return (name: string): unknown => {
    const path = join(dir, name);
    if (name.endsWith(".json")) return readJsonFile(path);
    try {
      return name.endsWith(".bin") ? Deno.readFileSync(path) : Deno.readTextFileSync(path);
    } catch (error) {
      if (error instanceof Deno.errors.NotFound) return undefined;
      throw error;
    }
  };
}

/** An index file's contents as written: text and bytes as they are, anything else as JSON. */
function serialized(value: unknown): string | Uint8Array {
  return typeof value === "string" || value instanceof Uint8Array ? value : JSON.stringify(value);
}

/** Read the manifest of the index in `dir`; undefined when missing, corrupt or outdated. */
function readManifest(dir: string): Manifest | undefined {
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

/** Reads, parses and analyzes one entry file (see `io/analyze.ts`). */
type Analyzer = (path: string) => Analysis;

/**
 * An analyzer for the entry files of `kbDir`. Loads the entry parser (and with it the YAML
 * library) on first use only: the prompt hook gets here only when the knowledge base changed.
 */
async function loadAnalyzer(kbDir: string): Promise<Analyzer> {
  const { analyzeFile } = await import("./analyze.ts");
  return (path) => analyzeFile(kbDir, path);
}

function addFile(editor: IndexEditor, analyze: Analyzer, path: string, stat: FileStat): void {
  const result = analyze(path);
  if (!result.ok) return editor.skip(path, stat.size, stat.mtime, result.message);
  const owner = editor.docById(result.analyzed.info.id);
  if (owner && owner.path !== path) {
    return editor.skip(path, stat.size, stat.mtime, `id ${owner.id} is also used by ${owner.path}`);
  }
  editor.add(result.analyzed, stat.size, stat.mtime, result.kernelBody);
}

/**
 * Write index files, the manifest last. `atomic` writes each through a temp file and a rename,
 * for an index readers may be looking at; a staging folder nobody reads yet does not need it.
 */
function writeAll(dir: string, files: Map<string, unknown>, atomic: boolean): void {
  (files.get("manifest.json") as Manifest).verifiedAt = Date.now();
  const made = new Set<string>();
  for (const [name, value] of files) {
    if (name === "manifest.json") continue;
    const path = join(dir, name);
    const data = serialized(value);
    if (atomic) writeFileAtomic(path, data);
    else {
      const folder = dirname(path);
      if (!made.has(folder)) Deno.mkdirSync(folder, { recursive: true });
      made.add(folder);
      if (typeof data === "string") Deno.writeTextFileSync(path, data);
      else Deno.writeFileSync(path, data);
    }
  }
  writeFileAtomic(join(dir, "manifest.json"), JSON.stringify(files.get("manifest.json")));
}

async function buildFull(
  kbDir: string,
  target: string,
  files: Map<string, FileStat>,
  stamp: FreshnessStamp,
) {
  const staging = `${target}.build-${Deno.pid}-${Date.now()}`;
  const editor = IndexEditor.create(kbDir, shardCountFor(files.size), () => undefined);
  const analyze = await loadAnalyzer(kbDir);
  for (const path of [...files.keys()].sort()) addFile(editor, analyze, path, files.get(path)!);
  writeAll(staging, editor.changedFiles(new Date().toISOString(), stamp), false);
  const retired = `${target}.old-${Deno.pid}-${Date.now()}`;
  try {
    Deno.renameSync(target, retired);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  Deno.renameSync(staging, target);
  try {
    Deno.removeSync(retired, { recursive: true });
  } catch { /* there was no earlier index */ }
  return editor.manifest;
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
  const reader = current ? new IndexReader(current, loaderFor(dir)) : undefined;
  if (
    current && reader && !options.full && sameStamp(current.stamp, stamp) &&
    listingUnchanged(current, stamp) && filesUnchanged(kbDir, reader.fileRows())
  ) {
    return finish(markVerified(dir, current), reader);
  }
  const files = scanEntries(kbDir);
  if (current && reader && !options.full && sameStamp(current.stamp, stamp)) {
    const diff = compare(files, reader.files());
    if (!diff.added.length && !diff.changed.length && !diff.removed.length) {
      return finish(markVerified(dir, current), reader);
    }
  }
  const manifest = await withLock(join(kbCacheDir(kbDir), "index.lock"), async () => {
    const latest = readManifest(dir);
    const known = latest ? new IndexReader(latest, loaderFor(dir)).files() : new Map();
    const { added, changed, removed } = compare(files, known);
    report.added = added.length;
    report.changed = changed.length;
    report.removed = removed.length;
    const touched = added.length + changed.length + removed.length;
    if (
      !latest || options.full || touched > Math.max(50, files.size / 4) ||
      shardCountFor(files.size) > latest.shardCount * 4
    ) {
      report.mode = "full";
      return await buildFull(kbDir, dir, files, stamp);
    }
    try {
      const editor = new IndexEditor(latest, loaderFor(dir));
      for (const path of [...removed, ...changed]) editor.remove(path);
      const analyze = await loadAnalyzer(kbDir);
      for (const path of [...changed, ...added].sort()) {
        addFile(editor, analyze, path, files.get(path)!);
      }
      report.mode = touched ? "incremental" : "fresh";
      if (editor.needsCompaction()) editor.compact();
      writeAll(dir, editor.changedFiles(new Date().toISOString(), stamp), true);
      return editor.manifest;
    } catch (error) {
      if (error instanceof Deno.errors.NotCapable) throw error;
      report.mode = "full";
      return await buildFull(kbDir, dir, files, stamp);
    }
  });
  return finish(manifest);
}

/** Record that every entry file was just found unchanged. */
function markVerified(dir: string, manifest: Manifest): Manifest {
  manifest.verifiedAt = Date.now();
  writeFileAtomic(join(dir, "manifest.json"), JSON.stringify(manifest));
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
