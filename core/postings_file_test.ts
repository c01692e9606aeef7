import { deepStrictEqual, equal } from "node:assert";
import {
  findPostings,
  formatPostingsFile,
  formatShard,
  keywordKey,
  parsePostingsFile,
  parseShard,
  postingsSize,
} from "./postings_file.ts";

const SHARD = new Map([
  ["cach", [0, 1, 0, 2]],
  ["cache", [3, 0, 1, 0]],
  ["constructor", [5, 0, 0, 1]],
  ["x", [7, 1, 0, 0, 9, 0, 0, 4]],
]);

Deno.test("findPostings finds the first, a middle and the last line", () => {
  const text = formatPostingsFile(SHARD);
  deepStrictEqual(findPostings(text, "cach"), [0, 1, 0, 2]);
  deepStrictEqual(findPostings(text, "constructor"), [5, 0, 0, 1]);
  deepStrictEqual(findPostings(text, "x"), [7, 1, 0, 0, 9, 0, 0, 4]);
});

Deno.test("findPostings matches whole terms only, never a prefix or a suffix", () => {
  const text = formatPostingsFile(SHARD);
  deepStrictEqual(findPostings(text, "cache"), [3, 0, 1, 0]);
  equal(findPostings(text, "cac"), undefined);
  equal(findPostings(text, "ache"), undefined);
  equal(findPostings(text, "caches"), undefined);
  equal(findPostings(text, "toString"), undefined, "no inherited names");
  equal(findPostings("", "cache"), undefined);
});

Deno.test("a postings file round-trips and leaves out empty lists", () => {
  const withEmpty = new Map([...SHARD, ["gone", []]]);
  const text = formatPostingsFile(withEmpty);
  deepStrictEqual(parsePostingsFile(text), SHARD);
  equal(text.includes("gone"), false);
  deepStrictEqual(parsePostingsFile(""), new Map());
});

Deno.test("postingsSize reads a list's size without its numbers; 0 when absent", () => {
  const text = formatPostingsFile(SHARD);
  equal(postingsSize(text, "x"), 8);
  equal(postingsSize(text, "cach"), 4);
  equal(postingsSize(text, "cac"), 0);
  equal(postingsSize("", "x"), 0);
});

Deno.test("a shard file keeps whole and keyword postings apart and round-trips both", () => {
  const shard = { post: new Map([["cache", [0, 1, 0, 2]]]), kw: new Map([["cache", [0, 1]]]) };
  const text = formatShard(shard);
  deepStrictEqual(parseShard(text), shard);
  deepStrictEqual(findPostings(text, "cache"), [0, 1, 0, 2]);
  deepStrictEqual(findPostings(text, keywordKey("cache")), [0, 1]);
  equal(postingsSize(text, "cache"), 4);
  deepStrictEqual(parseShard(formatShard({ post: new Map(), kw: new Map() })), {
    post: new Map(),
    kw: new Map(),
  });
});
