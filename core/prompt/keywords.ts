/**
 * The prompt hook's matching, pure: a prompt's terms, the entries they hit and how strongly, and
 * the ranking of those a prompt that fires lists.
 *
 * Each distinct word of the prompt counts once per entry, by how much it says in this knowledge
 * base ({@link specificity}, from 0 for a word in every entry to 1 for a rare one) and by where
 * it is: in full in the entry's title, tags or aliases, {@link BODY_WORD_WEIGHT} of that in the
 * body only. A dotted or slashed word (`console.log`, `ci/cd`) is one word that counts only when
 * all of its parts hit the entry, so `console.log` does not match an entry about logs. A word
 * found in most entries ({@link isCommonWord}) counts only where it is a title, tag or alias
 * word: in a body it is prose, not a sign of what the entry is about. An entry whose title, tags
 * and aliases hold far more terms than the knowledge base's average entry is named by each of them
 * less ({@link namingShare}), in its evidence and in its search score alike.
 *
 * A prompt fires when its best entry's evidence reaches the threshold, search scores the entry it
 * ranks first at least as strongly as two words that count in full would in its title
 * ({@link FiringRule.weakestMatch}), and the entry is what the prompt is about
 * ({@link FiringRule}): it holds most of what the prompt's words could give one entry
 * ({@link promptEvidence}); or search scores it as strongly as an entry that alone holds a few of
 * the prompt's words in its title, and it holds a share of the prompt's evidence that shrinks as
 * the prompt grows (a long prompt says more than its topic); or search ranks it far
 * ahead of every other entry the prompt's words could list ({@link FiringRule.lead}): whatever
 * else the prompt says, its words single that entry out. A long prompt whose words are scattered
 * over many entries, none holding a good share of them and none far ahead, is about something
 * else. And the prompt must name the entry (its words in the entry's title, tags or aliases) or
 * hit the rest of it as strongly as naming it would, and by more than chance: a task about the
 * user's own code shares words with many entries' bodies without being about any of them, and a
 * long prompt shares a dozen with a long entry's body by chance alone. It then lists the entries
 * with at least {@link LISTED_SHARE} of the threshold from two words or more and
 * {@link FiringRule.bestShare} of the best entry's evidence, ranked as search ranks them (BM25F
 * over title, tags and aliases, body), down to {@link FiringRule.rankFloor} of the first one's
 * score: one strong pointer is a better answer than five. Tallies live in typed arrays indexed by
 * entry ordinal, so a prompt that hits thousands of entries costs a few array writes each, even
 * before the code is warm.
 *
 * @module
 */
import { LIMITS } from "../entry/schema.ts";
import type { IndexReader } from "../index/reader.ts";
import { FIELD_KEYWORD, FIELD_TITLE } from "../index/format.ts";
import type { Postings } from "../index/postings_file.ts";
import { forEachScore, titleWordScore } from "../search/rank.ts";
import { MAX_TERM_LENGTH, splitWords, termOf } from "../text/tokenize.ts";
import { adjacentPairs } from "../text/word_pairs.ts";
import { pairBonuses } from "../search/pair_order.ts";

/** A prompt term and the word it came from, for saying why an entry matched. */
export interface PromptTerm {
  /** The term as the index stores it (stemmed). */
  term: string;
  /** The prompt word it came from, as the user typed it. */
  word: string;
  /**
   * Which whitespace-separated token of the prompt the term came from: `console.log` and
   * `ci/cd` are one token each, so their parts make one word towards the threshold.
   */
  token: number;
}

/**
 * The most terms of a prompt looked up in the index, a term once for each word it is in: each
 * costs a lookup and a walk of its postings, so a prompt's words past these are not looked at.
 */
export const MAX_PROMPT_TERMS = 1_000;

/**
 * The terms of a prompt's distinct words, each with the word (and token) it came from: a
 * whitespace-separated token is one word, whose parts are its terms (`console.log`: `consol`,
 * `log`). A word is kept the first time its terms are seen, in whatever order; a term may be in
 * more than one word (`log` alone and in `console.log`), since a term that a dotted word holds
 * counts only where all of that word's parts hit. At most {@link MAX_PROMPT_TERMS} terms, from
 * the words `splitWords` gives (its first `MAX_SPLIT_WORDS`), and only whole words: a word whose
 * terms would go past them is left out, since a dotted word cut short would match entries it
 * does not name. A word cut to its term ({@link MAX_TERM_LENGTH} characters) is named by that
 * term.
 */
export function promptTerms(prompt: string): PromptTerm[] {
  const found: PromptTerm[] = [];
  const seenWords = new Set<string>();
  const tokens: number[] = [];
  const words = splitWords(prompt, tokens);
  let index = 0;
  while (index < words.length && found.length < MAX_PROMPT_TERMS) {
    const token = tokens[index];
    const parts = new Map<string, PromptTerm>();
    for (; index < words.length && tokens[index] === token; index++) {
      const word = words[index];
      const term = termOf(word);
      if (term && !parts.has(term)) {
        parts.set(term, { term, word: word.length > MAX_TERM_LENGTH ? term : word, token });
      }
    }
    if (!parts.size || found.length + parts.size > MAX_PROMPT_TERMS) continue;
    const key = [...parts.keys()].sort().join(" ");
    if (seenWords.has(key)) continue;
    seenWords.add(key);
    found.push(...parts.values());
  }
  return found;
}

/**
 * What a prompt word found only in an entry's body counts towards the threshold, as a share of
 * what it counts in the entry's title, tags or aliases.
 */
export const BODY_WORD_WEIGHT = 0.5;

/**
 * The share of the threshold an entry's evidence must reach, from two words at least, to be
 * listed once the prompt fires: the ranking, not the evidence sum, then decides which of these
 * come first.
 */
export const LISTED_SHARE = 0.5;

/**
 * When a prompt's best entry is what the prompt is about, and which entries are listed beside
 * it; every figure is a share or a unit of this knowledge base's own statistics, so the rule
 * holds at 40 entries as at 50,000.
 */
export interface FiringRule {
  /**
   * Search scores the entry it ranks first at least this many times what one word in as many
   * entries as still count in full (the square root of N, at least
   * {@link SPECIFIC_FLOOR_ENTRIES}: see {@link specificity}) scores alone in a title of average
   * length, whatever else holds. Evidence counts such a word in full; search must agree that the
   * prompt hits the entry at least as strongly as that many of them would. A prompt made only of
   * words that many entries hold ("run the migrations", "let's go with option A") points at
   * nothing, however much of it one entry holds.
   */
  weakestMatch: number;
  /**
   * The best entry holds at least this share of the prompt's evidence ({@link promptEvidence}):
   * the prompt is about it, however weakly search scores it.
   */
  soleShare: number;
  /**
   * Or search scores it (BM25F over the prompt's terms) at least this many times ln N, for N
   * entries: an entry that alone holds a prompt word in its short title scores about 1.6 ln N
   * for that word.
   */
  strongMatch: number;
  /** …and it holds at least this share of the prompt's evidence raised to the ¾ power. */
  promptShare: number;
  /**
   * Or search scores it at least this many times ln N above every other entry that could be
   * listed: the prompt's words single it out, however much else the prompt says.
   */
  lead: number;
  /**
   * And the prompt names the entry: prompt words found in the first listed entry's title, tags
   * or aliases count at least this much evidence (most of one rare word)…
   */
  named: number;
  /**
   * …or search scores it at least this many times ln N: a prompt that never names an entry must
   * hit its other fields as strongly as a prompt that names it in a short title would…
   */
  unnamedMatch: number;
  /**
   * …and its evidence exceeds what the prompt's words would give an entry of its body's length
   * by chance ({@link chanceEvidence}) by at least this many standard deviations of that.
   */
  beyondChance: number;
  /** Listed entries have at least this share of the best entry's evidence. */
  bestShare: number;
  /** Listed entries score at least this share of the first listed entry's search score. */
  rankFloor: number;
}

/** The rule the prompt hook fires by, fixed on the tuning halves of `bench/` (see its README). */
export const FIRING_RULE: FiringRule = {
  weakestMatch: 2,
  soleShare: 0.6,
  strongMatch: 3,
  promptShare: 0.4,
  lead: 2,
  named: 0.8,
  unnamedMatch: 3.5,
  beyondChance: 2.5,
  bestShare: 0.55,
  rankFloor: 0.8,
};

/** A word in more than this share of the entries is too common to count in a body. */
export const COMMON_WORD_SHARE = 0.5;

/**
 * The fewest entries a word must be in, beyond the share, to be too common: in a small knowledge
 * base every word is in a large share of it.
 */
export const COMMON_WORD_MIN_ENTRIES = 10;

/**
 * The fewest entries a word may be in and still count in full: as many as one prompt lists
 * pointers by default. In a knowledge base of a few dozen entries every word is in a large share
 * of it, and a word in five entries still picks out what the hook can show.
 */
export const SPECIFIC_FLOOR_ENTRIES = 5;

/**
 * The most entries a word may be in and still count in full ({@link specificity}): the square
 * root of `docCount`, at least {@link SPECIFIC_FLOOR_ENTRIES}.
 */
function rareEntries(docCount: number): number {
  return Math.max(Math.sqrt(docCount), SPECIFIC_FLOOR_ENTRIES);
}

/**
 * How much a word found in `entries` of `docCount` entries says about which entry is meant, from
 * 0 (in every entry) to 1 (rare): its inverse document frequency, ln(docCount / entries), in
 * units of ln(docCount / r), capped at 1, where r, the most entries a word may be in and count in
 * full, is the square root of `docCount` (at least {@link SPECIFIC_FLOOR_ENTRIES}). Two
 * independent words in r entries each are expected together in docCount · (r / docCount)² = 1
 * entry by chance, so the unit means the same in a knowledge base of 40 entries (r = 6) as in
 * one of 50,000 (r = 224), and a prompt of common words adds up to little however many it has.
 */
export function specificity(entries: number, docCount: number): number {
  const rare = rareEntries(docCount);
  if (entries <= rare) return 1;
  return Math.max(0, Math.log(docCount / entries) / Math.log(docCount / rare));
}

/**
 * Below this specificity a word is common (in more than docCount^⅔ of the entries, when that is
 * over {@link SPECIFIC_FLOOR_ENTRIES}), and common words count together at most
 * {@link COMMON_WORDS_MOST} for an entry: a prompt made of them never fires, however many it
 * has, while each still ranks and adds a little to a rarer word's evidence.
 */
export const COMMON_SPECIFICITY = 2 / 3;

/** The most that all of a prompt's common words ({@link COMMON_SPECIFICITY}) count together. */
export const COMMON_WORDS_MOST = 0.5;

/** What a common word of `weight` still counts for an entry its common words gave `counted`. */
function commonShare(weight: number, counted: number): number {
  return Math.min(weight, COMMON_WORDS_MOST - counted);
}

/**
 * How many times the terms of the knowledge base's average entry an entry's title, tags and
 * aliases may hold before each of their words counts less ({@link namingShare}). Entries people
 * write stay well within it: in the benchmarks' knowledge bases (577, 1,871 and 7,013 entries)
 * none holds three times the average.
 */
export const NAMING_SPREAD = 4;

/**
 * The share of its specificity a prompt word counts for an entry when found in the entry's title,
 * tags or aliases, which hold `terms` terms where the knowledge base's entries hold `typical` on
 * average: all of it up to {@link NAMING_SPREAD} times the average ({@link NAMING_FLOOR} at
 * least), then in proportion to how many times over the entry's names are. A prompt word is among an entry's names by chance as
 * often as the entry has names, so each of the names of an entry named by a thousand words says
 * a hundredth of what each of ten does: an entry (a teammate's, say) whose title, 32 tags and 32
 * aliases are stuffed with the words people type most cannot get itself pointed at on every
 * prompt. A share of the knowledge base's own average, so it holds at 40 entries as at 50,000.
 */
export function namingShare(terms: number, typical: number): number {
  const most = Math.max(NAMING_SPREAD * typical, NAMING_FLOOR);
  return terms <= most ? 1 : most / terms;
}

/**
 * The names (title, tag and alias terms) an entry holds in full whatever the others hold: as many
 * as the tags the contract allows one entry ({@link LIMITS.maxListItems}). A knowledge base's
 * first entries (one alone, or a few with short titles) say little about what is typical; an
 * entry people write, a title and a few tags, holds fewer, and one stuffed to be pointed at on
 * every prompt holds hundreds.
 */
export const NAMING_FLOOR: number = LIMITS.maxListItems;

/**
 * Each entry's {@link namingShare}, by ordinal, in the knowledge base `reader` reads: its title
 * and keyword (tags and aliases) term counts against the average of the other entries', so that
 * in a knowledge base of a few dozen entries a stuffed one does not raise the bar it is held to.
 */
function namingShares(reader: IndexReader): (ord: number) => number {
  const { docCount, totals } = reader.manifest;
  const all = totals[0] + totals[1];
  return (ord) => {
    const own = reader.fieldLength(ord, 0) + reader.fieldLength(ord, 1);
    return own <= 0 ? 1 : namingShare(own, (all - own) / Math.max(docCount - 1, 1));
  };
}

/** Whether a word found in `entries` of `docCount` entries is too common to count in a body. */
export function isCommonWord(entries: number, docCount: number): boolean {
  return entries > Math.max(COMMON_WORD_MIN_ENTRIES, docCount * COMMON_WORD_SHARE);
}

/** An entry a prompt's words hit, before its record is loaded. */
export interface KeywordHit {
  /** The entry's ordinal in the index. */
  ord: number;
  /** The prompt words that counted for it, in prompt order. */
  readonly words: string[];
  /** What each of those words counted for it, and where it matched. */
  readonly evidence: Evidence[];
}

/** Where in an entry a prompt word matched: the field that gave it the most weight. */
export type MatchedIn = "title" | "tags" | "body";

/** One prompt word's evidence for an entry. */
export interface Evidence {
  /** The prompt word (a dotted word's parts joined by spaces). */
  word: string;
  /** What it counted towards the threshold. */
  weight: number;
  /** Where it matched: title, tags (or aliases), or only the body. */
  where: MatchedIn;
}

/** How a prompt's words are counted. */
export interface MatchOptions {
  /** Name the near misses (costs reading their metadata); on by default. */
  nearMisses?: boolean;
  /** The firing rule; {@link FIRING_RULE} unless given. */
  rule?: FiringRule;
  /** The kinds of work the prompt is about, each with the entries that apply to it. */
  kindsOfWork?: readonly KindOfWork[];
  /**
   * The text the terms come from: entries that hold its words side by side move up among the
   * first (core/search/pair_order.ts), as they do in search.
   */
  text?: string;
}

/**
 * A kind of work a prompt is about (writing, reviewing…): the words that name it, and the
 * entries whose `applies_to` names it (ordinals, ascending).
 */
export interface KindOfWork {
  /** The words that name it (as {@link splitWords} reads them). */
  words: readonly string[];
  /** The entries that apply to it, by ordinal, ascending. */
  ords: readonly number[];
}

/**
 * Why a prompt whose best entry reached the threshold did not fire on the entry search ranks
 * first, the first of these that holds: the prompt is not about it (it holds too small a share
 * of what the prompt says, and search scores it neither strongly nor far ahead of the others),
 * the prompt does not name it (its words in the entry's title, tags and aliases, if any, count
 * under {@link FiringRule.named}) and search scores it too weakly, or it holds no more than
 * chance gives, or, though the prompt is about it and names it, search scores it too weakly for
 * any prompt to point at it ({@link FiringRule.weakestMatch}), most often because the words
 * naming it are ones many entries hold.
 */
export type QuietReason = "weak_match" | "not_about" | "not_named";

/** The entry a prompt came closest to firing on, and why it did not. */
export interface HeldBack {
  /** The entry's ordinal in the index. */
  ord: number;
  /** Why the prompt did not fire on it. */
  reason: QuietReason;
  /**
   * The prompt's terms the entry may hold where they can count for it: those its postings show
   * (a common word's in its title, tags or aliases only), and those read only by their title, tag
   * and alias postings though not common themselves (a part of a dotted word that another part
   * made common), which a prompt saying them alone would count in its body too.
   */
  holds: ReadonlySet<string>;
}

/** The matches of a prompt's words. */
export interface KeywordMatches {
  /**
   * When the prompt fires (see the module notes): the entries listed, best first; otherwise
   * none.
   */
  ranked: KeywordHit[];
  /**
   * When the prompt fires: the entry the firing rule found it about, the one search scores first
   * (`ranked` may list another before it, one that holds the prompt's words side by side).
   */
  subject?: number;
  /** The best active entries not ranked, at most {@link NEAR_MISS_LIMIT}. */
  nearMisses: KeywordHit[];
  /** When the best entry reached the threshold and the prompt did not fire: on what, and why. */
  heldBack?: HeldBack;
  /** Prompt word → number of entries it is found in (any field). */
  termHits: Record<string, number>;
}

/** The most near misses a match names. */
export const NEAR_MISS_LIMIT = 10;

/**
 * One part of a prompt word: its term, how many entries hold it, and the postings that count:
 * all of them (flat [ordinal, title tf, keyword tf, body tf, …]), or for a common word the title,
 * tag and alias ones only, as the index keeps them (flat [ordinal, field mask, …]).
 */
interface WordPart {
  term: PromptTerm;
  entries: number;
  postings: Postings;
  /** The postings are the keyword ones only: the word (this part or another) is common. */
  keywordOnly: boolean;
}

/** How many numbers one entry takes in a part's postings. */
function strideOf(part: WordPart): number {
  return part.keywordOnly ? 2 : 4;
}

/** Whether the entry at `index` of a part's postings holds the term in a title, tag or alias. */
function isKeywordHit(part: WordPart, index: number): boolean {
  const { postings } = part;
  return part.keywordOnly
    ? (postings[index + 1] & (FIELD_TITLE | FIELD_KEYWORD)) !== 0
    : postings[index + 1] !== 0 || postings[index + 2] !== 0;
}

/** One word of the prompt: the terms of its parts, with their postings. */
interface PromptWord {
  token: number;
  parts: WordPart[];
  /** Some part is in most entries: the word counts in titles, tags and aliases only. */
  common: boolean;
  /** What the word counts for an entry it hits in a title, tag or alias ({@link specificity}). */
  weight: number;
}

/** What each entry's hits add up to, one array slot per entry ordinal. */
class Tallies {
  /** Ordinals hit at least once, in first-hit order; kept only when asked for (near misses). */
  readonly touched: number[] = [];
  /** Ordinals whose weight reached the listing level, in the order they reached it. */
  readonly reached: number[] = [];
  /** Each entry's evidence: its words' specificity, {@link BODY_WORD_WEIGHT} of it in a body. */
  readonly weight: Float64Array;
  /** Words found in the title, tags or aliases. */
  readonly keywordWords: Uint16Array;
  /** Words that counted at all. */
  readonly words: Uint16Array;
  readonly #listAt: number;
  readonly #keepTouched: boolean;
  /** What each entry's title, tag and alias words counted ({@link shareNames} weighs them). */
  readonly #named: Float64Array;
  /** What each entry's common words counted so far, once there are any. */
  #common?: Float64Array;
  /** The word being counted is a common one. */
  #commonWord = false;
  #token?: Int32Array;
  #keywordParts?: Uint8Array;
  #anyParts?: Uint8Array;

  constructor(size: number, listAt: number, keepTouched: boolean) {
    this.weight = new Float64Array(size);
    this.keywordWords = new Uint16Array(size);
    this.words = new Uint16Array(size);
    this.#named = new Float64Array(size);
    this.#listAt = listAt;
    this.#keepTouched = keepTouched;
  }

  /** Count one prompt word, from its parts' postings. */
  addWord(word: PromptWord): void {
    if (word.weight === 0) return;
    this.#commonWord = word.weight < COMMON_SPECIFICITY;
    if (word.parts.length === 1) this.#addPart(word, word.parts[0]);
    else this.#addParts(word);
  }

  /**
   * Count a word of one part: a posting is one word for its entry. Most prompt words are, and
   * this loop is the one every posting of a firing prompt goes through.
   */
  #addPart(word: PromptWord, part: WordPart): void {
    const { postings } = part;
    const size = this.weight.length;
    const stride = strideOf(part);
    for (let index = 0; index < postings.length; index += stride) {
      const ord = postings[index];
      if (ord >= size) continue;
      if (isKeywordHit(part, index)) this.#add(ord, word.weight, 1);
      else if (!word.common) this.#add(ord, BODY_WORD_WEIGHT * word.weight, 0);
    }
  }

  /** Count a dotted or slashed word: it counts for an entry only where all its parts hit. */
  #addParts(word: PromptWord): void {
    const size = this.weight.length;
    const token = this.#token ??= new Int32Array(size).fill(-1);
    const keywordParts = this.#keywordParts ??= new Uint8Array(size);
    const anyParts = this.#anyParts ??= new Uint8Array(size);
    const inWord: number[] = [];
    for (const part of word.parts) {
      const { postings } = part;
      const stride = strideOf(part);
      for (let index = 0; index < postings.length; index += stride) {
        const ord = postings[index];
        if (ord >= size) continue;
        if (token[ord] !== word.token) {
          token[ord] = word.token;
          keywordParts[ord] = 0;
          anyParts[ord] = 0;
          inWord.push(ord);
        }
        anyParts[ord]++;
        if (isKeywordHit(part, index)) keywordParts[ord]++;
      }
    }
    const parts = word.parts.length;
    for (const ord of inWord) {
      if (keywordParts[ord] === parts) this.#add(ord, word.weight, 1);
      else if (!word.common && anyParts[ord] === parts) {
        this.#add(ord, BODY_WORD_WEIGHT * word.weight, 0);
      }
    }
  }

  /** Add a word of `weight` (`keyword`: 1 when it is a title, tag or alias word) for `ord`. */
  #add(ord: number, weight: number, keyword: number): void {
    if (this.#commonWord) {
      const common = this.#common ??= new Float64Array(this.weight.length);
      weight = commonShare(weight, common[ord]);
      common[ord] += weight;
    }
    const before = this.weight[ord];
    const after = before + weight;
    this.weight[ord] = after;
    this.keywordWords[ord] += keyword;
    if (keyword) this.#named[ord] += weight;
    if (weight > 0) this.words[ord]++;
    if (before === 0 && after > 0 && this.#keepTouched) this.touched.push(ord);
    if (before < this.#listAt && after >= this.#listAt) this.reached.push(ord);
  }

  /**
   * Count the title, tag and alias words of `ord` at `share` of what they counted
   * ({@link namingShare}). Asked only for the entries that could be listed, so that a prompt that
   * reaches none reads no entry's lengths.
   */
  shareNames(ord: number, share: number): void {
    this.weight[ord] -= this.#named[ord] * (1 - share);
  }

  /** Whether `ord` may be listed once the prompt fires: two words or more, to the listing level. */
  isListed(ord: number): boolean {
    return this.words[ord] > 1 && this.weight[ord] >= this.#listAt;
  }

  /** Near misses first by weight, then keyword words, then index order. */
  readonly compare = (a: number, b: number): number =>
    this.weight[b] - this.weight[a] || this.keywordWords[b] - this.keywordWords[a] || a - b;
}

/** Whether `ord` would enter `best` (kept in order, at most `limit`). */
function wouldKeep(
  best: number[],
  ord: number,
  limit: number,
  compare: (a: number, b: number) => number,
): boolean {
  return best.length < limit || compare(ord, best[limit - 1]) < 0;
}

/** Insert `ord` into `best`, kept in order and at most `limit` long. */
function keep(
  best: number[],
  ord: number,
  limit: number,
  compare: (a: number, b: number) => number,
): void {
  let at = best.length;
  while (at > 0 && compare(ord, best[at - 1]) < 0) at--;
  best.splice(at, 0, ord);
  if (best.length > limit) best.pop();
}

/**
 * Where `ord` sits in a part's postings, or -1. Postings are in ordinal order (entries are added
 * in order and never get a smaller ordinal later), so this is a binary search.
 */
function postingAt(part: WordPart, ord: number): number {
  const { postings } = part;
  const stride = strideOf(part);
  let low = 0;
  let high = postings.length / stride - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const found = postings[middle * stride];
    if (found === ord) return middle * stride;
    if (found < ord) low = middle + 1;
    else high = middle - 1;
  }
  return -1;
}

/** Where the entry at `index` of a part's postings holds the term: title, tags, else body. */
function matchedIn(part: WordPart, index: number): MatchedIn {
  const { postings } = part;
  if (part.keywordOnly) return postings[index + 1] & FIELD_TITLE ? "title" : "tags";
  return postings[index + 1] ? "title" : postings[index + 2] ? "tags" : "body";
}

/** What each prompt word counted for `ord`, in prompt order. */
function evidenceFor(ord: number, words: PromptWord[], naming: number): Evidence[] {
  const found: Evidence[] = [];
  let common = 0;
  for (const word of words) {
    if (word.weight === 0) continue;
    const places: MatchedIn[] = [];
    for (const part of word.parts) {
      const at = postingAt(part, ord);
      if (at >= 0) places.push(matchedIn(part, at));
    }
    if (places.length < word.parts.length) continue;
    const where = places.includes("body") ? "body" : places.includes("tags") ? "tags" : "title";
    if (where === "body" && word.common) continue;
    let weight = where === "body" ? BODY_WORD_WEIGHT * word.weight : naming * word.weight;
    if (word.weight < COMMON_SPECIFICITY) {
      weight = commonShare(weight, common);
      common += weight;
    }
    if (weight <= 0) continue;
    found.push({ word: word.parts.map((part) => part.term.word).join(" "), weight, where });
  }
  return found;
}

/** The terms of `words` that the entry at `ord` may hold where they count ({@link HeldBack.holds}). */
function termsHeld(words: PromptWord[], ord: number, docCount: number): Set<string> {
  const held = new Set<string>();
  for (const word of words) {
    for (const part of word.parts) {
      const unread = part.keywordOnly && !isCommonWord(part.entries, docCount);
      if (unread || postingAt(part, ord) >= 0) held.add(part.term.term);
    }
  }
  return held;
}

/** What the prompt's words found in the title, tags or aliases of `hit` counted for it. */
function namingEvidence(hit: KeywordHit): number {
  let sum = 0;
  for (const item of hit.evidence) if (item.where !== "body") sum += item.weight;
  return sum;
}

/**
 * A hit whose evidence is looked up when first asked for: most ranked hits are never shown. A
 * class, so that thousands of hits share one getter instead of a closure each.
 */
class LazyHit implements KeywordHit {
  readonly ord: number;
  readonly #prompt: PromptWord[];
  readonly #naming: (ord: number) => number;
  #evidence?: Evidence[];

  constructor(ord: number, prompt: PromptWord[], naming: (ord: number) => number) {
    this.ord = ord;
    this.#prompt = prompt;
    this.#naming = naming;
  }

  get evidence(): Evidence[] {
    return this.#evidence ??= evidenceFor(this.ord, this.#prompt, this.#naming(this.ord));
  }

  get words(): string[] {
    return [...new Set(this.evidence.flatMap((item) => item.word.split(" ")))];
  }
}

/**
 * A part's postings of the entries `ords` (ascending) as ranking reads them (flat [ordinal, title
 * tf, keyword tf, body tf, …]): a keyword-only part's field masks become a title and a keyword
 * count of one, for these entries alone, so a common word's long keyword list is never rewritten
 * whole. Both lists are in ordinal order, so one walk along each finds them.
 */
function rankingPostings(part: WordPart, ords: Int32Array): Postings {
  if (!part.keywordOnly) return part.postings;
  const listed = part.postings;
  const postings: number[] = [];
  let at = 0;
  for (const ord of ords) {
    while (at < listed.length && listed[at] < ord) at += 2;
    if (at >= listed.length) break;
    if (listed[at] !== ord) continue;
    const mask = listed[at + 1];
    postings.push(ord, mask & FIELD_TITLE ? 1 : 0, mask & FIELD_KEYWORD ? 1 : 0, 0);
  }
  return postings;
}

/**
 * The BM25F scores of the entries `ords` (marked 1 in `isOrd`, by ordinal) over the prompt's
 * terms, each once, by ordinal, as search scores them: a term only a common word holds by its
 * title, tag and alias postings, which are all the prompt read of it; a term that is also a word
 * of its own, or part of one that is not common, by all of them.
 */
function searchScores(
  reader: IndexReader,
  words: PromptWord[],
  ords: number[],
  isOrd: Uint8Array,
): Float64Array {
  const parts = new Map<string, WordPart>();
  for (const word of words) {
    for (const part of word.parts) {
      const known = parts.get(part.term.term);
      if (!known || known.keywordOnly) parts.set(part.term.term, part);
    }
  }
  const scores = new Float64Array(isOrd.length);
  let byOrdinal: Int32Array | undefined;
  forEachScore(
    reader,
    parts.keys(),
    (ord) => isOrd[ord] === 1,
    (ord, score) => scores[ord] += score,
    (term) => {
      const part = parts.get(term);
      return part
        ? {
          postings: rankingPostings(part, byOrdinal ??= Int32Array.from(ords).sort()),
          entries: part.entries,
        }
        : { postings: [], entries: 0 };
    },
  );
  return scores;
}

/**
 * Read the first of `words` that names `kind` on its own (one part: `review`, not `code-review`)
 * as also being a tag of every entry that applies to that kind of work, and weigh it by how many
 * entries it then names ({@link specificity}): an entry's `applies_to` is one word of evidence for
 * a prompt about that work, counted once with the word itself, never a pointer without the rest of
 * the prompt's evidence. Nothing changes when no entry applies to it.
 */
function nameKindOfWork(
  words: PromptWord[],
  kind: KindOfWork,
  docCount: number,
  termHits: Record<string, number>,
): void {
  if (!kind.ords.length) return;
  const word = words.find(({ parts }) =>
    parts.length === 1 && kind.words.includes(parts[0].term.word)
  );
  if (!word) return;
  const part = withTags(word.parts[0], kind.ords);
  word.parts = [part];
  word.weight = specificity(part.entries, docCount);
  word.common ||= isCommonWord(part.entries, docCount);
  termHits[part.term.word] = part.entries;
}

/**
 * `part` with the entries `ords` (ascending) holding its term in their tags as well: added to its
 * postings (a keyword count of 1, or the keyword bit of a keyword-only part) where they are not
 * there already, and counted in its entries. A keyword-only part (a common word's) lists no body
 * postings, so an entry that holds the word in its body only is counted twice: the word reads a
 * little more common than it is, never less.
 */
function withTags(part: WordPart, ords: readonly number[]): WordPart {
  const { postings } = part;
  const stride = strideOf(part);
  const merged: number[] = [];
  let added = 0;
  let at = 0;
  const copyUpTo = (ord: number) => {
    for (; at < postings.length && postings[at] < ord; at += stride) {
      for (let field = 0; field < stride; field++) merged.push(postings[at + field]);
    }
  };
  for (const ord of ords) {
    copyUpTo(ord);
    const held = at < postings.length && postings[at] === ord;
    if (!held) added++;
    if (part.keywordOnly) merged.push(ord, (held ? postings[at + 1] : 0) | FIELD_KEYWORD);
    else if (held) {
      merged.push(ord, postings[at + 1], Math.max(postings[at + 2], 1), postings[at + 3]);
    } else merged.push(ord, 0, 1, 0);
    if (held) at += stride;
  }
  copyUpTo(Infinity);
  return { ...part, postings: merged, entries: part.entries + added };
}

/**
 * The prompt's words with the postings of their parts. A common word counts in titles, tags and
 * aliases only, so its keyword postings say all that matters and its long body postings are
 * never parsed: on a large knowledge base they are most of what a prompt would read.
 */
function promptWords(
  reader: IndexReader,
  terms: PromptTerm[],
  termHits: Record<string, number>,
): PromptWord[] {
  const { docCount } = reader.manifest;
  const words: PromptWord[] = [];
  for (const term of terms) {
    const entries = reader.postingCount(term.term);
    if (entries) termHits[term.word] = entries;
    let word = words.at(-1);
    if (word?.token !== term.token) {
      words.push(word = { token: term.token, parts: [], common: false, weight: 0 });
    }
    // All parts must hit, so the word is at least as specific as its rarest part.
    if (entries) word.weight = Math.max(word.weight, specificity(entries, docCount));
    const common = isCommonWord(entries, docCount);
    word.common ||= common;
    // Parsed at once, while the reader still holds the term's shard.
    const postings = !entries
      ? []
      : common
      ? reader.keywordPostings(term.term)
      : reader.postings(term.term);
    word.parts.push({ term, entries, postings, keywordOnly: common });
  }
  // A part of a word that another part made common counts by its keyword postings too.
  for (const word of words) {
    if (!word.common) continue;
    for (const part of word.parts) {
      if (part.entries && !part.keywordOnly) {
        part.postings = reader.keywordPostings(part.term.term);
        part.keywordOnly = true;
      }
    }
  }
  return words;
}

/**
 * What a prompt's words could give one entry that held them all in its title: the sum of their
 * specificities, its common words counting {@link COMMON_WORDS_MOST} together at most, as they
 * do for an entry. Words no entry holds give nothing.
 */
export function promptEvidence(words: readonly { weight: number }[]): number {
  let specific = 0;
  let common = 0;
  for (const { weight } of words) {
    if (weight < COMMON_SPECIFICITY) common += weight;
    else specific += weight;
  }
  return specific + Math.min(common, COMMON_WORDS_MOST);
}

/** What a prompt's words would give an entry by chance: the expected evidence, and its spread. */
interface Chance {
  /** The evidence expected. */
  mean: number;
  /** Its standard deviation. */
  deviation: number;
}

/**
 * The chance that an entry of average length holds a word `holders` of the `docCount` entries
 * hold, by Laplace's rule of succession: (n + 1) / (N + 2), not n / N. A knowledge base is a
 * sample of what its author writes, and a small one a small sample: a word one of 40 notes holds
 * is likelier in the author's prose than 1 in 40, and a long body holds several such words by
 * chance. At thousands of entries the two estimates agree.
 */
function holdingChance(holders: number, docCount: number): number {
  return Math.min((holders + 1) / (docCount + 2), 1);
}

/**
 * The evidence a prompt's words would give an entry as long as `ord` by chance: each word that
 * counts in a body, {@link BODY_WORD_WEIGHT} of its specificity, is in it with the chance that
 * an entry of that body length holds it, independently of the others. A word in n of the N
 * entries is in an entry of average length with chance p ({@link holdingChance}), and in one L
 * times as long as the average with chance 1 − (1 − p)^L; a dotted word needs all of its parts.
 * n is counted in the word's postings, which are all read and leave out entries removed since
 * the index was last compacted: {@link IndexReader.postingCount} still counts those, and after a
 * pull that changed many entries it would make every word look likelier than it is. A long
 * prompt shares a dozen words with a long entry's body by chance alone, most of all in a small
 * knowledge base, where few entries hold any word.
 */
function chanceEvidence(reader: IndexReader, words: PromptWord[], ord: number): Chance {
  const { docCount, totals } = reader.manifest;
  const averageBody = Math.max(totals[2] / Math.max(docCount, 1), 1);
  const lengths = Math.max(reader.fieldLength(ord, 2), 0) / averageBody;
  let mean = 0;
  let variance = 0;
  for (const word of words) {
    if (word.weight === 0 || word.common) continue;
    let chance = 1;
    for (const part of word.parts) {
      const holders = part.postings.length / strideOf(part);
      chance *= 1 - (1 - holdingChance(holders, docCount)) ** lengths;
    }
    const weight = BODY_WORD_WEIGHT * word.weight;
    mean += weight * chance;
    variance += weight * weight * chance * (1 - chance);
  }
  return { mean, deviation: Math.sqrt(variance) };
}

/**
 * The entries a prompt's words point at (see the module notes): when the best active, non-kernel
 * entry's evidence reaches `threshold` and the {@link FiringRule} finds the prompt about it,
 * those listed beside it, ranked by BM25F over all the prompt's terms. Superseded, archived and
 * kernel entries are told apart by the entries' metadata (`meta.bin`, one read). Only the
 * candidates are scored and sorted; the near misses are picked, not sorted, and only when
 * `nearMisses` is set, so a prompt that hits nothing over the listing level reads no metadata
 * at all.
 */
export function keywordMatches(
  reader: IndexReader,
  terms: PromptTerm[],
  threshold: number,
  { nearMisses = true, rule = FIRING_RULE, kindsOfWork = [], text = "" }: MatchOptions = {},
): KeywordMatches {
  const termHits: Record<string, number> = {};
  const { docCount, nextOrd } = reader.manifest;
  const naming = namingShares(reader);
  const tallies = new Tallies(Math.max(nextOrd, docCount), threshold * LISTED_SHARE, nearMisses);
  const words = promptWords(reader, terms, termHits);
  for (const kind of kindsOfWork) nameKindOfWork(words, kind, docCount, termHits);
  for (const word of words) tallies.addWord(word);
  const listed: number[] = [];
  for (const ord of tallies.reached) {
    if (!tallies.isListed(ord)) continue;
    tallies.shareNames(ord, naming(ord));
    if (tallies.isListed(ord) && reader.isPointable(ord)) listed.push(ord);
  }
  let best = 0;
  for (const ord of listed) best = Math.max(best, tallies.weight[ord]);
  const said = promptEvidence(words);
  const over = best >= threshold
    ? listed.filter((ord) => tallies.weight[ord] >= rule.bestShare * best)
    : [];
  const isOver = new Uint8Array(over.length ? tallies.weight.length : 0);
  for (const ord of over) isOver[ord] = 1;
  // Near misses are entries a prompt could point at: a kernel rule in force reaches every prompt
  // whole, so it never nearly matches.
  const under: number[] = [];
  for (const ord of tallies.touched) {
    if (
      isOver[ord] !== 1 && wouldKeep(under, ord, NEAR_MISS_LIMIT, tallies.compare) &&
      reader.isPointable(ord)
    ) keep(under, ord, NEAR_MISS_LIMIT, tallies.compare);
  }
  const hit = (ord: number) => new LazyHit(ord, words, naming);
  let ranked: KeywordHit[] = [];
  let subject: number | undefined;
  let heldBack: HeldBack | undefined;
  if (over.length) {
    const isListed = new Uint8Array(tallies.weight.length);
    for (const ord of listed) isListed[ord] = 1;
    const scores = searchScores(reader, words, listed, isListed);
    // Weighed by the naming share, as the evidence is: an entry named by far more words than the
    // others holds many of a long prompt's words, and BM25F sums them.
    for (const ord of listed) scores[ord] *= naming(ord);
    over.sort((a, b) => scores[b] - scores[a] || tallies.compare(a, b));
    const first = scores[over[0]];
    let second = 0;
    for (const ord of listed) if (ord !== over[0]) second = Math.max(second, scores[ord]);
    const lnN = Math.log(docCount);
    const about = best >= rule.soleShare * said ||
      (first >= rule.strongMatch * lnN && best >= rule.promptShare * said ** 0.75) ||
      first - second >= rule.lead * lnN;
    // The first hit's evidence, looked up only when it decides, is the one its pointer shows.
    const top = hit(over[0]);
    const beatsChance = () => {
      const chance = chanceEvidence(reader, words, over[0]);
      return tallies.weight[over[0]] - chance.mean >= rule.beyondChance * chance.deviation;
    };
    const unnamed = () => first >= rule.unnamedMatch * lnN && beatsChance();
    const weakest = rule.weakestMatch * titleWordScore(docCount, rareEntries(docCount));
    // Weak only when nothing else holds the prompt back: an entry the prompt is not about, or
    // does not name, is held back for that, however rare the words it holds.
    const reason: QuietReason | undefined = !about
      ? "not_about"
      : namingEvidence(top) < rule.named && !unnamed()
      ? "not_named"
      : first < weakest
      ? "weak_match"
      : undefined;
    if (reason) {
      // Looked up only when asked: only a prompt held back as not about the entry reads it.
      let holds: Set<string> | undefined;
      heldBack = {
        ord: over[0],
        reason,
        get holds() {
          return holds ??= termsHeld(words, over[0], docCount);
        },
      };
    } else {
      const pointed = [
        over[0],
        ...over.slice(1).filter((ord) => scores[ord] >= rule.rankFloor * first),
      ];
      // The firing rule decided on search's scores; the entries it lists are ordered as search
      // orders its first ones, those that hold the prompt's words side by side moved up. A lone
      // pointer has no order to change, and its prompt's pairs are never read.
      if (pointed.length > 1) {
        const bonuses = pairBonuses(
          reader,
          pointed,
          (ord) => scores[ord],
          (ord) => termsHeld(words, ord, docCount),
          adjacentPairs(text),
        );
        const ordered = (ord: number) => scores[ord] + (bonuses.get(ord) ?? 0);
        pointed.sort((a, b) => ordered(b) - ordered(a) || tallies.compare(a, b));
      }
      ranked = pointed.map((ord) => ord === over[0] ? top : hit(ord));
      subject = over[0];
    }
  }
  return {
    ranked,
    ...subject === undefined ? {} : { subject },
    nearMisses: under.map(hit),
    heldBack,
    termHits,
  };
}
