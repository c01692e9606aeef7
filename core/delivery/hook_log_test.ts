/**
 * summarizeDebugLog on hand-written debug JSONL with known counts.
 */
import { assertEquals } from "@std/assert";
import { summarizeDebugLog } from "./hook_log.ts";

function jsonl(records: unknown[]): string {
  return records.map((record) => typeof record === "string" ? record : JSON.stringify(record))
    .join("\n") + "\n";
}

/** 8 well-formed records (3 surfaced, 1 no_signal, 1 all_deduped, 2 skipped, 1 error). */
const RECORDS: unknown[] = [
  {
    outcome: "surfaced",
    skip_reason: null,
    keyword_hits: { rotate: 1, token: 2 },
    surfaced: [{ id: "kb-aaaaa", signal: "keyword", why: ["rotate", "token"] }],
    kernel: ["kb-kkkkk"],
    near_misses: [{ id: "kb-n0001", hits: ["x"] }],
    bytes: 100,
    ms: 3.5,
  },
  "this line is not JSON {",
  {
    outcome: "surfaced",
    surfaced: [{ id: "kb-bbbbb", signal: "activity", why: ["reviewing"] }],
    kernel: ["kb-kkkkk"],
    near_misses: [{ id: "kb-n0001", hits: ["y"] }, { id: "kb-n0002", hits: ["z"] }],
    bytes: 300,
    ms: 2,
  },
  "",
  "   ",
  {
    outcome: "surfaced",
    surfaced: [{ id: "kb-aaaaa", signal: "keyword", why: ["token", "leaked"] }],
    kernel: [],
    near_misses: [],
    bytes: 200,
    ms: 1,
  },
  '{"outcome":"surfaced","bytes":999999,"surfaced":[{"id":"kb-trunc"}',
  {
    outcome: "no_signal",
    surfaced: [],
    near_misses: [{ id: "kb-n0002", hits: ["z"] }, { id: "kb-n0003", hits: ["w"] }],
    bytes: 0,
    ms: 1,
  },
  { outcome: "all_deduped", surfaced: [], near_misses: [], deduped: ["kb-aaaaa"], bytes: 0 },
  { outcome: "skipped", skip_reason: "short", bytes: 0 },
  "\u0000\u0001garbage\uFFFD",
  { outcome: "skipped", skip_reason: "mechanical", bytes: 0 },
  { outcome: "error", error: "NotConfiguredError: No knowledge base is configured." },
  "{}}",
];

const ACTIVE = ["kb-aaaaa", "kb-bbbbb", "kb-kkkkk", "kb-ccccc", "kb-n0001", "kb-ddddd"];

Deno.test("summarizeDebugLog: counts, fire rate, median bytes, leaders, never surfaced", () => {
  const stats = summarizeDebugLog(jsonl(RECORDS), ACTIVE);
  assertEquals(stats.prompts, 8, "malformed and blank lines are not prompts");
  assertEquals(stats.skipped, 2);
  assertEquals(stats.errors, 1);
  assertEquals(stats.outcomes, {
    surfaced: 3,
    no_signal: 1,
    all_deduped: 1,
    skipped: 2,
    error: 1,
  });
  // Fire rate over prompts neither skipped nor failed: 3 surfaced of 5.
  assertEquals(stats.fireRate, 3 / 5);
  // Median of the bytes of surfaced prompts only: 100, 300, 200 → 200.
  assertEquals(stats.medianBytes, 200);
  assertEquals(stats.nearMissLeaders, [
    { id: "kb-n0001", count: 2, words: ["x", "y"] },
    { id: "kb-n0002", count: 2, words: ["z"] },
    { id: "kb-n0003", count: 1, words: ["w"] },
  ]);
  // Kernel ids count as surfaced; the order of the active list is kept.
  assertEquals(stats.neverSurfaced, ["kb-ccccc", "kb-n0001", "kb-ddddd"]);
});

Deno.test("summarizeDebugLog: empty log", () => {
  const stats = summarizeDebugLog("", ["kb-aaaaa"]);
  assertEquals(stats.prompts, 0);
  assertEquals(stats.fireRate, 0);
  assertEquals(stats.medianBytes, 0);
  assertEquals(stats.nearMissLeaders, []);
  assertEquals(stats.neverSurfaced, ["kb-aaaaa"]);
});

Deno.test("summarizeDebugLog: only skipped prompts give fire rate 0, not NaN", () => {
  const stats = summarizeDebugLog(
    jsonl([{ outcome: "skipped", skip_reason: "short" }, { outcome: "skipped" }]),
    [],
  );
  assertEquals(stats.prompts, 2);
  assertEquals(stats.skipped, 2);
  assertEquals(stats.fireRate, 0);
});

Deno.test("summarizeDebugLog: median of an even count, CRLF line ends", () => {
  const pointer = [{ id: "kb-aaaaa" }];
  const text = jsonl([
    { outcome: "surfaced", bytes: 100, surfaced: pointer },
    { outcome: "surfaced", bytes: 201, surfaced: pointer },
    { outcome: "no_signal", bytes: 0 },
    { outcome: "surfaced", bytes: 50, surfaced: pointer },
    { outcome: "surfaced", bytes: 400, surfaced: pointer },
  ]).replaceAll("\n", "\r\n");
  const stats = summarizeDebugLog(text, []);
  assertEquals(stats.prompts, 5);
  assertEquals(stats.fireRate, 4 / 5);
  // Sorted 50, 100, 201, 400 → (100 + 201) / 2 = 150.5, rounded.
  assertEquals(stats.medianBytes, 151);
});

Deno.test("summarizeDebugLog: the kernel rules alone are not a fire, and are counted apart", () => {
  // A knowledge base with kernel rules injects them on every prompt: the outcome is "surfaced"
  // even when no entry matched, and a fire rate of those would read 100 %.
  const kernel = ["kb-kkkkk"];
  const text = jsonl([
    { outcome: "surfaced", bytes: 900, surfaced: [{ id: "kb-aaaaa" }], kernel },
    { outcome: "surfaced", bytes: 500, surfaced: [], kernel },
    { outcome: "surfaced", bytes: 500, surfaced: [], kernel },
    { outcome: "surfaced", bytes: 500, kernel },
    { outcome: "skipped", skip_reason: "short" },
  ]);
  const stats = summarizeDebugLog(text, []);
  assertEquals(stats.fireRate, 1 / 4);
  assertEquals(stats.kernelOnly, 3);
  // What was injected still counts in the bytes, kernel rules included.
  assertEquals(stats.medianBytes, 500);
});

Deno.test("summarizeDebugLog: near-miss leaders are capped at 10, most frequent first", () => {
  const records = [];
  for (let index = 0; index < 15; index++) {
    for (let repeat = 0; repeat <= index; repeat++) {
      records.push({
        outcome: "no_signal",
        near_misses: [{ id: `kb-m${String(index).padStart(4, "0")}`, hits: ["w"] }],
      });
    }
  }
  const stats = summarizeDebugLog(jsonl(records), []);
  assertEquals(stats.nearMissLeaders.length, 10);
  assertEquals(stats.nearMissLeaders[0].id, "kb-m0014");
  assertEquals(stats.nearMissLeaders[0].count, 15);
  assertEquals(stats.nearMissLeaders[9].id, "kb-m0005");
});

Deno.test("summarizeDebugLog: JSON lines that are not records are ignored, not fatal", () => {
  const text = jsonl([
    { outcome: "surfaced", bytes: 10, surfaced: [{ id: "kb-aaaaa" }] },
    "null",
    "42",
    '"surfaced"',
    "[]",
    "true",
    { outcome: "no_signal" },
  ]);
  let stats;
  try {
    stats = summarizeDebugLog(text, ["kb-aaaaa"]);
  } catch (error) {
    throw new Error(`summarizeDebugLog threw on a non-record JSON line: ${error}`);
  }
  assertEquals(stats.prompts, 2);
  assertEquals(stats.fireRate, 1 / 2);
  assertEquals(stats.neverSurfaced, []);
});

Deno.test("summarizeDebugLog: other hooks' records (judge, search, subagent…) are not prompts", () => {
  const text = jsonl([
    { outcome: "surfaced", bytes: 10, surfaced: [{ id: "kb-aaaaa" }] },
    { event: "judge", outcome: "allow" },
    { event: "search", outcome: "surfaced", surfaced: ["kb-bbbbb"] },
    { event: "subagent", outcome: "no_signal", near_misses: [{ id: "kb-ccccc", hits: ["x"] }] },
    { event: "receipt", outcome: "error", error: "SyntaxError: …" },
  ]);
  const stats = summarizeDebugLog(text, ["kb-aaaaa", "kb-bbbbb"]);
  assertEquals(stats.prompts, 1);
  assertEquals(stats.errors, 0);
  assertEquals(stats.nearMissLeaders, []);
  assertEquals(stats.neverSurfaced, ["kb-bbbbb"]);
});

Deno.test("summarizeDebugLog: an id logged with its knowledge base's name counts for that one only", () => {
  const text = jsonl([
    { outcome: "surfaced", surfaced: [{ id: "personal:kb-aaaaa" }, { id: "team:kb-bbbbb" }] },
    { outcome: "surfaced", surfaced: [{ id: "kb-ccccc" }], kernel: ["personal:kb-kkkkk"] },
  ]);
  const ids = ["kb-aaaaa", "kb-bbbbb", "kb-ccccc", "kb-kkkkk"];
  assertEquals(summarizeDebugLog(text, ids, "personal").neverSurfaced, ["kb-bbbbb"]);
  assertEquals(summarizeDebugLog(text, ids).neverSurfaced, ["kb-aaaaa", "kb-bbbbb", "kb-kkkkk"]);
});

Deno.test("summarizeDebugLog: another knowledge base's near misses are not this one's leaders", () => {
  const miss = (id: string) => ({ id, hits: ["rebase"] });
  const text = jsonl([
    { outcome: "quiet", near_misses: [miss("team:kb-ttttt"), miss("personal:kb-aaaaa")] },
    { outcome: "quiet", near_misses: [miss("team:kb-ttttt"), miss("kb-bbbbb")] },
  ]);
  const leaders = summarizeDebugLog(text, ["kb-aaaaa", "kb-bbbbb"], "personal").nearMissLeaders;
  assertEquals(leaders.map((leader) => leader.id), ["kb-aaaaa", "kb-bbbbb"]);
});
