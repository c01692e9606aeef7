/**
 * The search augment's decision, pure: which knowledge-base entries a code search's phrases
 * point at, and the text that carries them.
 *
 * A search phrase is one to a few words, so the prompt hook's threshold (2 distinct words) cannot
 * apply. Instead an entry matches a phrase when every word of the phrase is in its title, tags or
 * aliases (the keyword postings, so the hot path reads no body postings). A phrase that matches
 * more than {@link SearchConfig.genericLimit} entries says little about any of them (a search for
 * `postgres` in a knowledge base full of Postgres notes) and surfaces nothing. Of the entries a
 * phrase matches, only those it names are pointed at ({@link namesEntry}): it holds every word of
 * one of their tags or aliases, or at least {@link SearchConfig.titleShare} of their title's
 * words and two of them when it has two or more. The agent searches for the names in its own code, and one of them sharing a word with a
 * note's title (`release` in "Attaching a generated file to a GitHub release using Actions") is
 * chance, not a sign that the note is about what it searches for. Superseded, archived and kernel
 * entries never match: kernel rules already reach every prompt whole.
 *
 * @module
 */
import { type DocInfo, FIELD_TITLE, FLAG_INACTIVE, FLAG_KERNEL } from "../index/format.ts";
import type { IndexReader } from "../index/reader.ts";
import {
  assemble,
  type Assembly,
  knowledgeBasesPhrase,
  type Ledger,
  type Pointer,
  pointerOf,
  type Wording,
} from "../prompt/decision.ts";
import { LIMITS } from "../entry/schema.ts";
import { termOf } from "../text/tokenize.ts";
import { phraseWords } from "./patterns.ts";

/** The tunables of the search augment. */
export interface SearchConfig {
  /** Most pointers one search shows. */
  maxPointers: number;
  /** A phrase matching more entries than this is too generic to surface any. */
  genericLimit: number;
  /** A phrase names an entry by its title when it holds this share of the title's words or more. */
  titleShare: number;
  /** The whole additionalContext stays within this. */
  budgetChars: number;
}

/**
 * The defaults: 3 pointers, phrases matching at most 6 entries, naming an entry by half its title
 * or more, the prompt hook's budget.
 */
export const DEFAULT_SEARCH_CONFIG: SearchConfig = {
  maxPointers: 3,
  genericLimit: 6,
  titleShare: 0.5,
  budgetChars: LIMITS.hookBudgetChars,
};

/** How a search's pointers are introduced. */
export const SEARCH_WORDING: Wording = {
  header: "git-kb: the user's knowledge base has entries on what this search looks for.",
  severalHeader: (names) =>
    `git-kb: ${knowledgeBasesPhrase(names)} have entries on what this search looks for.`,
  pointers: "Entries matching the search (titles only; fetch before relying on them):",
};

/** What one entry's keyword postings say about a phrase's terms. */
interface Tally {
  /** Terms of the phrase in its title. */
  titleTerms: number;
  /** Sum of the terms' rarity. */
  rarity: number;
}

/**
 * The ordinals of the active, non-kernel entries whose title, tags or aliases hold every word of
 * `phrase`, best first: more of its words in the title, then rarer words, then index order.
 */
export function phraseMatches(reader: IndexReader, phrase: string): number[] {
  const terms = [...new Set(phrase.split(" ").map(termOf).filter(Boolean))];
  if (!terms.length) return [];
  const lists = terms.map((term) => reader.keywordPostings(term));
  if (lists.some((list) => !list.length)) return [];
  lists.sort((a, b) => a.length - b.length);
  const docCount = Math.max(reader.manifest.docCount, 1);
  let tallies: Map<number, Tally> | undefined;
  for (const postings of lists) {
    const rarity = Math.log(1 + docCount / (postings.length / 2));
    const next = new Map<number, Tally>();
    for (let index = 0; index < postings.length; index += 2) {
      const ord = postings[index];
      const mask = postings[index + 1];
      if (mask & (FLAG_INACTIVE | FLAG_KERNEL)) continue;
      const before = tallies ? tallies.get(ord) : { titleTerms: 0, rarity: 0 };
      if (!before) continue;
      next.set(ord, {
        titleTerms: before.titleTerms + (mask & FIELD_TITLE ? 1 : 0),
        rarity: before.rarity + rarity,
      });
    }
    tallies = next;
    if (!tallies.size) return [];
  }
  return [...tallies!].sort(([a, x], [b, y]) =>
    y.titleTerms - x.titleTerms || y.rarity - x.rarity || a - b
  ).map(([ord]) => ord);
}

/**
 * The distinct terms of a name (a title, tag or alias): the words a search phrase could hold
 * ({@link phraseWords}, all of them), as the index stems them.
 */
function nameTerms(name: string): string[] {
  return [...new Set(phraseWords(name, Infinity).map(termOf).filter(Boolean))];
}

/**
 * Whether a phrase of `terms` (index terms) names the entry `doc`: it holds every word of one of
 * its tags or aliases (`rebase` names an entry tagged `rebase`, not one tagged `rebase-vs-merge`),
 * or at least `titleShare` of its title's words, and two of them when it has two or more
 * (`rotate token` names "Rotate a leaked Cloudflare token"; `release` does not name "Freeze the
 * release branch a week before launch", nor `scroll` the title `scrollToTop`).
 */
export function namesEntry(
  terms: ReadonlySet<string>,
  doc: Pick<DocInfo, "title" | "tags" | "aliases">,
  titleShare: number,
): boolean {
  const held = (words: string[]) => words.filter((word) => terms.has(word)).length;
  for (const name of [...doc.tags, ...doc.aliases]) {
    const words = nameTerms(name);
    if (words.length && held(words) === words.length) return true;
  }
  const title = nameTerms(doc.title);
  return title.length > 0 &&
    held(title) >= Math.max(titleShare * title.length, Math.min(2, title.length));
}

/** What the search augment decided for one tool call. */
export interface SearchDecision {
  /**
   * `no_terms`: nothing to look up; `no_match`: no entry holds a phrase; `too_generic`: only
   * phrases that match too many entries; `unnamed`: phrases that match entries without naming
   * any ({@link namesEntry}); `all_deduped`: the session was shown every match already;
   * `surfaced`: pointers to show.
   */
  outcome: "no_terms" | "no_match" | "too_generic" | "unnamed" | "all_deduped" | "surfaced";
  phrases: string[];
  /** Phrase → number of entries it matched. */
  matches: Record<string, number>;
  /** Entries dropped because this session was shown them unchanged. */
  deduped: string[];
  assembly?: Assembly;
}

/**
 * Decide what a search's `phrases` surface: the entries each phrase matches and names (phrases
 * too generic give none), in phrase order, without those the session's `ledger` lists unchanged,
 * at most `config.maxPointers`, assembled under the budget. The records of the entries a phrase
 * matches are read to see whether it names them: at most `config.genericLimit` a phrase.
 */
export function decideSearch(
  phrases: string[],
  reader: IndexReader,
  ledger: Ledger | (() => Ledger),
  fetch: (ids: string[]) => string,
  config: SearchConfig = DEFAULT_SEARCH_CONFIG,
): SearchDecision {
  const matches: Record<string, number> = {};
  const candidates = new Map<number, { phrase: string; doc: DocInfo }>();
  let generic = false;
  let unnamed = false;
  for (const phrase of phrases) {
    const ords = phraseMatches(reader, phrase);
    matches[phrase] = ords.length;
    if (ords.length > config.genericLimit) {
      generic = true;
      continue;
    }
    const terms = new Set(phrase.split(" ").map(termOf).filter(Boolean));
    for (const ord of ords) {
      if (candidates.has(ord)) continue;
      const doc = reader.doc(ord);
      if (!doc) continue;
      if (namesEntry(terms, doc, config.titleShare)) candidates.set(ord, { phrase, doc });
      else unnamed = true;
    }
  }
  const base = { phrases, matches, deduped: [] as string[] };
  if (!phrases.length) return { ...base, outcome: "no_terms" };
  if (!candidates.size) {
    return { ...base, outcome: generic ? "too_generic" : unnamed ? "unnamed" : "no_match" };
  }
  const pointers: Pointer[] = [];
  const seen = typeof ledger === "function" ? ledger() : ledger;
  for (const { phrase, doc } of candidates.values()) {
    if (pointers.length >= config.maxPointers) break;
    if (seen[doc.id] === doc.hash) {
      base.deduped.push(doc.id);
      continue;
    }
    pointers.push(pointerOf(doc, "keyword", phrase.split(" ")));
  }
  if (!pointers.length) return { ...base, outcome: "all_deduped" };
  const assembly = assemble([], pointers, fetch, {
    budgetChars: config.budgetChars,
    kernelBudgetChars: 0,
  }, SEARCH_WORDING);
  return { ...base, outcome: "surfaced", assembly };
}
