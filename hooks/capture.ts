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
import { CAPTURE_MARKER } from "../core/capture/candidates.ts";
import { errorSummary, type HookPayload, textField } from "../core/hook/payload.ts";
import { JUDGE_MARKER } from "../core/judge/verdict.ts";
import {
  type HandOff,
  handOffIfLearned,
  type HookTrace,
  recordCaptureDecision,
} from "../io/capture/decide.ts";
import { runHookOnStdio } from "../io/hook/stdin.ts";
import { envVar } from "../io/env.ts";

export type { HandOff };

/** The largest stdin accepted; a SessionEnd or PreCompact payload is a few hundred bytes. */
const MAX_INPUT_BYTES = 1024 * 1024;

/** The events capture runs on. */
const EVENTS = new Set(["SessionEnd", "PreCompact"]);

/** Decide on the payload; hand the work off when the session taught something. */
async function decide(payload: HookPayload, handOff: HandOff, trace: HookTrace): Promise<string> {
  const event = textField(payload, "hook_event_name") ?? "";
  trace.event = event;
  const session = textField(payload, "session_id");
  const transcript = textField(payload, "transcript_path");
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
