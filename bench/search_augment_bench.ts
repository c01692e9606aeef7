/**
 * The search augment on the searches agents really ran: `searches/searches.jsonl` holds Grep and
 * Glob patterns and Bash `grep`, `rg` and `find` commands harvested from public agent transcripts
 * (see `searches/README.md`). Each is read as the hook reads its tool input (`searchPhrases`) and
 * decided by the hook's own pipeline (`contextForSearch`) against the knowledge bases that
 * `retrieval.ts` measures: the three TIL sets, the tldr-pages corpus and the sample knowledge base
 * (`fixtures/sample-kb`). These searches are all about the agents' own code, which none of those
 * notes were written for, so every fire is a cost paid in the agent's context.
 *
 * Each search is decided alone, without a session: the ledger that drops a pointer the session
 * was already shown would only lower the counts. The searches are cut in two halves by a hash
 * ({@link halfOf}): the fires of the tuning half are printed, the held-out half is reported in
 * numbers only.
 *
 * ```sh
 * deno task bench:search [--data ../shared/bench] [--sample 15]
 * ```
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { join } from "../core/path.ts";
import { searchPhrases } from "../core/search_augment/terms.ts";
import type { SearchDecision } from "../core/search_augment/match.ts";
import { contextForSearch } from "../io/hook/search_context.ts";
import { openIndex } from "../io/index/store.ts";
import { fnv1a } from "../core/hash.ts";
import { parseFlags } from "./generate.ts";
import { copyEntries, type CorpusPage, halfOf, readJsonl, writeKb } from "./retrieval.ts";

/** One harvested search: the tool call as the hook receives it, and where it was read. */
export interface SearchCall {
  tool_name: "Grep" | "Glob" | "Bash";
  tool_input: { pattern?: string; command?: string };
  /** The transcript's own name for the tool (`ripgrep_raw_search`, `exec_command`, …). */
  agent_tool: string;
  repo: string;
  commit: string;
  path: string;
}

/** The text a search's half is drawn from: its tool and its pattern or command. */
export function searchKey(call: SearchCall): string {
  return `${call.tool_name} ${call.tool_input.pattern ?? call.tool_input.command ?? ""}`;
}

/** What one knowledge base made of a set of searches. */
interface Tally {
  searches: number;
  withTerms: number;
  outcomes: Record<string, number>;
  pointers: number;
  fires: { call: SearchCall; decision: SearchDecision }[];
}

/** Decide every search of `calls` against the knowledge base at `kbDir`. */
async function tally(kbDir: string, calls: SearchCall[]): Promise<Tally> {
  const result: Tally = {
    searches: calls.length,
    withTerms: 0,
    outcomes: {},
    pointers: 0,
    fires: [],
  };
  for (const call of calls) {
    const phrases = searchPhrases(call.tool_name, call.tool_input);
    if (!phrases.length) continue;
    result.withTerms++;
    const { decision } = await contextForSearch({ phrases, tool: call.tool_name, kbFlag: kbDir });
    result.outcomes[decision.outcome] = (result.outcomes[decision.outcome] ?? 0) + 1;
    const shown = decision.assembly?.pointers.length ?? 0;
    if (!shown) continue;
    result.pointers += shown;
    result.fires.push({ call, decision });
  }
  return result;
}

/** A share as a percentage with one decimal. */
function percent(part: number, whole: number): string {
  return whole ? `${(100 * part / whole).toFixed(1)} %` : "—";
}

/** A table row: searches, with terms, fires, pointers per fire, and the phrases too generic. */
function row(name: string, { searches, withTerms, fires, pointers, outcomes }: Tally): string {
  const perFire = fires.length ? (pointers / fires.length).toFixed(2) : "—";
  return `| ${name} | ${searches} | ${withTerms} | ${fires.length} (${
    percent(fires.length, searches)
  }) | ${perFire} | ${outcomes.too_generic ?? 0} | ${outcomes.unnamed ?? 0} |`;
}

/** One fire as a line: the search, and each pointer with the phrase that matched it. */
function fireLine({ call, decision }: Tally["fires"][number]): string {
  const what = call.tool_input.pattern ?? call.tool_input.command ?? "";
  const pointers = decision.assembly!.pointers.map((pointer) =>
    `"${pointer.title}" (${pointer.why.join(" ")})`
  );
  return `- ${call.tool_name} \`${what.slice(0, 120)}\` → ${pointers.join("; ")}`;
}

async function main(): Promise<void> {
  const flags = parseFlags(Deno.args);
  const benchDir = fileURLToPath(new URL(".", import.meta.url));
  const data = flags.get("data") ?? fileURLToPath(new URL("../../shared/bench", import.meta.url));
  const sample = Number(flags.get("sample") ?? 15);
  const calls = readJsonl<SearchCall>(join(benchDir, "searches", "searches.jsonl"));
  const halves = (["tuning", "held-out"] as const).map((half) =>
    [half, calls.filter((call) => halfOf(searchKey(call)) === half)] as const
  );
  const corpora: [string, string][] = [
    ["TIL notes (simonw/til)", join(benchDir, "til", "corpus.jsonl")],
    ["Second TIL notes (jbranchaud/til)", join(benchDir, "til2", "corpus.jsonl")],
    ["Third set (30-seconds-of-code)", join(benchDir, "til3", "corpus.jsonl")],
    ["tldr-pages", join(data, "corpus.jsonl")],
    ["Sample knowledge base", ""],
  ];
  const work = Deno.makeTempDirSync({ prefix: "git-kb-search-bench-" });
  try {
    Deno.env.set("TMPDIR", work);
    Deno.env.set("XDG_CACHE_HOME", work);
    console.log(
      `${calls.length} searches from ${new Set(calls.map((call) => call.repo)).size} ` +
        `repositories; each decided alone, without a session.\n`,
    );
    console.log(
      "| knowledge base, half | searches | with terms | fires | pointers per fire | " +
        "too generic | matched, not named |",
    );
    console.log("|---|---:|---:|---:|---:|---:|---:|");
    const printed: [string, Tally][] = [];
    for (const [index, [title, path]] of corpora.entries()) {
      const kbDir = join(work, `kb${index}`);
      if (path) writeKb(kbDir, readJsonl<CorpusPage>(path));
      else copyEntries(join(benchDir, "..", "fixtures", "sample-kb"), kbDir);
      // Built here, as `git-kb index` would: a hook leaves a build this large to the watch.
      const { reader } = await openIndex(kbDir);
      for (const [half, part] of halves) {
        const result = await tally(kbDir, part);
        console.log(row(`${title}, ${reader.manifest.docCount} entries, ${half}`, result));
        if (half === "tuning") printed.push([title, result]);
      }
    }
    for (const [title, result] of printed) {
      console.log(
        `\n${title}, tuning half: ${Math.min(sample, result.fires.length)} of ` +
          `${result.fires.length} fires`,
      );
      const byHash = result.fires.map((fire) => [fnv1a(searchKey(fire.call)), fire] as const)
        .sort(([a], [b]) => a - b);
      for (const [, fire] of byHash.slice(0, sample)) console.log(fireLine(fire));
    }
  } finally {
    Deno.removeSync(work, { recursive: true });
  }
}

if (import.meta.main) await main();
