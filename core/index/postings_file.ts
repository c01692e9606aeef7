/**
 * The text format of a postings file: one line per term, `term<TAB>size<TAB>n,n,n…`, where size
 * is how many numbers the list holds. A shard file holds two kinds of postings, a term's whole
 * postings under `term` and its keyword postings under `+term` ({@link keywordKey}), so one file
 * (one read, one file for a build to create) answers both. A reader finds the one line it needs
 * with `indexOf` and parses only that line, or only its size: a prompt word costs a file read
 * and a string search however many other terms share its shard, and a word found in most entries
 * need not have its long list parsed at all. Terms never hold a tab or a newline (the tokenizer
 * keeps letters and digits only). This module is the reading side, which the hooks load;
 * `postings_layout.ts` writes the files, and parses them whole for an edit.
 *
 * A list of more than {@link SPILL_NUMBERS} numbers is spilled: it goes to a binary file of its
 * own and the shard keeps `term<TAB>size<TAB>@n`, where n numbers the shard's spilled lists. A
 * spilled file is 32-bit integers in the machine's byte order (the index is a local cache): the
 * FNV-1a hash of the list's key, the count of numbers, then the numbers. A shard is then a few
 * kilobytes whatever its terms, so a prompt reads the long lists it needs, not every long list
 * that happens to share a shard with its words, and it reads them as they are stored, with no text
 * to decode or parse.
 *
 * @module
 */
import { viewAs } from "./bytes.ts";
import { fnv1a } from "../hash.ts";

/** A postings list: flat numbers, an array when parsed from text, typed when read from a spill. */
export type Postings = readonly number[] | Int32Array;

/** The most numbers a shard file holds on a line of its own; longer lists are spilled. */
export const SPILL_NUMBERS = 2048;

/** What a spilled list's field starts with: the number of its file follows. */
export const SPILL_MARK = "@";

/** Numbers ahead of a spilled list's own: its key's hash and its count. */
export const SPILL_HEADER = 2;

/** Where the size field of `term`'s line starts in `text`, or -1 when the file lacks it. */
function lineStart(text: string, term: string): number {
  const key = `${term}\t`;
  if (text.startsWith(key)) return key.length;
  const line = text.indexOf(`\n${key}`);
  return line < 0 ? -1 : line + 1 + key.length;
}

/**
 * The list field of `term`'s line in a postings file's text (its numbers, or a spill mark), or
 * undefined when the file lacks it.
 */
export function findList(text: string, term: string): string | undefined {
  const start = lineStart(text, term);
  if (start < 0) return undefined;
  const list = text.indexOf("\t", start) + 1;
  const end = text.indexOf("\n", list);
  return text.slice(list, end < 0 ? text.length : end);
}

/** The number of the spilled list a list field points to, or -1 when it holds the numbers. */
export function spillNumber(list: string): number {
  return list.startsWith(SPILL_MARK) ? Number(list.slice(SPILL_MARK.length)) : -1;
}

/** Reads spilled list `n` of a shard: the file's bytes, undefined when it is missing. */
export type SpillReader = (n: number) => Uint8Array | undefined;

/**
 * The numbers of a spilled file, as stored (no copy), or undefined when the file is missing,
 * cut short, or holds another key's list, which only a compaction caught mid-write can leave.
 */
function spilledPostings(
  bytes: Uint8Array | undefined,
  key: string,
): Int32Array | undefined {
  if (!bytes || bytes.byteLength < SPILL_HEADER * 4) return undefined;
  const numbers = viewAs(bytes, Int32Array);
  const valid = numbers[0] === (fnv1a(key) | 0) &&
    numbers[1] === numbers.length - SPILL_HEADER;
  return valid ? numbers.subarray(SPILL_HEADER) : undefined;
}

/**
 * A list field's postings: its own numbers parsed, or for a spilled list the numbers of its file,
 * read through `spilled`; undefined when that file is missing or holds another key's list.
 */
export function listPostings(
  list: string,
  key: string,
  spilled?: SpillReader,
): Postings | undefined {
  const spill = spillNumber(list);
  if (spill < 0) return parseNumbers(list);
  return spilled && spilledPostings(spilled(spill), key);
}

/**
 * The postings of `term` in a postings file's text, or undefined when the file lacks it. A
 * spilled list is read through `spilled(n)`, the bytes of spilled file n (see the module notes).
 */
export function findPostings(
  text: string,
  term: string,
  spilled?: SpillReader,
): Postings | undefined {
  const list = findList(text, term);
  return list === undefined ? undefined : listPostings(list, term, spilled);
}

/** How many numbers the postings of `term` hold, read without parsing them; 0 when absent. */
export function postingsSize(text: string, term: string): number {
  const start = lineStart(text, term);
  return start < 0 ? 0 : Number(text.slice(start, text.indexOf("\t", start)));
}

/** A list field's numbers (comma-separated) as an array. */
function parseNumbers(list: string): number[] {
  return list ? JSON.parse(`[${list}]`) : [];
}

/** The key of a term's keyword postings in a shard file. */
export function keywordKey(term: string): string {
  return `+${term}`;
}
