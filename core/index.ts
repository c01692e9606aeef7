/**
 * The search index: what it holds, how an entry is analyzed into it, and how it is edited and
 * read. Pure: files come and go through a loader function that the I/O layer supplies, so a
 * reader touches only the files its terms need (the prompt hook reads a few small shards).
 *
 * Files of one index (names relative to its cache folder):
 * - `manifest.json`: version, what it was built from, sizes, kernel bodies, activity entries;
 * - `files.json`: entry path → [ordinal, size, mtime], for staleness checks;
 * - `ids.json`: entry id → ordinal;
 * - `links.json`: every declared link as [from, rel, to];
 * - `docs/<chunk>.json`: {@link DocInfo} by ordinal, `terms/<chunk>.json`: term counts by ordinal;
 * - `post/<shard>.json`: term → flat [ordinal, title tf, keyword tf, body tf, …];
 * - `kw/<shard>.json`: term → flat [ordinal, field mask, …] for title, tag and alias terms only.
 *
 * @module
 */
import type { Entry, Link } from "./entry.ts";
import type { Activity, EntryType, Status } from "./schema.ts";
import { fnv1a } from "./hash.ts";
import { distinctTerms, tokenize } from "./tokenize.ts";

/** Bumped whenever the file layout changes; an index of another version is rebuilt. */
export const INDEX_VERSION = 1;

/** Entries per docs/terms chunk file. */
export const CHUNK_SIZE = 64;

/** Field mask bits in keyword postings. */
export const FIELD_TITLE = 1;
/** The term comes from a tag or an alias. */
export const FIELD_KEYWORD = 2;

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
export type TermCounts = Record<string, [number, number, number]>;

/** A kernel rule carried whole in the manifest so the prompt hook never opens entry files. */
export interface KernelRule {
  id: string;
  title: string;
  hash: string;
  body: string;
}

/** An active entry that surfaces by the kind of work a prompt is about. */
export interface ActivityEntry {
  ord: number;
  id: string;
  appliesTo: Activity[];
}

/** The small file every reader opens first. */
export interface Manifest {
  version: number;
  /** The knowledge base folder this index describes. */
  kbDir: string;
  builtAt: string;
  /** What the entries folder and git looked like when the index was last brought up to date. */
  stamp: FreshnessStamp;
  docCount: number;
  nextOrd: number;
  shardCount: number;
  /** Sum of term counts per field over all entries, for average lengths. */
  totals: [number, number, number];
  kernel: KernelRule[];
  activity: ActivityEntry[];
  /** Entry files left out of the index because they break the contract. */
  invalid: InvalidFile[];
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

/** Where an entry file stands on disk: [ordinal, size, mtime ms]. */
export type FileRecord = [number, number, number];

/** An entry reduced to what the index stores. */
export interface AnalyzedEntry {
  info: DocInfo;
  terms: TermCounts;
}

/** Loads an index file by name, or returns undefined when it does not exist. */
export type IndexLoader = (name: string) => unknown;

/** How many postings shards suit an index of `docCount` entries: about 40 entries a shard. */
export function shardCountFor(docCount: number): number {
  let shards = 1;
  while (shards < 256 && shards * 40 < docCount) shards *= 2;
  return shards;
}

/** The shard file a term's postings live in. */
export function shardOf(term: string, shardCount: number): number {
  return fnv1a(term) % shardCount;
}

function count(terms: TermCounts, words: string[], field: 0 | 1 | 2): void {
  for (const word of words) {
    const counts = terms[word] ??= [0, 0, 0];
    counts[field]++;
  }
}

/** Reduce an entry to its index record and term counts. */
export function analyzeEntry(entry: Entry, path: string, hash: string): AnalyzedEntry {
  const terms: TermCounts = Object.create(null);
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
    terms: { ...terms },
  };
}

/** Read access to an index through a loader; every file is loaded at most once. */
export class IndexReader {
  readonly manifest: Manifest;
  #load: IndexLoader;
  #cache = new Map<string, unknown>();

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

  /** Flat [ordinal, title tf, keyword tf, body tf, …] postings of a term. */
  postings(term: string): number[] {
    const shard = shardOf(term, this.manifest.shardCount);
    return own(this.file<Record<string, number[]>>(`post/${shard}.json`, {}), term) ?? [];
  }

  /** Flat [ordinal, field mask, …] postings of a term in titles, tags and aliases. */
  keywordPostings(term: string): number[] {
    const shard = shardOf(term, this.manifest.shardCount);
    return own(this.file<Record<string, number[]>>(`kw/${shard}.json`, {}), term) ?? [];
  }

  /** The record of the entry at `ord`, or undefined for a removed one. */
  doc(ord: number): DocInfo | undefined {
    const chunk = this.file<(DocInfo | null)[]>(`docs/${Math.floor(ord / CHUNK_SIZE)}.json`, []);
    return chunk[ord % CHUNK_SIZE] ?? undefined;
  }

  /** The ordinal of an entry id, or undefined when no entry has it. */
  ordOf(id: string): number | undefined {
    return this.file<Record<string, number>>("ids.json", {})[id];
  }

  /** The record of an entry by id. */
  docById(id: string): DocInfo | undefined {
    const ord = this.ordOf(id);
    return ord === undefined ? undefined : this.doc(ord);
  }

  /** Every declared link as [from, rel, to]. */
  links(): [string, string, string][] {
    return this.file<[string, string, string][]>("links.json", []);
  }

  /** Entry path → [ordinal, size, mtime]. */
  files(): Record<string, FileRecord> {
    return this.file<Record<string, FileRecord>>("files.json", {});
  }

  /** Term counts of the entry at `ord`. */
  terms(ord: number): TermCounts | undefined {
    const chunk = this.file<(TermCounts | null)[]>(
      `terms/${Math.floor(ord / CHUNK_SIZE)}.json`,
      [],
    );
    return chunk[ord % CHUNK_SIZE] ?? undefined;
  }
}

/** The postings of `term` in a shard, ignoring inherited names such as `constructor`. */
function own(shard: Record<string, number[]>, term: string): number[] | undefined {
  return Object.hasOwn(shard, term) ? shard[term] : undefined;
}

/** The postings list of `term` in a shard, created empty when missing. */
function ownList(shard: Record<string, number[]>, term: string): number[] {
  if (!Object.hasOwn(shard, term)) shard[term] = [];
  return shard[term];
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

/**
 * Applies additions and removals to an index, loading only the files they touch, and hands back
 * the changed files to write. A full build is the same edits applied to an empty index.
 */
export class IndexEditor extends IndexReader {
  #dirty = new Set<string>();

  /**
   * Start from an existing manifest, or from nothing for a full build.
   * @param kbDir The knowledge base folder; @param shardCount fixed for the index's life.
   */
  static create(kbDir: string, shardCount: number, load: IndexLoader): IndexEditor {
    const manifest: Manifest = {
      version: INDEX_VERSION,
      kbDir,
      builtAt: "",
      stamp: { entriesMtime: 0, head: "", gitIndexMtime: 0 },
      docCount: 0,
      nextOrd: 0,
      shardCount,
      totals: [0, 0, 0],
      kernel: [],
      activity: [],
      invalid: [],
    };
    return new IndexEditor(manifest, load);
  }

  #touch<T>(name: string, fallback: T): T {
    this.#dirty.add(name);
    return this.file(name, fallback);
  }

  /** Take out the entry stored at `path`; does nothing when the index does not have it. */
  remove(path: string): void {
    const record = this.files()[path];
    if (!record) return;
    const [ord] = record;
    if (ord < 0) {
      delete this.#touch<Record<string, FileRecord>>("files.json", {})[path];
      this.manifest.invalid = this.manifest.invalid.filter((item) => item.path !== path);
      return;
    }
    const info = this.doc(ord);
    const terms = this.terms(ord) ?? {};
    for (const term of Object.keys(terms)) {
      const shard = shardOf(term, this.manifest.shardCount);
      for (const [dir, stride] of [["post", 4], ["kw", 2]] as const) {
        const postings = this.#touch<Record<string, number[]>>(`${dir}/${shard}.json`, {});
        const current = own(postings, term);
        if (!current) continue;
        const kept = withoutOrd(current, ord, stride);
        if (kept.length) postings[term] = kept;
        else delete postings[term];
      }
    }
    const chunk = Math.floor(ord / CHUNK_SIZE);
    this.#touch<(DocInfo | null)[]>(`docs/${chunk}.json`, [])[ord % CHUNK_SIZE] = null;
    this.#touch<(TermCounts | null)[]>(`terms/${chunk}.json`, [])[ord % CHUNK_SIZE] = null;
    delete this.#touch<Record<string, FileRecord>>("files.json", {})[path];
    const manifest = this.manifest;
    if (info) {
      const ids = this.#touch<Record<string, number>>("ids.json", {});
      if (ids[info.id] === ord) delete ids[info.id];
      const links = this.#touch<[string, string, string][]>("links.json", []);
      const keptLinks = links.filter(([from]) => from !== info.id);
      links.splice(0, links.length, ...keptLinks);
      info.lengths.forEach((length, field) => manifest.totals[field] -= length);
      manifest.docCount--;
    }
    manifest.kernel = manifest.kernel.filter((rule) => rule.id !== info?.id);
    manifest.activity = manifest.activity.filter((item) => item.ord !== ord);
  }

  /**
   * Add an analyzed entry found at `path` with the given file size and mtime. The caller removes
   * any earlier version of the same path first.
   */
  add(analyzed: AnalyzedEntry, size: number, mtime: number, kernelBody?: string): void {
    const { info, terms } = analyzed;
    const manifest = this.manifest;
    const ord = manifest.nextOrd++;
    for (const [term, counts] of Object.entries(terms)) {
      const shard = shardOf(term, manifest.shardCount);
      const postings = this.#touch<Record<string, number[]>>(`post/${shard}.json`, {});
      ownList(postings, term).push(ord, counts[0], counts[1], counts[2]);
      const mask = (counts[0] ? FIELD_TITLE : 0) | (counts[1] ? FIELD_KEYWORD : 0);
      if (mask) {
        const keywords = this.#touch<Record<string, number[]>>(`kw/${shard}.json`, {});
        ownList(keywords, term).push(ord, mask);
      }
    }
    const chunk = Math.floor(ord / CHUNK_SIZE);
    this.#touch<(DocInfo | null)[]>(`docs/${chunk}.json`, [])[ord % CHUNK_SIZE] = info;
    this.#touch<(TermCounts | null)[]>(`terms/${chunk}.json`, [])[ord % CHUNK_SIZE] = terms;
    this.#touch<Record<string, FileRecord>>("files.json", {})[info.path] = [ord, size, mtime];
    this.#touch<Record<string, number>>("ids.json", {})[info.id] = ord;
    const links = this.#touch<[string, string, string][]>("links.json", []);
    for (const link of info.links) links.push([info.id, link.rel, link.to]);
    info.lengths.forEach((length, field) => manifest.totals[field] += length);
    manifest.docCount++;
    if (info.status === "active") {
      if (info.kernel && kernelBody !== undefined) {
        manifest.kernel.push({ id: info.id, title: info.title, hash: info.hash, body: kernelBody });
        manifest.kernel.sort((a, b) => a.id.localeCompare(b.id));
      }
      if (info.appliesTo.length) {
        manifest.activity.push({ ord, id: info.id, appliesTo: info.appliesTo });
      }
    }
  }

  /** Record an entry file that breaks the contract, so it is not parsed again until it changes. */
  skip(path: string, size: number, mtime: number, message: string): void {
    this.#touch<Record<string, FileRecord>>("files.json", {})[path] = [-1, size, mtime];
    this.manifest.invalid.push({ path, message });
  }

  /** The files changed since this editor was created, ready to serialize; manifest last. */
  changedFiles(builtAt: string, stamp: FreshnessStamp): Map<string, unknown> {
    const changed = new Map<string, unknown>();
    for (const name of this.#dirty) changed.set(name, this.file(name, undefined));
    this.manifest.builtAt = builtAt;
    this.manifest.stamp = stamp;
    changed.set("manifest.json", this.manifest);
    return changed;
  }
}
