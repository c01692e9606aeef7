/**
 * The prompt hook's keyword path, pure: a prompt's terms, and the entries whose titles, tags and
 * aliases they hit, ranked. Tallies live in typed arrays indexed by entry ordinal, so a prompt
 * that hits thousands of entries costs a few array writes each, even before the code is warm.
 *
 * @module
 */
import type { IndexReader } from "./index.ts";
import { FIELD_TITLE, FLAG_INACTIVE, FLAG_KERNEL } from "./index.ts";
import { splitWords, termOf } from "./tokenize.ts";

/** A prompt term and the word it came from, for saying why an entry matched. */
export interface PromptTerm {
  term: string;
  word: string;
  /**
   * Which whitespace-separated token of the prompt the term came from: `console.log` and
   * `ci/cd` are one token each, so their parts count as one hit towards the threshold.
   */
  token: number;
}

/** The distinct terms of a prompt with the first word (and token) each came from. */
export function promptTerms(prompt: string): PromptTerm[] {
  const seen = new Map<string, PromptTerm>();
  const tokens: number[] = [];
  const words = splitWords(prompt, tokens);
  for (let index = 0; index < words.length; index++) {
    const word = words[index];
    const term = termOf(word);
    if (term && !seen.has(term)) seen.set(term, { term, word, token: tokens[index] });
  }
  return [...seen.values()];
}

/** An entry a prompt's words hit, before its record is loaded. */
export interface KeywordHit {
  ord: number;
  /** The prompt words found in its title, tags or aliases. */
  words: string[];
}

/** Keyword matches of a prompt's terms in titles, tags and aliases. */
export interface KeywordMatches {
  /** Active, non-kernel entries at or over the threshold, best first. */
  ranked: KeywordHit[];
  /** The best active entries under the threshold, at most {@link NEAR_MISS_LIMIT}. */
  nearMisses: KeywordHit[];
  /** Prompt word → number of entries it hit. */
  termHits: Record<string, number>;
}

/** The most near misses a match names. */
export const NEAR_MISS_LIMIT = 10;

/** A prompt term's keyword postings, flat [ordinal, field mask, …]. */
interface TermPostings {
  term: PromptTerm;
  postings: number[];
}

/** What each entry's keyword hits add up to, one array slot per entry ordinal. */
class Tallies {
  /** Ordinals hit at least once, in first-hit order. */
  readonly touched: number[] = [];
  /** Distinct prompt tokens among an entry's hits. */
  readonly tokens: Uint16Array;
  /** Prompt terms among an entry's hits. */
  readonly terms: Uint16Array;
  readonly titleHits: Uint16Array;
  readonly flags: Uint8Array;
  readonly rarity: Float64Array;
  readonly #lastToken: Int32Array;

  constructor(size: number) {
    this.tokens = new Uint16Array(size);
    this.terms = new Uint16Array(size);
    this.titleHits = new Uint16Array(size);
    this.flags = new Uint8Array(size);
    this.rarity = new Float64Array(size);
    this.#lastToken = new Int32Array(size).fill(-1);
  }

  /** Count one term's postings; prompt terms must come in the order of their tokens. */
  add({ term, postings }: TermPostings, rarity: number): void {
    const size = this.tokens.length;
    for (let index = 0; index < postings.length; index += 2) {
      const ord = postings[index];
      const mask = postings[index + 1];
      if (ord >= size) continue;
      if (this.terms[ord] === 0) this.touched.push(ord);
      this.terms[ord]++;
      if (this.#lastToken[ord] !== term.token) {
        this.tokens[ord]++;
        this.#lastToken[ord] = term.token;
      }
      this.rarity[ord] += rarity;
      this.flags[ord] |= mask;
      if (mask & FIELD_TITLE) this.titleHits[ord]++;
    }
  }

  /** Best first: more distinct words, more terms, more title hits, rarer terms, index order. */
  readonly compare = (a: number, b: number): number =>
    this.tokens[b] - this.tokens[a] || this.terms[b] - this.terms[a] ||
    this.titleHits[b] - this.titleHits[a] || this.rarity[b] - this.rarity[a] || a - b;
}

/** Insert `ord` into `best` (kept in order) when it ranks among the first `limit`. */
function keepBest(
  best: number[],
  ord: number,
  limit: number,
  compare: (a: number, b: number) => number,
): void {
  if (best.length === limit && compare(ord, best[limit - 1]) >= 0) return;
  let at = best.length;
  while (at > 0 && compare(ord, best[at - 1]) < 0) at--;
  best.splice(at, 0, ord);
  if (best.length > limit) best.pop();
}

/** The prompt words that hit each of `ords`, in prompt order. */
function wordsOf(ords: number[], lists: TermPostings[]): Map<number, string[]> {
  const words = new Map<number, string[]>(ords.map((ord) => [ord, []]));
  for (const { term, postings } of lists) {
    for (let index = 0; index < postings.length; index += 2) {
      words.get(postings[index])?.push(term.word);
    }
  }
  return words;
}

/**
 * Entries whose title, tag and alias terms share terms with at least `threshold` distinct
 * words of the prompt (a dotted or slashed token like `console.log` is one word), ranked by
 * those words, then terms, then title hits, then rarity of the terms. Reads only the keyword
 * postings: superseded, archived and kernel entries are told apart by flags stored there.
 * Only the entries over the threshold are sorted; the near misses are picked, not sorted.
 */
export function keywordMatches(
  reader: IndexReader,
  terms: PromptTerm[],
  threshold: number,
): KeywordMatches {
  const termHits: Record<string, number> = {};
  const { docCount, nextOrd } = reader.manifest;
  const tallies = new Tallies(Math.max(nextOrd, docCount));
  const lists: TermPostings[] = [];
  for (const term of terms) {
    const postings = reader.keywordPostings(term.term);
    if (!postings.length) continue;
    const entries = postings.length / 2;
    termHits[term.word] = entries;
    lists.push({ term, postings });
    tallies.add({ term, postings }, Math.log(1 + Math.max(docCount, 1) / entries));
  }
  const over: number[] = [];
  const under: number[] = [];
  for (const ord of tallies.touched) {
    const flags = tallies.flags[ord];
    if (flags & FLAG_INACTIVE) continue;
    if (tallies.tokens[ord] < threshold) keepBest(under, ord, NEAR_MISS_LIMIT, tallies.compare);
    else if (!(flags & FLAG_KERNEL)) over.push(ord);
  }
  over.sort(tallies.compare);
  const words = wordsOf([...over, ...under], lists);
  const hit = (ord: number): KeywordHit => ({ ord, words: words.get(ord)! });
  return { ranked: over.map(hit), nearMisses: under.map(hit), termHits };
}
