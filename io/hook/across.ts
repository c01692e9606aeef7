/**
 * The context pipeline over several knowledge bases (see ./pipeline.ts, which loads this module
 * only when the config names more than one): each index opened cheaply, one decision over all of
 * them, each knowledge base's ledger given the pointers shown from it, one debug record in the
 * default knowledge base's cache. A knowledge base whose index cannot be opened is recorded and
 * passed over; the hook fails (open) only when none can be.
 *
 * @module
 */
import type { IndexReader } from "../../core/index/reader.ts";
import type { Ledger } from "../../core/prompt/decision.ts";
import { splitQualifiedId } from "../../core/kbs/qualified.ts";
import type { KnowledgeBase } from "../config.ts";
import { HOOK_TRUST_MS, openIndex, type RefreshReport } from "../index/store.ts";
import { readerInForce } from "../kernel/acceptance.ts";
import { kbCacheDir } from "../paths.ts";
import { appendDebugRecord, debugEnabled, RecordedError, recordFailure } from "./debug_log.ts";
import {
  type ContextOutcome,
  type ContextStep,
  fetchCommand,
  type SurfacingDecision,
} from "./pipeline.ts";
import { lazyLedger, recordShown } from "./session.ts";

/** A knowledge base whose index opened. */
interface OpenedKb extends KnowledgeBase {
  cacheDir: string;
  reader: IndexReader;
  mode: RefreshReport["mode"];
  ledger: () => { ledger: Ledger; isNew: boolean };
}

/**
 * The command line that fetches entries given by qualified id (`team:kb-7q2mx`): one `get` per
 * knowledge base, each with its `--kb`, joined by `;` so that each runs whatever the others do.
 */
export function fetchAcross(kbs: readonly KnowledgeBase[]): (ids: string[]) => string {
  return (ids) => {
    const commands: string[] = [];
    for (const kb of kbs) {
      const own = ids.map(splitQualifiedId).filter((id) => id.kb === kb.name).map((id) => id.id);
      if (own.length) commands.push(fetchCommand(kb.kbDir)(own));
    }
    return commands.join(" ; ");
  };
}

async function openAll(
  kbs: readonly KnowledgeBase[],
  sessionId: string | undefined,
  event: string | undefined,
): Promise<OpenedKb[]> {
  const opened: OpenedKb[] = [];
  let failure: unknown;
  for (const kb of kbs) {
    try {
      const cacheDir = kbCacheDir(kb.kbDir);
      const { reader, report } = await openIndex(kb.kbDir, {
        trustStampMs: HOOK_TRUST_MS,
        hook: true,
      });
      opened.push({
        ...kb,
        cacheDir,
        reader: readerInForce(reader),
        mode: report.mode,
        ledger: lazyLedger(cacheDir, sessionId),
      });
    } catch (error) {
      recordFailure(error, kb.kbDir, event);
      failure = error;
    }
  }
  if (!opened.length) throw new RecordedError(failure);
  return opened;
}

/** Run `step` over every knowledge base of `kbs` (the default first); see the module notes. */
export async function runAcross<D extends SurfacingDecision>(
  step: ContextStep<D>,
  kbs: readonly KnowledgeBase[],
  started: number,
): Promise<ContextOutcome<D>> {
  const opened = await openAll(kbs, step.sessionId, step.event);
  const [home] = opened;
  try {
    const parts = opened.map((kb) => ({
      name: kb.name,
      reader: kb.reader,
      seen: () => kb.ledger().ledger,
    }));
    const decision = await step.decideAcross(parts, step.fetch ?? fetchAcross(opened));
    const shown = (decision.assembly?.pointers ?? []).map((pointer) => ({
      ...splitQualifiedId(pointer.id),
      hash: pointer.hash,
    }));
    for (const kb of opened) {
      const own = shown.filter((pointer) => pointer.kb === kb.name);
      recordShown(kb.cacheDir, step.sessionId, kb.ledger, own);
    }
    const sideFailures = step.afterDecision?.(decision, home.cacheDir);
    const ms = performance.now() - started;
    if (debugEnabled()) {
      const fields = step.debugFields(decision, { index: home.mode, ms });
      appendDebugRecord(home.kbDir, {
        ...fields,
        kbs: opened.map((kb) => kb.name),
        ...sideFailures,
      });
    }
    return { decision, kbDir: home.kbDir, ms };
  } catch (error) {
    recordFailure(error, home.kbDir, step.event);
    throw new RecordedError(error);
  }
}
