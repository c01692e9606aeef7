/**
 * Timing helpers shared by the benchmarks: medians, interleaved paired runs, timed processes.
 *
 * @module
 */

export function median(values: number[]): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return "—";
  return ms < 100 ? ms.toFixed(1) : Math.round(ms).toString();
}

export function progress(message: string): void {
  console.error(message);
}

/** What a timed subprocess did. */
export interface ProcessResult {
  ms: number;
  code: number;
  stdout: string;
  stderr: string;
}

export const decoder = new TextDecoder();

export async function timeProcess(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  stdin?: string,
): Promise<ProcessResult> {
  const started = performance.now();
  const child = new Deno.Command(command, {
    args,
    cwd,
    env,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(stdin));
    await writer.close();
  }
  const output = await child.output();
  const ms = performance.now() - started;
  return {
    ms,
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}

/** A timed subject: returns milliseconds (or throws to abort the measurement). */
export type Subject = (round: number) => Promise<number>;

/**
 * Run every subject once to warm up, then `runs` rounds in which each runs once, the order
 * rotating every round. Returns the samples of each subject, in the order given.
 */
export async function interleaved(
  label: string,
  runs: number,
  subjects: Subject[],
): Promise<number[][]> {
  const samples = subjects.map(() => [] as number[]);
  for (const subject of subjects) await subject(-1);
  for (let round = 0; round < runs; round++) {
    for (let step = 0; step < subjects.length; step++) {
      const index = (round + step) % subjects.length;
      samples[index].push(await subjects[index](round));
    }
    progress(
      `  ${label} ${round + 1}/${runs}: ` +
        samples.map((list) => formatMs(list[list.length - 1])).join(" / ") + " ms",
    );
  }
  return samples;
}

export async function timed(action: () => unknown): Promise<number> {
  const started = performance.now();
  await action();
  return performance.now() - started;
}
