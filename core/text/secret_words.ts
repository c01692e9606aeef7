/**
 * The words of a prompt that must never be stored (in the hook's receipts and debug log): those
 * inside a credential {@link findSecrets} finds, or in a value the prompt gives as one, read as
 * the tokenizer reads words. Apart from the detector, so that a hook that only scrubs text (the
 * prose judge) loads no tokenizer.
 *
 * @module
 */
import { findSecrets, OAUTH_URL_SOURCE, SECRET_WORDS } from "./secrets.ts";
import { splitWords } from "./tokenize.ts";

/**
 * Values a prompt gives as credentials whatever they look like, letters only included: after a
 * word naming a secret and `=` or `:` (`TOKEN=…`, `PASSWORD: …`, `DB_PASS=…`), after a flag naming
 * one (`--password …`), after `Bearer`, attached to `-p` (`mysql -p…`), after a user name given to
 * `-u`/`--user` (`curl -u admin:…`), after "password is", "token is", "the API key was" (any word
 * naming a secret, `pass` and `pw` too), and right after a password's name ("with password
 * hunter22", "passphrase 'correct horse'"); a quoted value whole, spaces and all. Too loose to
 * refuse a save on ("the password field" keeps "field" out too), strict enough that a prompt's
 * words about them are never stored. The value is the first group that took part in the match.
 */
const ASSIGNED_VALUES = new RegExp(
  `(?:(?:(?:${SECRET_WORDS})[\\w.-]{0,30}|(?:\\b|_)pass)["']?[ \\t]{0,5}(?:[:=]>?|:=)[ \\t]{0,5}` +
    "(?:(?:bearer|basic|token)[ \\t]{1,5})?|\\bbearer[ \\t]{1,5}|" +
    `(?:^|\\s)--[\\w-]{0,30}(?:${SECRET_WORDS})[\\w-]{0,30}[ \\t]{1,5}|` +
    "(?:^|\\s)(?:-u|--user)[ \\t]{1,5}[^\\s:\"'`]{1,100}:|" +
    `(?:^|\\s)-p|(?:\\b|_)(?:${SECRET_WORDS}|pass|pw)[\\w.-]{0,30}[ \\t]{1,5}(?:is|was)[ \\t]{1,5}|` +
    "\\b(?:passw(?:or)?d|passphrase|pwd|pw)[ \\t]{1,5})" +
    "(?:\"([^\"\\n]{1,400})\"|'([^'\\n]{1,400})'|[\"'`]?([^\\s\"'`,;]{1,400}))",
  "gid",
);

/**
 * The user name of GitHub's `https://TOKEN:x-oauth-basic@…`: the token, given as the credential by
 * the fixed password after it, whatever it looks like (`findSecrets` reports it only when it looks
 * generated).
 */
const URL_TOKENS = new RegExp(OAUTH_URL_SOURCE, "gid");

/** A letter or digit: part of a word as the tokenizer makes them. */
const WORD_CHARACTER = /[\p{L}\p{N}]/u;

/**
 * The spans of `text` that a stored word must not come from: its credentials, and assigned
 * values, each widened to the whole words it touches (`-phunterpass` is the word `phunterpass`).
 */
function storedSecretSpans(text: string): { start: number; end: number }[] {
  const spans: { start: number; end: number }[] = findSecrets(text);
  for (const match of text.matchAll(ASSIGNED_VALUES)) {
    const value = match.indices!.slice(1).find((span) => span !== undefined);
    if (value) spans.push({ start: value[0], end: value[1] });
  }
  for (const match of text.matchAll(URL_TOKENS)) {
    const token = match.indices![1];
    if (token) spans.push({ start: token[0], end: token[1] });
  }
  return spans.map(({ start, end }) => {
    while (start > 0 && WORD_CHARACTER.test(text[start - 1])) start--;
    while (end < text.length && WORD_CHARACTER.test(text[end])) end++;
    return { start, end };
  });
}

/**
 * The words that lie inside a credential of `text`, or in a value it gives as one (`TOKEN=…`,
 * `Bearer …`, `-p…`, "password is …", letters only too), as the tokenizer reads them (lowercase,
 * accents folded: `grusse2024` of `password=Grüße2024`): the words of a prompt that must not be
 * stored (`hunter2secret` of "my password is hunter2secret").
 */
export function secretWords(text: string): Set<string> {
  const words = new Set<string>();
  for (const span of storedSecretSpans(text)) {
    for (const word of splitWords(text.slice(span.start, span.end))) words.add(word);
  }
  return words;
}

/** Texts up to this long are scanned whole by {@link inSecretTest}; longer ones around each word. */
const WHOLE_SCAN_CHARS = 16 * 1024;

/** How far around a word a long text is scanned: past the longest secret a rule matches. */
const WORD_WINDOW_CHARS = 512;

/** How many occurrences of a word in a long text are looked at. */
const WORD_OCCURRENCES = 8;

/**
 * A test of whether a text taken from `text` (a prompt word, several words, a token as typed) has
 * a word inside one of its credentials, as {@link secretWords} tells, for texts of any size: a
 * text of up to 16 KiB is scanned once, on the first question; a longer one (a pasted log in a
 * prompt) only around the first occurrences of each word asked about, so a few words of an 8 MiB
 * prompt cost a few small scans.
 */
export function inSecretTest(text: string): (word: string) => boolean {
  const inSecret = text.length <= WHOLE_SCAN_CHARS ? wholeScan(text) : windowScan(text);
  return (asked) => splitWords(asked).some(inSecret);
}

/** Whether a word lies inside a credential of `text`, scanned whole on the first question. */
function wholeScan(text: string): (word: string) => boolean {
  let words: Set<string> | undefined;
  return (word) => (words ??= secretWords(text)).has(word);
}

/**
 * Whether a word lies inside a credential of `text`, scanned around where the lowercase text
 * holds it. A word it does not hold as written (the tokenizer folded it: `grusse` of `Grüße`)
 * cannot be placed, and counts as inside one.
 */
function windowScan(text: string): (word: string) => boolean {
  let lower: string | undefined;
  return (word) => {
    // U+0130 (İ) is the one character whose lowercase is longer: written `i`, every offset in
    // the lowercase text is one in the text.
    lower ??= text.replaceAll("\u0130", "i").toLowerCase();
    let at = lower.indexOf(word);
    if (at < 0) return true;
    for (let seen = 0; at >= 0 && seen < WORD_OCCURRENCES; seen++) {
      const from = Math.max(0, at - WORD_WINDOW_CHARS);
      if (secretWords(text.slice(from, at + word.length + WORD_WINDOW_CHARS)).has(word)) {
        return true;
      }
      at = lower.indexOf(word, at + 1);
    }
    return false;
  };
}
