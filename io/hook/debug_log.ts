/**
 * The hooks' debug log (`KB_HOOK_DEBUG=1`): whether it is on, one record appended, a failure
 * recorded. Records go to the knowledge base's cache (`debug.jsonl`, see ./session.ts), or to
 * the cache root when no knowledge base is found. Writing a record never fails a hook.
 *
 * @module
 */
import { errorSummary } from "../../core/hook/payload.ts";
import { cacheRoot, kbCacheDir } from "../paths.ts";
import { appendDebug } from "./session.ts";

/** Whether hooks write debug records (`KB_HOOK_DEBUG=1`). */
export function debugEnabled(): boolean {
  try {
    return Deno.env.get("KB_HOOK_DEBUG") === "1";
  } catch {
    return false;
  }
}

/**
 * Append one record, stamped with `ts` first, to the debug log of `kbDir` (the cache root
 * without one) when debugging is on. Throws when the write fails; {@link recordFailure} does not.
 */
export function appendDebugRecord(
  kbDir: string | undefined,
  fields: Record<string, unknown>,
): void {
  if (!debugEnabled()) return;
  appendDebug(kbDir ? kbCacheDir(kbDir) : cacheRoot(), { ts: new Date().toISOString(), ...fields });
}

/**
 * Record a failure (when debugging is on) as the hook named by `event` (none for the prompt
 * hook); never throws. An error already recorded ({@link RecordedError}) is not recorded twice.
 */
export function recordFailure(error: unknown, kbDir?: string, event?: string): void {
  if (error instanceof RecordedError) return;
  try {
    appendDebugRecord(kbDir, {
      ...event ? { event } : {},
      outcome: "error",
      error: errorSummary(error),
    });
  } catch { /* the debug log is best effort */ }
}

/** An error already written to the debug log, rethrown so the hook still fails open. */
export class RecordedError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = "RecordedError";
  }
}
