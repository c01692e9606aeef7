/**
 * Scoring a replay of a golden file, pure: recall@1 and @5 and MRR@10 of the prompt hook and of
 * search, how often the hook fires where it should not, what it injects, the misses prompt by
 * prompt, and the difference between two runs.
 *
 * Recall@k of a prompt is the share of its expected ids among the first k results; MRR@10 is
 * 1 / the rank of the first expected id among the first 10 (0 when none is). Both are averaged
 * over the prompts that expect something. A false fire is a prompt that expects nothing and gets
 * pointers from the hook (kernel rules, which go into every prompt, do not count).
 *
 * @module
 */
import type { GoldenCase } from "./golden.ts";
import type { Replayed } from "./replay.ts";

/** Recall and reciprocal rank of one ranked list, averaged over prompts. */
export interface RankScores {
  recall1: number;
  recall5: number;
  mrr: number;
}

/** The whole run in numbers. */
export interface EvalSummary {
  /** Prompts in the golden file. */
  prompts: number;
  /** Prompts that expect entries. */
  positives: number;
  /** Prompts that expect nothing. */
  negatives: number;
  hook: RankScores & {
    /** Share of the prompts that expect entries on which the hook listed any pointer. */
    fireRate: number;
    /** Prompts that expect nothing on which the hook listed pointers. */
    falseFires: number;
    /** Prompts, of any kind, on which the hook listed pointers. */
    fires: number;
    /** Pointers listed over all prompts. */
    pointers: number;
    /** Expected ids among the pointers listed, over all the pointers listed (0 with none). */
    pointerPrecision: number;
  };
  search: RankScores;
  /** UTF-8 bytes the hook would add, per prompt (0 when it adds nothing). */
  bytes: { mean: number; median: number; max: number };
}

/** One prompt's results and what they missed. */
export interface PromptResult extends Replayed {
  line: number;
  prompt: string;
  expect: string[];
  /** Expected ids not among the hook's first 5 pointers. */
  hookMissed: string[];
  /** Expected ids not among the first 5 search hits. */
  searchMissed: string[];
  /** The prompt expects nothing and the hook listed pointers. */
  falseFire: boolean;
}

/** A scored run. */
export interface EvalRun {
  summary: EvalSummary;
  results: PromptResult[];
}

/** Share of `expect` among the first `k` of `list`. */
function recallAt(list: string[], expect: string[], k: number): number {
  const top = new Set(list.slice(0, k));
  return expect.filter((id) => top.has(id)).length / expect.length;
}

/** 1 / rank of the first expected id among the first 10 of `list`, or 0. */
function reciprocalRank(list: string[], expect: string[]): number {
  const rank = list.slice(0, 10).findIndex((id) => expect.includes(id));
  return rank < 0 ? 0 : 1 / (rank + 1);
}

function rankScores(results: PromptResult[], pick: (result: PromptResult) => string[]) {
  const mean = (score: (result: PromptResult) => number) =>
    results.length ? results.reduce((sum, result) => sum + score(result), 0) / results.length : 0;
  return {
    recall1: mean((result) => recallAt(pick(result), result.expect, 1)),
    recall5: mean((result) => recallAt(pick(result), result.expect, 5)),
    mrr: mean((result) => reciprocalRank(pick(result), result.expect)),
  };
}

function median(values: number[]): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Score what the hook and search did for each case (`replayed[i]` belongs to `cases[i]`).
 *
 * @example
 * ```ts
 * const run = scoreRun(
 *   [{ line: 1, prompt: "rotate the npm token", expect: ["kb-7q2mx"] }],
 *   [{ outcome: "surfaced", hook: ["kb-7q2mx"], bytes: 240, search: ["kb-2yb6n", "kb-7q2mx"] }],
 * );
 * run.summary.hook.recall1; // 1
 * run.summary.search.mrr; // 0.5
 * ```
 */
export function scoreRun(cases: GoldenCase[], replayed: Replayed[]): EvalRun {
  if (cases.length !== replayed.length) {
    throw new RangeError(`${cases.length} cases but ${replayed.length} replays`);
  }
  const results: PromptResult[] = cases.map((item, index) => {
    const run = replayed[index];
    const missed = (list: string[]) => item.expect.filter((id) => !list.slice(0, 5).includes(id));
    return {
      ...item,
      ...run,
      hookMissed: missed(run.hook),
      searchMissed: missed(run.search),
      falseFire: !item.expect.length && run.hook.length > 0,
    };
  });
  const positives = results.filter((result) => result.expect.length);
  const bytes = results.map((result) => result.bytes);
  const pointers = results.reduce((sum, result) => sum + result.hook.length, 0);
  const right = results.reduce(
    (sum, result) => sum + result.hook.filter((id) => result.expect.includes(id)).length,
    0,
  );
  return {
    summary: {
      prompts: results.length,
      positives: positives.length,
      negatives: results.length - positives.length,
      hook: {
        ...rankScores(positives, (result) => result.hook),
        fireRate: positives.length
          ? positives.filter((result) => result.hook.length).length / positives.length
          : 0,
        falseFires: results.filter((result) => result.falseFire).length,
        fires: results.filter((result) => result.hook.length).length,
        pointers,
        pointerPrecision: pointers ? right / pointers : 0,
      },
      search: rankScores(positives, (result) => result.search),
      bytes: {
        mean: bytes.length ? bytes.reduce((sum, value) => sum + value, 0) / bytes.length : 0,
        median: median(bytes),
        max: Math.max(0, ...bytes),
      },
    },
    results,
  };
}

/** The figures of a summary that a diff compares, by label. */
export function summaryFigures(summary: EvalSummary): Record<string, number> {
  return {
    "hook recall@1": summary.hook.recall1,
    "hook recall@5": summary.hook.recall5,
    "hook MRR@10": summary.hook.mrr,
    "hook false fires": summary.hook.falseFires,
    "hook pointer precision": summary.hook.pointerPrecision,
    "search recall@1": summary.search.recall1,
    "search recall@5": summary.search.recall5,
    "search MRR@10": summary.search.mrr,
    "mean bytes injected": summary.bytes.mean,
  };
}

/** A figure that moved between two runs. */
export interface FigureChange {
  name: string;
  before: number;
  after: number;
}

/** What changed for one prompt between two runs. */
export interface PromptChange {
  line: number;
  prompt: string;
  /** E.g. "hook now finds kb-7q2mx", "search now misses kb-2yb6n", "hook now fires". */
  changes: string[];
}

/** The difference between the previous run of a golden file and this one. */
export interface EvalDiff {
  figures: FigureChange[];
  prompts: PromptChange[];
  /** Prompts in this run only, and in the previous run only (matched by prompt text). */
  added: number;
  removed: number;
}

/** "now finds" and "now misses" lines for the expected ids whose miss status changed. */
function foundChanges(
  what: string,
  missedBefore: string[],
  missedAfter: string[],
  expect: string[],
) {
  return expect.flatMap((id) =>
    missedBefore.includes(id) === missedAfter.includes(id)
      ? []
      : [`${what} now ${missedAfter.includes(id) ? "misses" : "finds"} ${id}`]
  );
}

/** How `after` differs from `before`: figures that moved, prompts whose results changed. */
export function diffRuns(before: EvalRun, after: EvalRun): EvalDiff {
  const old = summaryFigures(before.summary);
  const figures = Object.entries(summaryFigures(after.summary))
    .filter(([name, value]) => Math.abs(value - old[name]) > 1e-9)
    .map(([name, value]) => ({ name, before: old[name], after: value }));
  const previous = new Map(before.results.map((result) => [result.prompt, result]));
  const prompts: PromptChange[] = [];
  let added = 0;
  for (const result of after.results) {
    const earlier = previous.get(result.prompt);
    if (!earlier) {
      added++;
      continue;
    }
    previous.delete(result.prompt);
    const changes = [
      ...foundChanges("hook", earlier.hookMissed, result.hookMissed, result.expect),
      ...foundChanges("search", earlier.searchMissed, result.searchMissed, result.expect),
    ];
    if (result.falseFire !== earlier.falseFire) {
      changes.push(result.falseFire ? "hook now fires" : "hook no longer fires");
    }
    if (changes.length) prompts.push({ line: result.line, prompt: result.prompt, changes });
  }
  return { figures, prompts, added, removed: previous.size };
}
