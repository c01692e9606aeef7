/**
 * Retrieval quality on the shared tldr-pages development split (`../shared/bench/`, derived
 * from tldr-pages, CC BY 4.0, © the tldr-pages team and contributors): converts the corpus into
 * a knowledge base in a temp folder, writes the held-out queries (each expecting its page) and
 * the negative prompts (expecting nothing) as golden files, and runs `git-kb eval` on them, the
 * prompt hook and search.
 *
 * The split is cut in two halves by a hash of each prompt's text ({@link halfOf}): the tuning
 * half, whose misses are printed, and the held-out half, reported in numbers only, so that a
 * change tuned on the one is checked on prompts it was not tuned on. `negatives.own.jsonl`
 * beside this file holds negatives of the team's own (instructions about the code in front of
 * the model), written before the firing rule they check and never tuned on. `fresh/` holds a
 * set written blind for issue 19 (natural questions whose answer is one page, and prompts about
 * the code in front of the model), cut in the same two halves. Prints the tuning half's eval
 * report, then a table of the whole split, both halves, the own negatives and both halves of the
 * fresh set beside the baselines measured on the same split.
 *
 * ```sh
 * deno task bench:retrieval [--data ../shared/bench] [--misses 10]
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

interface CorpusPage {
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

function readJsonl<T>(path: string): T[] {
  return Deno.readTextFileSync(path).split("\n").filter((line) => line.trim()).map((line) =>
    JSON.parse(line) as T
  );
}

/** The id a corpus page gets: its position in base 36, so the mapping needs no table. */
function idOf(index: number): string {
  return `kb-${index.toString(36).padStart(5, "0")}`;
}

/** Write the corpus as entries; tags and titles are clipped to the contract's limits. */
function writeKb(dir: string, corpus: CorpusPage[]): void {
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

const ownNegativesPath = fileURLToPath(new URL("negatives.own.jsonl", import.meta.url));
const freshDir = fileURLToPath(new URL("fresh", import.meta.url));

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
  const ids = new Map(corpus.map((page, index) => [page.key, idOf(index)]));
  const dev = [
    ...readJsonl<Case>(join(data, "queries.dev.jsonl")),
    ...readJsonl<Case>(join(data, "negatives.dev.jsonl")),
  ];
  const work = Deno.makeTempDirSync({ prefix: "git-kb-retrieval-" });
  try {
    Deno.env.set("TMPDIR", work);
    Deno.env.set("XDG_CACHE_HOME", work);
    const kbDir = join(work, "kb");
    writeKb(kbDir, corpus);
    const tuning = await evaluateCases(
      kbDir,
      "golden.tuning.jsonl",
      dev.filter(({ query }) => halfOf(query) === "tuning"),
      ids,
    );
    console.log(formatReport(tuning, Number(flags.get("misses") ?? 10)));
    const reports: [string, EvalReport][] = [
      ["dev split, whole", await evaluateCases(kbDir, "golden.dev.jsonl", dev, ids)],
      ["tuning half", tuning],
      [
        "held-out half",
        await evaluateCases(
          kbDir,
          "golden.held-out.jsonl",
          dev.filter(({ query }) => halfOf(query) === "held-out"),
          ids,
        ),
      ],
      [
        "own negatives",
        await evaluateCases(kbDir, "golden.own.jsonl", readJsonl<Case>(ownNegativesPath), ids),
      ],
    ];
    const fresh = [
      ...readJsonl<Case>(join(freshDir, "queries.jsonl")),
      ...readJsonl<Case>(join(freshDir, "negatives.jsonl")),
    ];
    for (const half of ["tuning", "held-out"] as const) {
      const cases = fresh.filter(({ query }) => halfOf(query) === half);
      reports.push([
        `fresh set, ${half} half`,
        await evaluateCases(kbDir, `golden.fresh.${half}.jsonl`, cases, ids),
      ]);
    }
    const row = (name: string, r1: number, r5: number, mrr: number, fires: string) =>
      `| ${name} | ${r1.toFixed(3)} | ${r5.toFixed(3)} | ${mrr.toFixed(3)} | ${fires} |`;
    console.log(`\ntldr-pages dev split, ${tuning.entries} entries:\n`);
    console.log("| method | recall@1 | recall@5 | MRR@10 | fires on negatives |");
    console.log("|---|---:|---:|---:|---:|");
    for (const [name, report] of reports) {
      const { hook, search, positives, negatives } = report.run.summary;
      const fires = `${hook.falseFires} of ${negatives}`;
      if (positives) {
        console.log(row(`git-kb search, ${name}`, search.recall1, search.recall5, search.mrr, "—"));
        console.log(
          row(`git-kb prompt hook, ${name}`, hook.recall1, hook.recall5, hook.mrr, fires),
        );
      } else console.log(`| git-kb prompt hook, ${name} | — | — | — | ${fires} |`);
    }
    for (const [name, r1, r5, mrr, fires] of BASELINES) {
      console.log(row(`${name} (baseline, whole split)`, r1, r5, mrr, fires));
    }
  } finally {
    Deno.removeSync(work, { recursive: true });
  }
}

if (import.meta.main) await main();
