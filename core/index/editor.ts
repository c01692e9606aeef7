/**
 * The write side of the search index: how an entry is analyzed into it, and how additions and
 * removals are applied to it (`format.ts` holds the layout, `reader.ts` the reader, `writer.ts`
 * seals the changed files). Pure, like the reader: files come and go through the loader and
 * {@link IndexEditor.changedFiles}. Kept apart from the reader so that the prompt hook, which only
 * reads, never loads it.
 *
 * @module
 */
import { kernelRuleHash } from "../kernel/acceptance.ts";
import type { Entry } from "../entry/entry.ts";
import type { Activity } from "../entry/schema.ts";
import { countTerm, countTerms, distinctTerms } from "../text/tokenize.ts";
import { collectPairs, pairFilter } from "../text/word_pairs.ts";
import {
  formatShard,
  parseShard,
  type PostingsFiles,
  type PostingsKind,
  type ShardPostings,
} from "./postings_layout.ts";
import { BuildPostings } from "./postings_builder.ts";
import {
  type AnalyzedEntry,
  CHUNK_SIZE,
  DELTA_FILE,
  docChunkName,
  type DocInfo,
  FIELD_KEYWORD,
  FIELD_TITLE,
  FLAG_INACTIVE,
  FLAG_KERNEL,
  formatDocChunk,
  type FreshnessStamp,
  INDEX_VERSION,
  type LinkRow,
  type Manifest,
  META_MAX_LENGTH,
  META_STRIDE,
  metaFlags,
  parseDocChunk,
  shardFile,
  shardOf,
  spillFile,
  type TermCounts,
} from "./format.ts";
import { type IndexLoader, IndexReader } from "./reader.ts";

/** Reduce an entry to its index record and term counts. */
export function analyzeEntry(entry: Entry, path: string, hash: string): AnalyzedEntry {
  const terms: TermCounts = new Map();
  const pairs = new Set<number>();
  const titleLength = countTerms(entry.title, 0, terms, collectPairs(pairs));
  const keywordTerms = [...entry.tags, ...entry.aliases].flatMap(distinctTerms);
  for (const term of keywordTerms) countTerm(terms, term, 1);
  const bodyLength = countTerms(entry.body, 2, terms, collectPairs(pairs));
  return {
    info: {
      id: entry.id,
      path,
      title: entry.title,
      type: entry.type,
      status: entry.status,
      kernel: entry.kernel,
      tags: entry.tags,
      aliases: entry.aliases,
      appliesTo: entry.appliesTo,
      links: entry.links,
      updated: entry.updated,
      hash,
      lengths: [titleLength, keywordTerms.length, bodyLength],
      ...pairs.size ? { pairs: pairFilter(pairs) } : {},
    },
    terms,
  };
}

function withoutOrd(flat: number[], ord: number, stride: number): number[] {
  const kept: number[] = [];
  for (let index = 0; index < flat.length; index += stride) {
    if (flat[index] !== ord) {
      for (let offset = 0; offset < stride; offset++) kept.push(flat[index + offset]);
    }
  }
  return kept;
}

/** One entry file as read for the index: analyzed, or why the index cannot take it. */
export type EntryAnalysis =
  | { ok: true; analyzed: AnalyzedEntry; kernelBody?: string }
  | { ok: false; message: string };

/** An entry file to take in: where it stands on disk and, once read, what reading it gave. */
export interface EntryFile {
  /** Path relative to the knowledge base, `entries/<id>-<slug>.md`. */
  path: string;
  /** Size in bytes when it was listed. */
  size: number;
  /** Modification time in ms since the epoch when it was listed. */
  mtime: number;
  /** What reading the file gave; undefined until it is read. */
  analysis?: EntryAnalysis;
}

/** Why files sharing an id are all left out, naming every one of them. */
export function duplicateMessage(id: string, paths: string[]): string {
  return `id ${id} is used by ${paths.length} files (${paths.join(", ")}); none of them is ` +
    "served until only one has it: give the others a new id or delete them";
}

/** Entries in the delta, or removed ones, past which {@link IndexEditor.compact} is due. */
export const COMPACT_AFTER = 64;

/**
 * Applies additions and removals to an index, loading only the files they touch, and hands back
 * the changed files to write. A full build is the same additions made to an empty index, written
 * straight into the shards; later additions go to the delta file.
 */
export class IndexEditor extends IndexReader {
  #dirty = new Set<string>();
  /** Postings being edited, as maps (faster than objects for many keys): shards by number. */
  #shards: ShardPostings[] = [];
  #delta?: ShardPostings;
  #meta?: number[];
  /** A full build's postings, straight into the shards; an edit's go to the delta file. */
  #build?: BuildPostings;
  /** Files that shared an id with a removed one: {@link takeIn} reads them again. */
  #reread = new Set<string>();

  /**
   * Start an index from nothing, for a full build.
   * @param kbDir The knowledge base folder; @param shardCount fixed for the index's life.
   */
  static create(kbDir: string, shardCount: number, load: IndexLoader): IndexEditor {
    const manifest: Manifest = {
      version: INDEX_VERSION,
      kbDir,
      builtAt: "",
      verifiedAt: 0,
      stamp: { entriesMtime: 0, head: "", gitIndexMtime: 0 },
      docCount: 0,
      nextOrd: 0,
      shardCount,
      totals: [0, 0, 0],
      kernel: [],
      invalid: [],
      dead: [],
      deltaOrds: [],
      sums: {},
    };
    const editor = new IndexEditor(manifest, load);
    editor.#build = new BuildPostings(shardCount);
    return editor;
  }

  /** Docs chunks being edited, parsed whole, by file name. */
  #docChunks = new Map<string, (DocInfo | null)[]>();

  #docChunk(ord: number): (DocInfo | null)[] {
    const name = docChunkName(ord);
    let chunk = this.#docChunks.get(name);
    if (!chunk) this.#docChunks.set(name, chunk = parseDocChunk(this.#touch(name, "")));
    return chunk;
  }

  #setDoc(ord: number, info: DocInfo | null): void {
    this.#docChunk(ord)[ord % CHUNK_SIZE] = info;
  }

  /** The record of the entry at `ord` as edited so far. */
  override doc(ord: number): DocInfo | undefined {
    return this.#docChunks.has(docChunkName(ord))
      ? this.#docChunk(ord)[ord % CHUNK_SIZE] ?? undefined
      : super.doc(ord);
  }

  #touch<T>(name: string, fallback: T): T {
    this.#dirty.add(name);
    return this.file(name, fallback);
  }

  #shard(kind: PostingsKind, shard: number): Map<string, number[]> {
    this.#shards[shard] ??= parseShard(
      this.#touch(shardFile(shard), ""),
      (n) => this.file<Uint8Array | undefined>(spillFile(shard, n), undefined),
    );
    return this.#shards[shard][kind];
  }

  #deltaMaps(): ShardPostings {
    return this.#delta ??= parseShard(this.#touch(DELTA_FILE, ""));
  }

  /** The editable `meta.bin` numbers; reads through {@link metaValues} see the edits. */
  protected override metaValues(): number[] {
    return this.#meta ??= Array.from(super.metaValues());
  }

  #editMeta(): number[] {
    this.#dirty.add("meta.bin");
    return this.metaValues();
  }

  #list(postings: Map<string, number[]>, term: string): number[] {
    let list = postings.get(term);
    if (!list) postings.set(term, list = []);
    return list;
  }

  /**
   * Take out the entry stored at `path`; does nothing when the index does not have it. When it
   * was left out for sharing its id, the other files with that id are read again by the next
   * {@link takeIn}: one of them may now be served.
   */
  remove(path: string): void {
    const invalid = this.manifest.invalid;
    const duplicateOf = invalid.find((item) => item.path === path)?.duplicateOf;
    this.#drop(path);
    for (const item of invalid) {
      if (duplicateOf && item.duplicateOf === duplicateOf) this.#reread.add(item.path);
    }
  }

  /**
   * Take in entry files that were added or changed (their earlier versions already removed),
   * and read again those {@link remove} left waiting. Two files with one id are an error: both
   * are left out, with a message naming both, and so is an entry already served under that id.
   * `read` analyzes a file by path.
   */
  takeIn(files: EntryFile[], read: (path: string) => EntryAnalysis): void {
    const batch = new Map(files.map((file) => [file.path, file]));
    for (const path of this.#reread) {
      const record = this.files().get(path);
      if (batch.has(path) || !record) continue;
      this.#drop(path);
      batch.set(path, { path, size: record[1], mtime: record[2] });
    }
    this.#reread.clear();
    const byId = new Map<string, EntryFile[]>();
    for (const path of [...batch.keys()].sort()) {
      const file = batch.get(path)!;
      const analysis = file.analysis ??= read(path);
      if (!analysis.ok) {
        this.skip(path, file.size, file.mtime, analysis.message);
        continue;
      }
      const id = analysis.analyzed.info.id;
      const group = byId.get(id);
      if (group) group.push(file);
      else byId.set(id, [file]);
    }
    for (const [id, group] of byId) {
      group.push(...this.#takeOutHolders(id, batch));
      const [only] = group;
      if (group.length === 1 && only.analysis?.ok) {
        this.add(only.analysis.analyzed, only.size, only.mtime, only.analysis.kernelBody);
        continue;
      }
      const message = duplicateMessage(id, group.map((file) => file.path).sort());
      for (const file of group) this.skip(file.path, file.size, file.mtime, message, id);
    }
  }

  /**
   * Take out the files outside `batch` that the index knows with entry id `id` (the one served,
   * and those left out for sharing it), and say where they stand on disk.
   */
  #takeOutHolders(id: string, batch: Map<string, EntryFile>): EntryFile[] {
    const paths = this.manifest.invalid.filter((item) => item.duplicateOf === id)
      .map((item) => item.path);
    const served = this.docById(id)?.path;
    if (served) paths.push(served);
    const holders: EntryFile[] = [];
    for (const path of paths) {
      const record = this.files().get(path);
      if (batch.has(path) || !record) continue;
      this.#drop(path);
      holders.push({ path, size: record[1], mtime: record[2] });
    }
    return holders;
  }

  /** Take out the entry or left-out file stored at `path`, if any. */
  #drop(path: string): void {
    const record = this.files().get(path);
    if (!record) return;
    this.#dirty.add("files.json");
    this.files().delete(path);
    const [ord] = record;
    const manifest = this.manifest;
    if (ord < 0) {
      manifest.invalid = manifest.invalid.filter((item) => item.path !== path);
      return;
    }
    const info = this.doc(ord);
    if (manifest.deltaOrds.includes(ord)) {
      const delta = this.#deltaMaps();
      for (const [postings, stride] of [[delta.terms, 4], [delta.keywords, 2]] as const) {
        for (const [term, list] of postings) {
          const kept = withoutOrd(list, ord, stride);
          if (kept.length === list.length) continue;
          if (kept.length) postings.set(term, kept);
          else postings.delete(term);
        }
      }
      manifest.deltaOrds = manifest.deltaOrds.filter((item) => item !== ord);
    } else {
      manifest.dead = [...manifest.dead, ord];
    }
    this.#setDoc(ord, null);
    this.#editMeta().fill(-1, ord * META_STRIDE, (ord + 1) * META_STRIDE);
    if (info) {
      this.#dirty.add("ids.json");
      if (this.ids().get(info.id) === ord) this.ids().delete(info.id);
      const links = this.#touch<LinkRow[]>("links.json", []);
      const keptLinks = links.filter(([from]) => from !== info.id);
      links.splice(0, links.length, ...keptLinks);
      for (const row of links) if (row[2] === info.id) row[4] = null;
      info.lengths.forEach((length, field) => manifest.totals[field] -= length);
      manifest.docCount--;
    }
    manifest.kernel = manifest.kernel.filter((rule) => rule.id !== info?.id);
    if (info?.appliesTo.length) {
      const activity = this.#touch<Partial<Record<Activity, number[]>>>("activity.json", {});
      for (const kind of info.appliesTo) {
        activity[kind] = (activity[kind] ?? []).filter((item) => item !== ord);
      }
    }
  }

  /**
   * Add an analyzed entry with the given file size and mtime. The caller removes any earlier
   * version of the same path first.
   */
  add(analyzed: AnalyzedEntry, size: number, mtime: number, kernelBody?: string): void {
    const { info, terms } = analyzed;
    const manifest = this.manifest;
    const meta = this.#editMeta();
    const ord = manifest.nextOrd++;
    const flags = (info.status === "active" ? 0 : FLAG_INACTIVE) | (info.kernel ? FLAG_KERNEL : 0);
    const keywordOf = (counts: readonly number[]) => {
      const mask = (counts[0] ? FIELD_TITLE : 0) | (counts[1] ? FIELD_KEYWORD : 0);
      return mask && mask | flags;
    };
    const build = this.#build;
    if (build) terms.forEach((counts, term) => build.add(term, ord, counts, keywordOf(counts)));
    else {
      const delta = this.#deltaMaps();
      terms.forEach((counts, term) => {
        this.#list(delta.terms, term).push(ord, counts[0], counts[1], counts[2]);
        const keyword = keywordOf(counts);
        if (keyword) this.#list(delta.keywords, term).push(ord, keyword);
      });
      manifest.deltaOrds = [...manifest.deltaOrds, ord];
    }
    this.#setDoc(ord, info);
    const at = ord * META_STRIDE;
    for (let field = 0; field < 3; field++) {
      meta[at + field] = Math.min(info.lengths[field], META_MAX_LENGTH);
    }
    meta[at + 3] = metaFlags(info.type, info.status, info.kernel);
    this.#dirty.add("files.json").add("ids.json");
    this.files().set(info.path, [ord, size, mtime]);
    this.ids().set(info.id, ord);
    const links = this.#touch<LinkRow[]>("links.json", []);
    // A build fills in target titles once, at the end; an edit retitles the links to it here.
    if (!this.#build) { for (const row of links) if (row[2] === info.id) row[4] = info.title; }
    for (const link of info.links) {
      links.push([info.id, link.rel, link.to, info.title, this.docById(link.to)?.title ?? null]);
    }
    info.lengths.forEach((length, field) => manifest.totals[field] += length);
    manifest.docCount++;
    if (info.status === "active") {
      if (info.kernel && kernelBody !== undefined) {
        manifest.kernel.push({
          id: info.id,
          title: info.title,
          type: info.type,
          path: info.path,
          hash: info.hash,
          body: kernelBody,
          ruleHash: kernelRuleHash({ id: info.id, title: info.title, body: kernelBody }),
        });
        manifest.kernel.sort((a, b) => a.id.localeCompare(b.id));
      }
      if (info.appliesTo.length) {
        const activity = this.#touch<Partial<Record<Activity, number[]>>>("activity.json", {});
        for (const kind of info.appliesTo) (activity[kind] ??= []).push(ord);
      }
    }
  }

  /**
   * Record an entry file that is left out, so it is not parsed again until it changes; with
   * `duplicateOf`, because another file has that id.
   */
  skip(path: string, size: number, mtime: number, message: string, duplicateOf?: string): void {
    this.#dirty.add("files.json");
    this.files().set(path, [-1, size, mtime]);
    this.manifest.invalid.push(duplicateOf ? { path, message, duplicateOf } : { path, message });
  }

  /** Whether the delta or the dead list has grown enough to fold back into the shards. */
  needsCompaction(): boolean {
    return this.manifest.deltaOrds.length + this.manifest.dead.length > COMPACT_AFTER;
  }

  /** Fold the delta and the dead list into the shards: every shard is rewritten. */
  compact(): void {
    const delta = this.#deltaMaps();
    const dead = new Set(this.manifest.dead);
    for (const [kind, stride] of [["terms", 4], ["keywords", 2]] as const) {
      for (let shard = 0; shard < this.manifest.shardCount; shard++) {
        const postings = this.#shard(kind, shard);
        if (dead.size) {
          for (const [term, list] of postings) {
            const kept = list.filter((_, index) => !dead.has(list[index - (index % stride)]));
            if (kept.length) postings.set(term, kept);
            else postings.delete(term);
          }
        }
      }
      for (const [term, list] of delta[kind]) {
        this.#list(this.#shard(kind, shardOf(term, this.manifest.shardCount)), term).push(...list);
      }
      delta[kind].clear();
    }
    this.manifest.dead = [];
    this.manifest.deltaOrds = [];
  }

  /** The files changed since this editor was created, ready to serialize; manifest last. */
  changedFiles(builtAt: string, stamp: FreshnessStamp): Map<string, unknown> {
    const changed = new Map<string, unknown>();
    for (const name of this.#dirty) changed.set(name, this.file(name, undefined));
    if (this.#build) {
      for (const row of this.links()) row[4] = this.docById(row[2])?.title ?? null;
    }
    if (this.#dirty.has("files.json")) {
      changed.set("files.json", [...this.files()].flatMap(([path, record]) => [path, ...record]));
    }
    if (this.#dirty.has("ids.json")) {
      changed.set("ids.json", [...this.ids()].flatMap(([id, ord]) => [id, ord]));
    }
    if (this.#meta) changed.set("meta.bin", new Uint8Array(Uint16Array.from(this.#meta).buffer));
    this.#docChunks.forEach((docs, name) => changed.set(name, formatDocChunk(docs)));
    const addShard = (shard: number, { text, spills }: PostingsFiles) => {
      changed.set(shardFile(shard), text);
      spills.forEach((bytes, n) => changed.set(spillFile(shard, n), bytes));
    };
    this.#shards.forEach((postings, shard) => addShard(shard, formatShard(postings)));
    this.#build?.forEachShard(addShard);
    if (this.#delta) changed.set(DELTA_FILE, formatShard(this.#delta, Infinity).text);
    this.manifest.builtAt = builtAt;
    this.manifest.stamp = stamp;
    changed.set("manifest.json", this.manifest);
    return changed;
  }
}
