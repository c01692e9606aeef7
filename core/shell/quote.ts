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
 * Characters a terminal acts on rather than shows (escape sequences, carriage returns, line and
 * direction overrides), and the newline, which would break a printed command (and doctor's one
 * line per finding) in two.
 */
const TERMINAL_CONTROL =
  // deno-lint-ignore no-control-regex -- matching control characters is the point
  /[\x00-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

const encoder = new TextEncoder();

/** `text` in single quotes, with each `'` written as `'\''`. */
function singleQuoted(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * `text` as `"$(printf '…')"`: printable ASCII as it is (`%`, `\\` and `'` escaped), every other
 * byte of its UTF-8 as an octal escape, so that printing the command shows no control character.
 */
function printfWord(text: string): string {
  let format = "";
  for (const byte of encoder.encode(text)) {
    const character = String.fromCharCode(byte);
    format += byte < 0x20 || byte > 0x7e || "%\\'".includes(character)
      ? `\\${byte.toString(8).padStart(3, "0")}`
      : character;
  }
  return `"$(printf '${format}')"`;
}

/**
 * `word` as one word of a POSIX sh command: unchanged when every character is safe, else inside
 * single quotes, with each `'` written as `'\''`. The empty string becomes `''`. From the first
 * character a terminal would act on or that breaks the line (an escape sequence or a newline in a
 * teammate's file name), the rest is spelled by `printf` in octal, so the printed command is one
 * line that shows none and pasted still names the same word; trailing newlines, which `$(…)` would
 * drop, stay quoted as they are.
 *
 * @example
 * ```ts
 * shellQuote("/home/o'brien/kb"); // '/home/o'\''brien/kb'
 * shellQuote("a\x1b[2Jb"); // 'a'"$(printf '\033[2Jb')"
 * ```
 */
export function shellQuote(word: string): string {
  if (word !== "" && [...word].every(isSafeCharacter)) return word;
  const control = word.search(TERMINAL_CONTROL);
  if (control < 0) return singleQuoted(word);
  const rest = word.slice(control);
  const body = rest.replace(/\n+$/, "");
  const trailing = rest.slice(body.length);
  return (control ? singleQuoted(word.slice(0, control)) : "") + printfWord(body) +
    (trailing ? singleQuoted(trailing) : "");
}

/**
 * `word` quoted for sh as {@link shellQuote} quotes it, with each `wildcard` in it an unquoted
 * `*`: a word that names a file whose name cannot be written out, such as one whose bytes are not
 * UTF-8 and were read as U+FFFD. A pattern that matches more files than one makes `mv` of them to
 * a file name fail, moving none.
 *
 * @example
 * ```ts
 * shellGlob("/n/caf\uFFFD notes.md", "\uFFFD"); // /n/caf*' notes.md'
 * ```
 */
export function shellGlob(word: string, wildcard: string): string {
  return word.split(wildcard).map((part) => part && shellQuote(part)).join("*");
}

/** A whole command line from its words, each quoted with {@link shellQuote}. */
export function shellCommand(words: readonly string[]): string {
  return words.map(shellQuote).join(" ");
}

/** `git -C <dir> <words…>` as a command line to paste, every word quoted. */
export function gitCommand(dir: string, ...words: string[]): string {
  return shellCommand(["git", "-C", dir, ...words]);
}

/**
 * The line that opens `path` in the user's editor when pasted: `$VISUAL`, else `$EDITOR`, else
 * `vi`, left for the user's shell to expand (git-kb never evaluates them), the path quoted.
 */
export function editFileCommand(path: string): string {
  return `\${VISUAL:-\${EDITOR:-vi}} ${shellQuote(path)}`;
}

/**
 * The line that rewrites the file at `path` as UTF-8 from `encoding` (as iconv names it), in
 * place: through a file beside it, so the original stays whole when iconv fails.
 *
 * @example
 * ```ts
 * toUtf8Command("/n/a.md", "latin1");
 * // iconv -f latin1 -t utf-8 /n/a.md > /n/a.md.utf8 && mv /n/a.md.utf8 /n/a.md
 * ```
 */
export function toUtf8Command(path: string, encoding: string): string {
  const converted = `${path}.utf8`;
  return `${shellCommand(["iconv", "-f", encoding, "-t", "utf-8", path])} > ` +
    `${shellQuote(converted)} && ${shellCommand(["mv", converted, path])}`;
}
