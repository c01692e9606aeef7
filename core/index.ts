/**
 * The search index: what it holds, how an entry is analyzed into it, and how it is edited and
 * read. Pure: files come and go through a loader function that the I/O layer supplies, so a
 * reader touches only the files its terms need (the prompt hook reads a few small shards).
 *
 * Files of one index (names relative to its cache folder):
 * - `manifest.json`: version, what it was built from, sizes, kernel bodies;
 * - `activity.json`: activity → ordinals of the active entries that apply to it;
 * - `files.json`: flat [entry path, ordinal, size, mtime, …], for staleness checks;
 * - `ids.json`: flat [entry id, ordinal, …];
 * - `links.json`: every declared link as {@link LinkRow}, titles included so showing an entry's
 *   neighbours reads no other record;
 * - `meta.bin`: per ordinal, six little-endian 32-bit integers [title length, keyword length,
 *   body length, type, status, kernel 0/1], all that ranking and the hook need before they pick
 *   the hits to show; binary, so a firing prompt reads it without parsing;
 * - `docs/<chunk>.json`: {@link DocInfo} by ordinal;
 * - `shard/<n>.txt`, in the line format of `postings_file.ts`, so a reader parses only the lines
 *   of its terms: term → flat [ordinal, title tf, keyword tf, body tf, …], and for title, tag and
 *   alias terms the keyword postings, `+term` → flat [ordinal, field mask, …];
 * - `delta.txt`: the same for entries added since the shards were last written, so a save
 *   rewrites a few small files instead of every shard.
 *
 * Removed entries are listed in the manifest (`dead`) and filtered out of the shards on read;
 * {@link IndexEditor.compact} folds the delta and the dead list back into the shards once they
 * grow. Ordinals are never reused within an index.
 *
 * @module
 */
import type { Entry, Link } from "./entry.ts";
import { type Activity, ENTRY_TYPES, type EntryType, type Status, STATUSES } from "./schema.ts";
import { fnv1a } from "./hash.ts";
import { distinctTerms, tokenize } from "./tokenize.ts";
import {
  findPostings,
  formatShard,
  keywordKey,
  parseShard,
  postingsSize,
  type ShardPostings,
} from "./postings_file.ts";

/** Bumped whenever the file layout changes; an index of another version is rebuilt. */
export const INDEX_VERSION = 13;

/** Entries per docs chunk file. */
export const CHUNK_SIZE = 32;

/** Field mask bits in keyword postings. */
export const FIELD_TITLE = 1;
/** The term comes from a tag or an alias. */
export const FIELD_KEYWORD = 2;
/** The entry is superseded or archived: never surfaced by the hooks. */
export const FLAG_INACTIVE = 4;
/** The entry is a kernel rule: surfaced whole, never as a keyword pointer. */
export const FLAG_KERNEL = 8;

/** What the index keeps about one entry for display, filtering and the hooks. */
export interface DocInfo {
  id: string;
  path: string;
  title: string;
  type: EntryType;
  status: Status;
  kernel: boolean;
  tags: string[];
  aliases: string[];
  appliesTo: Activity[];
  links: Link[];
  updated: string;
  /** Content hash of the entry file; the session ledger compares it to resurface changes. */
  hash: string;
  /** Term counts of title, keywords (tags + aliases) and body. */
  lengths: [number, number, number];
}

/** Term → occurrences in [title, keywords, body]. */
export type TermCounts = Map<string, [number, number, number]>;

/** A kernel rule carried whole in the manifest so the prompt hook never opens entry files. */
export interface KernelRule {
  id: string;
  title: string;
  type: EntryType;
  hash: string;
  body: string;
}

/** The small file every reader opens first. */
export interface Manifest {
  version: number;
  /** The knowledge base folder this index describes. */
  kbDir: string;
  builtAt: string;
  /** When the entry files were last all checked against the index, in ms since the epoch. */
  verifiedAt: number;
  /** What the entries folder and git looked like when the index was last brought up to date. */
  stamp: FreshnessStamp;
  docCount: number;
  nextOrd: number;
  shardCount: number;
  /** Sum of term counts per field over all entries, for average lengths. */
  totals: [number, number, number];
  kernel: KernelRule[];
  /** Entry files left out of the index because they break the contract. */
  invalid: InvalidFile[];
  /** Ordinals removed since the shards were written. */
  dead: number[];
  /** Ordinals whose postings live in the delta files. */
  deltaOrds: number[];
}

/** An entry file the index could not take, and why. */
export interface InvalidFile {
  path: string;
  message: string;
}

/** Cheap signals that the knowledge base changed: folder mtime and git's HEAD and index. */
export interface FreshnessStamp {
  entriesMtime: number;
  head: string;
  gitIndexMtime: number;
}

/**
 * A declared link with the titles of both ends: [from, rel, to, from title, to title]. The
 * target's title is null while no entry has that id.
 */
export type LinkRow = [string, string, string, string, string | null];

/** Where an entry file stands on disk: [ordinal, size, mtime ms]. */
export type FileRecord = [number, number, number];

/** An entry reduced to what the index stores. */
export interface AnalyzedEntry {
  info: DocInfo;
  terms: TermCounts;
}

/**
 * Loads an index file by name, or returns undefined when it does not exist: `.json` files
 * parsed, `.txt` files as text, `.bin` files as bytes.
 */
export type IndexLoader = (name: string) => unknown;

/**
 * How many postings shards suit an index of `docCount` entries: about 32 entries a shard, at most
 * 1,024. The prompt hook reads the shard of every prompt word but parses only the word's line,
 * so a shard's size costs it little; fewer shards mean fewer files for a build to write.
 */
export function shardCountFor(docCount: number): number {
  let shards = 1;
  while (shards < 1024 && shards * 32 < docCount) shards *= 2;
  return shards;
}

/** The shard a term's postings live in. */
export function shardOf(term: string, shardCount: number): number {
  return fnv1a(term) % shardCount;
}

/** The file of the shard a term's postings live in. */
function shardName(term: string, shardCount: number): string {
  return shardFile(shardOf(term, shardCount));
}

function shardFile(shard: number): string {
  return `shard/${shard}.txt`;
}

/** The file of the postings of entries added since the shards were written. */
const DELTA_FILE = "delta.txt";

function count(terms: Map<string, [number, number, number]>, words: string[], field: 0 | 1 | 2) {
  for (let index = 0; index < words.length; index++) {
    const word = words[index];
    let counts = terms.get(word);
    if (!counts) terms.set(word, counts = [0, 0, 0]);
    counts[field]++;
  }
}

/** Reduce an entry to its index record and term counts. */
export function analyzeEntry(entry: Entry, path: string, hash: string): AnalyzedEntry {
  const terms = new Map<string, [number, number, number]>();
  const titleWords = tokenize(entry.title);
  const keywordWords = [...entry.tags, ...entry.aliases].flatMap(distinctTerms);
  const bodyWords = tokenize(entry.body);
  count(terms, titleWords, 0);
  count(terms, keywordWords, 1);
  count(terms, bodyWords, 2);
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
      lengths: [titleWords.length, keywordWords.length, bodyWords.length],
    },
    terms,
  };
}

/** Fields per entry in `meta.bin`. */
const META_STRIDE = 6;

/** Little-endian 32-bit integers from a file's bytes (copied when not 4-byte aligned). */
function int32s(bytes: Uint8Array | undefined): Int32Array {
  if (!bytes) return new Int32Array(0);
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : bytes.slice();
  return new Int32Array(aligned.buffer, aligned.byteOffset, Math.floor(aligned.byteLength / 4));
}

/** Ranking facts about one entry, from `meta.bin`. */
export interface DocMeta {
  lengths: [number, number, number];
  type: EntryType;
  status: Status;
  kernel: boolean;
}

/** Read access to an index through a loader; every file is loaded at most once. */
export class IndexReader {
  readonly manifest: Manifest;
  #load: IndexLoader;
  #cache = new Map<string, unknown>();
  #postings = new Map<string, number[]>();
  #lastShard?: { name: string; text: string };
  #meta?: Int32Array;
  #dead?: { source: number[]; set: Set<number> };
  #ids?: Map<string, number>;
  #files?: Map<string, FileRecord>;

  /** @param manifest The already loaded manifest; @param load reads other files by name. */
  constructor(manifest: Manifest, load: IndexLoader) {
    this.manifest = manifest;
    this.#load = load;
  }

  /** A file by name, loaded once; `fallback` when it does not exist. */
  protected file<T>(name: string, fallback: T): T {
    if (!this.#cache.has(name)) this.#cache.set(name, this.#load(name) ?? fallback);
    return this.#cache.get(name) as T;
  }

  /**
   * A postings shard's text. Only the last one read is kept, for the next lookup in it: a
   * prompt's shards (a megabyte with a few common words) are not left in the young heap for the
   * garbage collector to copy, which cost a firing prompt more than reading them.
   */
  #shardText(name: string): string {
    if (this.#lastShard?.name !== name) {
      this.#lastShard = { name, text: (this.#load(name) as string | undefined) ?? "" };
    }
    return this.#lastShard.text;
  }

  #merged(dir: "post" | "kw", term: string, stride: number): number[] {
    const key = `${dir}\t${term}`;
    let postings = this.#postings.get(key);
    if (!postings) this.#postings.set(key, postings = this.#live(dir, term, stride));
    return postings;
  }

  #live(dir: "post" | "kw", term: string, stride: number): number[] {
    const key = dir === "kw" ? keywordKey(term) : term;
    const base = findPostings(this.#shardText(shardName(term, this.manifest.shardCount)), key) ??
      [];
    // No delta file to open while no entry lives in it (right after a build or a compaction).
    const delta = this.manifest.deltaOrds.length
      ? findPostings(this.file(DELTA_FILE, ""), key) ?? []
      : [];
    if (!this.manifest.dead.length) return delta.length ? base.concat(delta) : base;
    if (this.#dead?.source !== this.manifest.dead) {
      this.#dead = { source: this.manifest.dead, set: new Set(this.manifest.dead) };
    }
    const dead = this.#dead.set;
    const live: number[] = [];
    for (const list of [base, delta]) {
      for (let index = 0; index < list.length; index += stride) {
        if (dead.has(list[index])) continue;
        for (let offset = 0; offset < stride; offset++) live.push(list[index + offset]);
      }
    }
    return live;
  }

  /** Flat [ordinal, title tf, keyword tf, body tf, …] postings of a term. */
  postings(term: string): number[] {
    return this.#merged("post", term, 4);
  }

  /**
   * How many entries hold a term, read without parsing its postings. Entries removed since the
   * last compaction still count, so it can run a little high until then.
   */
  postingCount(term: string): number {
    const cached = this.#postings.get(`post\t${term}`);
    if (cached) return cached.length / 4;
    const base = postingsSize(this.#shardText(shardName(term, this.manifest.shardCount)), term);
    const delta = this.manifest.deltaOrds.length
      ? postingsSize(this.file(DELTA_FILE, ""), term)
      : 0;
    return (base + delta) / 4;
  }

  /** Flat [ordinal, field mask, …] postings of a term in titles, tags and aliases. */
  keywordPostings(term: string): number[] {
    return this.#merged("kw", term, 2);
  }

  /** Lengths, type, status and kernel flag of the entry at `ord`; undefined for a removed one. */
  meta(ord: number): DocMeta | undefined {
    const meta = this.metaValues();
    const at = ord * META_STRIDE;
    const status = STATUSES[meta[at + 4]];
    if (status === undefined) return undefined;
    return {
      lengths: [meta[at], meta[at + 1], meta[at + 2]],
      type: ENTRY_TYPES[meta[at + 3]],
      status,
      kernel: meta[at + 5] === 1,
    };
  }

  /**
   * The term count of one field (0 title, 1 tags and aliases, 2 body) of the entry at `ord`, or
   * -1 for a removed one: what {@link meta} says, without building a record, for ranking loops.
   */
  fieldLength(ord: number, field: number): number {
    const meta = this.metaValues();
    const status = meta[ord * META_STRIDE + 4];
    return status === undefined || status < 0 ? -1 : meta[ord * META_STRIDE + field];
  }

  /** The `meta.bin` numbers, {@link META_STRIDE} per ordinal. */
  protected metaValues(): ArrayLike<number> {
    return this.#meta ??= int32s(this.file<Uint8Array | undefined>("meta.bin", undefined));
  }

  /** The record of the entry at `ord`, or undefined for a removed one. */
  doc(ord: number): DocInfo | undefined {
    return this.file<(DocInfo | null)[]>(docChunkName(ord), [])[ord % CHUNK_SIZE] ?? undefined;
  }

  /** The ordinal of an entry id, or undefined when no entry has it. */
  ordOf(id: string): number | undefined {
    return this.ids().get(id);
  }

  /** Entry id → ordinal. Kept flat on disk: an array parses far faster than a wide object. */
  protected ids(): Map<string, number> {
    return this.#ids ??= pairs(
      this.file<unknown[]>("ids.json", []),
      2,
      (flat, at) => flat[at + 1] as number,
    );
  }

  /** The record of an entry by id. */
  docById(id: string): DocInfo | undefined {
    const ord = this.ordOf(id);
    return ord === undefined ? undefined : this.doc(ord);
  }

  /** Ordinals of the active entries whose `applies_to` names `activity`. */
  activityOrds(activity: Activity): number[] {
    return this.file<Partial<Record<Activity, number[]>>>("activity.json", {})[activity] ?? [];
  }

  /** Every declared link as [from, rel, to]. */
  links(): LinkRow[] {
    return this.file<LinkRow[]>("links.json", []);
  }

  /** The flat [path, ordinal, size, mtime, …] list behind {@link files}, as stored. */
  fileRows(): readonly unknown[] {
    return this.file<unknown[]>("files.json", []);
  }

  /** Entry path → [ordinal, size, mtime]. */
  files(): Map<string, FileRecord> {
    return this.#files ??= pairs(
      this.file<unknown[]>("files.json", []),
      4,
      (flat, at) => [flat[at + 1], flat[at + 2], flat[at + 3]] as FileRecord,
    );
  }
}

/** The docs chunk file holding the record of `ord`. */
function docChunkName(ord: number): string {
  return `docs/${Math.floor(ord / CHUNK_SIZE)}.json`;
}

/** A map from a flat [key, …values, key, …] array of the given stride. */
function pairs<V>(
  flat: unknown[],
  stride: number,
  value: (flat: unknown[], at: number) => V,
): Map<string, V> {
  const map = new Map<string, V>();
  for (let at = 0; at + stride <= flat.length; at += stride) {
    map.set(flat[at] as string, value(flat, at));
  }
  return map;
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

/** Entries in the delta, or removed ones, past which {@link IndexEditor.compact} is due. */
export const COMPACT_AFTER = 64;

/**
 * Applies additions and removals to an index, loading only the files they touch, and hands back
 * the changed files to write. A full build is the same additions made to an empty index, written
 * straight into the shards; later additions go to the delta files.
 */
export class IndexEditor extends IndexReader {
  #dirty = new Set<string>();
  /** Postings being edited, as maps (faster than objects for many keys): shards by number. */
  #shards: ShardPostings[] = [];
  #delta?: ShardPostings;
  #meta?: number[];
  #building = false;

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
    };
    const editor = new IndexEditor(manifest, load);
    editor.#building = true;
    return editor;
  }

  /**
   * Where each term's postings go in this edit (its shard's lists in a build, the delta's
   * otherwise), remembered: a build meets each term thousands of times. Cleared whenever lists
   * are replaced.
   */
  #targets = new Map<string, { post: number[]; kw?: number[]; shard: number }>();

  #target(term: string, delta?: { post: Map<string, number[]>; kw: Map<string, number[]> }) {
    let target = this.#targets.get(term);
    if (!target) {
      const shard = shardOf(term, this.manifest.shardCount);
      target = { post: this.#list(delta?.post ?? this.#shard("post", shard), term), shard };
      this.#targets.set(term, target);
    }
    return target;
  }

  #setDoc(ord: number, info: DocInfo | null): void {
    this.#touch<(DocInfo | null)[]>(docChunkName(ord), [])[ord % CHUNK_SIZE] = info;
  }

  #touch<T>(name: string, fallback: T): T {
    this.#dirty.add(name);
    return this.file(name, fallback);
  }

  #shard(dir: "post" | "kw", shard: number): Map<string, number[]> {
    return (this.#shards[shard] ??= parseShard(this.#touch(shardFile(shard), "")))[dir];
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

  /** Take out the entry stored at `path`; does nothing when the index does not have it. */
  remove(path: string): void {
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
      this.#targets.clear();
      const delta = this.#deltaMaps();
      for (const [postings, stride] of [[delta.post, 4], [delta.kw, 2]] as const) {
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
    const ord = manifest.nextOrd++;
    const delta = this.#building ? undefined : this.#deltaMaps();
    const flags = (info.status === "active" ? 0 : FLAG_INACTIVE) | (info.kernel ? FLAG_KERNEL : 0);
    // forEach rather than for-of with destructuring: this runs cold in a one-off CLI process.
    terms.forEach((counts, term) => {
      const target = this.#target(term, delta);
      target.post.push(ord, counts[0], counts[1], counts[2]);
      const mask = (counts[0] ? FIELD_TITLE : 0) | (counts[1] ? FIELD_KEYWORD : 0);
      if (!mask) return;
      target.kw ??= this.#list(delta?.kw ?? this.#shard("kw", target.shard), term);
      target.kw.push(ord, mask | flags);
    });
    if (delta) manifest.deltaOrds = [...manifest.deltaOrds, ord];
    this.#setDoc(ord, info);
    const meta = this.#editMeta();
    const at = ord * META_STRIDE;
    meta[at] = info.lengths[0];
    meta[at + 1] = info.lengths[1];
    meta[at + 2] = info.lengths[2];
    meta[at + 3] = ENTRY_TYPES.indexOf(info.type);
    meta[at + 4] = STATUSES.indexOf(info.status);
    meta[at + 5] = info.kernel ? 1 : 0;
    this.#dirty.add("files.json").add("ids.json");
    this.files().set(info.path, [ord, size, mtime]);
    this.ids().set(info.id, ord);
    const links = this.#touch<LinkRow[]>("links.json", []);
    // A build fills in target titles once, at the end; an edit retitles the links to it here.
    if (!this.#building) { for (const row of links) if (row[2] === info.id) row[4] = info.title; }
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
          hash: info.hash,
          body: kernelBody,
        });
        manifest.kernel.sort((a, b) => a.id.localeCompare(b.id));
      }
      if (info.appliesTo.length) {
        const activity = this.#touch<Partial<Record<Activity, number[]>>>("activity.json", {});
        for (const kind of info.appliesTo) (activity[kind] ??= []).push(ord);
      }
    }
  }

  /** Record an entry file that breaks the contract, so it is not parsed again until it changes. */
  skip(path: string, size: number, mtime: number, message: string): void {
    this.#dirty.add("files.json");
    this.files().set(path, [-1, size, mtime]);
    this.manifest.invalid.push({ path, message });
  }

  /** Whether the delta or the dead list has grown enough to fold back into the shards. */
  needsCompaction(): boolean {
    return this.manifest.deltaOrds.length + this.manifest.dead.length > COMPACT_AFTER;
  }

  /** Fold the delta and the dead list into the shards: every shard is rewritten. */
  compact(): void {
    this.#targets.clear();
    const delta = this.#deltaMaps();
    const dead = new Set(this.manifest.dead);
    for (const [dir, stride] of [["post", 4], ["kw", 2]] as const) {
      for (let shard = 0; shard < this.manifest.shardCount; shard++) {
        const postings = this.#shard(dir, shard);
        if (dead.size) {
          for (const [term, list] of postings) {
            const kept = list.filter((_, index) => !dead.has(list[index - (index % stride)]));
            if (kept.length) postings.set(term, kept);
            else postings.delete(term);
          }
        }
      }
      for (const [term, list] of delta[dir]) {
        this.#list(this.#shard(dir, shardOf(term, this.manifest.shardCount)), term).push(...list);
      }
      delta[dir].clear();
    }
    this.manifest.dead = [];
    this.manifest.deltaOrds = [];
  }

  /** The files changed since this editor was created, ready to serialize; manifest last. */
  changedFiles(builtAt: string, stamp: FreshnessStamp): Map<string, unknown> {
    const changed = new Map<string, unknown>();
    for (const name of this.#dirty) changed.set(name, this.file(name, undefined));
    if (this.#building) {
      for (const row of this.links()) row[4] = this.docById(row[2])?.title ?? null;
    }
    if (this.#dirty.has("files.json")) {
      changed.set("files.json", [...this.files()].flatMap(([path, record]) => [path, ...record]));
    }
    if (this.#dirty.has("ids.json")) {
      changed.set("ids.json", [...this.ids()].flatMap(([id, ord]) => [id, ord]));
    }
    if (this.#meta) changed.set("meta.bin", new Uint8Array(Int32Array.from(this.#meta).buffer));
    this.#shards.forEach((postings, shard) => changed.set(shardFile(shard), formatShard(postings)));
    if (this.#delta) changed.set(DELTA_FILE, formatShard(this.#delta));
    this.manifest.builtAt = builtAt;
    this.manifest.stamp = stamp;
    changed.set("manifest.json", this.manifest);
    return changed;
  }
}
