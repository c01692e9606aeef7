/**
 * Delivery receipts, pure: the per-session record of fetched ids and of prompts that matched
 * nothing, bounded in size. What a session was shown is its ledger (core/prompt/decision.ts `Ledger`);
 * receipts hold only the rest. Which ids a command fetches is core/delivery/fetched_ids.ts.
 *
 * @module
 */
import { ID_PATTERN } from "../entry/schema.ts";
import { looksLikeToken } from "../text/secrets.ts";

/** An entry fetched with no pointer to it, right after a search: the search's words. */
export interface NearMiss {
  /** The entry fetched. */
  id: string;
  /** The words of the search before the fetch. */
  words: string[];
}

/** What a session did with the knowledge base beyond what it was shown. */
export interface Receipts {
  /** Entry ids fetched with `git-kb get`, first fetch first. */
  fetched: string[];
  /** Prompts that matched no entry: how many, and how often each of their words came up. */
  unmatched: { prompts: number; words: Record<string, number> };
  /** The words of the session's last `git-kb search`, until a fetch follows it. */
  searched?: string[];
  /** Entries fetched without a pointer right after a search, with its words. */
  nearMisses?: NearMiss[];
}

/** The bounds of one session's receipts. */
export const RECEIPT_LIMITS = {
  /** Fetched ids kept; later ones are dropped. */
  fetched: 200,
  /** Distinct words of unmatched prompts kept; the rarest go first. */
  words: 60,
  /** Words taken from one unmatched prompt, or one search. */
  wordsPerPrompt: 8,
  /** Near misses kept; later ones are dropped. */
  nearMisses: 50,
};

/**
 * Whether a prompt word may be kept in the receipts: not one shaped like a credential or a
 * generated token (core/text/secrets.ts). Applied on reading too, so a log written before this test
 * existed never reaches `git-kb stats` with such a word.
 */
export function isStorableWord(word: string): boolean {
  return !looksLikeToken(word);
}

/** Receipts of a session that did nothing yet. */
export function emptyReceipts(): Receipts {
  return { fetched: [], unmatched: { prompts: 0, words: {} } };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Receipts from parsed JSON: whatever is malformed counts as empty. */
export function parseReceipts(data: unknown): Receipts {
  const receipts = emptyReceipts();
  if (!isObject(data)) return receipts;
  if (Array.isArray(data.fetched)) {
    receipts.fetched = data.fetched.filter((id): id is string =>
      typeof id === "string" && ID_PATTERN.test(id)
    ).slice(0, RECEIPT_LIMITS.fetched);
  }
  const searched = storableWords(data.searched);
  if (searched.length) receipts.searched = searched;
  if (Array.isArray(data.nearMisses)) {
    const nearMisses = data.nearMisses.flatMap((miss) =>
      isObject(miss) && typeof miss.id === "string" && ID_PATTERN.test(miss.id)
        ? [{ id: miss.id, words: storableWords(miss.words) }]
        : []
    ).filter((miss) => miss.words.length).slice(0, RECEIPT_LIMITS.nearMisses);
    if (nearMisses.length) receipts.nearMisses = nearMisses;
  }
  const unmatched = data.unmatched;
  if (isObject(unmatched)) {
    const prompts = unmatched.prompts;
    if (typeof prompts === "number" && Number.isInteger(prompts) && prompts > 0) {
      receipts.unmatched.prompts = prompts;
    }
    if (isObject(unmatched.words)) {
      for (const [word, count] of Object.entries(unmatched.words)) {
        if (typeof count === "number" && count > 0 && isStorableWord(word)) {
          receipts.unmatched.words[word] = count;
        }
      }
    }
  }
  return receipts;
}

/** The storable words of a parsed value, distinct, within the per-prompt bound. */
function storableWords(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  const words = value.filter((word): word is string => typeof word === "string");
  return [...new Set(words)].filter(isStorableWord).slice(0, RECEIPT_LIMITS.wordsPerPrompt);
}

/**
 * `receipts` with `ids` added to the fetched ids (once each, within the bound). Given the ids the
 * session was `shown`, an id fetched without a pointer after a search is a near miss: the words
 * of the session's last search are kept with it.
 */
export function withFetched(
  receipts: Receipts,
  ids: string[],
  shown?: Readonly<Record<string, unknown>>,
): Receipts {
  const fetched = [...receipts.fetched];
  const nearMisses = [...receipts.nearMisses ?? []];
  const words = receipts.searched ?? [];
  for (const id of ids) {
    const pointed = !shown || Object.hasOwn(shown, id);
    if (!pointed && words.length && nearMisses.length < RECEIPT_LIMITS.nearMisses) {
      nearMisses.push({ id, words });
    }
    if (!fetched.includes(id) && fetched.length < RECEIPT_LIMITS.fetched) fetched.push(id);
  }
  return nearMisses.length ? { ...receipts, fetched, nearMisses } : { ...receipts, fetched };
}

/** `receipts` with the words of a search (storable ones, within the bound) as the last search. */
export function withSearch(receipts: Receipts, words: string[]): Receipts {
  const searched = storableWords(words);
  return searched.length ? { ...receipts, searched } : receipts;
}

/**
 * `receipts` with one more unmatched prompt whose words were `words` (the first
 * {@link RECEIPT_LIMITS.wordsPerPrompt} distinct storable ones count, see {@link isStorableWord});
 * past the bound, the words seen least (and, among those, last) are dropped.
 */
export function withUnmatched(receipts: Receipts, words: string[]): Receipts {
  const counts = { ...receipts.unmatched.words };
  const storable = [...new Set(words)].filter(isStorableWord);
  for (const word of storable.slice(0, RECEIPT_LIMITS.wordsPerPrompt)) {
    counts[word] = (counts[word] ?? 0) + 1;
  }
  const kept = Object.entries(counts).map((item, order) => ({ item, order }))
    .sort((a, b) => b.item[1] - a.item[1] || a.order - b.order)
    .slice(0, RECEIPT_LIMITS.words).sort((a, b) => a.order - b.order).map(({ item }) => item);
  return {
    ...receipts,
    unmatched: { prompts: receipts.unmatched.prompts + 1, words: Object.fromEntries(kept) },
  };
}
