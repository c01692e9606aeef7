/**
 * The index reader: read access to an index through a loader that the I/O layer supplies, so a
 * reader touches only the files its terms need (the prompt hook reads a few small shards), and
 * checks every file it reads (`editor.ts` analyzes entries into the index and edits it).
 *
 * The files, their layout, versioning and what a reader must check are specified in
 * spec/index-format.md and set down in `format.ts`: a small manifest a reader opens first, which
 * records every other file's size and checksum; per-entry numbers in `meta.bin`, read without
 * parsing; entry records in `docs/` chunks; postings in `shard/` files (line format:
 * `postings_file.ts`) and a `delta.txt` for recent saves; removed entries listed in the manifest
 * and filtered out on read until `IndexEditor.compact` folds them away.
 *
 * @module
 */
import { type Activity, type EntryType, ID_PATTERN, type Status } from "../entry/schema.ts";
import { viewAs } from "./bytes.ts";
import { bytesChecksum } from "../hash.ts";
import { findPostings, keywordKey, type Postings, postingsSize } from "./postings_file.ts";
import type { PostingsKind } from "./postings_layout.ts";
import {
  CHUNK_SIZE,
  DELTA_FILE,
  docChunkName,
  type DocInfo,
  type FileRecord,
  isEntryPath,
  isKernelFlags,
  type KernelRule,
  type LinkRow,
  type Manifest,
  META_FLAGS,
  META_STRIDE,
  shardFile,
  shardOf,
  spillFile,
  statusOfFlags,
  typeOfFlags,
} from "./format.ts";

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

/**
 * Loads an index file by name, or returns undefined when it does not exist: `.json` files
 * parsed, `.txt` files as text, `.bin` files as bytes.
 */
export type IndexLoader = (name: string) => unknown;

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
  /** Ids of the kernel rules this reader does not list as in force ({@link withKernel}). */
  #outOfForce: ReadonlySet<string>;
  #outOfForceOrds?: ReadonlySet<number>;

  /**
   * A reader of the index `manifest` describes, loading nothing yet.
   *
   * @param manifest The already loaded manifest; @param load reads other files by name;
   * @param onDamage told of every {@link DamagedIndexError} before it is thrown;
   * @param outOfForce ids of kernel rules that are not in force (see {@link withKernel}).
   */
  constructor(
    manifest: Manifest,
    load: IndexLoader,
    onDamage?: (error: DamagedIndexError) => void,
    outOfForce: ReadonlySet<string> = new Set(),
  ) {
    this.manifest = manifest;
    this.#load = load;
    this.#onDamage = onDamage;
    this.#outOfForce = outOfForce;
  }

  /**
   * A reader of the same index whose manifest lists only `kernel` as its kernel rules: the rules
   * in force for this user (io/kernel/acceptance.ts), for readers that inline them. A kernel rule
   * left out is an entry like any other for this reader: a pointer may name it
   * ({@link isPointable}), while it is never inlined.
   */
  withKernel(kernel: KernelRule[]): IndexReader {
    const kept = new Set(kernel.map((rule) => rule.id));
    const outOfForce = new Set(
      this.manifest.kernel.map((rule) => rule.id).filter((id) => !kept.has(id)),
    );
    return new IndexReader({ ...this.manifest, kernel }, this.#load, this.#onDamage, outOfForce);
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
    const status = statusOfFlags(flags);
    if (status === undefined) return undefined;
    return {
      lengths: [meta[at], meta[at + 1], meta[at + 2]],
      type: typeOfFlags(flags),
      status,
      kernel: isKernelFlags(flags),
    };
  }

  /**
   * Whether the entry at `ord` is active and not a kernel rule in force: one a pointer may name.
   * Read from `meta.bin` without building a record, for the matching loops of the hooks.
   */
  isPointable(ord: number): boolean {
    const flags = this.metaValues()[ord * META_STRIDE + META_FLAGS];
    if (statusOfFlags(flags) !== "active") return false;
    return !isKernelFlags(flags) || this.#outOfForceOrdinals().has(ord);
  }

  /** The ordinals of the kernel rules not in force, looked up once when first asked. */
  #outOfForceOrdinals(): ReadonlySet<number> {
    return this.#outOfForceOrds ??= new Set(
      [...this.#outOfForce].flatMap((id) => {
        const ord = this.ordOf(id);
        return ord === undefined ? [] : [ord];
      }),
    );
  }

  /**
   * The term count of one field (0 title, 1 tags and aliases, 2 body) of the entry at `ord`, or
   * -1 for a removed one: what {@link meta} says, without building a record, for ranking loops.
   */
  fieldLength(ord: number, field: number): number {
    const meta = this.metaValues();
    const at = ord * META_STRIDE;
    return statusOfFlags(meta[at + META_FLAGS]) === undefined ? -1 : meta[at + field];
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

  /** Every entry id the index holds. */
  entryIds(): IterableIterator<string> {
    return this.ids().keys();
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

  /**
   * Ordinals of the active entries whose `applies_to` names `activity`, ascending as postings
   * are: an entry added always gets the next ordinal, and one removed is only taken out.
   */
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
 * Whether a parsed docs record has what its readers use: an entry id (hooks print it in a command
 * line to run, so nothing else may pass for one), an entry path inside the knowledge base that
 * goes with it, a title and the lists.
 */
function isDocInfo(value: unknown): value is DocInfo {
  const doc = value as Partial<DocInfo>;
  return isObject(value) && typeof doc.id === "string" && ID_PATTERN.test(doc.id) &&
    isEntryPath(doc.path) &&
    typeof doc.title === "string" && typeof doc.hash === "string" && Array.isArray(doc.tags) &&
    Array.isArray(doc.aliases) && Array.isArray(doc.appliesTo) && Array.isArray(doc.links) &&
    Array.isArray(doc.lengths);
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
