/**
 * The context pipeline every hook that surfaces entries runs: find the knowledge base, open its
 * index cheaply, read the session's ledger only if the decision asks for it, decide, add the
 * pointers shown to the ledger, leave a debug record, and on any failure record it and rethrow
 * it as a {@link RecordedError} (the stdio runner then prints nothing: the hook fails open).
 *
 * A new hook is one pure decision function plus a few lines of wiring:
 *
 * ```ts
 * // hooks/my_hook.ts
 * const EVENT = "my-hook";
 * export async function myHookOutput(payload: HookPayload): Promise<string> {
 *   const words = myWords(payload); // pure, from core/: most calls stop here, nothing loaded
 *   if (!words.length) return "";
 *   const { runContextPipeline } = await import("../io/hook/pipeline.ts");
 *   const { decision } = await runContextPipeline({
 *     sessionId: textField(payload, "session_id"),
 *     event: EVENT,
 *     decide: ({ reader, seen, fetch }) => decideMine(words, reader, seen, fetch), // pure
 *     // several knowledge bases: the same, merged (see core/kbs/across.ts), loaded only then
 *     decideAcross: async (parts, fetch) => (await import("./mine_across.ts")).decide(words, parts, fetch),
 *     debugFields: (decision, { ms }) => ({ event: EVENT, outcome: decision.outcome, ms }),
 *   });
 *   const text = decision.assembly?.text;
 *   return text ? JSON.stringify({ hookSpecificOutput: { additionalContext: text } }) : "";
 * }
 * if (import.meta.main) {
 *   await runHookOnStdio(1024 * 1024, myHookOutput, (error) => recordFailure(error, undefined, EVENT));
 *   Deno.exit(0);
 * }
 * ```
 *
 * @module
 */
import type { Ledger } from "../../core/prompt/decision.ts";
import type { IndexReader } from "../../core/index/reader.ts";
import type { KbPart } from "../../core/kbs/across.ts";
import { kbCommand } from "../self_command.ts";
import { resolveKbs } from "../config.ts";
import { HOOK_TRUST_MS, openIndex, type RefreshReport } from "../index/store.ts";
import { readerInForce } from "../kernel/acceptance.ts";
import { kbCacheDir } from "../paths.ts";
import { appendDebugRecord, debugEnabled, RecordedError, recordFailure } from "./debug_log.ts";
import { lazyLedger, recordShown } from "./session.ts";

/** What a decision function is given: all it may read. */
export interface DecisionInput {
  /** The knowledge base's index, listing only the kernel rules this user accepted. */
  reader: IndexReader;
  /** The session's ledger, read on the first call (an empty one without a session). */
  seen: () => Ledger;
  /** The command line that fetches the given entries ({@link fetchCommand}). */
  fetch: (ids: string[]) => string;
}

/** The part of a decision the pipeline reads: the pointers it shows, if any. */
export interface SurfacingDecision {
  assembly?: { pointers: readonly { id: string; hash: string }[] };
}

/** What the pipeline knows once the decision is made, for the debug record. */
export interface DecisionFacts {
  /** How the index was opened (`fresh`, `incremental`, `full`). */
  index: RefreshReport["mode"];
  /** Milliseconds since the pipeline started. */
  ms: number;
}

/** One hook's run through the pipeline. */
export interface ContextStep<D extends SurfacingDecision> {
  /** With a session, its ledger feeds `seen` and gets the pointers shown. */
  sessionId?: string;
  /** The `--kb` flag, if any. */
  kbFlag?: string;
  /** The debug record's `event` for a failure (none for the prompt hook). */
  event?: string;
  /**
   * How the decision says to fetch the entries it points at; by default the `get` command line
   * ({@link fetchCommand}, one per knowledge base where several are read).
   */
  fetch?: (ids: string[]) => string;
  /** When the pipeline started (`performance.now()`); now by default. */
  started?: number;
  /** The pure decision. */
  decide: (input: DecisionInput) => D;
  /**
   * The decision over several knowledge bases (the default first; ids qualified, see
   * core/kbs/across.ts), when the config names more than one. `fetch` takes qualified ids.
   */
  decideAcross: (parts: KbPart[], fetch: (ids: string[]) => string) => D | Promise<D>;
  /**
   * The hook's own side records, after the ledger is written (the prompt hook counts an
   * unmatched prompt); returns debug fields naming what failed there, a failure that must not
   * stop the hook's output.
   */
  afterDecision?: (decision: D, cacheDir: string) => Record<string, unknown>;
  /** The debug record's fields (`ts` is added); called only when debugging is on. */
  debugFields: (decision: D, facts: DecisionFacts) => Record<string, unknown>;
}

/** The decision and where it came from. */
export interface ContextOutcome<D> {
  decision: D;
  kbDir: string;
  ms: number;
}

/**
 * The command that fetches entry bodies, as it must be typed (`kbCommand`: every word quoted);
 * always with `--kb`, since the shell the model runs may not see the plugin's config.
 */
export function fetchCommand(kbDir: string): (ids: string[]) => string {
  return (ids) => kbCommand("get", ...ids, "--kb", kbDir);
}

/**
 * Run `step` through the pipeline. A failure after the knowledge base is found is recorded
 * against it and rethrown as a {@link RecordedError}; one before (no knowledge base) is thrown
 * as is, for the runner's failure record. Several configured knowledge bases are read by
 * `./across.ts`, loaded only then.
 */
export async function runContextPipeline<D extends SurfacingDecision>(
  step: ContextStep<D>,
): Promise<ContextOutcome<D>> {
  const started = step.started ?? performance.now();
  const { kbs } = resolveKbs(step.kbFlag);
  if (kbs.length > 1) return (await import("./across.ts")).runAcross(step, kbs, started);
  const [{ kbDir }] = kbs;
  try {
    const cacheDir = kbCacheDir(kbDir);
    const { reader, report } = await openIndex(kbDir, { trustStampMs: HOOK_TRUST_MS, hook: true });
    const { sessionId } = step;
    const sessionLedger = lazyLedger(cacheDir, sessionId);
    const decision = step.decide({
      reader: readerInForce(reader),
      seen: () => sessionLedger().ledger,
      fetch: step.fetch ?? fetchCommand(kbDir),
    });
    recordShown(cacheDir, sessionId, sessionLedger, decision.assembly?.pointers ?? []);
    const sideFailures = step.afterDecision?.(decision, cacheDir);
    const ms = performance.now() - started;
    if (debugEnabled()) {
      const fields = step.debugFields(decision, { index: report.mode, ms });
      appendDebugRecord(kbDir, { ...fields, ...sideFailures });
    }
    return { decision, kbDir, ms };
  } catch (error) {
    recordFailure(error, kbDir, step.event);
    throw new RecordedError(error);
  }
}
