/**
 * Retrieval quality of search and the prompt hook, on knowledge bases nobody on the team
 * wrote:
 *
 * - **The tldr-pages development split** (`../shared/bench/`, derived from tldr-pages, CC BY 4.0,
 *   © the tldr-pages team and contributors): 7,013 command pages, terse queries (each expecting
 *   its page) and negatives; `negatives.own.jsonl` beside this file holds negatives of the team's
 *   own, and `fresh/` a set written blind (natural questions, prompts about the code in front of
 *   the model).
 * - **The TIL set** (`til/`, Simon Willison's TIL notes, Apache-2.0): 577 notes, long prompts
 *   written the way developers type to an agent (questions, tasks with context, instructions) and
 *   prompts no note helps with (the user's own code, design, conversation, chores).
 * - **The second TIL set** (`til2/`, Josh Branchaud's TIL notes, MIT): 1,871 notes and prompts
 *   of the same kinds, written after the rest of the firing rule was fixed: its tuning half chose
 *   one figure (`lead`), and its held-out half was measured once, after.
 * - **The third set** (`til3/`, the snippets of 30-seconds-of-code, CC0): 536 JavaScript notes
 *   and prompts of the same kinds, written after the whole firing rule was fixed and tuned on by
 *   nothing: all of it is held out, and its misses are not printed.
 * - **Long prompts** (`long.jsonl` in both TIL folders): 160 a set, of 60 to 400 words (pasted
 *   errors and logs, specs, follow-ups), 80 that one note answers and 80 that no note helps with,
 *   written after the whole firing rule was fixed and tuned on by nothing.
 *
 * Every set is cut in two halves by a hash of each prompt ({@link halfOf}): the tuning half,
 * whose misses are printed, and the held-out half, reported in numbers only, so that a change
 * tuned on the one is checked on prompts it was not tuned on. The 1,234 prompts of
 * `real_prompts.jsonl` (what people typed to coding agents) are the base rate a hook sees: on both
 * knowledge bases, how often the hook fires and how many pointers a fire lists.
 *
 * The firing rule must hold in a small knowledge base as in a large one, so the TIL set is also
 * measured on knowledge bases of a few of its notes ({@link notesSubset}, `--sizes`): its
 * held-out prompts whose note is among them, its held-out negatives, and the real prompts.
 * The real prompts are also run against the sample knowledge base (`fixtures/sample-kb`), whose
 * rules name the kinds of work they apply to (`applies_to`), which no TIL note does.
 *
 * ```sh
 * deno task bench:retrieval [--data ../shared/bench] [--misses 10] [--sizes 40,100,200]
 * ```
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { blankEntry, serializeEntry } from "../core/entry/entry.ts";
import { fnv1a } from "../core/hash.ts";
import { goldenLine } from "../core/eval/golden.ts";
import { join } from "../core/path.ts";
import { type EvalReport, evaluate } from "../io/eval.ts";
import { formatReport } from "../cli/eval.ts";
import { parseFlags } from "./generate.ts";

/** One page of a corpus file: a note and the key the prompts name it by. */
export interface CorpusPage {
  key: string;
  title: string;
  tags: string[];
  body: string;
}

/** The baselines of `baselines.dev.md` (same split): recall@1, recall@5, MRR@10, negatives. */
const BASELINES = [
  ["keyword overlap, threshold 2 (a published per-prompt lookup)", 0.120, 0.177, 0.145, "11 %"],
  ["MiniSearch BM25 (title ×3, tags ×2, body ×1)", 0.193, 0.357, 0.265, "—"],
  ["grep-style token count", 0.197, 0.363, 0.257, "—"],
] as const;

/** The records of a JSON Lines file, blank lines skipped. */
export function readJsonl<T>(path: string): T[] {
  return Deno.readTextFileSync(path).split("\n").filter((line) => line.trim()).map((line) =>
    JSON.parse(line) as T
  );
}

/** The id a corpus page gets: its position in base 36, so the mapping needs no table. */
function idOf(index: number): string {
  return `kb-${index.toString(36).padStart(5, "0")}`;
}

/** Write the corpus as entries; tags and titles are clipped to the contract's limits. */
export function writeKb(dir: string, corpus: CorpusPage[]): void {
  Deno.mkdirSync(join(dir, "entries"), { recursive: true });
  corpus.forEach((page, index) => {
    const entry = {
      ...blankEntry(idOf(index), "2026-01-01"),
      title: page.title.slice(0, 200),
      tags: page.tags.filter((tag) => tag.length <= 64).slice(0, 32),
      body: page.body,
    };
    Deno.writeTextFileSync(join(dir, "entries", `${entry.id}-page.md`), serializeEntry(entry));
  });
}

/** A prompt of the split: a query expects its page, a negative expects nothing. */
interface Case {
  query: string;
  target?: string;
}

/** The half of the split a prompt falls in, by a hash of its text: the same every run. */
export function halfOf(query: string): "tuning" | "held-out" {
  return fnv1a(query) % 2 === 0 ? "tuning" : "held-out";
}

/** A golden file of `cases`, each query expecting its page's id. */
function goldenFile(cases: Case[], ids: Map<string, string>): string {
  return cases.map(({ query, target }) => goldenLine(query, target ? [ids.get(target)!] : []))
    .join("\n") + "\n";
}

/** Evaluate `cases` as the golden file `name` in the knowledge base. */
async function evaluateCases(
  kbDir: string,
  name: string,
  cases: Case[],
  ids: Map<string, string>,
): Promise<EvalReport> {
  const path = join(kbDir, name);
  Deno.writeTextFileSync(path, goldenFile(cases, ids));
  return await evaluate(kbDir, path);
}

const benchDir = fileURLToPath(new URL(".", import.meta.url));

/** A knowledge base written from `corpus` into `dir`, and the id each page got. */
function corpusKb(dir: string, corpus: CorpusPage[]): Map<string, string> {
  writeKb(dir, corpus);
  return new Map(corpus.map((page, index) => [page.key, idOf(index)]));
}

/** The entry files of the knowledge base `from`, copied into a new one at `to`. */
export function copyEntries(from: string, to: string): void {
  Deno.mkdirSync(join(to, "entries"), { recursive: true });
  for (const item of Deno.readDirSync(join(from, "entries"))) {
    if (item.isFile) {
      Deno.copyFileSync(join(from, "entries", item.name), join(to, "entries", item.name));
    }
  }
}

/** The prompts of `real_prompts.jsonl`, as cases that expect nothing. */
function realPrompts(data: string): Case[] {
  return readJsonl<{ prompt: string }>(join(data, "real_prompts.jsonl"))
    .map(({ prompt }) => ({ query: prompt }));
}

/**
 * `size` of the TIL notes, the same every run: the notes of the first `size / 2` targets of
 * `queries`, then other notes, each in the order of a hash of its key and `seed`.
 */
export function notesSubset(
  notes: CorpusPage[],
  queries: Case[],
  size: number,
  seed: number,
): CorpusPage[] {
  const byHash = (keys: string[]) =>
    keys.map((key) => [fnv1a(`${seed}:${key}`), key] as const).sort(([a], [b]) => a - b)
      .map(([, key]) => key);
  const targets = byHash([...new Set(queries.flatMap(({ target }) => target ?? []))]);
  const chosen = new Set(targets.slice(0, Math.ceil(size / 2)));
  for (const key of byHash(notes.map((note) => note.key))) {
    if (chosen.size >= size) break;
    chosen.add(key);
  }
  return notes.filter((note) => chosen.has(note.key));
}

/** The tuning and the held-out half of `cases`, each with its label. */
function halves(label: string, cases: Case[]): [string, Case[]][] {
  return (["tuning", "held-out"] as const).map((half) => [
    `${label}, ${half} half`,
    cases.filter(({ query }) => halfOf(query) === half),
  ]);
}

/**
 * The share of the prompts that expect an entry whose entry search ranks among its first three:
 * the most a hook that lists at most three of search's first entries can reach.
 */
function searchRecallAt3(report: EvalReport): number {
  const answerable = report.run.results.filter((result) => result.expect.length);
  const found = answerable.filter((result) =>
    result.expect.some((id) => result.search.slice(0, 3).includes(id))
  );
  return answerable.length ? found.length / answerable.length : 0;
}

/** A table row: search and hook recall, fires on negatives, pointers per fire and precision. */
function row(name: string, report: EvalReport): string {
  const { hook, search, positives, negatives } = report.run.summary;
  const f = (value: number) => value.toFixed(3);
  const fires = negatives ? `${hook.falseFires} of ${negatives}` : "—";
  const perFire = hook.fires ? (hook.pointers / hook.fires).toFixed(2) : "—";
  const precision = hook.pointers && positives ? f(hook.pointerPrecision) : "—";
  const recall = (value: number) => positives ? f(value) : "—";
  return `| ${name} | ${recall(search.recall1)} | ${recall(searchRecallAt3(report))} | ` +
    `${recall(search.recall5)} | ${recall(hook.recall5)} | ${fires} | ` +
    `${perFire} | ${precision} |`;
}

async function main(): Promise<void> {
  const flags = parseFlags(Deno.args);
  const data = flags.get("data") ?? fileURLToPath(new URL("../../shared/bench", import.meta.url));
  const corpusPath = join(data, "corpus.jsonl");
  let corpus: CorpusPage[];
  try {
    corpus = readJsonl<CorpusPage>(corpusPath);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    console.error(
      `No benchmark data at ${corpusPath}. Pass the folder that holds corpus.jsonl, ` +
        `e.g. deno task bench:retrieval --data ../shared/bench`,
    );
    Deno.exit(2);
  }
  const dev = [
    ...readJsonl<Case>(join(data, "queries.dev.jsonl")),
    ...readJsonl<Case>(join(data, "negatives.dev.jsonl")),
  ];
  const fresh = [
    ...readJsonl<Case>(join(benchDir, "fresh", "queries.jsonl")),
    ...readJsonl<Case>(join(benchDir, "fresh", "negatives.jsonl")),
  ];
  const labelled = (folder: string) => [
    ...readJsonl<Case>(join(benchDir, folder, "queries.jsonl")),
    ...readJsonl<Case>(join(benchDir, folder, "negatives.jsonl")),
  ];
  const til = labelled("til");
  const til2 = labelled("til2");
  const til3 = labelled("til3");
  const long = (folder: string) => readJsonl<Case>(join(benchDir, folder, "long.jsonl"));
  const real = realPrompts(data);
  const work = Deno.makeTempDirSync({ prefix: "git-kb-retrieval-" });
  try {
    Deno.env.set("TMPDIR", work);
    Deno.env.set("XDG_CACHE_HOME", work);
    const tldrDir = join(work, "tldr");
    const tldrIds = corpusKb(tldrDir, corpus);
    const tilDir = join(work, "til");
    const tilNotes = readJsonl<CorpusPage>(join(benchDir, "til", "corpus.jsonl"));
    const tilIds = corpusKb(tilDir, tilNotes);
    const til2Dir = join(work, "til2");
    const til2Ids = corpusKb(
      til2Dir,
      readJsonl<CorpusPage>(join(benchDir, "til2", "corpus.jsonl")),
    );
    const til3Dir = join(work, "til3");
    const til3Ids = corpusKb(
      til3Dir,
      readJsonl<CorpusPage>(join(benchDir, "til3", "corpus.jsonl")),
    );
    type EvalSet = [name: string, dir: string, ids: Map<string, string>, cases: Case[]];
    const inKb = (dir: string, ids: Map<string, string>) => ([name, cases]: [string, Case[]]) =>
      [name, dir, ids, cases] as EvalSet;
    const sets: EvalSet[] = [
      ...halves("TIL set", til).map(inKb(tilDir, tilIds)),
      ...halves("TIL long prompts", long("til")).map(inKb(tilDir, tilIds)),
      ["real prompts (all, as negatives)", tilDir, tilIds, real],
      ["second TIL set, whole", til2Dir, til2Ids, til2],
      ...halves("second TIL set", til2).map(inKb(til2Dir, til2Ids)),
      ...halves("second TIL long prompts", long("til2")).map(inKb(til2Dir, til2Ids)),
      ["real prompts (all, as negatives)", til2Dir, til2Ids, real],
      ["third set, whole", til3Dir, til3Ids, til3],
      ...halves("third set", til3).map(inKb(til3Dir, til3Ids)),
      ["third set long prompts, whole", til3Dir, til3Ids, long("til3")],
      ["real prompts (all, as negatives)", til3Dir, til3Ids, real],
      ["tldr split, whole", tldrDir, tldrIds, dev],
      ...halves("tldr split", dev).map(inKb(tldrDir, tldrIds)),
      [
        "tldr own negatives",
        tldrDir,
        tldrIds,
        readJsonl<Case>(join(benchDir, "negatives.own.jsonl")),
      ],
      ...halves("tldr fresh set", fresh).map(inKb(tldrDir, tldrIds)),
      ["real prompts (all, as negatives)", tldrDir, tldrIds, real],
    ];
    const reports: [string, string, EvalReport][] = [];
    for (const [index, [name, dir, ids, cases]] of sets.entries()) {
      reports.push([name, dir, await evaluateCases(dir, `golden.${index}.jsonl`, cases, ids)]);
    }
    const misses = Number(flags.get("misses") ?? 10);
    for (const [name, dir, report] of reports) {
      if (name.endsWith("tuning half") && dir !== til2Dir && dir !== til3Dir) {
        console.log(`\n${name}:`);
        console.log(formatReport(report, misses));
      }
    }
    for (
      const [dir, title] of [
        [tilDir, "TIL notes (simonw/til)"],
        [til2Dir, "Second TIL notes (jbranchaud/til)"],
        [til3Dir, "Third set: JavaScript snippets (30-seconds-of-code)"],
        [tldrDir, "tldr-pages"],
      ]
    ) {
      const own = reports.filter(([, at]) => at === dir);
      console.log(`\n${title}, ${own[0][2].entries} entries:\n`);
      console.log(
        "| prompts | search recall@1 | search recall@3 | search recall@5 | hook recall@5 | " +
          "fires on negatives | pointers per fire | pointer precision |",
      );
      console.log("|---|---:|---:|---:|---:|---:|---:|---:|");
      for (const [name, , report] of own) console.log(row(name, report));
    }
    const heldOut = (cases: Case[]) => cases.filter(({ query }) => halfOf(query) === "held-out");
    const tilHeldOut = heldOut(til);
    const realHeldOut = heldOut(real);
    const sizes = (flags.get("sizes") ?? "40,100,200").split(",").map(Number);
    console.log("\nThe TIL set's held-out half on knowledge bases of some of its notes:\n");
    console.log(
      "| entries | seed | answerable | hook recall@5 | fires on negatives | pointer precision | " +
        "real prompts: fires | pointers per fire |",
    );
    console.log("|---:|---:|---:|---:|---:|---:|---:|---:|");
    for (const size of sizes) {
      for (const seed of [1, 2]) {
        const notes = notesSubset(tilNotes, tilHeldOut, size, seed);
        const dir = join(work, `til-${size}-${seed}`);
        const ids = corpusKb(dir, notes);
        const cases = tilHeldOut.filter(({ target }) => !target || ids.has(target));
        const { hook, positives, negatives } =
          (await evaluateCases(dir, "golden.jsonl", cases, ids)).run.summary;
        const onReal = (await evaluateCases(dir, "real.jsonl", realHeldOut, ids)).run.summary;
        const f = (value: number) => value.toFixed(3);
        console.log(
          `| ${notes.length} | ${seed} | ${positives} | ${f(hook.recall5)} | ` +
            `${hook.falseFires} of ${negatives} | ${f(hook.pointerPrecision)} | ` +
            `${onReal.hook.falseFires} of ${onReal.negatives} | ` +
            `${(onReal.hook.pointers / (onReal.hook.fires || 1)).toFixed(2)} |`,
        );
      }
    }
    const sampleDir = join(work, "sample-kb");
    copyEntries(join(benchDir, "..", "fixtures", "sample-kb"), sampleDir);
    const onSample = (await evaluateCases(sampleDir, "real.jsonl", real, new Map())).run.summary;
    console.log(
      `\nThe real prompts against the sample knowledge base (fixtures/sample-kb): ` +
        `${onSample.hook.falseFires} of ${onSample.negatives} fire, ` +
        `${(onSample.hook.pointers / (onSample.hook.fires || 1)).toFixed(2)} pointers per fire.`,
    );
    console.log("\nBaselines on the whole tldr split (recall@1, recall@5, MRR@10, fires):");
    for (const [name, r1, r5, mrr, fires] of BASELINES) {
      console.log(`- ${name}: ${r1.toFixed(3)}, ${r5.toFixed(3)}, ${mrr.toFixed(3)}, ${fires}`);
    }
  } finally {
    Deno.removeSync(work, { recursive: true });
  }
}

if (import.meta.main) await main();
