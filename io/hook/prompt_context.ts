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
import { isStorableWord } from "../../core/delivery/receipts.ts";
import { inSecretTest } from "../../core/text/secrets.ts";
import { shellQuote } from "../../core/shell/quote.ts";
import { resolveKb } from "../config.ts";
import { HOOK_TRUST_MS, openIndex } from "../index/store.ts";
import { cacheRoot, kbCacheDir } from "../paths.ts";
import { appendDebug, lazyLedger, writeLedger } from "./session.ts";
import { appendUnmatched } from "./receipts.ts";

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
   * as a subagent's: everything that matches is shown, and still added to the ledger.
   */
  dedup?: boolean;
  /** The debug record's `event` (none for the prompt hook's records). */
  event?: string;
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

function envNumber(name: string, fallback: number): number {
  const value = Number(Deno.env.get(name));
  return Number.isInteger(value) && value > 0 ? value : fallback;
}

/** The decision's tunables, with `KB_HOOK_THRESHOLD` and `KB_HOOK_MAX_ENTRIES` applied. */
export function surfaceConfig(): SurfaceConfig {
  return {
    ...DEFAULT_SURFACE_CONFIG,
    threshold: envNumber("KB_HOOK_THRESHOLD", DEFAULT_SURFACE_CONFIG.threshold),
    maxEntries: envNumber("KB_HOOK_MAX_ENTRIES", DEFAULT_SURFACE_CONFIG.maxEntries),
  };
}

/**
 * The command that fetches entry bodies, as it must be typed: `KB_CLI` (a command prefix, used
 * verbatim) when set, the plugin's launcher under `CLAUDE_PLUGIN_ROOT`, else `git-kb` on PATH;
 * always with `--kb`, since the shell the model runs may not see the plugin's config.
 */
export function fetchCommand(kbDir: string): (ids: string[]) => string {
  const root = Deno.env.get("CLAUDE_PLUGIN_ROOT");
  const cli = Deno.env.get("KB_CLI") || (root ? shellQuote(`${root}/bin/git-kb`) : "git-kb");
  return (ids) => `${cli} get ${ids.join(" ")} --kb ${shellQuote(kbDir)}`;
}

/** Whether hooks write debug records (`KB_HOOK_DEBUG=1`). */
export function debugEnabled(): boolean {
  return Deno.env.get("KB_HOOK_DEBUG") === "1";
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

function record(
  cacheDir: string,
  result: ContextResult,
  request: ContextRequest,
  extra: Record<string, unknown> = {},
  storable = storableWords(request.prompt),
) {
  if (!debugEnabled()) return;
  const { decision } = result;
  const assembly = decision.assembly;
  const keywordHits = Object.entries(decision.termHits).filter(([word]) => storable(word));
  appendDebug(cacheDir, {
    ts: new Date().toISOString(),
    session: request.sessionId ?? null,
    prompt_chars: request.prompt.length,
    outcome: decision.outcome,
    skip_reason: decision.skipReason ?? null,
    activities: decision.activities,
    keyword_hits: Object.fromEntries(keywordHits),
    surfaced: assembly?.pointers.map((pointer) => ({
      id: pointer.id,
      signal: pointer.signal,
      why: pointer.why.filter(storable),
    })) ?? [],
    kernel: assembly?.kernel ?? [],
    kernel_degraded: assembly?.kernelDegraded ?? [],
    near_misses: decision.nearMisses.map((miss) => ({ ...miss, hits: miss.hits.filter(storable) })),
    deduped: decision.deduped,
    bytes: assembly ? new TextEncoder().encode(assembly.text).length : 0,
    ms: Number(result.ms.toFixed(2)),
    ...request.event ? { event: request.event } : {},
    ...extra,
  });
}

/**
 * Record a failure in the debug log (when enabled), as the hook named by `event` (none for the
 * prompt hook); never throws.
 */
export function recordFailure(error: unknown, kbDir?: string, event?: string): void {
  if (!debugEnabled()) return;
  try {
    appendDebug(kbDir ? kbCacheDir(kbDir) : cacheRoot(), {
      ts: new Date().toISOString(),
      ...event ? { event } : {},
      outcome: "error",
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    });
  } catch { /* the debug log is best effort */ }
}

/**
 * Decide what `request.prompt` surfaces. Skipped prompts return before the knowledge base is
 * even located. With a session id, surfaced pointers are added to its ledger.
 */
export async function contextForPrompt(request: ContextRequest): Promise<ContextResult> {
  const started = performance.now();
  const config = { ...surfaceConfig(), explain: request.explain ?? debugEnabled() };
  const skipped = skipReason(request.prompt, config);
  if (skipped) {
    const result = { decision: skippedDecision(skipped), ms: performance.now() - started };
    if (debugEnabled()) {
      try {
        record(kbCacheDir(resolveKb(request.kbFlag).kbDir), result, request);
      } catch { /* no knowledge base configured: nothing to record against */ }
    }
    return result;
  }
  const { kbDir } = resolveKb(request.kbFlag);
  try {
    return await decideAndRecord(request, kbDir, config, started);
  } catch (error) {
    recordFailure(error, kbDir, request.event);
    throw new RecordedError(error);
  }
}

/** An error already written to the knowledge base's debug log. */
export class RecordedError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = "RecordedError";
  }
}

async function decideAndRecord(
  request: ContextRequest,
  kbDir: string,
  config: SurfaceConfig,
  started: number,
): Promise<ContextResult> {
  const cacheDir = kbCacheDir(kbDir);
  const { reader, report } = await openIndex(kbDir, { trustStampMs: HOOK_TRUST_MS, hook: true });
  const { sessionId } = request;
  const sessionLedger = lazyLedger(cacheDir, sessionId);
  const seen = request.dedup === false ? {} : () => sessionLedger().ledger;
  const decision = decide(request.prompt, reader, seen, fetchCommand(kbDir), config);
  const extra: Record<string, unknown> = { index: report.mode };
  if (sessionId && decision.assembly?.pointers.length) {
    const { ledger, isNew } = sessionLedger();
    for (const pointer of decision.assembly.pointers) ledger[pointer.id] = pointer.hash;
    writeLedger(cacheDir, sessionId, ledger, isNew);
  }
  const storable = storableWords(request.prompt);
  if (sessionId && matchedNothing(decision)) {
    const failure = noteUnmatched(cacheDir, sessionId, decision.words.filter(storable));
    if (failure) extra.receipt_error = failure;
  }
  const result = { decision, kbDir, ms: performance.now() - started };
  record(cacheDir, result, request, extra, storable);
  return result;
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
    return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  }
}
