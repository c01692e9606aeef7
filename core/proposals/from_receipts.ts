/**
 * Proposals from the prompt hook's receipts, deterministically (no model): an entry pointed at in
 * many sessions and fetched in none is noise (narrow its `applies_to`, or archive it); an entry
 * fetched with no pointer right after searches is a near miss (the words of two or more of those
 * searches become its aliases). Each alias proposal records the searches it was made of: once
 * proposed, they propose nothing more, whatever the review makes of it. Pure: no I/O.
 *
 * @module
 */
import { contentHash } from "../hash.ts";
import { type Entry, parseEntryText, serializeEntry, toEntry } from "../entry/entry.ts";
import { LIMITS } from "../entry/schema.ts";
import { COMMON_SPECIFICITY } from "../prompt/keywords.ts";
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

/**
 * The fewest searches (each ended on a fetch of the entry with no pointer to it) a word must be
 * in to be proposed as the entry's alias. One search says that the entry was wanted, not which of
 * its words name it ("secret exposure publish key" holds three words the user may never use for
 * it again); a word the user searched with twice, each time ending on this entry, is theirs for it.
 */
export const MIN_ALIAS_SEARCHES = 2;

/** What the receipts are read against. */
export interface ReceiptFacts {
  /** Every session on record (ledger and receipts). */
  sessions: readonly SessionRecord[];
  /** The knowledge base's entries as they are now, by id. */
  entries: ReadonlyMap<string, Entry>;
  /** Today, `YYYY-MM-DD`, the `updated` of a proposed change. */
  today: string;
  /**
   * The evidence proposals on record were made of ({@link searchDigest}): spent, whether they
   * are pending, accepted (as proposed, or edited), rejected or merged. None by default.
   */
  spent?: ReadonlySet<string>;
  /** The entries an alias proposal waits for a review of: none gets another meanwhile. */
  aliasPending?: ReadonlySet<string>;
  /**
   * How much a word says about which entry is meant in this knowledge base, from 0 to 1 (the
   * prompt hook's `specificity`, core/prompt/keywords.ts); 1 for every word by default.
   */
  specificity?: (word: string) => number;
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

/**
 * The words an entry is found by already, lowercase: the words of its title, tags and aliases,
 * split as the receipts hook splits a search ("secret rotation" holds "secret").
 */
function knownWords(entry: Entry): Set<string> {
  const names = [entry.title, ...entry.tags, ...entry.aliases];
  return new Set(names.flatMap((name) => name.toLowerCase().split(/[^\p{L}\p{N}_.-]+/u)));
}

/**
 * The digest of one search that ended on a fetch of entry `id` with no pointer to it: the
 * session and the search's words. A session's near misses of one entry with the same words are
 * one search (its last search is kept until the next, whatever is fetched meanwhile).
 */
export function searchDigest(id: string, session: string, words: readonly string[]): string {
  return contentHash(`${id}\n${session}\n${[...new Set(words)].sort().join(" ")}`);
}

/** The searches of each entry that ended on a fetch with no pointer, by digest: their words. */
function nearMissSearches(sessions: readonly SessionRecord[]): Map<string, Map<string, string[]>> {
  const searches = new Map<string, Map<string, string[]>>();
  for (const { session, receipts } of sessions) {
    for (const { id, words } of receipts.nearMisses ?? []) {
      const own = searches.get(id) ?? new Map<string, string[]>();
      own.set(searchDigest(id, session, words), [...new Set(words)]);
      searches.set(id, own);
    }
  }
  return searches;
}

/**
 * The alias proposals: the words of at least {@link MIN_ALIAS_SEARCHES} searches not spent yet
 * (see {@link ReceiptFacts.spent}) that ended on a fetch of an entry no pointer named. A common
 * word (specificity under {@link COMMON_SPECIFICITY}: in more than N^⅔ of the N entries) is never
 * proposed: the prompt hook counts all of a prompt's common words ½ together at most, so as an
 * alias it names no entry, while search would rank the entry for it.
 */
function aliasProposals(facts: ReceiptFacts): Proposal[] {
  const { entries, today, spent = new Set(), aliasPending = new Set() } = facts;
  const { specificity = () => 1 } = facts;
  const searched = [...nearMissSearches(facts.sessions)].sort(([a], [b]) => a.localeCompare(b));
  return searched.flatMap(([id, searches]): Proposal[] => {
    const entry = entries.get(id);
    if (!entry || entry.status !== "active" || aliasPending.has(id)) return [];
    const fresh = [...searches].filter(([digest]) => !spent.has(digest));
    const counts = new Map<string, number>();
    for (const [, words] of fresh) {
      for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
    const known = knownWords(entry);
    const room = LIMITS.maxListItems - entry.aliases.length;
    const words = [...counts].filter(([word, count]) =>
      count >= MIN_ALIAS_SEARCHES && !known.has(word) && word.length <= LIMITS.maxKeywordChars &&
      specificity(word) >= COMMON_SPECIFICITY
    ).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, Math.min(MAX_ALIAS_WORDS, room)).map(([word]) => word);
    const markdown = words.length
      ? changed(entry, { aliases: [...entry.aliases, ...words] }, today)
      : undefined;
    if (!markdown) return [];
    return [{
      kind: "alias",
      entryId: id,
      markdown,
      reason: `fetched with no pointer to it after ${fresh.length} searches, which searched ` +
        `for ${words.join(", ")} (each word in at least ${MIN_ALIAS_SEARCHES} of them): ` +
        "as aliases, those words point at it next time",
      source: `receipts: ${fresh.length} searches before a fetch with no pointer`,
      key: `alias:${id}:${[...words].sort().join(",")}`,
      evidence: fresh.map(([digest]) => digest).sort(),
    }];
  });
}

/** Every proposal the receipts support, noise first, then near misses. */
export function receiptProposals(facts: ReceiptFacts): Proposal[] {
  return [...noiseProposals(facts), ...aliasProposals(facts)];
}
