/**
 * Running a subprocess to completion with optional stdin, collecting its output as text, and
 * optionally killing it when it runs too long.
 *
 * @module
 */

/** What a finished subprocess printed and how it exited. */
export interface ProcessOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/** How to run a subprocess. */
export interface ProcessOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** Start from an empty environment instead of inheriting this process's. */
  clearEnv?: boolean;
  /** Text or bytes piped to stdin; stdin is null otherwise. */
  stdin?: string | Uint8Array;
  /**
   * Kill the child (SIGKILL) and throw {@link ProcessTimeoutError} when it has not exited after
   * this many ms. Output pipes still held open by its own children are abandoned, not awaited.
   */
  timeoutMs?: number;
}

/** Raised when a subprocess outlived its `timeoutMs` and was killed. */
export class ProcessTimeoutError extends Error {
  constructor(program: string, timeoutMs: number) {
    super(`${program} did not finish within ${timeoutMs} ms and was killed`);
    this.name = "ProcessTimeoutError";
  }
}

/** Read a stream to the end as text; `cancel` stops early and keeps what arrived. */
function collect(stream: ReadableStream<Uint8Array>): { text: Promise<string>; cancel(): void } {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  const text = (async () => {
    let collected = "";
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return collected + decoder.decode();
      collected += decoder.decode(value, { stream: true });
    }
  })();
  return { text, cancel: () => void reader.cancel().catch(() => {}) };
}

/** Write `data` to the child's stdin and close it; a child that stops reading is not an error. */
async function feed(
  writer: WritableStreamDefaultWriter<Uint8Array>,
  data: string | Uint8Array,
): Promise<void> {
  try {
    await writer.write(typeof data === "string" ? new TextEncoder().encode(data) : data);
    await writer.close();
  } catch { /* the child stopped reading early */ }
}

/**
 * Run `program args…` and wait for it. A child that stops reading stdin early (it refused a
 * large input) is not an error: its exit code says what happened. With `timeoutMs`, a child
 * still running by then is killed and {@link ProcessTimeoutError} is thrown.
 */
export async function runProcess(
  program: string,
  args: string[],
  options: ProcessOptions = {},
): Promise<ProcessOutput> {
  const { stdin, timeoutMs } = options;
  const child = new Deno.Command(program, {
    args,
    cwd: options.cwd,
    env: options.env,
    clearEnv: options.clearEnv,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stdout = collect(child.stdout);
  const stderr = collect(child.stderr);
  const writer = stdin === undefined ? undefined : child.stdin.getWriter();
  const finished = Promise.all([
    child.status,
    stdout.text,
    stderr.text,
    writer ? feed(writer, stdin!) : undefined,
  ]);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = timeoutMs === undefined ? undefined : new Promise<"expired">((resolve) => {
    timer = setTimeout(() => resolve("expired"), timeoutMs);
  });
  const result = await (expired ? Promise.race([finished, expired]) : finished);
  clearTimeout(timer);
  if (result === "expired") {
    finished.catch(() => {});
    try {
      child.kill("SIGKILL");
    } catch { /* it exited just now */ }
    stdout.cancel();
    stderr.cancel();
    writer?.abort().catch(() => {});
    await child.status;
    throw new ProcessTimeoutError(program, timeoutMs!);
  }
  const [status, out, err] = result;
  return { code: status.code, stdout: out, stderr: err };
}
