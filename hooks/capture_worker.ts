/**
 * The capture's background half, started detached by the SessionEnd and PreCompact hook
 * (hooks/capture.ts) with `{"session","transcript","event"}` on stdin: runs the capture
 * (io/capture/run.ts) within {@link WORKER_BOUND_MS} past the model's own timeout, then exits,
 * killing the model's process group if it still runs. Prints nothing; every outcome and failure
 * is a debug record (`KB_HOOK_DEBUG=1`, `event: "capture"`, `stage: "worker"`).
 *
 * @module
 */
import { captureConfig } from "../core/capture/candidates.ts";
import { errorSummary, type HookPayload } from "../core/hook/payload.ts";
import { captureSession, type CaptureTrace } from "../io/capture/run.ts";
import { resolveKb } from "../io/config.ts";
import { appendDebugRecord } from "../io/hook/debug_log.ts";
import { runHookOnStdio } from "../io/hook/stdin.ts";
import { envVar } from "../io/env.ts";
import { withoutRepoHooks } from "../io/git.ts";

/** The largest request accepted: a session id and a path. */
const MAX_INPUT_BYTES = 64 * 1024;

/** What the run may take besides the model's timeout: reading, the index, writing proposals. */
export const WORKER_BOUND_MS = 30_000;

function text(payload: HookPayload, field: string): string {
  const value = payload[field];
  if (typeof value !== "string" || !value) throw new Error(`the capture request has no ${field}`);
  return value;
}

/**
 * Run the capture of the request on stdin. Never throws. Past the bound, the model is stopped
 * (with its group) and the process exits 0. No git hook of the knowledge base runs.
 */
export async function runCaptureWorker(): Promise<void> {
  withoutRepoHooks();
  const started = performance.now();
  const config = captureConfig(envVar);
  const stop = new AbortController();
  const boundMs = config.timeoutMs + WORKER_BOUND_MS;
  const bound = setTimeout(() => {
    stop.abort(new Error(`the capture ran past its bound of ${boundMs} ms`));
    // What does not end on the abort (a git call, a read) ends with the process.
    setTimeout(() => Deno.exit(0), 2_000);
  }, boundMs);
  const trace: CaptureTrace = { outcome: "skipped", reason: "" };
  let kbDir: string | undefined;
  await runHookOnStdio(MAX_INPUT_BYTES, async (payload) => {
    kbDir = resolveKb().kbDir;
    const request = {
      session: text(payload, "session"),
      transcript: text(payload, "transcript"),
      event: text(payload, "event"),
    };
    await captureSession(kbDir, request, config, trace, stop.signal);
    return "";
  }, (error) => {
    trace.outcome = "error";
    trace.reason = errorSummary(error);
  });
  clearTimeout(bound);
  try {
    appendDebugRecord(kbDir, {
      event: "capture",
      stage: "worker",
      ...trace,
      ms: Number((performance.now() - started).toFixed(2)),
    });
  } catch { /* the debug log is best effort */ }
}

if (import.meta.main) {
  await runCaptureWorker();
  Deno.exit(0);
}
