/**
 * The miss report, pure: from each session's ledger (what it was shown) and receipts (what it
 * fetched, which prompts matched nothing), how many pointers were delivered, the share fetched,
 * the entries shown often but never fetched, and what unmatched prompts were about.
 *
 * @module
 */
import type { Receipts } from "./receipts.ts";
import type { Ledger } from "../prompt/decision.ts";

/** One session's files, as read from the cache. */
export interface SessionRecord {
  /** The session's id, as its files in the cache are named. */
  session: string;
  ledger: Ledger;
  receipts: Receipts;
}

/** What `git-kb stats` reports about delivery. */
export interface DeliveryStats {
  /** Sessions with a ledger or receipts. */
  sessions: number;
  /** Pointers injected: entries shown, counted once per session. */
  injected: number;
  /** Of those, the ones the same session then fetched. */
  fetched: number;
  /** `fetched` / `injected`; 0 when nothing was injected. */
  shareFetched: number;
  /** Entries fetched in a session that was not shown them (found by search, say). */
  fetchedUnprompted: number;
  /** Entries injected in at least {@link NOISE_MIN_SESSIONS} sessions and fetched in none. */
  noiseCandidates: { id: string; sessions: number }[];
  /** Prompts that matched no entry. */
  unmatchedPrompts: number;
  /** Their most frequent words, at most {@link TOP_WORDS}. */
  unmatchedWords: { word: string; count: number }[];
}

/** Sessions an entry must be injected in, never fetched, to be a noise candidate. */
export const NOISE_MIN_SESSIONS = 3;

/** How many words of unmatched prompts the report names. */
export const TOP_WORDS = 15;

/** Summarise the sessions' ledgers and receipts. */
export function summarizeDelivery(sessions: SessionRecord[]): DeliveryStats {
  const injectedIn = new Map<string, number>();
  const everFetched = new Set<string>();
  const words = new Map<string, number>();
  let injected = 0;
  let fetched = 0;
  let fetchedUnprompted = 0;
  let unmatchedPrompts = 0;
  for (const { ledger, receipts } of sessions) {
    const shown = Object.keys(ledger);
    const got = new Set(receipts.fetched);
    injected += shown.length;
    for (const id of shown) {
      injectedIn.set(id, (injectedIn.get(id) ?? 0) + 1);
      if (got.has(id)) fetched++;
    }
    for (const id of got) {
      everFetched.add(id);
      if (!Object.hasOwn(ledger, id)) fetchedUnprompted++;
    }
    unmatchedPrompts += receipts.unmatched.prompts;
    for (const [word, count] of Object.entries(receipts.unmatched.words)) {
      words.set(word, (words.get(word) ?? 0) + count);
    }
  }
  return {
    sessions: sessions.length,
    injected,
    fetched,
    shareFetched: injected ? fetched / injected : 0,
    fetchedUnprompted,
    noiseCandidates: [...injectedIn].filter(([id, count]) =>
      count >= NOISE_MIN_SESSIONS && !everFetched.has(id)
    ).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([id, count]) => ({
      id,
      sessions: count,
    })),
    unmatchedPrompts,
    unmatchedWords: [...words].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, TOP_WORDS).map(([word, count]) => ({ word, count })),
  };
}
