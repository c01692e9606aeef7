/**
 * The one tokenizer shared by the index, search and the prompt hook: lowercase, split on
 * anything that is not a letter or digit, drop stopwords and one-character tokens, stem.
 *
 * @module
 */
import { stem } from "./stem.ts";

/**
 * Words too common in prompts and notes to say anything about which entry is meant. Checked
 * before stemming. Includes the filler of requests to an agent ("please", "help", "want").
 *
 * Written as an array literal, not a string split when the module loads: a hook builds this on
 * every start, and from literals (hashed as the module is parsed) it takes a quarter of the time.
 */
// deno-fmt-ignore
export const STOPWORDS: ReadonlySet<string> = new Set([
  "a", "about", "above", "after", "again", "against", "all", "also", "am", "an", "and", "any",
  "are", "aren", "as", "at", "be", "because", "been", "before", "being", "below", "between",
  "both", "but", "by", "can", "cannot", "could", "did", "do", "does", "doing", "didn", "doesn",
  "don", "down", "during", "each", "either", "etc", "every", "few", "for", "from", "further",
  "get", "gets", "got", "had", "has", "have", "having", "he", "her", "here", "hers", "him", "his",
  "how", "however", "i", "if", "in", "into", "is", "isn", "it", "its", "itself", "just", "let",
  "lets", "like", "me", "might", "more", "most", "much", "must", "my", "myself", "need", "needs",
  "no", "nor", "not", "now", "of", "off", "on", "once", "one", "only", "or", "other", "ought",
  "our", "ours", "out", "over", "own", "per", "please", "same", "she", "should", "so", "some",
  "such", "than", "that", "the", "their", "theirs", "them", "then", "there", "these", "they",
  "this", "those", "through", "thus", "to", "too", "under", "until", "up", "upon", "us", "very",
  "via", "was", "we", "were", "what", "when", "where", "whether", "which", "while", "who", "whom",
  "whose", "why", "will", "with", "within", "without", "would", "yes", "yet", "you", "your",
  "yours", "yourself", "ok", "okay", "hey", "hi", "hello", "thanks", "thank", "want", "wants",
  "help", "make", "sure", "really", "maybe", "something", "anything", "thing", "things", "way",
  "ways", "won", "wouldn", "use", "used", "uses", "using",
]);

/**
 * What separates words in text that is not plain ASCII: anything but a letter or a digit of any
 * script. Made on first use: creating an expression with Unicode properties cost every hook's
 * start half a millisecond, and most prompts are ASCII.
 */
let nonWord: RegExp | undefined;

const CODE_DIGIT_0 = 48;
const CODE_DIGIT_9 = 57;
const CODE_LOWER_A = 97;
const CODE_LOWER_Z = 122;

/** True for the character codes of `a`–`z` and `0`–`9`. */
function isWordCode(code: number): boolean {
  return (code >= CODE_LOWER_A && code <= CODE_LOWER_Z) ||
    (code >= CODE_DIGIT_0 && code <= CODE_DIGIT_9);
}

const CODE_TAB = 9;
const CODE_LINE_FEED = 10;
const CODE_CARRIAGE_RETURN = 13;
const CODE_SPACE = 32;
const CODE_TILDE = 126;

/**
 * True when `text` holds a character outside printable ASCII other than ASCII whitespace (tab to
 * carriage return): such text is split by Unicode rules.
 */
function hasNonAscii(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (
      code > CODE_TILDE || (code < CODE_SPACE && (code < CODE_TAB || code > CODE_CARRIAGE_RETURN))
    ) {
      return true;
    }
  }
  return false;
}

/** True for the ASCII whitespace that separates a prompt's tokens. */
function isSpaceCode(code: number): boolean {
  return code === CODE_SPACE || code === CODE_TAB || code === CODE_LINE_FEED ||
    code === CODE_CARRIAGE_RETURN;
}

/** A text's words and the token each sits in (see {@link splitWords}). */
interface SplitText {
  words: string[];
  tokens: number[];
}

/**
 * The most words {@link splitWords} gives: a prompt's words past these are not looked at, so no
 * prompt, of any size, costs the hooks more than a bounded time.
 */
export const MAX_SPLIT_WORDS = 10_000;

/**
 * The lowercase words of `text` (runs of letters or digits), in order, at most
 * {@link MAX_SPLIT_WORDS}. With `tokens`, also the number of the whitespace-separated token
 * each word sits in, pushed in step: `console.log` gives two words of one token.
 */
export function splitWords(text: string, tokens?: number[]): string[] {
  const split = splitText(text, MAX_SPLIT_WORDS);
  // A loop, not a spread: a huge prompt has more tokens than a call takes arguments.
  if (tokens) { for (const token of split.tokens) tokens.push(token); }
  return split.words;
}

/**
 * The words of `text`, lowercased, and the token each sits in, at most `limit` words: the one
 * scanner behind {@link splitWords} and {@link tokenize}. ASCII text is scanned by character
 * codes, anything else split by Unicode rules (see {@link unicodeWords}).
 */
function splitText(text: string, limit: number): SplitText {
  const lower = text.toLowerCase();
  if (hasNonAscii(lower)) return unicodeWords(lower, limit);
  const words: string[] = [];
  const tokens: number[] = [];
  let start = -1;
  let token = 0;
  let afterSpace = false;
  for (let index = 0; index <= lower.length && words.length < limit; index++) {
    const code = index < lower.length ? lower.charCodeAt(index) : CODE_SPACE;
    if (isWordCode(code)) {
      if (start < 0) {
        start = index;
        if (afterSpace) token++;
        afterSpace = false;
      }
      continue;
    }
    if (start >= 0) {
      words.push(lower.slice(start, index));
      tokens.push(token);
      start = -1;
    }
    if (isSpaceCode(code)) afterSpace = true;
  }
  return { words, tokens };
}

/**
 * Turn text into index terms, in order, with repeats.
 *
 * @example
 * ```ts
 * tokenize("Rotating the leaked Cloudflare tokens"); // ["rotat", "leak", "cloudflar", "token"]
 * ```
 */
export function tokenize(text: string): string[] {
  const terms: string[] = [];
  eachTerm(text, (term) => terms.push(term));
  return terms;
}

/**
 * Count the terms of `text` into `counts` at `field` (0 title, 1 keywords, 2 body): what
 * {@link tokenize} finds, without building its list. Returns how many terms there were, repeats
 * included.
 */
export function countTerms(
  text: string,
  field: 0 | 1 | 2,
  counts: Map<string, [number, number, number]>,
): number {
  let found = 0;
  eachTerm(text, (term) => {
    found++;
    countTerm(counts, term, field);
  });
  return found;
}

/** Count one occurrence of `term` into `counts` at `field` (see {@link countTerms}). */
export function countTerm(
  counts: Map<string, [number, number, number]>,
  term: string,
  field: 0 | 1 | 2,
): void {
  const known = counts.get(term);
  if (known) known[field]++;
  else {
    const fresh: [number, number, number] = [0, 0, 0];
    fresh[field] = 1;
    counts.set(term, fresh);
  }
}

/** The largest limit `String.prototype.split` takes, and its default: no limit. */
const NO_LIMIT = 2 ** 32 - 1;

/**
 * The words of lowercase `lower` by Unicode rules, with the token each sits in (see
 * {@link splitText}); at most `limit` words, from at most `limit` tokens.
 */
function unicodeWords(lower: string, limit: number): SplitText {
  const words: string[] = [];
  const tokens: number[] = [];
  const parts = lower.split(/\s+/, limit);
  for (let token = 0; token < parts.length && words.length < limit; token++) {
    for (const word of parts[token].split(nonWord ??= /[^\p{L}\p{N}]+/u)) {
      if (!word) continue;
      if (words.length >= limit) break;
      words.push(word);
      tokens.push(token);
    }
  }
  return { words, tokens };
}

/** Call `visit` with each term of `text`, in order, repeats included. */
function eachTerm(text: string, visit: (term: string) => void): void {
  for (const word of splitText(text, NO_LIMIT).words) {
    const term = termOf(word);
    if (term) visit(term);
  }
}

/** Word → term ("" for a word that is dropped): one lookup per word on a warm vocabulary. */
const memo = new Map<string, string>();
const TERM_MEMO_LIMIT = 100_000;

/**
 * The longest term: a longer word's term is its first this many characters, unstemmed, so that
 * neither a prompt nor an entry holding a huge word makes a huge term (in the index, the session
 * files and every lookup).
 */
export const MAX_TERM_LENGTH = 64;

/**
 * The stemmed term of `word`, or "" for a stopword or a one-character word; a word over
 * {@link MAX_TERM_LENGTH} characters is cut to that length and not stemmed.
 */
export function termOf(word: string): string {
  if (word.length > MAX_TERM_LENGTH) return word.slice(0, MAX_TERM_LENGTH);
  let term = memo.get(word);
  if (term === undefined) {
    term = word.length < 2 || STOPWORDS.has(word) ? "" : stem(word);
    if (memo.size >= TERM_MEMO_LIMIT) memo.clear();
    memo.set(word, term);
  }
  return term;
}

/** The distinct terms of `text`, in first-seen order. */
export function distinctTerms(text: string): string[] {
  return [...new Set(tokenize(text))];
}
