/**
 * The text format of a postings file: one line per term, `term<TAB>size<TAB>n,n,n…`, where size
 * is how many numbers the list holds. A shard file holds two kinds of postings, a term's whole
 * postings under `term` and its keyword postings under `+term` ({@link keywordKey}), so one file
 * (one read, one file for a build to create) answers both. A reader finds the one line it needs with `indexOf` and
 * parses only that line, or only its size: a prompt word costs a file read and a string search
 * however many other terms share its shard, and a word found in most entries need not have its
 * long list parsed at all. Terms never hold a tab or a newline (the tokenizer keeps letters and
 * digits only).
 *
 * @module
 */

/** Where the size field of `term`'s line starts in `text`, or -1 when the file lacks it. */
function lineStart(text: string, term: string): number {
  const key = `${term}\t`;
  if (text.startsWith(key)) return key.length;
  const line = text.indexOf(`\n${key}`);
  return line < 0 ? -1 : line + 1 + key.length;
}

/** The postings of `term` in a postings file's text, or undefined when the file lacks it. */
export function findPostings(text: string, term: string): number[] | undefined {
  const start = lineStart(text, term);
  if (start < 0) return undefined;
  const list = text.indexOf("\t", start) + 1;
  const end = text.indexOf("\n", list);
  return parseNumbers(text.slice(list, end < 0 ? text.length : end));
}

/** How many numbers the postings of `term` hold, read without parsing them; 0 when absent. */
export function postingsSize(text: string, term: string): number {
  const start = lineStart(text, term);
  return start < 0 ? 0 : Number(text.slice(start, text.indexOf("\t", start)));
}

function parseNumbers(list: string): number[] {
  return list ? JSON.parse(`[${list}]`) : [];
}

/** Every term's postings in a postings file's text. */
export function parsePostingsFile(text: string): Map<string, number[]> {
  const postings = new Map<string, number[]>();
  for (const line of text.split("\n")) {
    const fields = line.split("\t");
    if (fields.length === 3 && fields[0]) postings.set(fields[0], parseNumbers(fields[2]));
  }
  return postings;
}

/** One line of a postings file: `key`'s `size` numbers, already joined by commas. */
export function postingsLine(key: string, size: number, joined: string): string {
  return `${key}\t${size}\t${joined}`;
}

/** The text of a postings file; terms with no postings are left out. */
export function formatPostingsFile(postings: Map<string, number[]>): string {
  const lines: string[] = [];
  postings.forEach((list, term) => {
    if (list.length) lines.push(postingsLine(term, list.length, list.join(",")));
  });
  return lines.join("\n");
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

/** A shard file's text, parsed into its two kinds of postings. */
export function parseShard(text: string): ShardPostings {
  const shard: ShardPostings = { post: new Map(), kw: new Map() };
  for (const [key, list] of parsePostingsFile(text)) {
    if (key.startsWith("+")) shard.kw.set(key.slice(1), list);
    else shard.post.set(key, list);
  }
  return shard;
}

/** The text of a shard file. */
export function formatShard({ post, kw }: ShardPostings): string {
  const keyword = new Map<string, number[]>();
  kw.forEach((list, term) => keyword.set(keywordKey(term), list));
  return [formatPostingsFile(post), formatPostingsFile(keyword)].filter(Boolean).join("\n");
}
