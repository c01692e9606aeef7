import { assert, assertEquals } from "@std/assert";
import { BuildPostings } from "./postings_builder.ts";
import { findList, spillNumber } from "./postings_file.ts";
import {
  formatShard,
  parseShard,
  type PostingsFiles,
  type ShardPostings,
} from "./postings_layout.ts";
import { shardOf } from "./format.ts";

/** A seeded generator, so that a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** The same postings kept the plain way, as shard maps, to compare the builder's files with. */
function expectedShards(shardCount: number) {
  const shards: ShardPostings[] = Array.from(
    { length: shardCount },
    () => ({ terms: new Map(), keywords: new Map() }),
  );
  const list = (map: Map<string, number[]>, term: string) => {
    if (!map.has(term)) map.set(term, []);
    return map.get(term)!;
  };
  return {
    add(term: string, ord: number, counts: number[], keyword: number) {
      const shard = shards[shardOf(term, shardCount)];
      list(shard.terms, term).push(ord, ...counts);
      if (keyword) list(shard.keywords, term).push(ord, keyword);
    },
    files: () =>
      new Map(shards.flatMap((shard, n) => shard.terms.size ? [[n, formatShard(shard)]] : [])),
  };
}

/** A shard's postings from its files, spilled lines included. */
function parsed({ text, spills }: PostingsFiles): ShardPostings {
  return parseShard(text, (n) => spills[n]);
}

Deno.test("BuildPostings writes each shard as formatShard would, long lists and many terms included", () => {
  const next = random(7);
  const shardCount = 16;
  const built = new BuildPostings(shardCount);
  const expected = expectedShards(shardCount);
  // 3,000 terms outgrow the per-list tables (1,024 to start), 40 terms an entry the pooled
  // buffer (a million numbers); "common" is in every entry, so its list runs through blocks of
  // every size up to the cap, and past it.
  const vocabulary = Array.from({ length: 3000 }, (_, n) => `term${n}`);
  for (let ord = 0; ord < 6000; ord++) {
    const terms = new Set(["common"]);
    for (let pick = 0; pick < 40; pick++) terms.add(vocabulary[Math.floor(next() * 3000)]);
    for (const term of terms) {
      const counts = [Math.floor(next() * 3), Math.floor(next() * 2), 1 + Math.floor(next() * 9)];
      const keyword = counts[0] || counts[1] ? 1 + Math.floor(next() * 15) : 0;
      built.add(term, ord, counts, keyword);
      expected.add(term, ord, counts, keyword);
    }
  }
  const files = new Map<number, PostingsFiles>();
  built.forEachShard((shard, written) => files.set(shard, written));
  assertEquals(
    [...files.keys()].sort((a, b) => a - b),
    [...expected.files().keys()].sort((a, b) => a - b),
  );
  for (const [shard, written] of expected.files()) {
    assertEquals(files.get(shard), written, `shard ${shard}`);
  }
  const commonShard = files.get(shardOf("common", shardCount))!;
  assert(
    spillNumber(findList(commonShard.text, "common")!) >= 0,
    "a list past SPILL_NUMBERS spills",
  );
  const common = parsed(commonShard).terms.get("common")!;
  assertEquals(common.length, 6000 * 4);
  assertEquals(
    common.filter((_, index) => index % 4 === 0),
    Array.from({ length: 6000 }, (_, n) => n),
  );
});

Deno.test("BuildPostings leaves out shards no term falls in, and a term without keyword postings has no + line", () => {
  const built = new BuildPostings(64);
  built.add("alpha", 0, [0, 0, 2], 0);
  built.add("alpha", 1, [1, 0, 0], 5);
  built.add("beta", 1, [0, 0, 1], 0);
  const files = new Map<number, PostingsFiles>();
  built.forEachShard((shard, written) => files.set(shard, written));
  const shards = new Set([shardOf("alpha", 64), shardOf("beta", 64)]);
  assertEquals(new Set(files.keys()), shards);
  const alpha = parsed(files.get(shardOf("alpha", 64))!);
  assertEquals(alpha.terms.get("alpha"), [0, 0, 0, 2, 1, 1, 0, 0]);
  assertEquals(alpha.keywords.get("alpha"), [1, 5]);
  assertEquals(parsed(files.get(shardOf("beta", 64))!).keywords.has("beta"), false);
  assertEquals(files.get(shardOf("alpha", 64))!.spills, [], "short lists stay in the shard");
});
