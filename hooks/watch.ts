/**
 * Claude Code SessionStart hook (`async: true`, on startup, resume and clear): the session's
 * freshness watch (io/index/watch.ts). It checks every configured knowledge base file by file
 * every 30 seconds while the session lasts, so an entry edited in place reaches the prompt hook
 * within a period, and prints nothing. It ends when Claude Code ends the session (SIGTERM, which
 * the real client sends its background hooks as it exits, without waiting for them), within a
 * second when the client is gone without that (io/hook/session_alive.ts) or a newer watch of the
 * same client took over (a `/clear`, a second start: io/hook/client_watch.ts), and after 12 hours
 * at most. A check
 * and the end are debug records (`KB_HOOK_DEBUG=1`); every failure is one too. Exit 0 always.
 *
 * `KB_TEST_WATCH_PERIOD_MS` shortens the period (to no less than 100 ms) for the tests.
 *
 * @module
 */
import { errorSummary, textField } from "../core/hook/payload.ts";
import { resolveKbs } from "../io/config.ts";
import { appendDebugRecord, recordFailure } from "../io/hook/debug_log.ts";
import { claimClientWatch } from "../io/hook/client_watch.ts";
import { hookClient, sessionAliveTest } from "../io/hook/session_alive.ts";
import { terminationSignal } from "../io/process.ts";
import { runHookOnStdio } from "../io/hook/stdin.ts";
import { WATCH_PERIOD_MS, type WatchEnd, watchFreshness } from "../io/index/watch.ts";
import {
  type HandOff,
  handOffIfLearned,
  type HookTrace,
  recordCaptureDecision,
  WATCH_SETTLING,
} from "../io/capture/decide.ts";

/** The largest stdin accepted; a SessionStart payload is a few hundred bytes. */
const MAX_INPUT_BYTES = 1024 * 1024;

/** The debug records' `event`. */
const EVENT = "watch";

/** The shortest period the tests may ask for. */
const MIN_TEST_PERIOD_MS = 100;

/** The period: {@link WATCH_PERIOD_MS}, or the tests' shorter one. */
function periodMs(): number {
  const asked = Number(Deno.env.get("KB_TEST_WATCH_PERIOD_MS"));
  return Number.isFinite(asked) && asked >= MIN_TEST_PERIOD_MS && asked < WATCH_PERIOD_MS
    ? asked
    : WATCH_PERIOD_MS;
}

/** The ends of a watch that are the end of its session: stopped by the client, the client gone, a `/clear`. */
const SESSION_ENDS: ReadonlySet<WatchEnd> = new Set(["stopped", "session-gone", "superseded"]);

/**
 * At the end of the session, the capture's decision (hooks/capture.ts): Claude Code 2.1.197 runs
 * no SessionEnd hook when a background hook (this watch) is still running as `claude -p` exits,
 * so the watch, which sees every end, hands the capture off too (2.1.332 runs it); a capture
 * already made of the same part of the session, or running, is not made again. Quick: one bounded read, then a detached start.
 */
async function captureAtEnd(
  payload: { session: string | null; transcript: string | undefined },
  handOff: HandOff,
) {
  const { session, transcript } = payload;
  if (!session || !transcript) return;
  const started = performance.now();
  const trace: HookTrace = { outcome: "skipped", reason: "" };
  try {
    await handOffIfLearned(
      { event: "SessionEnd", session, transcript },
      handOff,
      trace,
      WATCH_SETTLING,
    );
  } catch (error) {
    trace.outcome = "error";
    trace.reason = errorSummary(error);
  }
  recordCaptureDecision(trace, performance.now() - started);
}

/**
 * Run the watch for the session on this process's stdin until the session ends; then, with
 * `handOff`, the capture's decision ({@link captureAtEnd}). Never throws: a failure is a debug
 * record at most.
 */
export async function runWatchHook(handOff?: HandOff): Promise<void> {
  using stop = terminationSignal();
  await runHookOnStdio(MAX_INPUT_BYTES, async (payload) => {
    const session = textField(payload, "session_id") ?? null;
    const sessionAlive = sessionAliveTest();
    // The newest watch of a client is its one: a `/clear` starts another in the same client.
    using claim = claimClientWatch(hookClient());
    const kbDirs = resolveKbs().kbs.map(({ kbDir }) => kbDir);
    const started = Date.now();
    const end = await watchFreshness(kbDirs, {
      periodMs: periodMs(),
      signal: stop,
      sessionAlive,
      superseded: claim.superseded,
      onCheck: (kbDir, { mode, added, changed, removed, ms }) => {
        if (mode === "fresh") return;
        appendDebugRecord(kbDir, {
          event: EVENT,
          session,
          outcome: mode,
          added,
          changed,
          removed,
          ms: Number(ms.toFixed(2)),
        });
      },
      onFailure: (kbDir, error) => recordFailure(error, kbDir, EVENT),
    });
    for (const kbDir of kbDirs) {
      appendDebugRecord(kbDir, {
        event: EVENT,
        session,
        outcome: "ended",
        end,
        ms: Date.now() - started,
      });
    }
    if (handOff && SESSION_ENDS.has(end)) {
      await captureAtEnd({ session, transcript: textField(payload, "transcript_path") }, handOff);
    }
    return "";
  }, (error) => recordFailure(error, undefined, EVENT));
}

if (import.meta.main) {
  await runWatchHook();
  Deno.exit(0);
}
