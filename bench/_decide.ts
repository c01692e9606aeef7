/**
 * Helper the hook benchmark runs as a process of its own: time the prompt hook's whole decision
 * (open the index, decide, record) in-process for each prompt, `runs` rounds after one warm-up,
 * and print each prompt's median in ms as one line of JSON. A process of its own, so that the
 * heap a benchmark builds while generating and indexing a knowledge base is not collected
 * during the timings.
 *
 * ```sh
 * deno run -q --allow-read --allow-write=$TMPDIR --allow-env bench/_decide.ts <kb-dir> <runs> <prompt>…
 * ```
 *
 * @module
 */
import { contextForPrompt } from "../io/hook/prompt_context.ts";
import { median } from "./_timing.ts";

/** Each prompt's median decision time over `runs` rounds, after a round that is not counted. */
export async function decisionMedians(
  kbDir: string,
  runs: number,
  prompts: string[],
): Promise<number[]> {
  const samples = prompts.map(() => [] as number[]);
  for (let round = -1; round < runs; round++) {
    for (const [index, prompt] of prompts.entries()) {
      const started = performance.now();
      await contextForPrompt({ prompt, kbFlag: kbDir });
      if (round >= 0) samples[index].push(performance.now() - started);
    }
  }
  return samples.map(median);
}

if (import.meta.main) {
  const [kbDir, runs, ...prompts] = Deno.args;
  if (!kbDir || !(Number(runs) > 0) || !prompts.length) {
    console.error("Usage: bench/_decide.ts <kb-dir> <runs> <prompt>…");
    Deno.exit(2);
  }
  console.log(JSON.stringify(await decisionMedians(kbDir, Number(runs), prompts)));
}
