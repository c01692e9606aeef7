/**
 * Claude Code SessionEnd and PreCompact hook: when the session taught something (a command that
 * failed and then worked, a fix the user confirmed), hand the capture of it to a process of its
 * own (hooks/capture_worker.ts) and return at once. The decision is cheap: the last 256 KiB of
 * the transcript not read by an earlier capture of the session, read once, no model. An empty or
 * purely conversational session starts nothing. Prints nothing; exit 0 always; with
 * `KB_HOOK_DEBUG=1` each run leaves a record (`event: "capture"`). See spec/capture.md.
 *
 * @module
 */
import { CAPTURE_MARKER, captureDisabled } from "../core/capture/candidates.ts";
import { findLessons, transcriptTurns } from "../core/capture/transcript.ts";
import { errorSummary, type HookPayload, textField } from "../core/hook/payload.ts";
import { JUDGE_MARKER } from "../core/judge/verdict.ts";
import { configSetting, resolveKb } from "../io/config.ts";
import { readCaptureState } from "../io/capture/session_state.ts";
import { TRANSCRIPT_TAIL_BYTES } from "../io/capture/run.ts";
import { readTranscriptTail } from "../io/capture/transcript_file.ts";
import { appendDebugRecord } from "../io/hook/debug_log.ts";
import { runHookOnStdio } from "../io/hook/stdin.ts";
import { kbCacheDir } from "../io/paths.ts";
import { envVar } from "../io/env.ts";

/** The largest stdin accepted; a SessionEnd or PreCompact payload is a few hundred bytes. */
const MAX_INPUT_BYTES = 1024 * 1024;

/** The events capture runs on. */
const EVENTS = new Set(["SessionEnd", "PreCompact"]);

/** Starts the capture worker with the request on its stdin, detached (app/self_cli.ts). */
export type HandOff = (request: string) => Promise<void>;

/** What a capture decision found and why: the debug record. */
export interface HookTrace {
  outcome: "skipped" | "handed-off" | "error";
  reason: string;
  event?: string;
  kbDir?: string;
  session?: string;
}

/**
 * Whether the session `session` (its transcript at `transcript`) taught something since an
 * earlier capture of it read its transcript; if so, hand the capture to the worker. Fills in
 * `trace`; throws on a failure. Shared by this hook and the freshness watch, which sees the
 * session end even where the client runs no SessionEnd hook (hooks/watch.ts).
 */
export async function handOffIfLearned(
  request: { event: string; session: string; transcript: string },
  handOff: HandOff,
  trace: HookTrace,
): Promise<void> {
  const { event, session, transcript } = request;
  trace.event = event;
  trace.session = session;
  if (captureDisabled(envVar("GIT_KB_CAPTURE"), configSetting("capture"))) {
    trace.reason = "capture is off (GIT_KB_CAPTURE or the config's capture: false)";
    return;
  }
  const { kbDir } = resolveKb();
  trace.kbDir = kbDir;
  const { covered } = readCaptureState(kbCacheDir(kbDir), session);
  const part = await readTranscriptTail(transcript, TRANSCRIPT_TAIL_BYTES, { after: covered });
  if (!findLessons(transcriptTurns(part.text)).length) {
    trace.reason = "nothing learned: no failure that was then fixed";
    return;
  }
  await handOff(JSON.stringify({ session, transcript, event }));
  trace.outcome = "handed-off";
  trace.reason = "a failure that was then fixed";
}

/** Append the capture decision's record to the debug log (when on); never throws. */
export function recordCaptureDecision(trace: HookTrace, ms: number): void {
  try {
    appendDebugRecord(trace.kbDir, {
      event: "capture",
      stage: "hook",
      hook_event: trace.event ?? null,
      session: trace.session ?? null,
      outcome: trace.outcome,
      reason: trace.reason,
      ms: Number(ms.toFixed(2)),
    });
  } catch { /* the debug log is best effort */ }
}

/** Decide on the payload; hand the work off when the session taught something. */
async function decide(payload: HookPayload, handOff: HandOff, trace: HookTrace): Promise<string> {
  const event = textField(payload, "hook_event_name") ?? "";
  trace.event = event;
  const session = textField(payload, "session_id");
  const transcript = typeof payload.transcript_path === "string" ? payload.transcript_path : "";
  if (!EVENTS.has(event)) return trace.reason = `not a capture event: ${event || "none"}`, "";
  if (!session || !transcript) return trace.reason = "no session_id or transcript_path", "";
  await handOffIfLearned({ event, session, transcript }, handOff, trace);
  return "";
}

/**
 * Run the hook on this process's stdin; `handOff` starts the worker. Never throws, prints
 * nothing. Inside a model call of git-kb's own (the judge's or the capture's) it returns at once.
 */
export async function runCaptureHook(handOff: HandOff): Promise<void> {
  if (envVar(CAPTURE_MARKER) === "1" || envVar(JUDGE_MARKER) === "1") return;
  const started = performance.now();
  const trace: HookTrace = { outcome: "skipped", reason: "" };
  await runHookOnStdio(MAX_INPUT_BYTES, (payload) => decide(payload, handOff, trace), (error) => {
    trace.outcome = "error";
    trace.reason = errorSummary(error);
  });
  recordCaptureDecision(trace, performance.now() - started);
}
