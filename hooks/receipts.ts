/**
 * Claude Code PostToolUse hook for Bash: delivery receipts. When a command the agent ran fetched
 * entries with `git-kb get <ids>` (any spelling of the CLI: core/delivery/receipts.ts), the ids go into
 * the session's receipts, beside its ledger, for `git-kb stats`: with several knowledge bases, the
 * receipts of the one each id came from, whose ledger holds its pointer; the words of a `git-kb search`
 * are kept too, so an entry fetched after it with no pointer to it (a near miss) is recorded with
 * them, for `git-kb review` to propose as its aliases. Prints nothing; exit 0 always.
 * A command that fetches and searches nothing is decided from the payload alone.
 *
 * @module
 */
import { type HookPayload, textField } from "../core/hook/payload.ts";
import { fetchedByKb, fetchesPerKb, searchedWords } from "../core/delivery/fetched_ids.ts";
import { withFetched, withSearch } from "../core/delivery/receipts.ts";
import { runHookOnStdio } from "../io/hook/stdin.ts";

/** The largest stdin accepted (the payload carries the command's output too). */
const MAX_INPUT_BYTES = 16 * 1024 * 1024;

/** The debug record's `event`. */
const EVENT = "receipt";

/**
 * Record what the payload's command fetched, each id in the receipts of the knowledge base it
 * came from (see `fetchesPerKb`), and the words it searched in every configured one's (a search
 * reads them all); returns the ids recorded.
 */
export async function recordReceipt(payload: HookPayload): Promise<string[]> {
  const sessionId = textField(payload, "session_id");
  const command = (payload.tool_input as Record<string, unknown> | null | undefined)?.command;
  if (payload.tool_name !== "Bash" || typeof command !== "string" || sessionId === undefined) {
    return [];
  }
  const fetched = fetchedByKb(command);
  const searched = searchedWords(command);
  if (!fetched.length && !searched.length) return [];
  const [{ resolveKbs }, { kbCacheDir, resolvePath }, { updateReceipts }, debugLog, session] =
    await Promise.all([
      import("../io/config.ts"),
      import("../io/paths.ts"),
      import("../io/hook/receipts.ts"),
      import("../io/hook/debug_log.ts"),
      import("../io/hook/session.ts"),
    ]);
  const { kbs } = resolveKbs();
  const ledgers = new Map(kbs.map((kb) => [
    kb.kbDir,
    session.lazyLedger(kbCacheDir(kb.kbDir), sessionId),
  ]));
  const shownIn = (kbDir: string) => ledgers.get(kbDir)?.().ledger ?? {};
  const perKb = fetchesPerKb(
    kbs,
    fetched,
    resolvePath,
    (kbDir, id) => Object.hasOwn(shownIn(kbDir), id),
  );
  const recorded: string[] = [];
  for (const { kbDir } of kbs) {
    const ids = perKb.get(kbDir) ?? [];
    if (!ids.length && !searched.length) continue;
    const shown = ids.length ? shownIn(kbDir) : {};
    updateReceipts(
      kbCacheDir(kbDir),
      sessionId,
      (receipts) => withFetched(withSearch(receipts, searched), ids, shown),
    );
    recorded.push(...ids);
  }
  if (recorded.length) {
    debugLog.appendDebugRecord(kbs[0].kbDir, {
      event: EVENT,
      session: sessionId,
      outcome: "fetched",
      fetched: recorded,
    });
  }
  return recorded;
}

/**
 * Run the hook on this process's stdin. Never throws: a failure records nothing (and leaves a
 * debug record when `KB_HOOK_DEBUG=1`).
 */
export function runReceiptsHook(): Promise<void> {
  return runHookOnStdio(MAX_INPUT_BYTES, async (payload) => {
    await recordReceipt(payload);
    return "";
  }, async (error) => {
    const { recordFailure } = await import("../io/hook/debug_log.ts");
    recordFailure(error, undefined, EVENT);
  });
}

if (import.meta.main) {
  await runReceiptsHook();
  Deno.exit(0);
}
