/**
 * Pairs of adjacent terms, and the small filter an entry's record keeps of them: a note that
 * holds "pretty print" as words side by side answers "pretty print the json" better than one
 * whose `pretty` and `print` sit paragraphs apart. Search and the prompt hook both move such an
 * entry up among their first few (core/search/pair_order.ts).
 *
 * A pair is known by a 32-bit hash of its two terms, the lesser first ({@link pairHash}), so that
 * "print the json" and "json print" give the same. An entry's pairs are kept as a Bloom filter
 * ({@link PAIR_FILTER_BITS_PER_PAIR} bits a pair, {@link PAIR_FILTER_HASHES} bits set by each:
 * about 0.6 % of the pairs it never held pass for held), in base64 in its record, so that neither
 * reads an entry file. Only the pairs of two terms an entry holds are asked about, a few for each
 * entry even of a long prompt.
 *
 * @module
 */
import { type AdjacentTerms, splitWords, termOf } from "./tokenize.ts";

/**
 * Bits of an entry's filter for each pair it holds. A filter is read with the figures it was
 * written with: change this, {@link PAIR_FILTER_HASHES} or the hashing only with `INDEX_VERSION`
 * (core/index/format.ts), so that every index is rebuilt.
 */
export const PAIR_FILTER_BITS_PER_PAIR = 12;

/** How many bits of the filter each pair sets. */
export const PAIR_FILTER_HASHES = 6;

/** The largest filter, in bytes: it keeps {@link MOST_ENTRY_PAIRS}. */
export const PAIR_FILTER_MAX_BYTES = 4096;

/**
 * The most pairs an entry's filter keeps, the first it holds (2,730): a filter holding more would
 * pass most pairs for held, and lift a long note for pairs it never held.
 */
export const MOST_ENTRY_PAIRS = Math.floor(PAIR_FILTER_MAX_BYTES * 8 / PAIR_FILTER_BITS_PER_PAIR);

/** Two adjacent terms of a prompt, the lesser first, and their {@link pairHash}. */
export interface TermPair {
  first: string;
  second: string;
  hash: number;
}

/** FNV-1a's step: `hash` with the UTF-16 code units of `text` folded in. */
function fold(hash: number, text: string): number {
  for (let index = 0; index < text.length; index++) {
    hash ^= text.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash;
}

/**
 * The hash of two terms as a pair, whichever comes first: FNV-1a of the lesser, a space and the
 * greater, without joining them into a string.
 */
export function pairHash(one: string, other: string): number {
  const [first, second] = one < other ? [one, other] : [other, one];
  return fold(fold(fold(0x811c9dc5, first), " "), second) >>> 0;
}

/**
 * The distinct pairs of adjacent terms in `texts` (each read apart: the last word of one and the
 * first of the next are no pair), stopwords aside, each the lesser term first: "print the json"
 * and "json print" give the same.
 *
 * @example
 * ```ts
 * adjacentPairs("Pretty print the JSON").map(({ first, second }) => `${first} ${second}`);
 * // ["pretti print", "json print"]
 * ```
 */
export function adjacentPairs(...texts: string[]): TermPair[] {
  const pairs = new Map<number, TermPair>();
  for (const text of texts) {
    let previous = "";
    for (const word of splitWords(text)) {
      const term = termOf(word);
      if (!term) continue;
      if (previous && previous !== term) {
        const hash = pairHash(previous, term);
        const [first, second] = previous < term ? [previous, term] : [term, previous];
        if (!pairs.has(hash)) pairs.set(hash, { first, second, hash });
      }
      previous = term;
    }
  }
  return [...pairs.values()];
}

/**
 * What adds the {@link pairHash} of each two adjacent terms it is told of to `hashes`, until it
 * holds {@link MOST_ENTRY_PAIRS}.
 */
export function collectPairs(hashes: Set<number>): AdjacentTerms {
  return (first, second) => {
    if (hashes.size < MOST_ENTRY_PAIRS) hashes.add(pairHash(first, second));
  };
}

/** The `index`th bit a pair of hash `hash` sets in a filter of `bits` bits, by double hashing. */
function pairBit(hash: number, index: number, bits: number): number {
  // The step: the hash mixed (a 32-bit finalizer), odd so that it never sticks on one bit.
  let step = Math.imul(hash ^ (hash >>> 16), 0x45d9f3b);
  step = Math.imul(step ^ (step >>> 16), 0x45d9f3b);
  step = (step ^ (step >>> 16)) | 1;
  return ((hash + Math.imul(index, step)) >>> 0) % bits;
}

/** The filter of the pairs of `hashes`, in base64; "" when there is none. */
export function pairFilter(hashes: ReadonlySet<number>): string {
  if (!hashes.size) return "";
  const size = Math.min(
    Math.ceil(hashes.size * PAIR_FILTER_BITS_PER_PAIR / 8),
    PAIR_FILTER_MAX_BYTES,
  );
  const bytes = new Uint8Array(size);
  for (const hash of hashes) {
    for (let index = 0; index < PAIR_FILTER_HASHES; index++) {
      const bit = pairBit(hash, index, size * 8);
      bytes[bit >> 3] |= 1 << (bit & 7);
    }
  }
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/**
 * The bytes of a filter {@link pairFilter} wrote; empty for "" or anything that is not one (a
 * record is read from the cache, which is checked but not trusted), a text too long to be one
 * not decoded at all.
 */
export function readPairFilter(text: unknown): Uint8Array {
  if (typeof text !== "string" || text.length > Math.ceil(PAIR_FILTER_MAX_BYTES / 3) * 4) {
    return new Uint8Array(0);
  }
  let binary: string;
  try {
    binary = atob(text);
  } catch {
    return new Uint8Array(0);
  }
  if (binary.length > PAIR_FILTER_MAX_BYTES) return new Uint8Array(0);
  return Uint8Array.from(binary, (character) => character.charCodeAt(0));
}

/** Whether the filter `bytes` holds the pair of hash `hash` (or passes it for held). */
export function filterHolds(bytes: Uint8Array, hash: number): boolean {
  if (!bytes.length) return false;
  for (let index = 0; index < PAIR_FILTER_HASHES; index++) {
    const bit = pairBit(hash, index, bytes.length * 8);
    if ((bytes[bit >> 3] & (1 << (bit & 7))) === 0) return false;
  }
  return true;
}
