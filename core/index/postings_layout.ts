/**
 * Postings files whole (format in `postings_file.ts`): laid out for a write, with their long lists
 * spilled, and parsed whole for an edit. The index editor and the full build use this side; the
 * hooks never load it.
 *
 * @module
 */
import { fnv1a } from "../hash.ts";
import {
  keywordKey,
  listPostings,
  type Postings,
  SPILL_HEADER,
  SPILL_MARK,
  SPILL_NUMBERS,
  type SpillReader,
} from "./postings_file.ts";

/**
 * Every term's postings in a postings file's text, spilled lists read through `spilled`, as
 * arrays an edit may change.
 */
export function parsePostingsFile(text: string, spilled?: SpillReader): Map<string, number[]> {
  const postings = new Map<string, number[]>();
  for (const line of text.split("\n")) {
    const fields = line.split("\t");
    if (fields.length !== 3 || !fields[0]) continue;
    const list = listPostings(fields[2], fields[0], spilled);
    if (list !== undefined) postings.set(fields[0], Array.isArray(list) ? list : Array.from(list));
  }
  return postings;
}

/** The bytes of a spilled file holding `key`'s `numbers` (see `postings_file.ts`). */
export function spillBytes(key: string, numbers: Postings): Uint8Array {
  const stored = new Int32Array(SPILL_HEADER + numbers.length);
  stored[0] = fnv1a(key);
  stored[1] = numbers.length;
  stored.set(numbers, SPILL_HEADER);
  return new Uint8Array(stored.buffer);
}

/** A postings file's text and the bytes of the lists spilled out of it, by number. */
export interface PostingsFiles {
  text: string;
  spills: Uint8Array[];
}

/**
 * Lay out the lines of a postings file, each as [key, numbers]: a list of more than
 * `spillNumbers` numbers goes to `spills` and leaves a mark in the text. Empty lists are left out.
 */
export function layOut(
  lines: Iterable<readonly [string, Postings]>,
  spillNumbers = SPILL_NUMBERS,
): PostingsFiles {
  const kept: string[] = [];
  const spills: Uint8Array[] = [];
  for (const [key, numbers] of lines) {
    if (!numbers.length) continue;
    if (numbers.length <= spillNumbers) {
      kept.push(`${key}\t${numbers.length}\t${numbers.join(",")}`);
    } else {
      kept.push(`${key}\t${numbers.length}\t${SPILL_MARK}${spills.length}`);
      spills.push(spillBytes(key, numbers));
    }
  }
  return { text: kept.join("\n"), spills };
}

/** The lines of keyword postings for {@link layOut}, each term's under its keyword key. */
function keywordLines(postings: Map<string, number[]>): [string, number[]][] {
  return [...postings].map(([term, list]) => [keywordKey(term), list]);
}

/** The text of a postings file that spills nothing; terms with no postings are left out. */
export function formatPostingsFile(postings: Map<string, number[]>): string {
  return layOut(postings, Infinity).text;
}

/** Both kinds of postings of a shard file. */
export interface ShardPostings {
  /** Each term's postings: [ordinal, title tf, keyword tf, body tf, …]. */
  terms: Map<string, number[]>;
  /** Each term's keyword postings (titles, tags, aliases): [ordinal, field mask, …]. */
  keywords: Map<string, number[]>;
}

/** Which of a shard's two kinds of postings. */
export type PostingsKind = keyof ShardPostings;

/** A shard file's text, parsed into its two kinds of postings; spilled lists through `spilled`. */
export function parseShard(text: string, spilled?: SpillReader): ShardPostings {
  const shard: ShardPostings = { terms: new Map(), keywords: new Map() };
  for (const [key, list] of parsePostingsFile(text, spilled)) {
    if (key.startsWith("+")) shard.keywords.set(key.slice(1), list);
    else shard.terms.set(key, list);
  }
  return shard;
}

/**
 * The files of a shard: its text, whole postings first, then keyword postings, and its spilled
 * lists (none with `spillNumbers` Infinity, as for the delta file, which is read whole).
 */
export function formatShard(
  { terms, keywords }: ShardPostings,
  spillNumbers = SPILL_NUMBERS,
): PostingsFiles {
  return layOut([...terms, ...keywordLines(keywords)], spillNumbers);
}
