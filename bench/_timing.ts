/**
 * Timing helpers shared by the benchmarks: medians, interleaved paired runs, timed processes.
 *
 * @module
 */
import { type ProcessOutput, runProcess } from "../io/process.ts";

/** The median of `values` (NaN for none). */
export function median(values: number[]): number {
  return quantile(values, 0.5);
}

/** The `q` quantile (0–1) of `values`, interpolated between neighbours; NaN for none. */
export function quantile(values: number[], q: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  return sorted[low] + (sorted[Math.ceil(at)] - sorted[low]) * (at - low);
}

export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return "—";
  return ms < 100 ? ms.toFixed(1) : Math.round(ms).toString();
}

export function progress(message: string): void {
  console.error(message);
}

/** What a timed subprocess did. */
export interface ProcessResult extends ProcessOutput {
  ms: number;
}

/** Run a subprocess to completion and time it, spawn to exit. */
export async function timeProcess(
  command: string,
  args: string[],
  cwd: string,
  env: Record<string, string>,
  stdin?: string,
): Promise<ProcessResult> {
  const started = performance.now();
  const output = await runProcess(command, args, { cwd, env, stdin });
  return { ms: performance.now() - started, ...output };
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
