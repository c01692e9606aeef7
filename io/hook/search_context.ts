/**
 * The search augment's I/O: find the knowledge base, open its index cheaply, apply the session
 * ledger the prompt hook keeps, decide, record the pointers shown, and leave a debug record.
 *
 * @module
 */
import { decideSearch, type SearchDecision } from "../../core/search_augment/match.ts";
import { recordFailure } from "./debug_log.ts";
import { runContextPipeline } from "./pipeline.ts";

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
 * written to the debug log (when enabled) and rethrown as a `RecordedError`.
 */
export function contextForSearch(request: SearchRequest): Promise<SearchResult> {
  return runContextPipeline({
    sessionId: request.sessionId,
    kbFlag: request.kbFlag,
    event: EVENT,
    decide: ({ reader, seen, fetch }) => decideSearch(request.phrases, reader, seen, fetch),
    decideAcross: async (parts, fetch) =>
      (await import("../../core/kbs/across.ts")).decideSearchAcross(request.phrases, parts, fetch),
    debugFields: (decision, { ms }) => ({
      event: EVENT,
      session: request.sessionId ?? null,
      tool: request.tool,
      outcome: decision.outcome,
      phrases: decision.matches,
      surfaced: decision.assembly?.pointers.map((pointer) => pointer.id) ?? [],
      deduped: decision.deduped,
      bytes: decision.assembly ? new TextEncoder().encode(decision.assembly.text).length : 0,
      ms: Number(ms.toFixed(2)),
    }),
  });
}

/** Write a failure of the search hook outside {@link contextForSearch} to the debug log. */
export function recordSearchFailure(error: unknown): void {
  recordFailure(error, undefined, EVENT);
}
