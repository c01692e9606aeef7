/**
 * Claude Code PostToolUse hook for Bash: delivery receipts. When a command the agent ran fetched
 * entries with `git-kb get <ids>` (any spelling of the CLI: core/delivery/receipts.ts), the ids go into
 * the session's receipts, beside its ledger, for `git-kb stats`. Prints nothing; exit 0 always.
 * A command that fetches nothing is decided from the payload alone.
 *
 * @module
 */
import { fetchedIds } from "../core/delivery/fetched_ids.ts";
import { withFetched } from "../core/delivery/receipts.ts";
import { runHookOnStdio } from "../io/hook/stdin.ts";

/** The largest stdin accepted (the payload carries the command's output too). */
const MAX_INPUT_BYTES = 16 * 1024 * 1024;

/** The debug record's `event`. */
const EVENT = "receipt";

/** Record what the payload's command fetched; returns the ids recorded. */
export async function recordReceipt(input: string): Promise<string[]> {
  const payload: unknown = JSON.parse(input);
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return [];
  const { tool_name: tool, tool_input: toolInput, session_id: sessionId } = payload as Record<
    string,
    unknown
  >;
  const command = (toolInput as Record<string, unknown> | null | undefined)?.command;
  if (tool !== "Bash" || typeof command !== "string" || typeof sessionId !== "string") return [];
  const ids = fetchedIds(command);
  if (!ids.length) return [];
  const [{ resolveKb }, { kbCacheDir }, { updateReceipts }, { debugEnabled }] = await Promise.all([
    import("../io/config.ts"),
    import("../io/paths.ts"),
    import("../io/hook/receipts.ts"),
    import("../io/hook/prompt_context.ts"),
  ]);
  const { kbDir } = resolveKb();
  const cacheDir = kbCacheDir(kbDir);
  updateReceipts(cacheDir, sessionId, (receipts) => withFetched(receipts, ids));
  if (debugEnabled()) {
    const { appendDebug } = await import("../io/hook/session.ts");
    appendDebug(cacheDir, {
      ts: new Date().toISOString(),
      event: EVENT,
      session: sessionId,
      outcome: "fetched",
      fetched: ids,
    });
  }
  return ids;
}

/**
 * Run the hook on this process's stdin. Never throws: a failure records nothing (and leaves a
 * debug record when `KB_HOOK_DEBUG=1`).
 */
export function runReceiptsHook(): Promise<void> {
  return runHookOnStdio(MAX_INPUT_BYTES, async (input) => {
    await recordReceipt(input);
    return "";
  }, async (error) => {
    const { recordFailure } = await import("../io/hook/prompt_context.ts");
    recordFailure(error, undefined, EVENT);
  });
}

if (import.meta.main) {
  await runReceiptsHook();
  Deno.exit(0);
}
