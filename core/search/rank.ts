/**
 * Lexical search: BM25F over title, keywords (tags and aliases) and body, several queries
 * fused into one ranking by reciprocal rank, active entries before superseded and archived
 * ones, but for an inactive entry whose every title word a query holds: its exact title still
 * finds it where its score puts it.
 *
 * A query forgives what people type ({@link queryTerms}): its words are read by the one
 * tokenizer (accents folded, CJK bigrams, compounds both ways), two adjacent words also look for
 * their joined form (`key chain` finds keychain), and a word of {@link MIN_TYPO_LENGTH} letters
 * or more that no entry holds looks for its two parts ({@link compoundSplits}: `forcepush` finds
 * "force push") and for the index's terms one edit away ({@link typoCorrections}). What is
 * guessed so weighs {@link GUESS_WEIGHT}.
 *
 * @module
 */
import { type DocInfo, shardOf } from "../index/format.ts";
import type { IndexReader } from "../index/reader.ts";
import type { Postings } from "../index/postings_file.ts";
import type { EntryType } from "../entry/schema.ts";
import { distinctTerms, splitWords, termOf } from "../text/tokenize.ts";
import { adjacentPairs } from "../text/word_pairs.ts";
import { PAIR_ORDER_DEPTH, pairBonuses } from "./pair_order.ts";

/** Field weights and length normalization, title first. */
export const FIELD_WEIGHTS = [3, 2, 1] as const;
const LENGTH_NORMALIZATION = [0.3, 0.3, 0.75] as const;
const K1 = 1.2;
/** The k of reciprocal rank fusion: how flat the fused curve is. */
const RRF_K = 60;

/**
 * What a term that search guessed counts (the joined form of two query words, or a term one edit
 * away from a word no entry holds), against 1 for a word as typed: a guess weighs half.
 */
export const GUESS_WEIGHT = 0.5;

/** The fewest letters of a query word that is tried for typos: shorter words have too many neighbours. */
export const MIN_TYPO_LENGTH = 5;

/** The most letters of a query word tried for typos: the edits tried grow with its length. */
export const MAX_TYPO_LENGTH = 32;

/** The most words of one query tried for typos: a query is a few words, a pasted text is not. */
export const MAX_TYPO_WORDS = 8;

/** The most terms one mistyped word is read as: those that the most entries hold. */
export const MAX_TYPO_CORRECTIONS = 3;

const LETTERS = "abcdefghijklmnopqrstuvwxyz";

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

/** BM25's inverse document frequency of a term that `entries` of `docCount` entries hold. */
function inverseFrequency(docCount: number, entries: number): number {
  return Math.log(1 + (docCount - entries + 0.5) / (entries + 0.5));
}

/** BM25's saturation of a term's weighted, length-normalized count in one entry. */
function saturated(weighted: number): number {
  return weighted * (K1 + 1) / (K1 + weighted);
}

/**
 * The BM25F score an entry gets for a term that `entries` of `docCount` entries hold, found once
 * in its title and nowhere else, when the title is of average length.
 */
export function titleWordScore(docCount: number, entries: number): number {
  return inverseFrequency(docCount, entries) * saturated(FIELD_WEIGHTS[0]);
}

/**
 * The BM25F score of each posting of each of `terms` (distinct index terms) whose entry `accept`
 * takes, handed to `add` with how many times the term is in the entry's title: how
 * {@link scoreTerms} sums a ranking, and how the prompt hook sums its matches straight into an
 * array by ordinal (with its own `source` for the words it read in part).
 */
export function forEachScore(
  reader: IndexReader,
  terms: Iterable<string>,
  accept: (ord: number) => boolean,
  add: (ord: number, score: number, term: string, inTitle: number) => void,
  source: PostingsSource = indexPostings(reader),
): void {
  const { docCount, totals } = reader.manifest;
  const averages = totals.map((total) => Math.max(total / Math.max(docCount, 1), 1));
  for (const term of terms) {
    const { postings, entries: frequency } = source(term);
    if (!postings.length) continue;
    const idf = inverseFrequency(docCount, frequency);
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
      add(ord, idf * saturated(weighted), term, postings[index + 1]);
    }
  }
}

/** What one entry scores for a query. */
export interface TermScore {
  /** The BM25F score, each term's weighted. */
  score: number;
  /** The query's terms the entry holds. */
  terms: string[];
  /** How many of the terms weighted 1 (typed, not guessed) are in its title. */
  typedInTitle: number;
  /** How many times those are in its title, together. */
  typedTitleCount: number;
}

/**
 * BM25F scores of every entry holding any of `terms` (distinct index terms), by ordinal, with the
 * terms each holds; a term's score is multiplied by its `weights` value, when it has one.
 */
export function scoreTerms(
  reader: IndexReader,
  terms: Iterable<string>,
  weights?: ReadonlyMap<string, number>,
): Map<number, TermScore> {
  const scores = new Map<number, TermScore>();
  forEachScore(reader, terms, () => true, (ord, termScore, term, inTitle) => {
    const weight = weights?.get(term) ?? 1;
    const typedInTitle = weight === 1 && inTitle > 0 ? 1 : 0;
    const typedTitleCount = typedInTitle * inTitle;
    const entry = scores.get(ord);
    if (entry) {
      entry.score += termScore * weight;
      entry.terms.push(term);
      entry.typedInTitle += typedInTitle;
      entry.typedTitleCount += typedTitleCount;
    } else {
      scores.set(ord, { score: termScore * weight, terms: [term], typedInTitle, typedTitleCount });
    }
  });
  return scores;
}

/**
 * Whether the title of the entry at `ord` says the query of `typed` terms and nothing else: each
 * of them is in it, and it holds no other term (stopwords aside, as the index reads it).
 */
function titleIsQuery(
  reader: IndexReader,
  ord: number,
  typed: ReadonlySet<string>,
  score: TermScore | undefined,
): boolean {
  return score !== undefined && typed.size > 0 && score.typedInTitle === typed.size &&
    score.typedTitleCount === reader.fieldLength(ord, 0);
}

/**
 * The index terms a query looks for, each with its weight: its own terms (1); the joined form of
 * two adjacent words, when an entry holds it; and for each word of {@link MIN_TYPO_LENGTH}
 * letters or more that no entry holds (the first {@link MAX_TYPO_WORDS} of them), its
 * {@link compoundSplits} and {@link typoCorrections}. All but the first weigh
 * {@link GUESS_WEIGHT}.
 */
export function queryTerms(reader: IndexReader, query: string): Map<string, number> {
  const weights = new Map(distinctTerms(query).map((term) => [term, 1]));
  const words = splitWords(query);
  for (let index = 0; index + 1 < words.length; index++) {
    const joined = termOf(words[index] + words[index + 1]);
    if (joined && !weights.has(joined) && reader.postingCount(joined) > 0) {
      weights.set(joined, GUESS_WEIGHT);
    }
  }
  const unmatched = new Set<string>();
  for (const word of words) {
    if (unmatched.size === MAX_TYPO_WORDS) break;
    const term = termOf(word);
    if (!term || word.length < MIN_TYPO_LENGTH || unmatched.has(word)) continue;
    if (reader.postingCount(term) === 0) unmatched.add(word);
  }
  for (const word of unmatched) {
    for (const guess of [...compoundSplits(reader, word), ...typoCorrections(reader, word)]) {
      if (!weights.has(guess)) weights.set(guess, GUESS_WEIGHT);
    }
  }
  return weights;
}

/** The fewest letters of each part a word no entry holds is split into. */
const MIN_SPLIT_PART = 3;

/**
 * The terms of the two parts of `word` (letters a–z, {@link MAX_TYPO_LENGTH} at most), cut at
 * every place where both parts are {@link MIN_SPLIT_PART} letters or more and some entry holds
 * each: `forcepush` → forc, push, for an entry that writes "force push" apart.
 */
export function compoundSplits(reader: IndexReader, word: string): string[] {
  if (word.length > MAX_TYPO_LENGTH || !/^[a-z]+$/.test(word)) return [];
  const found: string[] = [];
  for (let at = MIN_SPLIT_PART; at <= word.length - MIN_SPLIT_PART; at++) {
    const head = termOf(word.slice(0, at));
    const tail = termOf(word.slice(at));
    if (head && tail && reader.postingCount(head) > 0 && reader.postingCount(tail) > 0) {
      found.push(head, tail);
    }
  }
  return found;
}

/**
 * The terms of the index one edit away from `word` (a letter inserted, deleted, replaced, or two
 * swapped: `kuberentes` → kubernetes, `postgress` → postgres, `sentinal` → sentinel), those that
 * the most entries hold first, at most {@link MAX_TYPO_CORRECTIONS}. Only words of letters a–z
 * from {@link MIN_TYPO_LENGTH} to {@link MAX_TYPO_LENGTH} long are tried, so the lookups are
 * bounded (about 54 per letter); they are made shard by shard, so each shard is read once.
 */
export function typoCorrections(reader: IndexReader, word: string): string[] {
  if (word.length < MIN_TYPO_LENGTH || word.length > MAX_TYPO_LENGTH) return [];
  if (!/^[a-z]+$/.test(word)) return [];
  const own = termOf(word);
  const candidates = new Set<string>();
  for (const variant of oneEditAway(word)) {
    const term = termOf(variant);
    if (term && term !== own) candidates.add(term);
  }
  const { shardCount } = reader.manifest;
  const byShard = [...candidates].map((term) => ({ term, shard: shardOf(term, shardCount) }))
    .sort((a, b) => a.shard - b.shard);
  const found: { term: string; entries: number }[] = [];
  for (const { term } of byShard) {
    const entries = reader.postingCount(term);
    if (entries > 0) found.push({ term, entries });
  }
  return found.sort((a, b) => b.entries - a.entries || (a.term < b.term ? -1 : 1))
    .slice(0, MAX_TYPO_CORRECTIONS).map(({ term }) => term);
}

/** Every word one edit (insertion, deletion, substitution, transposition) away from `word`. */
function oneEditAway(word: string): Set<string> {
  const variants = new Set<string>();
  for (let at = 0; at <= word.length; at++) {
    const head = word.slice(0, at);
    const tail = word.slice(at);
    for (const letter of LETTERS) variants.add(head + letter + tail);
    if (!tail) continue;
    variants.add(head + tail.slice(1));
    for (const letter of LETTERS) variants.add(head + letter + tail.slice(1));
    if (tail.length > 1) variants.add(head + tail[1] + tail[0] + tail.slice(2));
  }
  variants.delete(word);
  return variants;
}

/** Whether one of the queries' `typed` terms holds every term of the title of the entry at `ord`. */
function namesTitle(reader: IndexReader, ord: number, typed: readonly Set<string>[]): boolean {
  const title = distinctTerms(reader.doc(ord)?.title ?? "");
  return title.length > 0 && typed.some((terms) => title.every((term) => terms.has(term)));
}

/**
 * Rank entries for one or more queries. With several queries (the model's own expansions),
 * each is ranked on its own and the rankings are fused, so an entry found by many rises. An
 * entry whose title is one of the queries, word for word (stopwords aside), comes before the
 * others: in a knowledge base where every entry says "foam", "What is Foam?" scores little for
 * any entry, the one so titled included. Only the entries returned, and the inactive entries
 * hit, have their full records loaded.
 */
export function search(
  reader: IndexReader,
  queries: string[],
  options: SearchOptions = {},
): Hit[] {
  const { limit = 10, type, tag } = options;
  const fused = new Map<
    number,
    { score: number; best: number; first: boolean; titled: boolean }
  >();
  const typed = queries.map((query) => new Set(distinctTerms(query)));
  const scored = queries.map((query) => {
    const weights = queryTerms(reader, query);
    return scoreTerms(reader, weights.keys(), weights);
  });
  for (const [queryIndex, scores] of scored.entries()) {
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
        const first = reader.meta(ord)?.status === "active" || namesTitle(reader, ord, typed);
        fused.set(ord, hit = { score: 0, best: 0, first, titled: false });
      }
      hit.titled ||= titleIsQuery(reader, ord, typed[queryIndex], scores.get(ord));
      hit.score += queries.length === 1 ? score : 1 / (RRF_K + rank + 1);
      hit.best = Math.max(hit.best, score);
    });
  }
  const best: number[] = [];
  const compare = (ordA: number, ordB: number) => {
    const a = fused.get(ordA)!, b = fused.get(ordB)!;
    return Number(b.first) - Number(a.first) || Number(b.titled) - Number(a.titled) ||
      b.score - a.score || b.best - a.best || ordA - ordB;
  };
  // The first PAIR_ORDER_DEPTH are ranked whatever the limit, so that the pairs reorder the same
  // entries for a limit of 3 as of 10.
  const depth = Math.max(limit, PAIR_ORDER_DEPTH);
  for (const ord of fused.keys()) {
    if (best.length === depth && compare(ord, best[depth - 1]) >= 0) continue;
    let at = best.length;
    while (at > 0 && compare(ord, best[at - 1]) < 0) at--;
    best.splice(at, 0, ord);
    if (best.length > depth) best.pop();
  }
  const pairs = adjacentPairs(...queries);
  const termsOf = (ord: number) =>
    new Set(scored.flatMap((scores) => scores.get(ord)?.terms ?? []));
  const bonuses = pairBonuses(reader, best, (ord) => fused.get(ord)!.score, termsOf, pairs);
  for (const [ord, bonus] of bonuses) fused.get(ord)!.score += bonus;
  if (bonuses.size) best.sort(compare);
  return best.slice(0, limit).map((ord) => ({
    doc: reader.doc(ord)!,
    score: fused.get(ord)!.score,
    terms: [...termsOf(ord)],
  }));
}
