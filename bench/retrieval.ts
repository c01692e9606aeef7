/**
 * Retrieval quality on the shared tldr-pages development split (`../shared/bench/`): converts
 * the corpus into a knowledge base in a temp folder, indexes it, and reports search recall@1/@5
 * and MRR@10, the prompt hook's recall@5 and fire rate, and how often the hook fires on the
 * negative prompts.
 *
 * ```sh
 * deno task bench:retrieval [--data ../shared/bench]
 * ```
 *
 * @module
 */
import { blankEntry, serializeEntry } from "../core/entry.ts";
import { join } from "../core/path.ts";
import { search } from "../core/rank.ts";
import { decide, DEFAULT_SURFACE_CONFIG } from "../core/surface.ts";
import { openIndex } from "../io/index_store.ts";
import { parseFlags } from "./generate.ts";

interface CorpusPage {
  key: string;
  title: string;
  tags: string[];
  body: string;
}

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

async function main(): Promise<void> {
  const flags = parseFlags(Deno.args);
  const data = flags.get("data") ?? new URL("../../shared/bench", import.meta.url).pathname;
  const corpus = readJsonl<CorpusPage>(join(data, "corpus.jsonl"));
  const queries = readJsonl<{ query: string; target: string }>(join(data, "queries.dev.jsonl"));
  const negatives = readJsonl<{ query: string }>(join(data, "negatives.dev.jsonl"));
  const ids = new Map(corpus.map((page, index) => [page.key, idOf(index)]));
  const work = Deno.makeTempDirSync({ prefix: "git-kb-retrieval-" });
  try {
    Deno.env.set("TMPDIR", work);
    const kbDir = join(work, "kb");
    writeKb(kbDir, corpus);
    const { reader, report } = await openIndex(kbDir, { full: true });
    const config = { ...DEFAULT_SURFACE_CONFIG, explain: false };
    const fetch = (list: string[]) => list.join(" ");
    let recall1 = 0, recall5 = 0, reciprocal = 0, hookRecall5 = 0, hookFires = 0;
    for (const { query, target } of queries) {
      const rank = search(reader, [query], { limit: 10 }).findIndex((hit) =>
        hit.doc.id === ids.get(target)
      );
      if (rank === 0) recall1++;
      if (rank >= 0 && rank < 5) recall5++;
      if (rank >= 0) reciprocal += 1 / (rank + 1);
      const pointers = decide(query, reader, {}, fetch, config).assembly?.pointers ?? [];
      if (pointers.length) hookFires++;
      if (pointers.slice(0, 5).some((pointer) => pointer.id === ids.get(target))) hookRecall5++;
    }
    const falseFires = negatives.filter(({ query }) =>
      (decide(query, reader, {}, fetch, config).assembly?.pointers.length ?? 0) > 0
    );
    const share = (count: number) => (count / queries.length).toFixed(3);
    console.log(`tldr-pages dev split: ${report.docCount} entries, ${queries.length} queries`);
    console.log("| measure | value |\n|---|---:|");
    console.log(`| search recall@1 | ${share(recall1)} |`);
    console.log(`| search recall@5 | ${share(recall5)} |`);
    console.log(`| search MRR@10 | ${share(reciprocal)} |`);
    console.log(`| prompt hook recall@5 | ${share(hookRecall5)} |`);
    console.log(`| prompt hook fires on queries | ${share(hookFires)} |`);
    console.log(`| prompt hook fires on negatives | ${falseFires.length} of ${negatives.length} |`);
    for (const { query } of falseFires) console.log(`  fired on: ${JSON.stringify(query)}`);
  } finally {
    Deno.removeSync(work, { recursive: true });
  }
}

if (import.meta.main) await main();
