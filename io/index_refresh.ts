/**
 * Bringing the index up to date (see `index_store.ts`): check every entry file against it, and
 * take in what changed, incrementally when little did, else by a full build into a staging folder
 * swapped in by rename. Loaded only when the cheap stamp moved or the last full check is old.
 *
 * @module
 */
import { dirname, join } from "../core/path.ts";
import {
  type FileRecord,
  type FreshnessStamp,
  IndexReader,
  type Manifest,
  shardCountFor,
} from "../core/index.ts";
import { IndexEditor } from "../core/index_editor.ts";
import { writeData, writeFileAtomic } from "./fs.ts";
import { withLock } from "./lock.ts";
import type { Analysis } from "./analyze.ts";
import { type FileStat, filesUnchanged, scanEntries } from "./kb.ts";
import { kbCacheDir } from "./paths.ts";
import {
  loaderFor,
  type OpenOptions,
  readManifest,
  type RefreshReport,
  sameStamp,
} from "./index_store.ts";

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

/** An index file's contents as written: text and bytes as they are, anything else as JSON. */
function serialized(value: unknown): string | Uint8Array {
  return typeof value === "string" || value instanceof Uint8Array ? value : JSON.stringify(value);
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
      writeData(path, data);
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
 * Bring the index up to date with the files on disk: check every entry file, then take in what
 * changed (incrementally, or by a full build when much did). Concurrent callers serialize on a
 * lock in the cache folder. Returns the manifest, and a reader when one was opened on the way.
 */
export async function refreshIndex(
  { kbDir, dir, current, stamp, options, report }: RefreshRequest,
): Promise<{ manifest: Manifest; reader?: IndexReader }> {
  const reader = current ? new IndexReader(current, loaderFor(dir)) : undefined;
  if (
    current && reader && !options.full && sameStamp(current.stamp, stamp) &&
    listingUnchanged(current, stamp) && filesUnchanged(kbDir, reader.fileRows())
  ) {
    return { manifest: markVerified(dir, current), reader };
  }
  const files = scanEntries(kbDir);
  if (current && reader && !options.full && sameStamp(current.stamp, stamp)) {
    const diff = compare(files, reader.files());
    if (!diff.added.length && !diff.changed.length && !diff.removed.length) {
      return { manifest: markVerified(dir, current), reader };
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
  return { manifest };
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
