import { deepStrictEqual as deepEqual } from "node:assert/strict";
import type { DocInfo } from "../index/reader.ts";
import type { Hit } from "../search/rank.ts";
import { mergeHits } from "./hits.ts";

function hit(id: string, score: number, status: DocInfo["status"] = "active"): Hit {
  return { doc: { id, status } as DocInfo, score, terms: [] };
}

Deno.test("mergeHits: by rank, not by scores on different scales; active first; the default first at a rank", () => {
  const merged = mergeHits([
    { kb: "personal", hits: [hit("p1", 9), hit("p2", 8), hit("p3", 7, "superseded")] },
    { kb: "team", hits: [hit("t1", 0.3), hit("t2", 0.2)] },
  ], 4);
  deepEqual(merged.map((item) => `${item.kb}:${item.doc.id}`), [
    "personal:p1",
    "team:t1",
    "personal:p2",
    "team:t2",
  ]);
  deepEqual(mergeHits([{ kb: "a", hits: [] }], 3), []);
});
