import { assertEquals, assertThrows } from "@std/assert";
import { diffRuns, scoreRun } from "./score.ts";
import type { GoldenCase } from "./golden.ts";
import type { Replayed } from "./replay.ts";

const CASES: GoldenCase[] = [
  { line: 1, prompt: "rotate the npm token", expect: ["kb-aaaaa"] },
  { line: 2, prompt: "pin actions", expect: ["kb-bbbbb", "kb-ccccc"] },
  { line: 3, prompt: "postgres pool", expect: ["kb-ddddd"] },
  { line: 4, prompt: "thanks", expect: [] },
  { line: 5, prompt: "remove the console.log", expect: [] },
];

function replayed(hook: string[], search: string[], bytes = hook.length ? 100 : 0): Replayed {
  return { outcome: hook.length ? "surfaced" : "no_signal", hook, bytes, search };
}

const BEFORE = [
  replayed(["kb-aaaaa"], ["kb-zzzzz", "kb-aaaaa"]),
  replayed(["kb-ccccc", "kb-xxxxx"], ["kb-bbbbb", "kb-ccccc"]),
  replayed([], ["a", "b", "c", "d", "e", "kb-ddddd"]),
  replayed([], []),
  replayed(["kb-yyyyy"], ["kb-yyyyy"], 400),
];

Deno.test("scoreRun: recall@1/@5 and MRR@10 over prompts expecting entries", () => {
  const { summary } = scoreRun(CASES, BEFORE);
  assertEquals(summary.prompts, 5);
  assertEquals(summary.positives, 3);
  assertEquals(summary.negatives, 2);
  // hook: prompt 1 found at 1; prompt 2 one of two, at rank 1; prompt 3 nothing.
  assertEquals(summary.hook.recall1, (1 + 0.5 + 0) / 3);
  assertEquals(summary.hook.recall5, (1 + 0.5 + 0) / 3);
  assertEquals(summary.hook.mrr, (1 + 1 + 0) / 3);
  assertEquals(summary.hook.fireRate, 2 / 3);
  assertEquals(summary.hook.falseFires, 1);
  // Pointers listed: 1 + 2 + 1 (a false fire), 2 of them expected.
  assertEquals(summary.hook.fires, 3);
  assertEquals(summary.hook.pointers, 4);
  assertEquals(summary.hook.pointerPrecision, 2 / 4);
  // search: rank 2; ranks 1 and 2; rank 6 (outside @5, inside MRR@10).
  assertEquals(summary.search.recall1, (0 + 0.5 + 0) / 3);
  assertEquals(summary.search.recall5, (1 + 1 + 0) / 3);
  assertEquals(summary.search.mrr, (0.5 + 1 + 1 / 6) / 3);
  assertEquals(summary.bytes, { mean: 120, median: 100, max: 400 });
});

Deno.test("scoreRun: per-prompt misses and false fires", () => {
  const { results } = scoreRun(CASES, BEFORE);
  assertEquals(results.map((result) => result.hookMissed), [
    [],
    ["kb-bbbbb"],
    ["kb-ddddd"],
    [],
    [],
  ]);
  assertEquals(results.map((result) => result.searchMissed), [[], [], ["kb-ddddd"], [], []]);
  assertEquals(results.map((result) => result.falseFire), [false, false, false, false, true]);
});

Deno.test("scoreRun: an empty golden file scores zeros; mismatched lengths throw", () => {
  const { summary } = scoreRun([], []);
  assertEquals(summary.hook.recall5, 0);
  assertEquals(summary.bytes, { mean: 0, median: 0, max: 0 });
  assertThrows(() => scoreRun(CASES, []), RangeError);
});

Deno.test("diffRuns: figures that moved, prompts that changed, prompts added and removed", () => {
  const before = scoreRun(CASES, BEFORE);
  const after = scoreRun(
    [...CASES.slice(0, 4), { line: 5, prompt: "a new prompt", expect: [] }],
    [
      replayed(["kb-aaaaa"], ["kb-zzzzz", "kb-aaaaa"]),
      replayed(["kb-bbbbb", "kb-ccccc"], ["kb-bbbbb", "kb-ccccc"]),
      replayed([], ["kb-zzzzz"]),
      replayed(["kb-qqqqq"], []),
      replayed([], []),
    ],
  );
  const diff = diffRuns(before, after);
  assertEquals(diff.prompts, [
    { line: 2, prompt: "pin actions", changes: ["hook now finds kb-bbbbb"] },
    { line: 4, prompt: "thanks", changes: ["hook now fires"] },
  ]);
  assertEquals(diff.added, 1);
  assertEquals(diff.removed, 1);
  const names = diff.figures.map((figure) => figure.name);
  assertEquals(names, [
    "hook recall@5",
    "hook pointer precision",
    "search MRR@10",
    "mean bytes injected",
  ]);
  const recall = diff.figures.find((figure) => figure.name === "hook recall@5")!;
  assertEquals(recall.before, 0.5);
  assertEquals(recall.after, (1 + 1 + 0) / 3);
});

Deno.test("diffRuns: the same run twice has no change", () => {
  const run = scoreRun(CASES, BEFORE);
  assertEquals(diffRuns(run, run), { figures: [], prompts: [], added: 0, removed: 0 });
});
