/**
 * How long `git-kb eval` takes, in-process, on a synthetic knowledge base (`bench/generate.ts`):
 * a golden file of prompts made from entry titles (each expecting its entry) and mechanical
 * prompts (expecting nothing), replayed through the hook's decision and search. The target is
 * under a second for 200 prompts on 5,000 entries, so eval can run on every save.
 *
 * ```sh
 * deno task bench:eval [--entries 5000] [--prompts 200] [--runs 7] [--seed 1]
 * ```
 *
 * @module
 */
import { goldenLine } from "../core/eval/golden.ts";
import { join } from "../core/path.ts";
import { evaluate } from "../io/eval.ts";
import { openIndex } from "../io/index/store.ts";
import { formatMs, median, progress } from "./_timing.ts";
import { createRandom, generateKb, parseFlags } from "./generate.ts";

/** Prompts that should surface nothing, as a session has them. */
const CHATTER = [
  "thanks, that works",
  "looks good, push it",
  "can you make this function shorter",
  "remove the console.log",
  "what does this do?",
];

/** A golden file of `count` prompts for the generated entries: four in five expect one entry. */
function goldenFor(titles: { id: string; title: string }[], count: number, seed: number): string {
  const random = createRandom(seed);
  const lines: string[] = [];
  for (let index = 0; index < count; index++) {
    if (index % 5 === 4) {
      lines.push(goldenLine(random.pick(CHATTER), []));
      continue;
    }
    const { id, title } = random.pick(titles);
    const words = title.toLowerCase().split(" ");
    const start = random.int(0, Math.max(0, words.length - 3));
    lines.push(
      goldenLine(`how do we handle ${words.slice(start, start + 3).join(" ")} here?`, [id]),
    );
  }
  return lines.join("\n") + "\n";
}

async function main(): Promise<void> {
  const flags = parseFlags(Deno.args);
  const entries = Number(flags.get("entries") ?? 5000);
  const prompts = Number(flags.get("prompts") ?? 200);
  const runs = Number(flags.get("runs") ?? 7);
  const seed = Number(flags.get("seed") ?? 1);
  const work = Deno.makeTempDirSync({ prefix: "git-kb-eval-bench-" });
  try {
    Deno.env.set("TMPDIR", work);
    Deno.env.set("XDG_CACHE_HOME", work);
    const kbDir = join(work, "kb");
    progress(`generating ${entries} entries…`);
    const generated = await generateKb(kbDir, entries, seed);
    const titles = generated.entries.filter(({ entry }) => entry.status === "active")
      .map(({ entry }) => ({ id: entry.id, title: entry.title }));
    const golden = join(kbDir, "golden.jsonl");
    Deno.writeTextFileSync(golden, goldenFor(titles, prompts, seed));
    await openIndex(kbDir, { full: true });
    const whole: number[] = [];
    const replay: number[] = [];
    for (let round = 0; round < runs + 1; round++) {
      const started = performance.now();
      const report = await evaluate(kbDir, golden);
      const ms = performance.now() - started;
      if (round === 0) {
        progress(`warm-up: hook recall@5 ${report.run.summary.hook.recall5.toFixed(3)}`);
        continue;
      }
      whole.push(ms);
      replay.push(report.ms);
      progress(
        `  run ${round}/${runs}: ${formatMs(ms)} ms (replay and scoring ${formatMs(report.ms)})`,
      );
    }
    const total = median(whole);
    console.log("| measurement | median | target |\n|---|---:|---|");
    console.log(
      `| \`eval\` of ${prompts} prompts on ${entries} entries, in-process (index check included) | ${
        formatMs(total)
      } ms | < 1,000 ms: ${total < 1000 ? "met" : "**not met**"} |`,
    );
    console.log(`| of which replay and scoring | ${formatMs(median(replay))} ms | |`);
  } finally {
    Deno.removeSync(work, { recursive: true });
  }
}

if (import.meta.main) await main();
