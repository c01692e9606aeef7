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
   * this many ms (clamped to {@link MAX_TIMEOUT_MS}). Output pipes still held open by its own
   * children are abandoned, not awaited.
   */
  timeoutMs?: number;
  /**
   * Start the child in a process group of its own (a new session: `detached`), so that what it
   * leaves behind can be told apart from this process's own group and killed with it: on a
   * timeout, an abort, and when this process is interrupted (SIGINT, SIGTERM, SIGHUP) while the
   * child runs, since a signal to this process's group no longer reaches it (then
   * {@link ProcessInterruptedError} is thrown).
   */
  ownGroup?: boolean;
  /**
   * Once the child has exited, wait at most this many ms for its output pipes to close, then
   * take what arrived: processes it left running may hold them open for as long as they live.
   * Without it, the output is read to its end.
   */
  exitGraceMs?: number;
  /**
   * Stop the child as a timeout would (killed, with its group under `ownGroup`) when this is
   * aborted, and throw the signal's reason.
   */
  signal?: AbortSignal;
}

/** The longest timeout a timer can hold (2^31 - 1 ms, about 24.8 days); longer ones fire at once. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** Raised when a subprocess outlived its `timeoutMs` and was killed. */
export class ProcessTimeoutError extends Error {
  constructor(program: string, timeoutMs: number) {
    super(`${program} did not finish within ${timeoutMs} ms and was killed`);
    this.name = "ProcessTimeoutError";
  }
}

/** Raised when this process was interrupted while its child in a group of its own ran. */
export class ProcessInterruptedError extends Error {
  /** The signal that interrupted this process, `SIGINT`. */
  readonly signal: Deno.Signal;
  constructor(program: string, signal: Deno.Signal) {
    super(`${program} was stopped: this process got ${signal}`);
    this.name = "ProcessInterruptedError";
    this.signal = signal;
  }
}

/** A stream being read as text: `done` settles at its end; `cancel` stops early. */
interface Collector {
  done: Promise<void>;
  /** What arrived so far. */
  text(): string;
  cancel(): void;
}

/** Read a stream to the end as text; `cancel` stops early and keeps what arrived. */
function collect(stream: ReadableStream<Uint8Array>): Collector {
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let collected = "";
  const done = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return void (collected += decoder.decode());
      collected += decoder.decode(value, { stream: true });
    }
  })();
  done.catch(() => {});
  return { done, text: () => collected, cancel: () => void reader.cancel().catch(() => {}) };
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

/** A promise that resolves to `value` after `ms`, and the way to cancel its timer. */
function after<T>(ms: number, value: T): { promise: Promise<T>; clear(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<T>((resolve) => {
    timer = setTimeout(() => resolve(value), Math.min(Math.max(ms, 0), MAX_TIMEOUT_MS));
  });
  return { promise, clear: () => clearTimeout(timer) };
}

/**
 * Kill what is left of the process group led by `pid`: with `Deno.kill` where the process may
 * run any program (Deno's rule for signalling a pid), else through the `kill` program (the
 * judge's profile grants `--allow-run=<judge>,kill`). Without either, or with no process left,
 * nothing happens.
 */
function killGroup(pid: number): void {
  try {
    Deno.kill(-pid, "SIGKILL");
  } catch {
    // Deno.kill needs a blanket --allow-run; the judge's profile grants only `kill` itself.
    try {
      new Deno.Command("kill", {
        args: ["-KILL", "--", `-${pid}`],
        stdin: "null",
        stdout: "null",
        stderr: "null",
      }).spawn().status.catch(() => {});
    } catch { /* not permitted either, or no kill program: the group is left to end */ }
  }
}

/** A promise that resolves to "aborted" once `signal` is aborted (never, without one). */
function aborted(signal: AbortSignal | undefined): Promise<"aborted"> | undefined {
  if (!signal) return undefined;
  return new Promise((resolve) => {
    if (signal.aborted) resolve("aborted");
    else signal.addEventListener("abort", () => resolve("aborted"), { once: true });
  });
}

/** The signals that end a command run from a terminal or a supervisor. */
export const INTERRUPTS: readonly Deno.Signal[] = ["SIGINT", "SIGTERM", "SIGHUP"];

/**
 * A promise that resolves to the first of {@link INTERRUPTS} this process gets while listening,
 * and the way to stop listening. Where a signal cannot be listened for, it is left alone.
 */
function interrupts(): { promise: Promise<Deno.Signal>; stop(): void } {
  let stop = () => {};
  const promise = new Promise<Deno.Signal>((resolve) => stop = onSignals(INTERRUPTS, resolve));
  return { promise, stop };
}

/**
 * Call `heard` with each of `signals` this process gets, instead of the default (ending it);
 * returns the way to stop listening. A signal the platform cannot listen for is left alone.
 */
function onSignals(signals: readonly Deno.Signal[], heard: (signal: Deno.Signal) => void) {
  const listeners: [Deno.Signal, () => void][] = [];
  for (const signal of signals) {
    const listener = () => heard(signal);
    try {
      Deno.addSignalListener(signal, listener);
      listeners.push([signal, listener]);
    } catch { /* not a signal this platform lets a program listen for */ }
  }
  return () => {
    for (const [signal, listener] of listeners) Deno.removeSignalListener(signal, listener);
  };
}

/**
 * Run `program args…` and wait for it. A child that stops reading stdin early (it refused a
 * large input) is not an error: its exit code says what happened. With `timeoutMs`, a child
 * still running by then is killed (with its group, see {@link ProcessOptions.ownGroup}) and
 * {@link ProcessTimeoutError} is thrown.
 */
export async function runProcess(
  program: string,
  args: string[],
  options: ProcessOptions = {},
): Promise<ProcessOutput> {
  const { stdin, timeoutMs, ownGroup = false } = options;
  // Listen before the child starts: an interrupt in between would end this process by default
  // and leave the child's group, which a signal to this process's group does not reach, running.
  const interrupt = ownGroup ? interrupts() : undefined;
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(program, {
      args,
      cwd: options.cwd,
      env: options.env,
      clearEnv: options.clearEnv,
      stdin: stdin === undefined ? "null" : "piped",
      stdout: "piped",
      stderr: "piped",
      detached: ownGroup,
    }).spawn();
  } catch (error) {
    interrupt?.stop();
    throw error;
  }
  const stdout = collect(child.stdout);
  const stderr = collect(child.stderr);
  const writer = stdin === undefined ? undefined : child.stdin.getWriter();
  const fed = writer ? feed(writer, stdin!) : undefined;
  const expiry = timeoutMs === undefined ? undefined : after(timeoutMs, "expired" as const);
  const stop = () => {
    stdout.cancel();
    stderr.cancel();
    writer?.abort().catch(() => {});
    if (ownGroup) killGroup(child.pid);
  };
  const ends = [child.status, expiry?.promise, aborted(options.signal), interrupt?.promise];
  let status = await Promise.race(ends.filter((end) => end !== undefined));
  // A signal that also aborted `signal` (a hook's own SIGTERM handling) is reported as the abort.
  if (typeof status === "string" && status !== "expired" && options.signal?.aborted) {
    status = "aborted";
  }
  if (typeof status === "string") {
    try {
      child.kill("SIGKILL");
    } catch { /* it exited just now */ }
    stop();
    // Only now: a second interrupt before the group was killed would have ended this process.
    interrupt?.stop();
    await child.status;
    expiry?.clear();
    if (status === "aborted") throw options.signal!.reason;
    if (status !== "expired") throw new ProcessInterruptedError(program, status);
    throw new ProcessTimeoutError(program, timeoutMs!);
  }
  interrupt?.stop();
  const drained = Promise.all([stdout.done, stderr.done, fed]);
  const grace = options.exitGraceMs === undefined ? undefined : after(options.exitGraceMs, null);
  const limits = [grace?.promise, expiry?.promise].filter((item) => item !== undefined);
  await Promise.race([drained, ...limits]);
  grace?.clear();
  expiry?.clear();
  stop();
  return { code: status.code, stdout: stdout.text(), stderr: stderr.text() };
}

/**
 * An abort signal raised by SIGTERM, the way Claude Code stops its hooks and its MCP server when
 * a session ends, instead of this process dying at once (`signals`: those that raise it, for a
 * process that must outlive Ctrl-C as well); dispose of it to stop listening. A signal the
 * platform cannot listen for (SIGTERM on Windows) never raises it: the sender's kill ends the
 * process there.
 */
export function terminationSignal(
  signals: readonly Deno.Signal[] = ["SIGTERM"],
): AbortSignal & Disposable {
  const stop = new AbortController();
  const ignore = onSignals(
    signals,
    (signal) => stop.abort(new Error(`the session ended (${signal})`)),
  );
  return Object.assign(stop.signal, { [Symbol.dispose]: ignore });
}

/**
 * Start `program args…` in a session and process group of its own (`detached`), hand it `stdin`
 * and let it run on after this process exits: no output is read (stdout and stderr go nowhere)
 * and this process does not wait for it. A signal to this process's group (a client stopping its
 * hook) does not reach it, so it must bound its own time. Resolves once `stdin` is written.
 */
export async function startDetached(program: string, args: string[], stdin: string): Promise<void> {
  const child = new Deno.Command(program, {
    args,
    stdin: "piped",
    stdout: "null",
    stderr: "null",
    detached: true,
  }).spawn();
  const writer = child.stdin.getWriter();
  await feed(writer, stdin);
  child.unref();
}
