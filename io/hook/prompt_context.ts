/**
 * What the prompt hook and `git-kb context` share: find the knowledge base, open its index
 * cheaply, apply the session ledger, decide, record. They differ only in input and output.
 *
 * @module
 */
import {
  decide,
  type Decision,
  DEFAULT_SURFACE_CONFIG,
  skippedDecision,
  skipReason,
  type SurfaceConfig,
} from "../../core/prompt/decision.ts";
import { errorSummary } from "../../core/hook/payload.ts";
import { isStorableWord } from "../../core/delivery/receipts.ts";
import { inSecretTest } from "../../core/text/secret_words.ts";
import { resolveKb } from "../config.ts";
import { appendDebugRecord, debugEnabled } from "./debug_log.ts";
import { type DecisionFacts, runContextPipeline } from "./pipeline.ts";
import { appendUnmatched } from "./receipts.ts";

export { fetchCommand } from "./pipeline.ts";

/** One prompt to decide for. */
export interface ContextRequest {
  /** The prompt as the user typed it. */
  prompt: string;
  /** With a session, the ledger deduplicates pointers across its prompts. */
  sessionId?: string;
  /** The `--kb` flag, when given: it wins over KB_DIR and the config file. */
  kbFlag?: string;
  /** Name the near misses (costs reading their records); on by default when debugging. */
  explain?: boolean;
  /**
   * Drop what the session's ledger lists (default). Off for a context that starts empty, such
   * as a subagent's: everything that matches is shown, and still added to the ledger, and the
   * prompt's files and code are the task it describes, not a conversation's context.
   */
  dedup?: boolean;
  /** The debug record's `event` (none for the prompt hook's records). */
  event?: string;
  /** How to say to fetch the entries pointed at (by default the `get` command line). */
  fetch?: (ids: string[]) => string;
}

/** The decision and where it came from. */
export interface ContextResult {
  /** What to surface, and why. */
  decision: Decision;
  /** The knowledge base used; undefined when the prompt was skipped before finding it. */
  kbDir?: string;
  /** How long deciding took, in ms. */
  ms: number;
}

/** The variable `name` as a positive number (`whole`: an integer), else `fallback`. */
function envNumber(name: string, fallback: number, whole: boolean): number {
  const value = Number(Deno.env.get(name));
  return value > 0 && (whole ? Number.isInteger(value) : Number.isFinite(value)) ? value : fallback;
}

/**
 * The decision's tunables, with `KB_HOOK_THRESHOLD` (words of evidence, fractions allowed) and
 * `KB_HOOK_MAX_ENTRIES` applied.
 */
export function surfaceConfig(): SurfaceConfig {
  return {
    ...DEFAULT_SURFACE_CONFIG,
    threshold: envNumber("KB_HOOK_THRESHOLD", DEFAULT_SURFACE_CONFIG.threshold, false),
    maxEntries: envNumber("KB_HOOK_MAX_ENTRIES", DEFAULT_SURFACE_CONFIG.maxEntries, true),
  };
}

/**
 * Which words of `prompt` may be written to the cache (receipts, debug records): none that lies
 * inside a credential of the prompt ("my password is hunter2secret") or that is shaped like a
 * token on its own. The prompt is scanned only when a word is asked about, and a long one only
 * around that word.
 */
function storableWords(prompt: string): (word: string) => boolean {
  const inSecret = inSecretTest(prompt);
  return (word) => isStorableWord(word) && !inSecret(word);
}

/** The prompt hook's debug record (without `ts`) for a decided or skipped prompt. */
function debugFields(
  decision: Decision,
  request: ContextRequest,
  ms: number,
  storable: (word: string) => boolean,
): Record<string, unknown> {
  const assembly = decision.assembly;
  const keywordHits = Object.entries(decision.termHits).filter(([word]) => storable(word));
  return {
    session: request.sessionId ?? null,
    prompt_chars: request.prompt.length,
    outcome: decision.outcome,
    skip_reason: decision.skipReason ?? null,
    ...decision.reference
      ? {
        context: {
          kind: decision.reference.kind,
          ...storable(decision.reference.text) ? { text: decision.reference.text } : {},
        },
      }
      : {},
    activities: decision.activities,
    keyword_hits: Object.fromEntries(keywordHits),
    surfaced: assembly?.pointers.map((pointer) => ({
      id: pointer.id,
      signal: pointer.signal,
      why: pointer.why.filter(storable),
    })) ?? [],
    kernel: assembly?.kernel ?? [],
    kernel_degraded: assembly?.kernelDegraded ?? [],
    near_misses: decision.nearMisses.map((miss) => ({
      id: miss.id,
      hits: miss.hits.filter(storable),
      evidence: miss.evidence.filter((item) => item.word.split(" ").every(storable)).map((
        item,
      ) => ({ ...item, weight: Number(item.weight.toFixed(3)) })),
    })),
    ...decision.heldBack ? { held_back: decision.heldBack } : {},
    deduped: decision.deduped,
    bytes: assembly ? new TextEncoder().encode(assembly.text).length : 0,
    ms: Number(ms.toFixed(2)),
    ...request.event ? { event: request.event } : {},
  };
}

/**
 * Decide what `request.prompt` surfaces. Skipped prompts return before the knowledge base is
 * even located. With a session id, surfaced pointers are added to its ledger.
 */
export async function contextForPrompt(request: ContextRequest): Promise<ContextResult> {
  const started = performance.now();
  const startsEmpty = request.dedup === false;
  const config = {
    ...surfaceConfig(),
    explain: request.explain ?? debugEnabled(),
    inConversation: !startsEmpty,
  };
  const skipped = skipReason(request.prompt, config);
  if (skipped) {
    const result = { decision: skippedDecision(skipped), ms: performance.now() - started };
    if (debugEnabled()) {
      try {
        const { kbDir } = resolveKb(request.kbFlag);
        appendDebugRecord(
          kbDir,
          debugFields(result.decision, request, result.ms, storableWords(request.prompt)),
        );
      } catch { /* no knowledge base configured: nothing to record against */ }
    }
    return result;
  }
  const storable = storableWords(request.prompt);
  const { sessionId } = request;
  return await runContextPipeline({
    sessionId,
    kbFlag: request.kbFlag,
    event: request.event,
    fetch: request.fetch,
    started,
    decide: ({ reader, seen, fetch }) =>
      decide(request.prompt, reader, startsEmpty ? {} : seen, fetch, config),
    decideAcross: async (parts, fetch) => {
      const { decideAcross } = await import("../../core/kbs/across.ts");
      const own = startsEmpty ? parts.map((part) => ({ ...part, seen: () => ({}) })) : parts;
      return decideAcross(request.prompt, own, fetch, config);
    },
    afterDecision: (decision, cacheDir): Record<string, unknown> => {
      if (!sessionId || !matchedNothing(decision)) return {};
      const failure = noteUnmatched(cacheDir, sessionId, decision.words.filter(storable));
      return failure ? { receipt_error: failure } : {};
    },
    debugFields: (decision, { index, ms }: DecisionFacts) => ({
      ...debugFields(decision, request, ms, storable),
      index,
    }),
  });
}

/** Whether a decided prompt matched no entry at all (kernel rules alone do not count). */
function matchedNothing(decision: Decision): boolean {
  return decision.outcome !== "skipped" && !decision.assembly?.pointers.length &&
    !decision.deduped.length;
}

/**
 * Count an unmatched prompt and its (storable) words in the session's receipts. Returns why that failed,
 * if it did: a failure here never stops the hook's output.
 */
function noteUnmatched(
  cacheDir: string,
  sessionId: string,
  promptWords: string[],
): string | undefined {
  try {
    appendUnmatched(cacheDir, sessionId, promptWords.filter((word) => word.length > 2));
    return undefined;
  } catch (error) {
    return errorSummary(error);
  }
}
