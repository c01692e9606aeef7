/**
 * Moving up, among the first entries of a ranking, those that hold the prompt's words side by
 * side: search and the prompt hook order their first entries so, alike. Each of the prompt's
 * pairs of adjacent terms an entry holds (core/text/word_pairs.ts) adds {@link PAIR_BONUS} of
 * the first entry's score to its own, {@link MOST_PAIRS} at most. Chosen on the tuning halves of
 * `bench/` (windows of one and three terms, 0.05 to 0.2, one or three pairs); see its README.
 *
 * @module
 */
import type { IndexReader } from "../index/reader.ts";
import { filterHolds, readPairFilter, type TermPair } from "../text/word_pairs.ts";

/** What each pair an entry holds adds, as a share of the first entry's score. */
export const PAIR_BONUS = 0.1;

/** The most pairs that count for one entry. */
export const MOST_PAIRS = 3;

/** How many of a ranking's first entries the pairs may reorder. */
export const PAIR_ORDER_DEPTH = 10;

/**
 * How many of `pairs` the entry at `ord` holds, {@link MOST_PAIRS} at most; only a pair of two
 * of its `terms` is looked for in its filter.
 */
function pairsHeld(
  reader: IndexReader,
  ord: number,
  pairs: readonly TermPair[],
  terms: ReadonlySet<string>,
): number {
  const filter = reader.doc(ord)?.pairs;
  if (!filter) return 0;
  let bytes: Uint8Array | undefined;
  let held = 0;
  for (const { first, second, hash } of pairs) {
    if (!terms.has(first) || !terms.has(second)) continue;
    bytes ??= readPairFilter(filter);
    if (filterHolds(bytes, hash) && ++held === MOST_PAIRS) break;
  }
  return held;
}

/**
 * What the pairs add to each of the first {@link PAIR_ORDER_DEPTH} of `ranked` (ordinals, best
 * first, each scoring `score(ord)` for the query terms `termsOf(ord)` it holds): ordinal →
 * bonus, for those that hold any of `pairs`.
 */
export function pairBonuses(
  reader: IndexReader,
  ranked: readonly number[],
  score: (ord: number) => number,
  termsOf: (ord: number) => ReadonlySet<string>,
  pairs: readonly TermPair[],
): Map<number, number> {
  const bonuses = new Map<number, number>();
  if (!pairs.length || !ranked.length) return bonuses;
  const unit = PAIR_BONUS * score(ranked[0]);
  for (const ord of ranked.slice(0, PAIR_ORDER_DEPTH)) {
    const held = pairsHeld(reader, ord, pairs, termsOf(ord));
    if (held) bonuses.set(ord, held * unit);
  }
  return bonuses;
}
