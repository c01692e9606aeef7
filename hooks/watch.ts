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
import { textField } from "../core/hook/payload.ts";
import { resolveKbs } from "../io/config.ts";
import { appendDebugRecord, recordFailure } from "../io/hook/debug_log.ts";
import { claimClientWatch } from "../io/hook/client_watch.ts";
import { hookClient, sessionAliveTest } from "../io/hook/session_alive.ts";
import { terminationSignal } from "../io/process.ts";
import { runHookOnStdio } from "../io/hook/stdin.ts";
import { WATCH_PERIOD_MS, watchFreshness } from "../io/index/watch.ts";

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

/**
 * Run the watch for the session on this process's stdin until the session ends. Never throws:
 * a failure is a debug record at most.
 */
export async function runWatchHook(): Promise<void> {
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
    return "";
  }, (error) => recordFailure(error, undefined, EVENT));
}

if (import.meta.main) {
  await runWatchHook();
  Deno.exit(0);
}
