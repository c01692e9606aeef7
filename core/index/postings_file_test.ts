import { assert, assertEquals } from "@std/assert";
import {
  findPostings,
  keywordKey,
  type Postings,
  postingsSize,
  SPILL_NUMBERS,
} from "./postings_file.ts";
import {
  formatPostingsFile,
  formatShard,
  parsePostingsFile,
  parseShard,
} from "./postings_layout.ts";

const SHARD = new Map([
  ["cach", [0, 1, 0, 2]],
  ["cache", [3, 0, 1, 0]],
  ["constructor", [5, 0, 0, 1]],
  ["x", [7, 1, 0, 0, 9, 0, 0, 4]],
]);

Deno.test("findPostings finds the first, a middle and the last line", () => {
  const text = formatPostingsFile(SHARD);
  assertEquals(findPostings(text, "cach"), [0, 1, 0, 2]);
  assertEquals(findPostings(text, "constructor"), [5, 0, 0, 1]);
  assertEquals(findPostings(text, "x"), [7, 1, 0, 0, 9, 0, 0, 4]);
});

Deno.test("findPostings matches whole terms only, never a prefix or a suffix", () => {
  const text = formatPostingsFile(SHARD);
  assertEquals(findPostings(text, "cache"), [3, 0, 1, 0]);
  assertEquals(findPostings(text, "cac"), undefined);
  assertEquals(findPostings(text, "ache"), undefined);
  assertEquals(findPostings(text, "caches"), undefined);
  assertEquals(findPostings(text, "toString"), undefined, "no inherited names");
  assertEquals(findPostings("", "cache"), undefined);
});

Deno.test("a postings file round-trips and leaves out empty lists", () => {
  const withEmpty = new Map([...SHARD, ["gone", []]]);
  const text = formatPostingsFile(withEmpty);
  assertEquals(parsePostingsFile(text), SHARD);
  assertEquals(text.includes("gone"), false);
  assertEquals(parsePostingsFile(""), new Map());
});

Deno.test("postingsSize reads a list's size without its numbers; 0 when absent", () => {
  const text = formatPostingsFile(SHARD);
  assertEquals(postingsSize(text, "x"), 8);
  assertEquals(postingsSize(text, "cach"), 4);
  assertEquals(postingsSize(text, "cac"), 0);
  assertEquals(postingsSize("", "x"), 0);
});

Deno.test("a shard file keeps whole and keyword postings apart and round-trips both", () => {
  const shard = {
    terms: new Map([["cache", [0, 1, 0, 2]]]),
    keywords: new Map([["cache", [0, 1]]]),
  };
  const { text, spills } = formatShard(shard);
  assertEquals(spills, []);
  assertEquals(parseShard(text), shard);
  assertEquals(findPostings(text, "cache"), [0, 1, 0, 2]);
  assertEquals(findPostings(text, keywordKey("cache")), [0, 1]);
  assertEquals(postingsSize(text, "cache"), 4);
  assertEquals(parseShard(formatShard({ terms: new Map(), keywords: new Map() }).text), {
    terms: new Map(),
    keywords: new Map(),
  });
});

/** A list of `entries` whole postings, long enough to spill past a few hundred entries. */
function longList(entries: number, first = 0): number[] {
  return Array.from({ length: entries }, (_, n) => [first + n, 1, 0, 3]).flat();
}

/** Postings found, as a plain array (a spilled list comes back typed), or undefined. */
function found(postings: Postings | undefined): number[] | undefined {
  return postings && Array.from(postings);
}

Deno.test("a list of more than SPILL_NUMBERS numbers moves to a binary file; the shard keeps its size", () => {
  const long = longList(1500);
  assert(long.length > SPILL_NUMBERS);
  const shard = {
    terms: new Map([["cache", [0, 1, 0, 2]], ["common", long], ["other", longList(1200, 7)]]),
    keywords: new Map([["common", [0, 1]]]),
  };
  const { text, spills } = formatShard(shard);
  assertEquals(spills.length, 2);
  assert(text.length < 100, `the shard keeps marks only: ${text}`);
  const spilled = (n: number) => spills[n];
  assertEquals(found(findPostings(text, "common", spilled)), long);
  assertEquals(found(findPostings(text, "other", spilled)), longList(1200, 7));
  assertEquals(findPostings(text, keywordKey("common"), spilled), [0, 1]);
  assertEquals(postingsSize(text, "common"), long.length, "read from the shard alone");
  assertEquals(findPostings(text, "common"), undefined, "no spilled files to read: not found");
  assertEquals(parseShard(text, spilled), shard);
});

Deno.test("a spilled list is read as stored: its numbers are a view of the file's bytes", () => {
  const { text, spills } = formatShard({
    terms: new Map([["common", longList(600)]]),
    keywords: new Map(),
  });
  const list = findPostings(text, "common", (n) => spills[n]);
  assert(list instanceof Int32Array);
  assertEquals(list.buffer, spills[0].buffer, "no copy, no parse");
  const unaligned = new Uint8Array(spills[0].byteLength + 1).subarray(1);
  unaligned.set(spills[0]);
  assertEquals(found(findPostings(text, "common", () => unaligned)), longList(600));
});

Deno.test("a spilled file of another list, cut short or missing reads as no postings", () => {
  const { text, spills } = formatShard({
    terms: new Map([["alpha", longList(1500)], ["beta", longList(1500, 1)]]),
    keywords: new Map(),
  });
  const swapped = (n: number) => spills[1 - n];
  assertEquals(findPostings(text, "alpha", swapped), undefined);
  assertEquals(parseShard(text, swapped), { terms: new Map(), keywords: new Map() });
  const cut = (n: number) => spills[n].subarray(0, spills[n].byteLength - 4);
  assertEquals(findPostings(text, "alpha", cut), undefined, "a file cut short");
  assertEquals(
    findPostings(text, "alpha", (n) => spills[n].subarray(0, 4)),
    undefined,
    "no header",
  );
  assertEquals(findPostings(text, "alpha", () => undefined), undefined, "a missing spill file");
});

Deno.test("the delta file spills nothing: it is read whole", () => {
  const { text, spills } = formatShard({
    terms: new Map([["common", longList(1500)]]),
    keywords: new Map(),
  }, Infinity);
  assertEquals(spills, []);
  assertEquals(findPostings(text, "common"), longList(1500));
});
