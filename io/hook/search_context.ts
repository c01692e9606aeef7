/**
 * The search augment's I/O: find the knowledge base, open its index cheaply, apply the session
 * ledger the prompt hook keeps, decide, record the pointers shown, and leave a debug record.
 *
 * @module
 */
import { decideSearch, type SearchDecision } from "../../core/search_augment/match.ts";
import { resolveKb } from "../config.ts";
import { HOOK_TRUST_MS, openIndex } from "../index/store.ts";
import { kbCacheDir } from "../paths.ts";
import { debugEnabled, fetchCommand, RecordedError, recordFailure } from "./prompt_context.ts";
import { appendDebug, lazyLedger, writeLedger } from "./session.ts";

/** One search tool call to decide for. */
export interface SearchRequest {
  /** The search's phrases (core/search_augment/terms.ts); none means nothing to do. */
  phrases: string[];
  /** The tool searched with (`Grep`, `Glob`, `Bash`), for the debug record. */
  tool: string;
  /** With a session, pointers it was shown are not repeated, and new ones are recorded. */
  sessionId?: string;
  kbFlag?: string;
}

/** The decision and where it came from. */
export interface SearchResult {
  decision: SearchDecision;
  kbDir: string;
  ms: number;
}

/** The debug record's `event`. */
const EVENT = "search";

/**
 * Decide what a search surfaces and record the pointers in the session's ledger. A failure is
 * written to the debug log (when enabled) and rethrown as a {@link RecordedError}.
 */
export async function contextForSearch(request: SearchRequest): Promise<SearchResult> {
  const started = performance.now();
  const { kbDir } = resolveKb(request.kbFlag);
  try {
    const cacheDir = kbCacheDir(kbDir);
    const { reader } = await openIndex(kbDir, { trustStampMs: HOOK_TRUST_MS, hook: true });
    const { sessionId } = request;
    const sessionLedger = lazyLedger(cacheDir, sessionId);
    const decision = decideSearch(
      request.phrases,
      reader,
      () => sessionLedger().ledger,
      fetchCommand(kbDir),
    );
    const pointers = decision.assembly?.pointers ?? [];
    if (sessionId && pointers.length) {
      const { ledger, isNew } = sessionLedger();
      for (const pointer of pointers) ledger[pointer.id] = pointer.hash;
      writeLedger(cacheDir, sessionId, ledger, isNew);
    }
    const ms = performance.now() - started;
    if (debugEnabled()) {
      appendDebug(cacheDir, {
        ts: new Date().toISOString(),
        event: EVENT,
        session: request.sessionId ?? null,
        tool: request.tool,
        outcome: decision.outcome,
        phrases: decision.matches,
        surfaced: pointers.map((pointer) => pointer.id),
        deduped: decision.deduped,
        bytes: decision.assembly ? new TextEncoder().encode(decision.assembly.text).length : 0,
        ms: Number(ms.toFixed(2)),
      });
    }
    return { decision, kbDir, ms };
  } catch (error) {
    recordFailure(error, kbDir, EVENT);
    throw new RecordedError(error);
  }
}

/** Write a failure outside {@link contextForSearch} to the debug log (when enabled). */
export function recordSearchFailure(error: unknown): void {
  if (!(error instanceof RecordedError)) recordFailure(error, undefined, EVENT);
}
