/**
 * Pairs of adjacent terms, and the small filter an entry's record keeps of them: a note that
 * holds "pretty print" as words side by side answers "pretty print the json" better than one
 * whose `pretty` and `print` sit paragraphs apart. Search and the prompt hook both move such an
 * entry up among their first few (core/search/pair_order.ts).
 *
 * An entry's pairs are kept as a Bloom filter ({@link PAIR_FILTER_BITS_PER_PAIR} bits a pair,
 * {@link PAIR_FILTER_HASHES} hashes: about 0.6 % of the pairs it never held pass for held), in
 * base64 in its record, so that neither reads an entry file. Only the pairs of two terms an entry
 * holds are asked about, a few for each entry even of a long prompt.
 *
 * @module
 */
import { fnv1a } from "../hash.ts";
import { splitWords, termOf } from "./tokenize.ts";

/**
 * Bits of an entry's filter for each pair it holds. A filter is read with the figures it was
 * written with: change this, {@link PAIR_FILTER_HASHES} or the hashing only with `INDEX_VERSION`
 * (core/index/format.ts), so that every index is rebuilt.
 */
export const PAIR_FILTER_BITS_PER_PAIR = 12;

/** How many bits of the filter each pair sets. */
export const PAIR_FILTER_HASHES = 6;

/**
 * The largest filter, in bytes: an entry of more pairs than a filter this size keeps at
 * {@link PAIR_FILTER_BITS_PER_PAIR} passes more pairs it never held for held, and no longer grows
 * the index.
 */
export const PAIR_FILTER_MAX_BYTES = 4096;

/**
 * The distinct pairs of adjacent terms in `text`, stopwords aside, each written either way
 * round as one key (the lesser term first): "print the json" and "json print" give the same.
 *
 * @example
 * ```ts
 * adjacentPairs("Pretty print the JSON"); // Set { "pretti print", "json print" }
 * ```
 */
export function adjacentPairs(text: string): Set<string> {
  const pairs = new Set<string>();
  let previous = "";
  for (const word of splitWords(text)) {
    const term = termOf(word);
    if (!term) continue;
    if (previous && previous !== term) {
      pairs.add(previous < term ? `${previous} ${term}` : `${term} ${previous}`);
    }
    previous = term;
  }
  return pairs;
}

/** The bits `pair` sets in a filter of `bits` bits, by double hashing. */
function pairBits(pair: string, bits: number): number[] {
  const first = fnv1a(pair);
  const step = fnv1a(`${pair}\u0001`) | 1;
  const set: number[] = [];
  for (let index = 0; index < PAIR_FILTER_HASHES; index++) {
    set.push(((first + Math.imul(index, step)) >>> 0) % bits);
  }
  return set;
}

/** The filter of `pairs`, in base64; "" when there is none. */
export function pairFilter(pairs: ReadonlySet<string>): string {
  if (!pairs.size) return "";
  const size = Math.min(
    Math.ceil(pairs.size * PAIR_FILTER_BITS_PER_PAIR / 8),
    PAIR_FILTER_MAX_BYTES,
  );
  const bytes = new Uint8Array(size);
  for (const pair of pairs) {
    for (const bit of pairBits(pair, size * 8)) bytes[bit >> 3] |= 1 << (bit & 7);
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

/** Whether the filter `bytes` holds `pair` (or passes it for held: see the module notes). */
export function filterHolds(bytes: Uint8Array, pair: string): boolean {
  if (!bytes.length) return false;
  return pairBits(pair, bytes.length * 8).every((bit) =>
    (bytes[bit >> 3] & (1 << (bit & 7))) !== 0
  );
}
