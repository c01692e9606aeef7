import { assertEquals } from "@std/assert";
import type { DocInfo } from "../index/format.ts";
import type { Hit } from "../search/rank.ts";
import { mergeHits } from "./hits.ts";

function hit(
  id: string,
  score: number,
  terms: string[],
  status: DocInfo["status"] = "active",
): Hit {
  return { doc: { id, status } as DocInfo, score, terms };
}

Deno.test("mergeHits: not by scores on different scales; each ranking's order kept; the head holding more query terms first, an active one first on a tie, then the default", () => {
  const merged = mergeHits([
    {
      kb: "personal",
      hits: [hit("p1", 9, ["pod"]), hit("p2", 8, ["pod"]), hit("p3", 7, ["pod"], "superseded")],
    },
    { kb: "team", hits: [hit("t1", 0.3, ["kubernetes", "pod"]), hit("t2", 0.2, ["pod"])] },
  ], 4);
  assertEquals(merged.map((item) => `${item.kb}:${item.doc.id}`), [
    "team:t1",
    "personal:p1",
    "personal:p2",
    "team:t2",
  ]);
  const superseded = mergeHits([{ kb: "a", hits: [hit("old", 9, ["x"], "superseded")] }], 3);
  assertEquals(superseded.map((item) => item.doc.id), ["old"], "an inactive first hit stays first");
  assertEquals(mergeHits([{ kb: "a", hits: [] }], 3), []);
});

Deno.test("mergeHits: on a tie of query terms, an active entry before a superseded or archived one of the default knowledge base (a promoted entry's copy before its original)", () => {
  const merged = mergeHits([
    {
      kb: "personal",
      hits: [hit("orig", 9, ["worktree"], "superseded"), hit("old", 8, ["worktree"], "archived")],
    },
    { kb: "team", hits: [hit("copy", 0.4, ["worktree"])] },
  ], 3);
  assertEquals(merged.map((item) => `${item.kb}:${item.doc.id}`), [
    "team:copy",
    "personal:orig",
    "personal:old",
  ]);
  const held = mergeHits([
    { kb: "personal", hits: [hit("orig", 9, ["git", "worktree"], "superseded")] },
    { kb: "team", hits: [hit("copy", 0.4, ["worktree"])] },
  ], 2);
  assertEquals(
    held.map((item) => item.doc.id),
    ["orig", "copy"],
    "more query terms still go first",
  );
});
