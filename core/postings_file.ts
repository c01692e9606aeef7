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
export const SPILL_MARK = "@";

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

/** Reads spilled line `n` of a shard: its text, "" when missing. */
export type SpillReader = (n: number) => string;

/**
 * A list field's numbers: the field itself, or for a spilled list its own line's, read through
 * `spilled`; undefined when that line is missing or names another term.
 */
export function listNumbers(list: string, term: string, spilled?: SpillReader): string | undefined {
  const spill = spillNumber(list);
  return spill < 0 ? list : spilled && findList(spilled(spill), term);
}

/**
 * The postings of `term` in a postings file's text, or undefined when the file lacks it. A
 * spilled list is looked up in `spilled(n)`, the text of spilled line n (see the module notes).
 */
export function findPostings(
  text: string,
  term: string,
  spilled?: SpillReader,
): number[] | undefined {
  const list = findList(text, term);
  const numbers = list === undefined ? undefined : listNumbers(list, term, spilled);
  return numbers === undefined ? undefined : parseNumbers(numbers);
}

/** How many numbers the postings of `term` hold, read without parsing them; 0 when absent. */
export function postingsSize(text: string, term: string): number {
  const start = lineStart(text, term);
  return start < 0 ? 0 : Number(text.slice(start, text.indexOf("\t", start)));
}

/** A list field's numbers (comma-separated) as an array. */
export function parseNumbers(list: string): number[] {
  return list ? JSON.parse(`[${list}]`) : [];
}

/** The key of a term's keyword postings in a shard file. */
export function keywordKey(term: string): string {
  return `+${term}`;
}
