import { assert, assertEquals } from "@std/assert";
import {
  adjacentPairs,
  collectPairs,
  filterHolds,
  MOST_ENTRY_PAIRS,
  PAIR_FILTER_BITS_PER_PAIR,
  PAIR_FILTER_MAX_BYTES,
  pairFilter,
  pairHash,
  readPairFilter,
} from "./word_pairs.ts";

Deno.test("adjacent pairs: terms side by side, stopwords aside, either way round, once each", () => {
  const named = (text: string) =>
    adjacentPairs(text).map(({ first, second }) => `${first} ${second}`);
  assertEquals(named("Pretty print the JSON"), ["pretti print", "json print"]);
  assertEquals(named("json print"), ["json print"]);
  // A term beside itself is no pair; the same pair twice is kept once.
  assertEquals(named("test test suite, test suite"), ["suit test"]);
  assertEquals(named("the and of"), []);
  // Either way round, one hash.
  assertEquals(pairHash("json", "print"), pairHash("print", "json"));
  assertEquals(adjacentPairs("print json")[0].hash, pairHash("json", "print"));
  // Texts are read apart, and a pair two of them hold is one.
  assertEquals(
    adjacentPairs("print json", "format yaml", "json print").map(({ hash }) => hash),
    [pairHash("json", "print"), pairHash("format", "yaml")],
  );
});

Deno.test("a pair filter holds every pair it was made of, and few others", () => {
  const pairs = new Set(
    Array.from({ length: 300 }, (_, index) => pairHash(`alpha${index}`, "beta")),
  );
  const bytes = readPairFilter(pairFilter(pairs));
  assertEquals(bytes.length, 300 * PAIR_FILTER_BITS_PER_PAIR / 8);
  for (const pair of pairs) assert(filterHolds(bytes, pair), String(pair));
  let passed = 0;
  for (let index = 0; index < 10_000; index++) {
    if (filterHolds(bytes, pairHash(`gamma${index}`, "delta"))) passed++;
  }
  // 12 bits and 6 hashes a pair: about 0.6 % pass by chance.
  assert(passed < 150, `${passed} of 10,000 pairs never added passed`);
});

Deno.test("an entry keeps its first pairs up to what its filter holds, so that a long note is not lifted for pairs it never held", () => {
  const hashes = new Set<number>();
  const add = collectPairs(hashes);
  for (let index = 0; index < 20_000; index++) add(`word${index}`, "next");
  assertEquals(hashes.size, MOST_ENTRY_PAIRS);
  const bytes = readPairFilter(pairFilter(hashes));
  assert(filterHolds(bytes, pairHash("word7", "next")));
  let passed = 0;
  for (let index = 0; index < 10_000; index++) {
    if (filterHolds(bytes, pairHash(`other${index}`, "pair"))) passed++;
  }
  assert(passed < 150, `${passed} of 10,000 pairs never added passed`);
});

Deno.test("a pair filter stays within its most bytes, however many pairs; anything else reads as empty", () => {
  const pairs = new Set(
    Array.from({ length: 20_000 }, (_, index) => pairHash(`word${index}`, "next")),
  );
  const bytes = readPairFilter(pairFilter(pairs));
  assertEquals(bytes.length, PAIR_FILTER_MAX_BYTES);
  assert(filterHolds(bytes, pairHash("word7", "next")));
  assertEquals(pairFilter(new Set()), "");
  const tooLong = btoa("x".repeat(PAIR_FILTER_MAX_BYTES + 1));
  for (const text of ["", "not base64!", tooLong, "x".repeat(10_000_000), 42, ["AAAA"], null]) {
    const read = readPairFilter(text);
    assertEquals(read.length, 0);
    assertEquals(filterHolds(read, pairHash("word7", "next")), false);
  }
});
