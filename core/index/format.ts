/**
 * The index file format: the version, the files' names and layout, the records they hold, and the
 * helpers that encode and decode them, shared by the reader (`reader.ts`), the editor
 * (`editor.ts`) and the writer (`writer.ts`). spec/index-format.md describes the same layout in
 * prose; change it only with that page and {@link INDEX_VERSION}. Postings lines and spilled
 * lists have their own module, `postings_file.ts`.
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
import { fnv1a } from "../hash.ts";

/**
 * Bumped whenever the file layout changes, or how an entry file is read (with
 * spec/index-format.md, which names it); an index of another version is rebuilt.
 */
export const INDEX_VERSION = 21;

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
  /**
   * The filter of the pairs of adjacent terms in its title and body, in base64
   * (core/text/word_pairs.ts); absent when it has none.
   */
  pairs?: string;
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
  /**
   * The hash of its title and body (`kernelRuleHash`, core/kernel/acceptance.ts), worked out when
   * the index was built so the prompt hook compares it with the user's acceptances without
   * hashing; absent from an index built before it was recorded.
   */
  ruleHash?: string;
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
export const META_FLAGS = 3;

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

/** The bits of a `meta.bin` flags word that hold the type's index. */
const TYPE_MASK = (1 << STATUS_SHIFT) - 1;

/** The status named by a `meta.bin` flags word; undefined for a removed entry, or none. */
export function statusOfFlags(flags: number | undefined): Status | undefined {
  return flags === undefined ? undefined : STATUSES[(flags >> STATUS_SHIFT) & 3];
}

/** The entry type named by a `meta.bin` flags word. */
export function typeOfFlags(flags: number): EntryType {
  return ENTRY_TYPES[flags & TYPE_MASK];
}

/** Whether a `meta.bin` flags word marks a kernel rule. */
export function isKernelFlags(flags: number | undefined): boolean {
  return ((flags ?? 0) & KERNEL_BIT) !== 0;
}

/** The docs chunk file holding the record of `ord`. */
export function docChunkName(ord: number): string {
  return `docs/${Math.floor(ord / CHUNK_SIZE)}.txt`;
}

/** A docs chunk's records, one per line, as {@link IndexReader.doc} reads them. */
export function parseDocChunk(text: string): (DocInfo | null)[] {
  return text ? text.split("\n").map((line) => line ? JSON.parse(line) : null) : [];
}

/** The text of a docs chunk. */
export function formatDocChunk(docs: (DocInfo | null | undefined)[]): string {
  return Array.from(docs, (doc) => JSON.stringify(doc ?? null)).join("\n");
}
