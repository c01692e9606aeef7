/**
 * Whether a captured candidate says what an entry already says, judged by the knowledge base's
 * own statistics rather than by an absolute score: a candidate is a duplicate of its nearest
 * entry when it is closer to it than the knowledge base's distinct entries are to each other
 * ({@link duplicateLine}). A duplicate becomes a proposed edit of that entry
 * ({@link withCapturedMaterial}) instead of a new entry.
 *
 * Closeness is the search ranking's own (core/search/rank.ts, BM25F over title, keywords and
 * body): the score a query gives an entry, over the score the entry's own title and tags give
 * it, so that closeness to a long, much-tagged entry and to a short one read alike.
 *
 * @module
 */
import type { IndexReader } from "../index/reader.ts";
import { queryTerms, scoreTerms } from "../search/rank.ts";
import type { Entry } from "../entry/entry.ts";
import { LIMITS } from "../entry/schema.ts";

/** The most entries whose nearest neighbour is measured for {@link duplicateLine}. */
export const LINE_SAMPLE = 64;

/** The share of the knowledge base's distinct pairs a duplicate must be closer than. */
export const LINE_QUANTILE = 0.95;

/** The fewest measured pairs the line is read from; below, {@link SMALL_KB_LINE} stands. */
export const MIN_PAIRS = 8;

/**
 * The line of a knowledge base too small to measure: a candidate must be at least three
 * quarters as close to an entry as the entry's own title and tags are.
 */
export const SMALL_KB_LINE = 0.75;

/** The query an entry or candidate is looked up by: its title and tags. */
function lookupQuery(title: string, tags: readonly string[]): string {
  return [title, ...tags].join(" ");
}

/** Every entry's score for `query`, by ordinal. */
function scoresFor(reader: IndexReader, query: string): Map<number, number> {
  const weights = queryTerms(reader, query);
  const scored = scoreTerms(reader, weights.keys(), weights);
  return new Map([...scored].map(([ord, { score }]) => [ord, score]));
}

/** The score entry `ord` gets from its own title and tags: what closeness is measured against. */
function ownScore(reader: IndexReader, ord: number): number {
  const doc = reader.doc(ord);
  return doc ? scoresFor(reader, lookupQuery(doc.title, doc.tags)).get(ord) ?? 0 : 0;
}

/** The active entry that scores best in `scores` but `except`, with its score. */
function nearest(
  reader: IndexReader,
  scores: ReadonlyMap<number, number>,
  except?: number,
): { ord: number; score: number } | undefined {
  let best: { ord: number; score: number } | undefined;
  for (const [ord, score] of scores) {
    if (ord === except || reader.meta(ord)?.status !== "active") continue;
    if (!best || score > best.score || (score === best.score && ord < best.ord)) {
      best = { ord, score };
    }
  }
  return best;
}

/**
 * How close distinct entries of this knowledge base get: for up to {@link LINE_SAMPLE} active
 * entries spread over the index, the closeness of each one's title and tags to its nearest other
 * entry; the line is the {@link LINE_QUANTILE} quantile of those. The user kept those entries
 * apart, so a candidate closer to an entry than nearly all of them is saying the same thing.
 * With fewer than {@link MIN_PAIRS} pairs, {@link SMALL_KB_LINE}.
 */
export function duplicateLine(reader: IndexReader): number {
  const count = reader.manifest.docCount;
  const step = Math.max(1, Math.floor(count / LINE_SAMPLE));
  const closeness: number[] = [];
  for (let ord = 0; ord < count && closeness.length < LINE_SAMPLE; ord += step) {
    const doc = reader.doc(ord);
    if (!doc || doc.status !== "active") continue;
    const other = nearest(reader, scoresFor(reader, lookupQuery(doc.title, doc.tags)), ord);
    const own = other && ownScore(reader, other.ord);
    if (other && own) closeness.push(other.score / own);
  }
  if (closeness.length < MIN_PAIRS) return SMALL_KB_LINE;
  closeness.sort((a, b) => a - b);
  return closeness[Math.min(closeness.length - 1, Math.floor(LINE_QUANTILE * closeness.length))];
}

/** An entry a candidate duplicates, and how close it came against the line. */
export interface Duplicate {
  /** The entry's id. */
  id: string;
  /** The candidate's closeness to it. */
  closeness: number;
  /** The knowledge base's line it passed ({@link duplicateLine}). */
  line: number;
}

/**
 * The active entry a candidate (its title and tags) duplicates: its nearest entry, when the
 * candidate is closer to it than `line`; undefined otherwise.
 */
export function findDuplicate(
  reader: IndexReader,
  candidate: { title: string; tags: readonly string[] },
  line: number,
): Duplicate | undefined {
  const best = nearest(reader, scoresFor(reader, lookupQuery(candidate.title, candidate.tags)));
  if (!best) return undefined;
  const own = ownScore(reader, best.ord);
  const closeness = own ? best.score / own : 0;
  const id = reader.doc(best.ord)?.id;
  return id && closeness > line ? { id, closeness, line } : undefined;
}

/**
 * `existing` with a candidate's material added where a reviewer sees it at a glance: its body
 * under a heading that says where it came from, after the entry's own body (left as it is), and
 * its tags after the entry's (up to the contract's limit); `updated` set to `date`. Undefined when
 * the entry's body already holds the candidate's: nothing to add.
 */
export function withCapturedMaterial(
  existing: Entry,
  candidate: { body: string; tags: readonly string[] },
  date: string,
): Entry | undefined {
  const material = candidate.body.trim();
  if (existing.body.includes(material)) return undefined;
  const tags = [...new Set([...existing.tags, ...candidate.tags])].slice(0, LIMITS.maxListItems);
  const body =
    `${existing.body.trimEnd()}\n\n## Seen again in a session (${date})\n\n${material}\n`;
  return { ...existing, tags, body, updated: date };
}
