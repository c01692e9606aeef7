/**
 * Postings files whole (format in `postings_file.ts`): laid out for a write, with their long lists
 * spilled, and parsed whole for an edit. The index editor and the full build use this side; the
 * hooks never load it.
 *
 * @module
 */
import {
  keywordKey,
  listNumbers,
  parseNumbers,
  SPILL_CHARS,
  SPILL_MARK,
  type SpillReader,
} from "./postings_file.ts";

/** Every term's postings in a postings file's text, spilled lists read through `spilled`. */
export function parsePostingsFile(text: string, spilled?: SpillReader): Map<string, number[]> {
  const postings = new Map<string, number[]>();
  for (const line of text.split("\n")) {
    const fields = line.split("\t");
    if (fields.length !== 3 || !fields[0]) continue;
    const numbers = listNumbers(fields[2], fields[0], spilled);
    if (numbers !== undefined) postings.set(fields[0], parseNumbers(numbers));
  }
  return postings;
}

/** One line of a postings file: `key`'s `size` numbers, already joined by commas. */
function postingsLine(key: string, size: number, joined: string): string {
  return `${key}\t${size}\t${joined}`;
}

/** A postings file's text and the lines spilled out of it, by number. */
export interface PostingsFiles {
  text: string;
  spills: string[];
}

/**
 * Lay out the lines of a postings file, each as [key, size, numbers joined by commas]: a list
 * longer than `spillChars` goes to `spills` and leaves a mark in the text.
 */
export function layOut(
  lines: Iterable<readonly [string, number, string]>,
  spillChars = SPILL_CHARS,
): PostingsFiles {
  const kept: string[] = [];
  const spills: string[] = [];
  for (const [key, size, joined] of lines) {
    if (joined.length <= spillChars) kept.push(postingsLine(key, size, joined));
    else {
      kept.push(postingsLine(key, size, `${SPILL_MARK}${spills.length}`));
      spills.push(postingsLine(key, size, joined));
    }
  }
  return { text: kept.join("\n"), spills };
}

/** The lines of `postings` for {@link layOut}; terms with no postings are left out. */
function* linesOf(
  postings: Map<string, number[]>,
  key: (term: string) => string = (term) => term,
): Generator<[string, number, string]> {
  for (const [term, list] of postings) {
    if (list.length) yield [key(term), list.length, list.join(",")];
  }
}

/** The text of a postings file that spills nothing; terms with no postings are left out. */
export function formatPostingsFile(postings: Map<string, number[]>): string {
  return layOut(linesOf(postings), Infinity).text;
}

/** Both kinds of postings of a shard file. */
export interface ShardPostings {
  post: Map<string, number[]>;
  kw: Map<string, number[]>;
}

/** A shard file's text, parsed into its two kinds of postings; spilled lines through `spilled`. */
export function parseShard(text: string, spilled?: SpillReader): ShardPostings {
  const shard: ShardPostings = { post: new Map(), kw: new Map() };
  for (const [key, list] of parsePostingsFile(text, spilled)) {
    if (key.startsWith("+")) shard.kw.set(key.slice(1), list);
    else shard.post.set(key, list);
  }
  return shard;
}

/**
 * The files of a shard: its text, whole postings first, then keyword postings, and its spilled
 * lines (none with `spillChars` Infinity, as for the delta file, which is read whole).
 */
export function formatShard(
  { post, kw }: ShardPostings,
  spillChars = SPILL_CHARS,
): PostingsFiles {
  return layOut([...linesOf(post), ...linesOf(kw, keywordKey)], spillChars);
}
