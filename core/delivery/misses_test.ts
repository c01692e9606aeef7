/**
 * summarizeDelivery on hand-written sessions with known counts.
 */
import { assertEquals } from "@std/assert";
import { emptyReceipts, type Receipts } from "./receipts.ts";
import { NOISE_MIN_SESSIONS, type SessionRecord, summarizeDelivery } from "./misses.ts";

function session(
  shown: string[],
  fetched: string[] = [],
  unmatched: Receipts["unmatched"] = emptyReceipts().unmatched,
): SessionRecord {
  return {
    session: "s",
    ledger: Object.fromEntries(shown.map((id) => [id, `h-${id}`])),
    receipts: { fetched, unmatched },
  };
}

Deno.test("summarizeDelivery: injected, fetched, share, noise, unmatched prompts", () => {
  const stats = summarizeDelivery([
    session(["kb-noise", "kb-used1"], ["kb-used1"], { prompts: 2, words: { deploy: 2, helm: 1 } }),
    session(["kb-noise", "kb-used1", "kb-once1"], ["kb-other"]),
    session(["kb-noise", "kb-rare1"], [], { prompts: 1, words: { deploy: 1, argo: 1 } }),
    session(["kb-used1"], ["kb-used1"]),
    session([], [], { prompts: 3, words: { argo: 1 } }),
  ]);
  assertEquals(stats, {
    sessions: 5,
    injected: 8,
    fetched: 2,
    shareFetched: 2 / 8,
    fetchedUnprompted: 1,
    // kb-used1 was injected in 3 sessions too, but fetched: not noise.
    noiseCandidates: [{ id: "kb-noise", sessions: 3 }],
    unmatchedPrompts: 6,
    unmatchedWords: [
      { word: "deploy", count: 3 },
      { word: "argo", count: 2 },
      { word: "helm", count: 1 },
    ],
  });
});

Deno.test("summarizeDelivery: nothing recorded", () => {
  assertEquals(summarizeDelivery([]), {
    sessions: 0,
    injected: 0,
    fetched: 0,
    shareFetched: 0,
    fetchedUnprompted: 0,
    noiseCandidates: [],
    unmatchedPrompts: 0,
    unmatchedWords: [],
  });
});

Deno.test("summarizeDelivery: noise needs NOISE_MIN_SESSIONS sessions", () => {
  const below = Array.from({ length: NOISE_MIN_SESSIONS - 1 }, () => session(["kb-aaaaa"]));
  assertEquals(summarizeDelivery(below).noiseCandidates, []);
  assertEquals(summarizeDelivery([...below, session(["kb-aaaaa"])]).noiseCandidates, [
    { id: "kb-aaaaa", sessions: NOISE_MIN_SESSIONS },
  ]);
});
