/**
 * The text format of a postings file: one line per term, `term<TAB>size<TAB>n,n,n…`, where size
 * is how many numbers the list holds. A shard file holds two kinds of postings, a term's whole
 * postings under `term` and its keyword postings under `+term` ({@link keywordKey}), so one file
 * (one read, one file for a build to create) answers both. A reader finds the one line it needs
 * with `indexOf` and parses only that line, or only its size: a prompt word costs a file read
 * and a string search however many other terms share its shard, and a word found in most entries
 * need not have its long list parsed at all. Terms never hold a tab or a newline (the tokenizer
 * keeps letters and digits only).
 *
 * A list longer than {@link SPILL_CHARS} is spilled: its whole line goes to a file of its own and
 * the shard keeps `term<TAB>size<TAB>@n`, where n numbers the shard's spilled lines. A shard is
 * then a few kilobytes whatever its terms, so a prompt reads (and decodes into a string) the
 * long lists it needs, not every long list that happens to share a shard with its words.
 *
 * @module
 */

/** The longest list, in characters, a shard file holds itself. */
export const SPILL_CHARS = 8192;

/** What a spilled list's field starts with: the number of its line follows. */
const SPILL_MARK = "@";

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

/** The number of the spilled line a list field points to, or -1 when it holds the numbers. */
export function spillNumber(list: string): number {
  return list.startsWith(SPILL_MARK) ? Number(list.slice(SPILL_MARK.length)) : -1;
}

/**
 * The postings of `term` in a postings file's text, or undefined when the file lacks it. A
 * spilled list is looked up in `spilled(n)`, the text of spilled line n (see the module notes).
 */
export function findPostings(
  text: string,
  term: string,
  spilled?: (n: number) => string,
): number[] | undefined {
  let list = findList(text, term);
  const spill = list === undefined ? -1 : spillNumber(list);
  if (spill >= 0) list = spilled ? findList(spilled(spill), term) : undefined;
  return list === undefined ? undefined : parseNumbers(list);
}

/** How many numbers the postings of `term` hold, read without parsing them; 0 when absent. */
export function postingsSize(text: string, term: string): number {
  const start = lineStart(text, term);
  return start < 0 ? 0 : Number(text.slice(start, text.indexOf("\t", start)));
}

function parseNumbers(list: string): number[] {
  return list ? JSON.parse(`[${list}]`) : [];
}

/** Every term's postings in a postings file's text, spilled lists read through `spilled`. */
export function parsePostingsFile(
  text: string,
  spilled?: (n: number) => string,
): Map<string, number[]> {
  const postings = new Map<string, number[]>();
  for (const line of text.split("\n")) {
    const fields = line.split("\t");
    if (fields.length !== 3 || !fields[0]) continue;
    const spill = spillNumber(fields[2]);
    const list = spill < 0 ? fields[2] : spilled && findList(spilled(spill), fields[0]);
    if (list !== undefined) postings.set(fields[0], parseNumbers(list));
  }
  return postings;
}

/** One line of a postings file: `key`'s `size` numbers, already joined by commas. */
export function postingsLine(key: string, size: number, joined: string): string {
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

/** The key of a term's keyword postings in a shard file. */
export function keywordKey(term: string): string {
  return `+${term}`;
}

/** Both kinds of postings of a shard file. */
export interface ShardPostings {
  post: Map<string, number[]>;
  kw: Map<string, number[]>;
}

/** A shard file's text, parsed into its two kinds of postings; spilled lines through `spilled`. */
export function parseShard(text: string, spilled?: (n: number) => string): ShardPostings {
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
