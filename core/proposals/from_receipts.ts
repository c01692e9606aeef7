/**
 * Proposals from the prompt hook's receipts, deterministically (no model): an entry pointed at in
 * many sessions and fetched in none is noise (narrow its `applies_to`, or archive it); an entry
 * fetched with no pointer right after a search is a near miss (the search's words become its
 * aliases). Pure: no I/O.
 *
 * @module
 */
import { type Entry, parseEntryText, serializeEntry, toEntry } from "../entry/entry.ts";
import { LIMITS } from "../entry/schema.ts";
import { type SessionRecord, summarizeDelivery } from "../delivery/misses.ts";
import type { Proposal } from "./proposal.ts";

/**
 * When a pointer never fetched is noise: shown in at least {@link NOISE.minSessions} sessions
 * and in at least {@link NOISE.shareOfSessions} of the sessions on record, fetched in none, in a
 * record where pointers do get fetched (otherwise the model never fetches, and says nothing of
 * one entry).
 */
export const NOISE = { minSessions: 3, shareOfSessions: 0.25 } as const;

/** Most words one alias proposal offers. */
export const MAX_ALIAS_WORDS = 3;

/** What the receipts are read against. */
export interface ReceiptFacts {
  /** Every session on record (ledger and receipts). */
  sessions: readonly SessionRecord[];
  /** The knowledge base's entries as they are now, by id. */
  entries: ReadonlyMap<string, Entry>;
  /** Today, `YYYY-MM-DD`, the `updated` of a proposed change. */
  today: string;
}

/** `entry` changed by `change`, dated `today`, when it still follows the contract. */
function changed(entry: Entry, change: Partial<Entry>, today: string): string | undefined {
  const markdown = serializeEntry({ ...entry, ...change, updated: today });
  try {
    return toEntry(parseEntryText(markdown, entry.id)).problems.length ? undefined : markdown;
  } catch {
    return undefined;
  }
}

/** The noise proposals: narrow an entry surfaced by its activities, archive another. */
function noiseProposals({ sessions, entries, today }: ReceiptFacts): Proposal[] {
  const stats = summarizeDelivery([...sessions]);
  if (!stats.fetched) return [];
  const least = Math.max(NOISE.minSessions, Math.ceil(NOISE.shareOfSessions * stats.sessions));
  return stats.noiseCandidates.flatMap(({ id, sessions: shown }): Proposal[] => {
    const entry = entries.get(id);
    if (!entry || shown < least || entry.kernel || entry.status !== "active") return [];
    const record = `shown in ${shown} of ${stats.sessions} sessions, fetched in none`;
    const source = `receipts: ${record} (noise from ${least} sessions)`;
    if (entry.appliesTo.length) {
      const markdown = changed(entry, { appliesTo: [] }, today);
      return markdown
        ? [{
          kind: "narrow",
          entryId: id,
          markdown,
          reason: `${record}: stop pointing at it on every prompt about ` +
            `${entry.appliesTo.join(", ")}; its own words still find it`,
          source,
          key: `narrow:${id}:${entry.appliesTo.join(",")}`,
        }]
        : [];
    }
    const markdown = changed(entry, { status: "archived" }, today);
    return markdown
      ? [{
        kind: "archive",
        entryId: id,
        markdown,
        reason: `${record}: archive it, so it is no longer pointed at`,
        source,
        key: `archive:${id}`,
      }]
      : [];
  });
}

/** The words an entry is found by already: title words, tags and aliases, lowercase. */
function knownWords(entry: Entry): Set<string> {
  const words = entry.title.toLowerCase().split(/[^\p{L}\p{N}_.-]+/u);
  return new Set([...words, ...entry.tags, ...entry.aliases].map((word) => word.toLowerCase()));
}

/** The alias proposals: the words searched before fetching an entry no pointer named. */
function aliasProposals({ sessions, entries, today }: ReceiptFacts): Proposal[] {
  const missed = new Map<string, Map<string, number>>();
  for (const { receipts } of sessions) {
    for (const { id, words } of receipts.nearMisses ?? []) {
      const counts = missed.get(id) ?? new Map<string, number>();
      for (const word of new Set(words)) counts.set(word, (counts.get(word) ?? 0) + 1);
      missed.set(id, counts);
    }
  }
  return [...missed].sort(([a], [b]) => a.localeCompare(b)).flatMap(([id, counts]): Proposal[] => {
    const entry = entries.get(id);
    if (!entry || entry.status !== "active") return [];
    const known = knownWords(entry);
    const room = LIMITS.maxListItems - entry.aliases.length;
    const words = [...counts].filter(([word]) =>
      !known.has(word) && word.length <= LIMITS.maxKeywordChars
    ).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, Math.min(MAX_ALIAS_WORDS, room)).map(([word]) => word);
    const markdown = words.length
      ? changed(entry, { aliases: [...entry.aliases, ...words] }, today)
      : undefined;
    if (!markdown) return [];
    const searches = Math.max(...counts.values());
    return [{
      kind: "alias",
      entryId: id,
      markdown,
      reason: `fetched after a search for ${words.join(", ")} with no pointer to it: ` +
        "as aliases, those words point at it next time",
      source: `receipts: ${searches === 1 ? "1 search" : `${searches} searches`} ` +
        "before a fetch with no pointer",
      key: `alias:${id}:${[...words].sort().join(",")}`,
    }];
  });
}

/** Every proposal the receipts support, noise first, then near misses. */
export function receiptProposals(facts: ReceiptFacts): Proposal[] {
  return [...noiseProposals(facts), ...aliasProposals(facts)];
}
