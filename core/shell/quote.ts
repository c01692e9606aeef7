/**
 * Quoting for POSIX sh, for every command git-kb prints for a person or a model to paste: fetch
 * lines, recovery hints, doctor's advice. A quoted word is read back by any POSIX shell as exactly
 * the text it was made from, whatever it holds (spaces, quotes, `$(…)`, backticks, newlines).
 *
 * @module
 */

/** Characters that never need quoting in a word of a POSIX shell command. */
const SAFE_PUNCTUATION = "_./:=@%+,-";

function isSafeCharacter(character: string): boolean {
  return (character >= "a" && character <= "z") || (character >= "A" && character <= "Z") ||
    (character >= "0" && character <= "9") || SAFE_PUNCTUATION.includes(character);
}

/**
 * `word` as one word of a POSIX sh command: unchanged when every character is safe, else inside
 * single quotes, with each `'` written as `'\''`. The empty string becomes `''`.
 *
 * @example
 * ```ts
 * shellQuote("/home/o'brien/kb"); // '/home/o'\''brien/kb'
 * ```
 */
export function shellQuote(word: string): string {
  if (word !== "" && [...word].every(isSafeCharacter)) return word;
  return `'${word.replaceAll("'", `'\\''`)}'`;
}

/** A whole command line from its words, each quoted with {@link shellQuote}. */
export function shellCommand(words: readonly string[]): string {
  return words.map(shellQuote).join(" ");
}

/** `git -C <dir> <words…>` as a command line to paste, every word quoted. */
export function gitCommand(dir: string, ...words: string[]): string {
  return shellCommand(["git", "-C", dir, ...words]);
}
