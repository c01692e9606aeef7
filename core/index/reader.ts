/**
 * The search index: what it holds and how it is read (`editor.ts` analyzes entries into it
 * and edits it). Pure: files come and go through a loader function that the I/O layer supplies,
 * so a reader touches only the files its terms need (the prompt hook reads a few small shards).
 *
 * The files, their layout, versioning and what a reader must check are specified in
 * spec/index-format.md: a small manifest a reader opens first, which records every other file's
 * size and checksum; per-entry numbers in `meta.bin`, read without parsing; entry records in
 * `docs/` chunks; postings in `shard/` files (line format: `postings_file.ts`) and a `delta.txt`
 * for recent saves; removed entries listed in the manifest and filtered out on read until
 * `IndexEditor.compact` folds them away. Change the layout only with that page and
 * {@link INDEX_VERSION}.
 *
 * @module
 */
import type { Link } from "../entry/entry.ts";
import {
  type Activity,
  ENTRY_TYPES,
  type EntryType,
  type Status,
  STATUSES,
} from "../entry/schema.ts";
import { viewAs } from "./bytes.ts";
import { bytesChecksum, fnv1a } from "../hash.ts";
import { findPostings, keywordKey, type Postings, postingsSize } from "./postings_file.ts";
import type { PostingsKind } from "./postings_layout.ts";

/**
 * Bumped whenever the file layout changes (with spec/index-format.md, which names it); an index of
 * another version is rebuilt.
 */
export const INDEX_VERSION = 19;

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
  /** The entry's id. */
  id: string;
  /** Path of the entry file relative to the knowledge base. */
  path: string;
  /** The entry's title. */
  title: string;
  /** The entry's type. */
  type: EntryType;
  /** Whether the entry is active, superseded or archived. */
  status: Status;
  /** Whether the entry is a kernel rule. */
  kernel: boolean;
  /** The entry's tags. */
  tags: string[];
  /** The entry's aliases. */
  aliases: string[];
  /** Activities the entry applies to. */
  appliesTo: Activity[];
  /** Links the entry declares. */
  links: Link[];
  /** The day the entry last changed, `YYYY-MM-DD`. */
  updated: string;
  /** Content hash of the entry file; the session ledger compares it to resurface changes. */
  hash: string;
  /** Term counts of title, keywords (tags + aliases) and body. */
  lengths: [number, number, number];
}

/** Term → occurrences in [title, keywords, body]. */
export type TermCounts = Map<string, [number, number, number]>;

/**
 * A kernel rule carried whole in the manifest so the prompt hook never opens entry files. The
 * entry file's path and content hash let a full check verify the rule against the file.
 */
export interface KernelRule {
  /** The rule's entry id. */
  id: string;
  /** The rule's title. */
  title: string;
  /** The rule's entry type. */
  type: EntryType;
  /** Path of the entry file relative to the knowledge base. */
  path: string;
  /** Content hash of the entry file when the rule was carried into the manifest. */
  hash: string;
  /** The rule's markdown body. */
  body: string;
}

/** An index file's size in bytes and {@link bytesChecksum}, as the manifest records them. */
export type FileSum = [size: number, checksum: string];

/** The small file every reader opens first. */
export interface Manifest {
  /** Format version of the index; another version is rebuilt. */
  version: number;
  /** The knowledge base folder this index describes. */
  kbDir: string;
  /** When the index files were last written, as an ISO timestamp. */
  builtAt: string;
  /** When the entry files were last all checked against the index, in ms since the epoch. */
  verifiedAt: number;
  /** What the entries folder and git looked like when the index was last brought up to date. */
  stamp: FreshnessStamp;
  /** How many entries the index holds. */
  docCount: number;
  /** The ordinal the next entry taken in gets. */
  nextOrd: number;
  /** How many shards the postings are spread over. */
  shardCount: number;
  /** Sum of term counts per field over all entries, for average lengths. */
  totals: [number, number, number];
  /** The kernel rules, whole. */
  kernel: KernelRule[];
  /** Entry files left out of the index because they break the contract. */
  invalid: InvalidFile[];
  /** Ordinals removed since the shards were written. */
  dead: number[];
  /** Ordinals whose postings live in the delta file. */
  deltaOrds: number[];
  /** Every other index file by name: what it must measure and hash to. */
  sums: Record<string, FileSum>;
}

/** An entry file the index could not take, and why. */
export interface InvalidFile {
  /** Path of the entry file relative to the knowledge base. */
  path: string;
  /** Why the index left it out. */
  message: string;
  /** Set when the file is left out because another file has the same id: that id. */
  duplicateOf?: string;
}

/**
 * Raised when an index file is missing, of the wrong size or checksum, or does not parse: the
 * index must be rebuilt. Never a user's mistake, so the message says what was found and that
 * the next run rebuilds the index (its reader sets it aside).
 */
export class DamagedIndexError extends Error {
  /**
   * The error for one damaged index file.
   *
   * @param file The index file, by its name in the index; @param detail what is wrong.
   */
  constructor(readonly file: string, readonly detail: string) {
    super(`the index is damaged (${file}: ${detail}); the next git-kb run rebuilds it`);
    this.name = "DamagedIndexError";
  }
}

/** What an entry path in the index must look like: a `.md` file in `entries/` or below it. */
const ENTRY_PATH = /^entries\/(?:[^/\\]+\/)*[^/\\]+\.md$/;

/**
 * Whether `path` is a plausible entry path in the index: a `.md` file in `entries/` or one of its
 * sub-folders, with no `.` or `..` segment, so no way out of the knowledge base. A cache file is
 * never trusted further (and a read checks the real path again: io/index/store.ts).
 */
export function isEntryPath(path: unknown): path is string {
  return typeof path === "string" && ENTRY_PATH.test(path) &&
    !path.split("/").some((segment) => segment === "." || segment === "..");
}

/** An index file's contents as bytes: text as UTF-8, bytes as they are, anything else as JSON. */
export function encodeIndexFile(value: unknown): Uint8Array {
  if (value instanceof Uint8Array) return value;
  return new TextEncoder().encode(typeof value === "string" ? value : JSON.stringify(value));
}

/**
 * Index files as they are written: each encoded, its size and checksum recorded in the
 * manifest (which keeps those of files left as they were), the manifest last.
 */
export function sealFiles(changed: Map<string, unknown>): Map<string, Uint8Array> {
  const manifest = changed.get("manifest.json") as Manifest;
  const sealed = new Map<string, Uint8Array>();
  for (const [name, value] of changed) {
    if (name === "manifest.json") continue;
    const bytes = encodeIndexFile(value);
    manifest.sums[name] = [bytes.length, bytesChecksum(bytes)];
    sealed.set(name, bytes);
  }
  sealed.set("manifest.json", encodeIndexFile(manifest));
  return sealed;
}

/**
 * Check an index file's bytes against the manifest: its size always, its checksum when
 * `checksum` is set. Throws {@link DamagedIndexError}.
 */
export function checkFile(
  manifest: Manifest,
  name: string,
  bytes: Uint8Array,
  checksum: boolean,
): void {
  const sum = manifest.sums[name];
  if (!sum) throw new DamagedIndexError(name, "not listed in the manifest");
  if (bytes.length !== sum[0]) {
    throw new DamagedIndexError(name, `${bytes.length} bytes where the manifest says ${sum[0]}`);
  }
  if (checksum && bytesChecksum(bytes) !== sum[1]) {
    throw new DamagedIndexError(name, "its checksum does not match the manifest");
  }
}

/** Cheap signals that the knowledge base changed: folder mtime and git's HEAD and index. */
export interface FreshnessStamp {
  /** Modification time of the entries folder, in ms since the epoch. */
  entriesMtime: number;
  /** The text of git's HEAD file; empty where the knowledge base has none. */
  head: string;
  /** Modification time of git's index file, in ms since the epoch. */
  gitIndexMtime: number;
  /**
   * The sub-folders of the entries folder, each `[path, mtime]`: a file saved by rename, added
   * or removed in one moves its mtime. Absent in a stamp written before they were watched.
   */
  folders?: [string, number][];
  /**
   * Entry files watched one by one, each `[path, size, mtime]`: the kernel rules (inlined in
   * every prompt) and the most recently changed entries, the likeliest to be edited in place.
   */
  files?: [string, number, number][];
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
  /** What the index keeps about the entry. */
  info: DocInfo;
  /** Its terms and their counts per field. */
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

/** The file of shard number `shard`. */
export function shardFile(shard: number): string {
  return `shard/${shard}.txt`;
}

/** The file of spilled list `n` of shard number `shard` (see `postings_file.ts`). */
export function spillFile(shard: number, n: number): string {
  return `shard/${shard}-${n}.bin`;
}

/** The file of the postings of entries added since the shards were written. */
export const DELTA_FILE = "delta.txt";

/** Numbers per entry in `meta.bin`: three field lengths and the flags. */
export const META_STRIDE = 4;

/** Where the flags sit among an entry's `meta.bin` numbers. */
const META_FLAGS = 3;

/** The most a field length in `meta.bin` can say; a longer field counts as this long. */
export const META_MAX_LENGTH = 0xffff;

/** Where the status index starts in a `meta.bin` flags word (the type's index is below it). */
const STATUS_SHIFT = 3;
/** The kernel bit of a `meta.bin` flags word. */
const KERNEL_BIT = 1 << 5;

/**
 * The flags word of an entry in `meta.bin`: its type's index in bits 0–2, its status's in bits
 * 3–4, and bit 5 set for a kernel rule. A removed entry's word is all ones (status index 3,
 * which names no status).
 */
export function metaFlags(type: EntryType, status: Status, kernel: boolean): number {
  return ENTRY_TYPES.indexOf(type) | STATUSES.indexOf(status) << STATUS_SHIFT |
    (kernel ? KERNEL_BIT : 0);
}

/** The status named by a `meta.bin` flags word; undefined for a removed entry, or none. */
function statusOf(flags: number | undefined): Status | undefined {
  return flags === undefined ? undefined : STATUSES[(flags >> STATUS_SHIFT) & 3];
}

/** Ranking facts about one entry, from `meta.bin`. */
export interface DocMeta {
  /** Term counts of title, keywords (tags + aliases) and body. */
  lengths: [number, number, number];
  /** The entry's type. */
  type: EntryType;
  /** Whether the entry is active, superseded or archived. */
  status: Status;
  /** Whether the entry is a kernel rule. */
  kernel: boolean;
}

/** Two postings lists one after the other: `first` itself when `second` is empty. */
function concatenated(first: Postings, second: Postings): Postings {
  if (!second.length) return first;
  if (Array.isArray(first) && Array.isArray(second)) return first.concat(second);
  const joined = new Int32Array(first.length + second.length);
  joined.set(first);
  joined.set(second, first.length);
  return joined;
}

/** Whether a loaded index file is of the shape its readers expect. */
export type Shape = (value: unknown) => boolean;

const isObject: Shape = (value) => typeof value === "object" && value !== null;

/**
 * Read access to an index through a loader; every file is loaded at most once. A file that
 * cannot be read as what it should be raises {@link DamagedIndexError}, never a TypeError.
 */
export class IndexReader {
  /** The index's manifest, loaded first. */
  readonly manifest: Manifest;
  #load: IndexLoader;
  #onDamage?: (error: DamagedIndexError) => void;
  #cache = new Map<string, unknown>();
  #postings = new Map<string, Postings>();
  #docs = new Map<number, DocInfo | null>();
  #lastShard?: { name: string; text: string };
  #meta?: Uint16Array;
  #dead?: { source: number[]; set: Set<number> };
  #ids?: Map<string, number>;
  #files?: Map<string, FileRecord>;

  /**
   * A reader of the index `manifest` describes, loading nothing yet.
   *
   * @param manifest The already loaded manifest; @param load reads other files by name;
   * @param onDamage told of every {@link DamagedIndexError} before it is thrown.
   */
  constructor(
    manifest: Manifest,
    load: IndexLoader,
    onDamage?: (error: DamagedIndexError) => void,
  ) {
    this.manifest = manifest;
    this.#load = load;
    this.#onDamage = onDamage;
  }

  /** `error`, once the owner has been told of it. */
  #reported(error: DamagedIndexError): DamagedIndexError {
    this.#onDamage?.(error);
    return error;
  }

  /** A {@link DamagedIndexError} about `name`, reported. */
  protected damaged(name: string, detail: string): DamagedIndexError {
    return this.#reported(new DamagedIndexError(name, detail));
  }

  /** What the loader gives for `name`, checked against `shape` when it exists. */
  #loaded(name: string, shape: Shape): unknown {
    let value: unknown;
    try {
      value = this.#load(name);
    } catch (error) {
      throw error instanceof DamagedIndexError ? this.#reported(error) : error;
    }
    if (value !== undefined && !shape(value)) throw this.damaged(name, "not what it should hold");
    return value;
  }

  /** A file by name, loaded once; `fallback` when it does not exist. */
  protected file<T>(name: string, fallback: T, shape: Shape = () => true): T {
    if (!this.#cache.has(name)) this.#cache.set(name, this.#loaded(name, shape) ?? fallback);
    return this.#cache.get(name) as T;
  }

  /** What `parse` returns; any failure in it means `name` is damaged. */
  protected parsed<T>(name: string, parse: () => T): T {
    try {
      return parse();
    } catch (error) {
      if (error instanceof DamagedIndexError) throw error;
      throw this.damaged(name, error instanceof Error ? error.message : String(error));
    }
  }

  /**
   * A postings shard's text. Only the last one read is kept, for the next lookup in it: a
   * prompt's shards (a megabyte with a few common words) are not left in the young heap for the
   * garbage collector to copy, which cost a firing prompt more than reading them.
   */
  #shardText(name: string): string {
    if (this.#lastShard?.name !== name) {
      const text = this.#loaded(name, (value) => typeof value === "string") as string | undefined;
      this.#lastShard = { name, text: text ?? "" };
    }
    return this.#lastShard.text;
  }

  #merged(kind: PostingsKind, term: string, stride: number): Postings {
    const key = `${kind}\t${term}`;
    let postings = this.#postings.get(key);
    if (!postings) this.#postings.set(key, postings = this.#live(kind, term, stride));
    return postings;
  }

  /**
   * The postings under `key` in the shard of `term`, a spilled list read from its own file (not
   * kept: each list is read once, and postings are cached by key).
   */
  #shardPostings(term: string, key: string): Postings {
    const shard = shardOf(term, this.manifest.shardCount);
    const name = shardFile(shard);
    const text = this.#shardText(name);
    const spilled = (n: number) =>
      this.#loaded(spillFile(shard, n), (value) => value instanceof Uint8Array) as
        | Uint8Array
        | undefined;
    return this.parsed(name, () => findPostings(text, key, spilled) ?? []);
  }

  /**
   * The delta file's text, or "" without opening it while no entry lives in it (right after a
   * build or a compaction).
   */
  #deltaText(): string {
    return this.manifest.deltaOrds.length ? this.file(DELTA_FILE, "", isText) : "";
  }

  #live(kind: PostingsKind, term: string, stride: number): Postings {
    const key = kind === "keywords" ? keywordKey(term) : term;
    const base = this.#shardPostings(term, key);
    const deltaText = this.#deltaText();
    const delta = this.parsed(DELTA_FILE, () => findPostings(deltaText, key) ?? []);
    if (!this.manifest.dead.length) return concatenated(base, delta);
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
  postings(term: string): Postings {
    return this.#merged("terms", term, 4);
  }

  /**
   * How many entries hold a term, read without parsing its postings. Entries removed since the
   * last compaction still count, so it can run a little high until then.
   */
  postingCount(term: string): number {
    const cached = this.#postings.get(`terms\t${term}`);
    if (cached) return cached.length / 4;
    const shard = this.#shardText(shardFile(shardOf(term, this.manifest.shardCount)));
    const delta = this.#deltaText();
    return this.parsed(DELTA_FILE, () => postingsSize(shard, term) + postingsSize(delta, term)) /
      4;
  }

  /** Flat [ordinal, field mask, …] postings of a term in titles, tags and aliases. */
  keywordPostings(term: string): Postings {
    return this.#merged("keywords", term, 2);
  }

  /** Lengths, type, status and kernel flag of the entry at `ord`; undefined for a removed one. */
  meta(ord: number): DocMeta | undefined {
    const meta = this.metaValues();
    const at = ord * META_STRIDE;
    const flags = meta[at + META_FLAGS];
    const status = statusOf(flags);
    if (status === undefined) return undefined;
    return {
      lengths: [meta[at], meta[at + 1], meta[at + 2]],
      type: ENTRY_TYPES[flags & ((1 << STATUS_SHIFT) - 1)],
      status,
      kernel: (flags & KERNEL_BIT) !== 0,
    };
  }

  /**
   * Whether the entry at `ord` is active and not a kernel rule: one a pointer may name. Read from
   * `meta.bin` without building a record, for the matching loops of the hooks.
   */
  isPointable(ord: number): boolean {
    const flags = this.metaValues()[ord * META_STRIDE + META_FLAGS];
    return statusOf(flags) === "active" && (flags & KERNEL_BIT) === 0;
  }

  /**
   * The term count of one field (0 title, 1 tags and aliases, 2 body) of the entry at `ord`, or
   * -1 for a removed one: what {@link meta} says, without building a record, for ranking loops.
   */
  fieldLength(ord: number, field: number): number {
    const meta = this.metaValues();
    const at = ord * META_STRIDE;
    return statusOf(meta[at + META_FLAGS]) === undefined ? -1 : meta[at + field];
  }

  /** The `meta.bin` numbers, {@link META_STRIDE} per ordinal. */
  protected metaValues(): ArrayLike<number> {
    if (!this.#meta) {
      const bytes = this.file(
        "meta.bin",
        new Uint8Array(0),
        (value) => value instanceof Uint8Array,
      );
      const expected = this.manifest.nextOrd * META_STRIDE * Uint16Array.BYTES_PER_ELEMENT;
      if (bytes.length !== expected) {
        throw this.damaged(
          "meta.bin",
          `${bytes.length} bytes for ${this.manifest.nextOrd} entries`,
        );
      }
      this.#meta = viewAs(bytes, Uint16Array);
    }
    return this.#meta;
  }

  /** The record of the entry at `ord`, or undefined for a removed one. */
  doc(ord: number): DocInfo | undefined {
    let doc = this.#docs.get(ord);
    if (doc === undefined) {
      const name = docChunkName(ord);
      const line = nthLine(this.file(name, "", isText), ord % CHUNK_SIZE);
      doc = line ? this.parsed(name, () => JSON.parse(line)) : null;
      if (doc !== null && !isDocInfo(doc)) throw this.damaged(name, `a bad record at ${ord}`);
      this.#docs.set(ord, doc);
    }
    return doc ?? undefined;
  }

  /** The ordinal of an entry id, or undefined when no entry has it. */
  ordOf(id: string): number | undefined {
    return this.ids().get(id);
  }

  /** Entry id → ordinal. Kept flat on disk: an array parses far faster than a wide object. */
  protected ids(): Map<string, number> {
    return this.#ids ??= pairs(
      this.file<unknown[]>("ids.json", [], Array.isArray),
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
    return this.file<Partial<Record<Activity, number[]>>>("activity.json", {}, isObject)[
      activity
    ] ?? [];
  }

  /** Every declared link as [from, rel, to]. */
  links(): LinkRow[] {
    return this.file<LinkRow[]>("links.json", [], Array.isArray);
  }

  /** The flat [path, ordinal, size, mtime, …] list behind {@link files}, as stored. */
  fileRows(): readonly unknown[] {
    return this.file<unknown[]>("files.json", [], Array.isArray);
  }

  /** Entry path → [ordinal, size, mtime]. */
  files(): Map<string, FileRecord> {
    return this.#files ??= pairs(
      this.file<unknown[]>("files.json", [], Array.isArray),
      4,
      (flat, at) => [flat[at + 1], flat[at + 2], flat[at + 3]] as FileRecord,
    );
  }
}

const isText: Shape = (value) => typeof value === "string";

/**
 * Whether a parsed docs record has what its readers use: an id, an entry path inside the
 * knowledge base that goes with it, a title and the lists.
 */
function isDocInfo(value: unknown): value is DocInfo {
  const doc = value as Partial<DocInfo>;
  return isObject(value) && typeof doc.id === "string" && isEntryPath(doc.path) &&
    typeof doc.title === "string" && typeof doc.hash === "string" && Array.isArray(doc.tags) &&
    Array.isArray(doc.aliases) && Array.isArray(doc.appliesTo) && Array.isArray(doc.links) &&
    Array.isArray(doc.lengths);
}

/** The docs chunk file holding the record of `ord`. */
export function docChunkName(ord: number): string {
  return `docs/${Math.floor(ord / CHUNK_SIZE)}.txt`;
}

/** Line `index` (from 0) of `text`, or "" when it has fewer lines. */
function nthLine(text: string, index: number): string {
  let start = 0;
  for (let line = 0; line < index; line++) {
    start = text.indexOf("\n", start) + 1;
    if (start === 0) return "";
  }
  const end = text.indexOf("\n", start);
  return text.slice(start, end < 0 ? text.length : end);
}

/** A docs chunk's records, one per line, as {@link IndexReader.doc} reads them. */
export function parseDocChunk(text: string): (DocInfo | null)[] {
  return text ? text.split("\n").map((line) => line ? JSON.parse(line) : null) : [];
}

/** The text of a docs chunk. */
export function formatDocChunk(docs: (DocInfo | null | undefined)[]): string {
  return Array.from(docs, (doc) => JSON.stringify(doc ?? null)).join("\n");
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
