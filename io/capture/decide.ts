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
 * How the freshness watch waits, at a session's end, for the transcript to be written whole: the
 * client ends the watch as it ends the session, and may still be writing the session's last turns
 * (Claude Code 2.1.197's `claude -p` wrote the fix's result some 30 ms after): read before, the
 * fix is not in it. The transcript is read again once its size has not changed for `quietMs`
 * (checked every `everyMs`), after `maxMs` at most.
 */
export interface Settling {
  quietMs: number;
  everyMs: number;
  maxMs: number;
}

/** The watch's {@link Settling}: half a second of quiet, two seconds at most. */
export const WATCH_SETTLING: Settling = { quietMs: 500, everyMs: 50, maxMs: 2_000 };

/** The transcript's size in bytes, undefined when it cannot be looked at. */
function sizeOf(path: string): number | undefined {
  try {
    return Deno.statSync(path).size;
  } catch {
    return undefined;
  }
}

/** Resolves once the file at `path` has kept its size for `quietMs`, or after `maxMs`. */
async function settled(path: string, { quietMs, everyMs, maxMs }: Settling): Promise<void> {
  const started = Date.now();
  let size = sizeOf(path);
  let quietSince = started;
  while (Date.now() - quietSince < quietMs && Date.now() - started < maxMs) {
    await new Promise((resolve) => setTimeout(resolve, everyMs));
    const now = sizeOf(path);
    if (now !== size) {
      size = now;
      quietSince = Date.now();
    }
  }
}

/**
 * Whether the session `session` (its transcript at `transcript`) taught something since an
 * earlier capture of it read its transcript; if so, hand the capture to the worker. With
 * `settling`, a transcript that shows no lesson is read once more when it has stopped growing
 * ({@link Settling}). Fills in `trace`; throws on a failure.
 */
export async function handOffIfLearned(
  request: { event: string; session: string; transcript: string },
  handOff: HandOff,
  trace: HookTrace,
  settling?: Settling,
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
  const learned = () =>
    findLessons(
      transcriptTurns(
        readTranscriptTail(transcript, TRANSCRIPT_TAIL_BYTES, { after: covered }).text,
      ),
    ).length > 0;
  if (!learned() && !(settling && await settled(transcript, settling).then(learned))) {
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
