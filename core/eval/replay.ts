/**
 * Replaying prompts through the prompt hook's decision and through search, as `git-kb eval`
 * does: no session ledger, so every prompt is decided as if it were a session's first.
 *
 * @module
 */
import type { IndexReader } from "../index/reader.ts";
import { search } from "../search/rank.ts";
import { decide, type SurfaceConfig } from "../prompt/decision.ts";

/** How many search hits a replay keeps: enough for MRR@10. */
export const SEARCH_DEPTH = 10;

/** What the hook and search did for one prompt. */
export interface Replayed {
  /** The hook's outcome: skipped, no_signal or surfaced. */
  outcome: string;
  /** The ids the hook pointed to, in order (kernel rules are not pointers). */
  hook: string[];
  /** UTF-8 bytes of the context the hook would add; 0 when it adds none. */
  bytes: number;
  /** The first {@link SEARCH_DEPTH} search hits, best first. */
  search: string[];
}

const encoder = new TextEncoder();

/** Run one prompt through the hook's decision (no ledger) and through search. */
export function replayPrompt(
  reader: IndexReader,
  prompt: string,
  config: SurfaceConfig,
  fetch: (ids: string[]) => string,
): Replayed {
  const decision = decide(prompt, reader, {}, fetch, config);
  const text = decision.assembly?.text ?? "";
  return {
    outcome: decision.outcome,
    hook: decision.assembly?.pointers.map((pointer) => pointer.id) ?? [],
    bytes: text ? encoder.encode(text).length : 0,
    search: search(reader, [prompt], { limit: SEARCH_DEPTH }).map((hit) => hit.doc.id),
  };
}
