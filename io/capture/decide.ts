/**
 * The capture's first, cheap decision, made as a session ends or is compacted (hooks/capture.ts)
 * and when the freshness watch sees the session end (hooks/watch.ts): whether the part of the
 * transcript no earlier capture of the session read holds a lesson, and if so, the hand-off to the
 * detached capture worker (hooks/capture_worker.ts). See spec/capture.md.
 *
 * @module
 */
import { captureDisabled } from "../../core/capture/candidates.ts";
import { findLessons, transcriptTurns } from "../../core/capture/transcript.ts";
import { configSetting, resolveKb } from "../config.ts";
import { envVar } from "../env.ts";
import { appendDebugRecord } from "../hook/debug_log.ts";
import { kbCacheDir } from "../paths.ts";
import { readCaptureState } from "./session_state.ts";
import { readTranscriptTail, TRANSCRIPT_TAIL_BYTES } from "./transcript_file.ts";

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
 * `trace`; throws on a failure.
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
  const part = readTranscriptTail(transcript, TRANSCRIPT_TAIL_BYTES, { after: covered });
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
