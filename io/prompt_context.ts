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
  type Ledger,
  skippedDecision,
  skipReason,
  type SurfaceConfig,
} from "../core/surface.ts";
import { resolveKb } from "./config.ts";
import { HOOK_TRUST_MS, openIndex } from "./index_store.ts";
import { cacheRoot, kbCacheDir } from "./paths.ts";
import { appendDebug, readLedger, writeLedger } from "./session.ts";

/** One prompt to decide for. */
export interface ContextRequest {
  prompt: string;
  /** With a session, the ledger deduplicates pointers across its prompts. */
  sessionId?: string;
  kbFlag?: string;
  /** Name the near misses (costs reading their records); on by default when debugging. */
  explain?: boolean;
}

/** The decision and where it came from. */
export interface ContextResult {
  decision: Decision;
  kbDir?: string;
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

function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
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

function debugEnabled(): boolean {
  return Deno.env.get("KB_HOOK_DEBUG") === "1";
}

function record(
  cacheDir: string,
  result: ContextResult,
  request: ContextRequest,
  extra: Record<string, unknown> = {},
) {
  if (!debugEnabled()) return;
  const { decision } = result;
  const assembly = decision.assembly;
  appendDebug(cacheDir, {
    ts: new Date().toISOString(),
    session: request.sessionId ?? null,
    prompt_chars: request.prompt.length,
    outcome: decision.outcome,
    skip_reason: decision.skipReason ?? null,
    activities: decision.activities,
    keyword_hits: decision.termHits,
    surfaced: assembly?.pointers.map((pointer) => ({
      id: pointer.id,
      signal: pointer.signal,
      why: pointer.why,
    })) ?? [],
    kernel: assembly?.kernel ?? [],
    kernel_degraded: assembly?.kernelDegraded ?? [],
    near_misses: decision.nearMisses,
    deduped: decision.deduped,
    bytes: assembly ? new TextEncoder().encode(assembly.text).length : 0,
    ms: Number(result.ms.toFixed(2)),
    ...extra,
  });
}

/** Record a failure in the debug log (when enabled); never throws. */
export function recordFailure(error: unknown, kbDir?: string): void {
  if (!debugEnabled()) return;
  try {
    appendDebug(kbDir ? kbCacheDir(kbDir) : cacheRoot(), {
      ts: new Date().toISOString(),
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
    recordFailure(error, kbDir);
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
  const { reader, report } = await openIndex(kbDir, { trustStampMs: HOOK_TRUST_MS });
  const session = request.sessionId ? readLedger(cacheDir, request.sessionId) : undefined;
  const ledger: Ledger = session?.ledger ?? {};
  const decision = decide(request.prompt, reader, ledger, fetchCommand(kbDir), config);
  const extra: Record<string, unknown> = { index: report.mode };
  if (request.sessionId && decision.assembly?.pointers.length) {
    for (const pointer of decision.assembly.pointers) ledger[pointer.id] = pointer.hash;
    writeLedger(cacheDir, request.sessionId, ledger, session?.isNew ?? true);
  }
  const result = { decision, kbDir, ms: performance.now() - started };
  record(cacheDir, result, request, extra);
  return result;
}
