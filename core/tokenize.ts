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
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  (
    "a about above after again against all also am an and any are aren as at be because been " +
    "before being below between both but by can cannot could did do does doing didn doesn don down during " +
    "each either etc every few for from further get gets got had has have having he her here hers " +
    "him his how however i if in into is isn it its itself just let lets like me might more " +
    "most much must my myself need needs no nor not now of off on once one only or other ought " +
    "our ours out over own per please same she should so some such than that the their theirs " +
    "them then there these they this those through thus to too under until up upon us very via " +
    "was we were what when where whether which while who whom whose why will with within without " +
    "would yes yet you your yours yourself ok okay hey hi hello thanks thank want wants help " +
    "make sure really maybe something anything thing things way ways won wouldn"
  ).split(" "),
);

const SPLIT = /[^\p{L}\p{N}]+/u;
const NON_ASCII = /[^\u0020-\u007e\s]/;

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
  const lower = text.toLowerCase();
  if (NON_ASCII.test(lower)) {
    const words = lower.split(SPLIT);
    for (let index = 0; index < words.length; index++) addTerm(terms, words[index]);
    return terms;
  }
  // ASCII text, the common case: scan for [a-z0-9] runs, about twice as fast as a split.
  let start = -1;
  for (let index = 0; index <= lower.length; index++) {
    const code = index < lower.length ? lower.charCodeAt(index) : 32;
    if ((code >= 97 && code <= 122) || (code >= 48 && code <= 57)) {
      if (start < 0) start = index;
    } else if (start >= 0) {
      addTerm(terms, lower.slice(start, index));
      start = -1;
    }
  }
  return terms;
}

function addTerm(terms: string[], word: string): void {
  let term = termOf.get(word);
  if (term === undefined) {
    term = word.length < 2 || STOPWORDS.has(word) ? "" : stem(word);
    if (termOf.size >= TERM_MEMO_LIMIT) termOf.clear();
    termOf.set(word, term);
  }
  if (term) terms.push(term);
}

/** Word → term ("" for a word that is dropped): one lookup per word on a warm vocabulary. */
const termOf = new Map<string, string>();
const TERM_MEMO_LIMIT = 100_000;

/** The distinct terms of `text`, in first-seen order. */
export function distinctTerms(text: string): string[] {
  return [...new Set(tokenize(text))];
}
