/**
 * Retrieval quality on the shared tldr-pages development split (`../shared/bench/`, derived
 * from tldr-pages, CC BY 4.0, © the tldr-pages team and contributors): converts the corpus into
 * a knowledge base in a temp folder, writes the held-out queries (each expecting its page) and
 * the negative prompts (expecting nothing) as a golden file, and runs `git-kb eval` on it, the
 * prompt hook and search. Prints eval's report, then a table beside the baselines measured on
 * the same split.
 *
 * ```sh
 * deno task bench:retrieval [--data ../shared/bench] [--misses 10]
 * ```
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { blankEntry, serializeEntry } from "../core/entry/entry.ts";
import { goldenLine } from "../core/eval/golden.ts";
import { join } from "../core/path.ts";
import { evaluate } from "../io/eval.ts";
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

/** The dev queries (each expecting its page) and the negatives (expecting nothing). */
function goldenFile(data: string, ids: Map<string, string>): string {
  const queries = readJsonl<{ query: string; target: string }>(join(data, "queries.dev.jsonl"));
  const negatives = readJsonl<{ query: string }>(join(data, "negatives.dev.jsonl"));
  return [
    ...queries.map(({ query, target }) => goldenLine(query, [ids.get(target)!])),
    ...negatives.map(({ query }) => goldenLine(query, [])),
  ].join("\n") + "\n";
}

async function main(): Promise<void> {
  const flags = parseFlags(Deno.args);
  const data = flags.get("data") ?? fileURLToPath(new URL("../../shared/bench", import.meta.url));
  const corpus = readJsonl<CorpusPage>(join(data, "corpus.jsonl"));
  const ids = new Map(corpus.map((page, index) => [page.key, idOf(index)]));
  const work = Deno.makeTempDirSync({ prefix: "git-kb-retrieval-" });
  try {
    Deno.env.set("TMPDIR", work);
    Deno.env.set("XDG_CACHE_HOME", work);
    const kbDir = join(work, "kb");
    writeKb(kbDir, corpus);
    Deno.writeTextFileSync(join(kbDir, "golden.dev.jsonl"), goldenFile(data, ids));
    const report = await evaluate(kbDir, join(kbDir, "golden.dev.jsonl"));
    console.log(formatReport(report, Number(flags.get("misses") ?? 10)));
    const { hook, search, negatives } = report.run.summary;
    const row = (name: string, r1: number, r5: number, mrr: number, fires: string) =>
      `| ${name} | ${r1.toFixed(3)} | ${r5.toFixed(3)} | ${mrr.toFixed(3)} | ${fires} |`;
    console.log(`\ntldr-pages dev split, ${report.entries} entries:\n`);
    console.log("| method | recall@1 | recall@5 | MRR@10 | fires on negatives |");
    console.log("|---|---:|---:|---:|---:|");
    console.log(row("git-kb search", search.recall1, search.recall5, search.mrr, "—"));
    console.log(
      row(
        "git-kb prompt hook",
        hook.recall1,
        hook.recall5,
        hook.mrr,
        `${hook.falseFires} of ${negatives}`,
      ),
    );
    for (const [name, r1, r5, mrr, fires] of BASELINES) {
      console.log(row(`${name} (baseline)`, r1, r5, mrr, fires));
    }
  } finally {
    Deno.removeSync(work, { recursive: true });
  }
}

if (import.meta.main) await main();
