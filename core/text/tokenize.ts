/**
 * The one tokenizer shared by the index, search, the prompt hook and the search augment: fold
 * accents, lowercase, split on anything that is not a letter or digit, cut CJK runs into
 * bigrams, drop stopwords and one-character tokens, stem.
 *
 * Every path reads words with {@link splitWords} and makes terms with {@link termOf}. The index
 * and search ({@link tokenize}) also take a compound's other spellings: the parts of a camelCase
 * word (`CrashLoopBackOff` → crash, loop, back) and the joined form of words tied by `-` or `_`
 * (`force-push` → forcepush), so either spelling of a compound finds the other.
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
 * The most characters of a text {@link splitWords} reads: ten thousand words of 25 characters
 * and their separators. Lowercasing and folding accents cost every character of what they are
 * given, so a prompt of 8 MiB with no space in it cost the hooks seconds before this bound.
 */
export const MAX_SPLIT_CHARS = 256 * 1024;

/**
 * The lowercase words of `text` (runs of letters or digits), in order, at most
 * {@link MAX_SPLIT_WORDS} from its first {@link MAX_SPLIT_CHARS} characters. With `tokens`, also
 * the number of the whitespace-separated token each word sits in, pushed in step: `console.log`
 * gives two words of one token.
 */
export function splitWords(text: string, tokens?: number[]): string[] {
  const split = splitText(text.slice(0, MAX_SPLIT_CHARS), MAX_SPLIT_WORDS);
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
  let lower = text.toLowerCase();
  if (hasNonAscii(lower)) {
    lower = foldAccents(lower);
    if (hasNonAscii(lower)) return unicodeWords(lower, limit);
  }
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

/** Told of each two different terms of words side by side in a text, the first term first. */
export type AdjacentTerms = (first: string, second: string) => void;

/**
 * Count the terms of `text` into `counts` at `field` (0 title, 1 keywords, 2 body): what
 * {@link tokenize} finds, without building its list. Returns how many terms there were, repeats
 * included. With `adjacent`, also tell it each two terms of words side by side (stopwords aside),
 * in the same pass.
 */
export function countTerms(
  text: string,
  field: 0 | 1 | 2,
  counts: Map<string, [number, number, number]>,
  adjacent?: AdjacentTerms,
): number {
  let found = 0;
  eachTerm(text, (term) => {
    found++;
    countTerm(counts, term, field);
  }, adjacent);
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
 * {@link splitText}); at most `limit` words, from at most `limit` tokens. A run of CJK
 * characters inside a word gives its bigrams instead ({@link pushCjkBigrams}).
 */
function unicodeWords(lower: string, limit: number): SplitText {
  const words: string[] = [];
  const tokens: number[] = [];
  const parts = lower.split(/\s+/, limit);
  for (let token = 0; token < parts.length && words.length < limit; token++) {
    for (const word of parts[token].split(nonWord ??= /[^\p{L}\p{N}]+/u)) {
      if (!word) continue;
      if (words.length >= limit) break;
      if (!hasCjk(word)) {
        words.push(word);
        tokens.push(token);
        continue;
      }
      for (const piece of scriptPieces(word)) {
        if (isCjk(piece.codePointAt(0)!)) pushCjkBigrams(piece, words, limit);
        else if (words.length < limit) words.push(piece);
        while (tokens.length < words.length) tokens.push(token);
      }
    }
  }
  return { words, tokens };
}

/** Characters of CJK scripts, which are written without spaces between words. */
const CJK_RANGES: readonly (readonly [number, number])[] = [
  [0x1100, 0x11ff], // Hangul Jamo
  [0x3005, 0x3007], // ideographic iteration and closing marks, ideographic zero
  [0x3040, 0x30ff], // Hiragana, Katakana (with the prolonged sound mark)
  [0x3130, 0x318f], // Hangul Compatibility Jamo
  [0x31f0, 0x31ff], // Katakana Phonetic Extensions
  [0x3400, 0x4dbf], // CJK Unified Ideographs Extension A
  [0x4e00, 0x9fff], // CJK Unified Ideographs
  [0xac00, 0xd7af], // Hangul Syllables
  [0xf900, 0xfaff], // CJK Compatibility Ideographs
  [0x20000, 0x3ffff], // the supplementary ideographic planes
];

/** Whether code point `code` is a Han, Hiragana, Katakana or Hangul character. */
export function isCjk(code: number): boolean {
  return CJK_RANGES.some(([first, last]) => code >= first && code <= last);
}

/** Whether `word` holds a CJK character. */
function hasCjk(word: string): boolean {
  for (const char of word) if (isCjk(char.codePointAt(0)!)) return true;
  return false;
}

/** `word` cut where it turns from CJK characters to others and back (`k8sのデプロイ` → k8s, のデプロイ). */
function scriptPieces(word: string): string[] {
  const pieces: string[] = [];
  let piece = "";
  let cjk = false;
  for (const char of word) {
    const charCjk = isCjk(char.codePointAt(0)!);
    if (piece && charCjk !== cjk) {
      pieces.push(piece);
      piece = "";
    }
    piece += char;
    cjk = charCjk;
  }
  if (piece) pieces.push(piece);
  return pieces;
}

/**
 * Push the overlapping bigrams of a run of CJK characters onto `words` (`デプロイ` → デプ, プロ,
 * ロイ), stopping at `limit` words; a run of one character is pushed whole. Words are not
 * spaced in these scripts, so pairs of characters stand in for them: a query's bigrams are found
 * in any text that holds the query.
 */
function pushCjkBigrams(run: string, words: string[], limit: number): void {
  const chars = [...run];
  if (chars.length === 1) {
    words.push(run);
    return;
  }
  for (let index = 0; index + 1 < chars.length && words.length < limit; index++) {
    words.push(chars[index] + chars[index + 1]);
  }
}

/** Letters that carry no combining mark to remove but are folded all the same. */
const FOLDED_LETTERS: Readonly<Record<string, string>> = {
  "ß": "ss",
  "æ": "ae",
  "œ": "oe",
  "ø": "o",
  "ł": "l",
  "đ": "d",
  "ı": "i",
  "ẞ": "SS",
  "Æ": "Ae",
  "Œ": "Oe",
  "Ø": "O",
  "Ł": "L",
  "Đ": "D",
};

/**
 * `text` with its accents folded away: compatibility forms decomposed (NFKD: `ﬁ` → fi, full-width
 * `Ａ` → A), the combining diacritical marks of Latin, Greek and Cyrillic letters removed
 * (`Über` → Uber), the rest composed again (so Hangul and the kana's voicing marks stay whole),
 * and {@link FOLDED_LETTERS} spelled out (`Straße` → Strasse). Plain ASCII comes back as it is.
 */
export function foldAccents(text: string): string {
  if (!hasNonAscii(text)) return text;
  return text.normalize("NFKD")
    .replace(/[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]/g, "")
    .normalize("NFC")
    .replace(/[ßæœøłđıẞÆŒØŁĐ]/g, (letter) => FOLDED_LETTERS[letter]);
}

/**
 * Call `visit` with each term of `text`, in order, repeats included, then with the other
 * spellings of its compounds ({@link eachCompoundTerm}); and `adjacent`, when given, with each
 * two different terms of words side by side.
 */
function eachTerm(text: string, visit: (term: string) => void, adjacent?: AdjacentTerms): void {
  let previous = "";
  for (const word of splitText(text, NO_LIMIT).words) {
    const term = termOf(word);
    if (!term) continue;
    visit(term);
    if (adjacent && previous && previous !== term) adjacent(previous, term);
    previous = term;
  }
  eachCompoundTerm(text, visit);
}

/**
 * `text` with a blank where a camelCase or PascalCase name turns to its next word:
 * `parseHTMLString` → `parse HTML String`, `v2Api` → `v2 Api`.
 */
export function splitCamelCase(text: string): string {
  return text.replace(/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/g, " ");
}

/** Where a camelCase word turns to its next part (see {@link splitCamelCase}). */
const CAMEL_TURN = /[a-z0-9][A-Z]|[A-Z][A-Z][a-z]/;
/**
 * A run whose parts all start with a letter: words tied together, not a date or a UUID (a run
 * starts at a letter or digit, and may end in ties: `--no-prompt-` is no-prompt).
 */
const TIED_WORDS = /^[A-Za-z][A-Za-z0-9]*(?:[-_]+[A-Za-z][A-Za-z0-9]*)+[-_]*$/;

const CODE_UPPER_A = 65;
const CODE_UPPER_Z = 90;
const CODE_HYPHEN = 45;
const CODE_UNDERSCORE = 95;

/** What a character is to a compound: 0 neither, 1 lowercase or digit, 2 uppercase, 3 a tie. */
function compoundKind(code: number): 0 | 1 | 2 | 3 {
  if (isWordCode(code)) return 1;
  if (code >= CODE_UPPER_A && code <= CODE_UPPER_Z) return 2;
  return code === CODE_HYPHEN || code === CODE_UNDERSCORE ? 3 : 0;
}

/**
 * Call `visit` with the other spellings of each compound of `text` (accents folded): the terms
 * of a camelCase word's parts (`CrashLoopBackOff` → crash, loop, back), and the term of words
 * tied by `-` or `_` written as one (`force-push` → forcepush). With the terms of the words as
 * written, each spelling finds the others: `crash loop`, `crashloopbackoff`, `forcepush`.
 *
 * One scan of character codes finds the runs of ASCII letters, digits and ties that hold a tie or
 * a turn of case; only those are looked at further, so a body of plain words costs no more than
 * the scan.
 */
function eachCompoundTerm(text: string, visit: (term: string) => void): void {
  const folded = foldAccents(text);
  let start = -1;
  let tied = false;
  let camel = false;
  let before = 0;
  let last = 0;
  for (let index = 0; index <= folded.length; index++) {
    const kind = index < folded.length ? compoundKind(folded.charCodeAt(index)) : 0;
    if (kind === 0) {
      if (tied || camel) visitCompound(folded.slice(start, index), tied, camel, visit);
      start = -1;
      tied = camel = false;
      before = last = 0;
      continue;
    }
    if (start < 0) {
      if (kind === 3) continue;
      start = index;
    }
    if (kind === 3) tied = true;
    else if ((kind === 2 && last === 1) || (kind === 1 && last === 2 && before === 2)) {
      camel = true;
    }
    before = last;
    last = kind;
  }
}

/**
 * Visit the other spellings of one run of letters, digits and ties, which holds a tie (`tied`)
 * or a turn of case (`camel`), or both (see {@link eachCompoundTerm}).
 */
function visitCompound(
  run: string,
  tied: boolean,
  camel: boolean,
  visit: (term: string) => void,
): void {
  if (tied && TIED_WORDS.test(run)) {
    const joined = termOf(run.replace(/[-_]+/g, "").toLowerCase());
    if (joined) visit(joined);
  }
  if (!camel) return;
  for (const segment of tied ? run.split(/[-_]+/) : [run]) {
    if (!CAMEL_TURN.test(segment)) continue;
    for (const part of splitCamelCase(segment).split(" ")) {
      const term = termOf(part.toLowerCase());
      if (term) visit(term);
    }
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
