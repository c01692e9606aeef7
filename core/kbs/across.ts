/**
 * The hooks' decisions over several knowledge bases, pure: each knowledge base is decided on its
 * own with no budget, then what surfaced is merged into one assembly under the one budget, every
 * id carrying its knowledge base's name ({@link qualifyId}).
 *
 * Merging is by rank ({@link interleave}): every pointer has reached the same threshold (matched
 * prompt words, counted alike in every knowledge base), and the BM25F scores that order pointers
 * within one knowledge base use that knowledge base's own term rarity, so ranks compare across
 * knowledge bases where scores do not. The default knowledge base comes first at each rank;
 * kernel rules are inlined in the same order, all of them within the one kernel budget (those
 * past it become pointers, as in one knowledge base).
 *
 * @module
 */
import type { KernelRule } from "../index/format.ts";
import type { IndexReader } from "../index/reader.ts";
import {
  alreadyShown,
  assemble,
  decide,
  type Decision,
  DEFAULT_SURFACE_CONFIG,
  type Ledger,
  type Pointer,
  PROMPT_WORDING,
  type SurfaceConfig,
  type Wording,
} from "../prompt/decision.ts";
import {
  decideSearch,
  DEFAULT_SEARCH_CONFIG,
  SEARCH_WORDING,
  type SearchConfig,
  type SearchDecision,
} from "../search_augment/match.ts";
import { interleave, qualifyId } from "./qualified.ts";

/** One knowledge base as a decision over several reads it. */
export interface KbPart {
  /** Its name, which its ids carry. */
  name: string;
  /** Its index. */
  reader: IndexReader;
  /** Its session ledger (plain ids), read on the first call. */
  seen: () => Ledger;
}

/** No budget: each knowledge base's decision keeps all it found, for the merge to cut. */
const UNBOUNDED = { budgetChars: Infinity, kernelBudgetChars: Infinity };

/** Nothing is fetched from a per-knowledge-base assembly: its text is never shown. */
const noFetch = () => "";

function qualified(name: string, pointer: Pointer): Pointer {
  return { ...pointer, id: qualifyId(name, pointer.id) };
}

/**
 * `wording` for what surfaces from every knowledge base of `parts`: its first line names them
 * (the default first), so whose each item is reads from its id's prefix.
 */
export function wordingAcross(wording: Wording, parts: readonly { name: string }[]): Wording {
  if (parts.length < 2 || !wording.severalHeader) return wording;
  return { ...wording, header: wording.severalHeader(parts.map((part) => part.name)) };
}

/** The kernel rules of every knowledge base of `parts`, the default's first, ids qualified. */
export function qualifiedKernel(parts: readonly KbPart[]): KernelRule[] {
  return parts.flatMap((part) =>
    part.reader.manifest.kernel.map((rule) => ({ ...rule, id: qualifyId(part.name, rule.id) }))
  );
}

/**
 * Decide what `prompt` surfaces from every knowledge base of `parts` (the default first): one
 * decision as {@link decide} makes it, ids qualified, `fetch` given the qualified ids of what is
 * shown, the whole text under `config.budgetChars`. Its `heldBack` is the first knowledge base's
 * that held the prompt back (ids qualified), and its `reference` the default one's.
 */
export function decideAcross(
  prompt: string,
  parts: readonly KbPart[],
  fetch: (ids: string[]) => string,
  config: SurfaceConfig = DEFAULT_SURFACE_CONFIG,
): Decision {
  const unbounded = { ...config, ...UNBOUNDED };
  // Each decided as if nothing was shown: the ledgers apply after the merged caps below.
  const decided = parts.map((part) => ({
    part,
    decision: decide(prompt, part.reader, {}, noFetch, unbounded),
  }));
  const [first] = decided;
  if (first.decision.outcome === "skipped") return first.decision;
  // Kernel rules too long to inline are left to the one kernel budget below.
  const listed = interleave(
    decided.map(({ part, decision }) =>
      (decision.assembly?.pointers ?? []).filter((pointer) => pointer.signal === "keyword")
        .map((pointer) => ({ part, pointer }))
    ),
  ).slice(0, config.maxEntries);
  // What a ledger lists is left out, never replaced from further down: a repeat adds nothing.
  const repeats = listed.filter(({ part, pointer }) => alreadyShown(part.seen(), pointer));
  const pointers = listed.filter((item) => !repeats.includes(item))
    .map(({ part, pointer }) => qualified(part.name, pointer));
  const kernel = qualifiedKernel(parts);
  const termHits: Record<string, number> = {};
  for (const { decision } of decided) {
    for (const [word, count] of Object.entries(decision.termHits)) {
      termHits[word] = (termHits[word] ?? 0) + count;
    }
  }
  const [heldBack] = decided.flatMap(({ part, decision }) =>
    decision.heldBack
      ? [{ ...decision.heldBack, id: qualifyId(part.name, decision.heldBack.id) }]
      : []
  );
  const base = {
    activities: first.decision.activities,
    termHits,
    words: first.decision.words,
    ...first.decision.reference ? { reference: first.decision.reference } : {},
    ...heldBack ? { heldBack } : {},
    nearMisses: decided.flatMap(({ part, decision }) =>
      decision.nearMisses.map((miss) => ({ ...miss, id: qualifyId(part.name, miss.id) }))
    ),
    deduped: repeats.map(({ part, pointer }) => qualifyId(part.name, pointer.id)),
  };
  if (!kernel.length && !pointers.length) {
    return { ...base, outcome: listed.length ? "all_deduped" : "no_signal" };
  }
  const wording = wordingAcross(PROMPT_WORDING, parts);
  return {
    ...base,
    outcome: "surfaced",
    assembly: assemble(kernel, pointers, fetch, config, wording),
  };
}

/**
 * Decide what a search's `phrases` surface from every knowledge base of `parts` (the default
 * first): one decision as {@link decideSearch} makes it, ids qualified, under the one budget.
 */
export function decideSearchAcross(
  phrases: string[],
  parts: readonly KbPart[],
  fetch: (ids: string[]) => string,
  config: SearchConfig = DEFAULT_SEARCH_CONFIG,
): SearchDecision {
  const unbounded = { ...config, budgetChars: Infinity };
  const decided = parts.map((part) => ({
    part,
    decision: decideSearch(phrases, part.reader, part.seen, noFetch, unbounded),
  }));
  const matches: Record<string, number> = {};
  for (const { decision } of decided) {
    for (const [phrase, count] of Object.entries(decision.matches)) {
      matches[phrase] = (matches[phrase] ?? 0) + count;
    }
  }
  const deduped = decided.flatMap(({ part, decision }) =>
    decision.deduped.map((id) => qualifyId(part.name, id))
  );
  const base = { phrases, matches, deduped };
  const pointers = interleave(
    decided.map(({ part, decision }) =>
      (decision.assembly?.pointers ?? []).map((pointer) => qualified(part.name, pointer))
    ),
  ).slice(0, config.maxPointers);
  if (!pointers.length) {
    const outcomes = decided.map(({ decision }) => decision.outcome);
    const outcome = (["all_deduped", "too_generic", "unnamed", "no_match", "no_terms"] as const)
      .find((wanted) => outcomes.includes(wanted)) ?? "no_match";
    return { ...base, outcome };
  }
  const assembly = assemble([], pointers, fetch, {
    budgetChars: config.budgetChars,
    kernelBudgetChars: 0,
  }, wordingAcross(SEARCH_WORDING, parts));
  return { ...base, outcome: "surfaced", assembly };
}
