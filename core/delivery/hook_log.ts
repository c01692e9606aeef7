/**
 * Summarising the prompt hook's debug log.
 *
 * @module
 */
import { splitQualifiedId } from "../kbs/qualified.ts";

/** What `git-kb stats` reports. */
export interface HookStats {
  /** Prompt records in the log (other hooks' records are left out). */
  prompts: number;
  /** Prompts the hook skipped without looking at the index. */
  skipped: number;
  /** Prompts whose hook run failed (and failed open). */
  errors: number;
  /** How many prompts ended in each outcome, by outcome name. */
  outcomes: Record<string, number>;
  /**
   * Share of the prompts neither skipped nor failed that got a pointer: the kernel rules alone,
   * which every prompt gets, are not a fire.
   */
  fireRate: number;
  /** Prompts that got the kernel rules and no pointer. */
  kernelOnly: number;
  /** Median size in bytes of the context the hook injected, when it injected any. */
  medianBytes: number;
  /** The ten entries most often just below the threshold, with the prompt words that hit them. */
  nearMissLeaders: { id: string; count: number; words: string[] }[];
  /** Ids of active entries the log never shows surfaced. */
  neverSurfaced: string[];
}

function median(values: number[]): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : Math.round((sorted[middle - 1] + sorted[middle]) / 2);
}

/**
 * Summarise debug JSONL text; lines that do not parse are skipped. `activeIds` are the plain ids
 * of the knowledge base whose log it is, named `kbName` when read from a config: the hook logs an
 * id with its knowledge base's name (`personal:kb-7q2mx`) when several are configured, bare when
 * one is, so both count for it, and another knowledge base's do not: not as surfaced, nor as a
 * near miss.
 */
export function summarizeDebugLog(text: string, activeIds: string[], kbName?: string): HookStats {
  const outcomes: Record<string, number> = {};
  const bytes: number[] = [];
  const surfaced = new Set<string>();
  /** The plain id of a logged id of this knowledge base's; undefined for another's. */
  const own = (logged: string) => {
    const { kb, id } = splitQualifiedId(logged);
    return kb === undefined || kb === kbName ? id : undefined;
  };
  const shown = (logged: string) => {
    const id = own(logged);
    if (id) surfaced.add(id);
  };
  const nearMisses = new Map<string, { count: number; words: Set<string> }>();
  let prompts = 0;
  let fired = 0;
  let kernelOnly = 0;
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) continue;
    const record = parsed as Record<string, unknown>;
    // Other hooks' records (the judge, the search augment, subagents): not the user's prompts.
    if (record.event !== undefined) continue;
    const outcome = String(record.outcome ?? "unknown");
    prompts++;
    outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
    if (outcome === "surfaced" && typeof record.bytes === "number") bytes.push(record.bytes);
    const pointers = Array.isArray(record.surfaced) ? record.surfaced as { id?: string }[] : [];
    if (pointers.length) fired++;
    else if (outcome === "surfaced") kernelOnly++;
    for (const item of pointers) if (item?.id) shown(item.id);
    for (const id of (record.kernel as string[] | undefined) ?? []) shown(id);
    for (
      const miss of (record.near_misses as { id?: string; hits?: string[] }[] | undefined) ?? []
    ) {
      const id = miss?.id && own(miss.id);
      if (!id) continue;
      const entry = nearMisses.get(id) ?? { count: 0, words: new Set<string>() };
      entry.count++;
      for (const word of miss.hits ?? []) entry.words.add(word);
      nearMisses.set(id, entry);
    }
  }
  const skipped = outcomes.skipped ?? 0;
  const errors = outcomes.error ?? 0;
  const considered = prompts - skipped - errors;
  return {
    prompts,
    skipped,
    errors,
    outcomes,
    fireRate: considered > 0 ? fired / considered : 0,
    kernelOnly,
    medianBytes: median(bytes),
    nearMissLeaders: [...nearMisses].sort((a, b) =>
      b[1].count - a[1].count || a[0].localeCompare(b[0])
    )
      .slice(0, 10).map(([id, { count, words }]) => ({ id, count, words: [...words] })),
    neverSurfaced: activeIds.filter((id) => !surfaced.has(id)),
  };
}
