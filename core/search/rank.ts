/**
 * Lexical search: BM25F over title, keywords (tags and aliases) and body, several queries
 * fused into one ranking by reciprocal rank, active entries before superseded and archived.
 *
 * @module
 */
import type { DocInfo, IndexReader } from "../index/reader.ts";
import type { Postings } from "../index/postings_file.ts";
import type { EntryType } from "../entry/schema.ts";
import { distinctTerms } from "../text/tokenize.ts";

/** Field weights and length normalization, title first. */
export const FIELD_WEIGHTS = [3, 2, 1] as const;
const LENGTH_NORMALIZATION = [0.3, 0.3, 0.75] as const;
const K1 = 1.2;
/** The k of reciprocal rank fusion: how flat the fused curve is. */
const RRF_K = 60;

/** What to keep of the ranking. */
export interface SearchOptions {
  /** Most hits to return. */
  limit?: number;
  /** Keep only entries of this type. */
  type?: EntryType;
  /** Keep entries with this tag, or a tag under it (`ci` keeps `ci/cd`). */
  tag?: string;
}

/** One ranked entry. */
export interface Hit {
  /** The entry, as the index keeps it. */
  doc: DocInfo;
  /** The fused score (the BM25F score itself for a single query). */
  score: number;
  /** Query terms found in the entry. */
  terms: string[];
}

function hasTag(doc: DocInfo, wanted: string): boolean {
  const tag = wanted.toLowerCase();
  return doc.tags.some((own) => {
    const lower = own.toLowerCase();
    return lower === tag || lower.startsWith(`${tag}/`);
  });
}

/**
 * A term's postings (flat [ordinal, title tf, keyword tf, body tf, …]) and how many entries
 * hold it, which the postings may understate when they are a part of the whole.
 */
export type PostingsSource = (term: string) => { postings: Postings; entries: number };

/** The whole postings of each term, from the index. */
function indexPostings(reader: IndexReader): PostingsSource {
  return (term) => {
    const postings = reader.postings(term);
    return { postings, entries: postings.length / 4 };
  };
}

/**
 * The BM25F score of each posting of each of `terms` (distinct index terms) whose entry `accept`
 * takes, handed to `add`: how {@link scoreTerms} sums a ranking, and how the prompt hook sums
 * its matches straight into an array by ordinal (with its own `source` for the words it read in
 * part).
 */
export function forEachScore(
  reader: IndexReader,
  terms: Iterable<string>,
  accept: (ord: number) => boolean,
  add: (ord: number, score: number, term: string) => void,
  source: PostingsSource = indexPostings(reader),
): void {
  const { docCount, totals } = reader.manifest;
  const averages = totals.map((total) => Math.max(total / Math.max(docCount, 1), 1));
  for (const term of terms) {
    const { postings, entries: frequency } = source(term);
    if (!postings.length) continue;
    const idf = Math.log(1 + (docCount - frequency + 0.5) / (frequency + 0.5));
    for (let index = 0; index < postings.length; index += 4) {
      const ord = postings[index];
      if (!accept(ord) || reader.fieldLength(ord, 0) < 0) continue;
      let weighted = 0;
      for (let field = 0; field < 3; field++) {
        const tf = postings[index + 1 + field];
        if (!tf) continue;
        const norm = 1 - LENGTH_NORMALIZATION[field] +
          LENGTH_NORMALIZATION[field] * reader.fieldLength(ord, field) / averages[field];
        weighted += FIELD_WEIGHTS[field] * tf / norm;
      }
      add(ord, idf * weighted * (K1 + 1) / (K1 + weighted), term);
    }
  }
}

/** BM25F scores of every entry holding any of `terms` (distinct index terms), by ordinal, with the terms each holds. */
export function scoreTerms(
  reader: IndexReader,
  terms: Iterable<string>,
): Map<number, { score: number; terms: string[] }> {
  const scores = new Map<number, { score: number; terms: string[] }>();
  forEachScore(reader, terms, () => true, (ord, score, term) => {
    const entry = scores.get(ord);
    if (entry) {
      entry.score += score;
      entry.terms.push(term);
    } else scores.set(ord, { score, terms: [term] });
  });
  return scores;
}

/**
 * Rank entries for one or more queries. With several queries (the model's own expansions),
 * each is ranked on its own and the rankings are fused, so an entry found by many rises.
 * Only the entries returned have their full records loaded.
 */
export function search(
  reader: IndexReader,
  queries: string[],
  options: SearchOptions = {},
): Hit[] {
  const { limit = 10, type, tag } = options;
  const fused = new Map<number, { score: number; best: number; active: boolean }>();
  const scored = queries.map((query) => scoreTerms(reader, distinctTerms(query)));
  for (const scores of scored) {
    const kept = [...scores].filter(([ord]) => {
      const meta = reader.meta(ord);
      return meta !== undefined && (!type || meta.type === type) &&
        (!tag || hasTag(reader.doc(ord)!, tag));
    });
    // Fusing needs each entry's rank in each query's ranking; one query is its own ranking.
    if (queries.length > 1) kept.sort((a, b) => b[1].score - a[1].score || a[0] - b[0]);
    kept.forEach(([ord, { score }], rank) => {
      let hit = fused.get(ord);
      if (!hit) {
        fused.set(ord, hit = { score: 0, best: 0, active: reader.meta(ord)?.status === "active" });
      }
      hit.score += queries.length === 1 ? score : 1 / (RRF_K + rank + 1);
      hit.best = Math.max(hit.best, score);
    });
  }
  const best: number[] = [];
  const compare = (ordA: number, ordB: number) => {
    const a = fused.get(ordA)!, b = fused.get(ordB)!;
    return Number(b.active) - Number(a.active) || b.score - a.score || b.best - a.best ||
      ordA - ordB;
  };
  for (const ord of fused.keys()) {
    if (best.length === limit && compare(ord, best[limit - 1]) >= 0) continue;
    let at = best.length;
    while (at > 0 && compare(ord, best[at - 1]) < 0) at--;
    best.splice(at, 0, ord);
    if (best.length > limit) best.pop();
  }
  return best.map((ord) => ({
    doc: reader.doc(ord)!,
    score: fused.get(ord)!.score,
    terms: [...new Set(scored.flatMap((scores) => scores.get(ord)?.terms ?? []))],
  }));
}
