/**
 * The phrases of a search pattern, pure: a regular expression (Grep, `rg`, `grep`, `find
 * -regex`) or a glob (Glob, `rg -g`, `find -name`). Each phrase is a pattern's meaningful words,
 * lowercase, separated by blanks.
 *
 * Regular expressions give one phrase per alternative (`|`, and `\|` of basic regexps); their
 * metacharacters, classes (`\s`, `[a-z]`), quantifiers and anchors break words and are never
 * words themselves. Globs lose their wildcards, brace lists expand to one phrase each, and a
 * file's extension is dropped (`*.ts` says nothing). Words are split at camelCase, `_`, `-`,
 * `.` and `/`; words under 3 characters, numbers, stopwords and {@link CODE_NOISE_WORDS} are
 * dropped.
 *
 * Bounded on any input: only the first {@link MAX_PATTERN_LENGTH} characters of a pattern are
 * read, and brace lists build only the expansions kept.
 *
 * @module
 */
import { foldAccents, isCjk, splitCamelCase, splitWords, STOPWORDS } from "../text/tokenize.ts";

/** Words of code that say nothing about a topic: keywords, placeholders, boilerplate folders. *
 * Written as an array literal, not a string split when the module loads: a hook builds this on
 * every start, and from literals (hashed as the module is parsed) it takes a quarter of the time.
 */
// deno-fmt-ignore
export const CODE_NOISE_WORDS: ReadonlySet<string> = new Set([
  "function", "func", "def", "const", "let", "var", "class", "interface", "type", "types", "enum",
  "struct", "impl", "trait", "import", "export", "require", "module", "package", "return", "async",
  "await", "yield", "new", "self", "super", "public", "private", "protected", "static", "void",
  "null", "nil", "none", "undefined", "true", "false", "string", "str", "number", "int", "bool",
  "boolean", "float", "double", "char", "byte", "object", "array", "args", "argv", "kwargs",
  "param", "params", "props", "todo", "fixme", "xxx", "src", "lib", "dist", "bin", "test", "tests",
  "spec", "specs", "main", "util", "utils", "helper", "helpers", "tmp", "temp", "foo", "bar",
  "baz", "qux",
]);

/** The most phrases one tool call gives; a longer alternation is cut. */
export const MAX_PHRASES = 8;

/** The most words kept of one phrase. */
const MAX_PHRASE_WORDS = 6;

/** The most characters of a pattern read: what a search looks for is in its first ones. */
export const MAX_PATTERN_LENGTH = 1024;

/**
 * The meaningful words of a literal piece of text (see the module notes), split as the index
 * splits the compounds of what it holds (accents folded, camelCase parts), so a search for
 * `CrashLoopBackOff` finds the entry that names it; at most `limit`. A CJK bigram is a word,
 * short as it is.
 */
export function phraseWords(text: string, limit: number = MAX_PHRASE_WORDS): string[] {
  const kept: string[] = [];
  for (const word of splitWords(splitCamelCase(foldAccents(text)))) {
    if (word.length < 3 && !isCjk(word.codePointAt(0)!)) continue;
    if (/^\d+$/.test(word) || STOPWORDS.has(word)) continue;
    if (CODE_NOISE_WORDS.has(word) || kept.includes(word)) continue;
    if (kept.push(word) === limit) break;
  }
  return kept;
}

/** Escapes that stand for a class of characters, an anchor or a property: never a word. */
const CLASS_ESCAPES = "bBsSwWdDAzZGnrtfvhHRXK<>";

/**
 * The literal runs of a regular expression, one string per alternative, with every
 * metacharacter turned into a blank. Understands the common dialects loosely: PCRE and Rust
 * (rg, Grep), POSIX basic and extended (grep).
 */
function regexLiterals(pattern: string): string[] {
  const alternatives: string[] = [];
  let current = "";
  for (let index = 0; index < pattern.length; index++) {
    const char = pattern[index];
    if (char === "\\") {
      const next = pattern[index + 1] ?? "";
      index++;
      if (next === "|") {
        alternatives.push(current);
        current = "";
      } else if (CLASS_ESCAPES.includes(next)) current += " ";
      else if (next === "p" || next === "P" || next === "x" || next === "u") {
        // \p{L}, \x41, \x{263a}, \u00e9: skip the property or code point.
        if (pattern[index + 1] === "{") index = closing(pattern, index + 1, "}");
        else index += next === "p" || next === "P" ? 1 : next === "u" ? 4 : 2;
        current += " ";
      } else if (/\d/.test(next)) current += " ";
      else current += next;
    } else if (char === "|") {
      alternatives.push(current);
      current = "";
    } else if (char === "[") {
      const end = closing(pattern, index + (pattern[index + 1] === "]" ? 1 : 0), "]");
      current += caseClass(pattern.slice(index + 1, end));
      index = end;
    } else if (char === "{" && /^\{\d*,?\d*\}/.test(pattern.slice(index))) {
      index = closing(pattern, index, "}");
      current += " ";
    } else if (char === "(" && pattern[index + 1] === "?") {
      // (?:…), (?i), (?=…), (?<name>…): skip the group's prefix.
      const end = pattern.slice(index).search(/[:)=!>]/);
      index += end < 0 ? pattern.length : end;
      current += " ";
    } else if ("()^$.*+?".includes(char)) current += " ";
    else current += char;
  }
  alternatives.push(current);
  return alternatives;
}

/** A class of one letter in both cases (`[Rr]`) as that letter; any other class as a blank. */
function caseClass(members: string): string {
  return members.length === 2 && members[0] !== members[1] &&
      members[0].toLowerCase() === members[1].toLowerCase()
    ? members[0]
    : " ";
}

/** The index of the `close` character that ends the construct opened at `start`. */
function closing(text: string, start: number, close: string): number {
  for (let index = start + 1; index < text.length; index++) {
    if (text[index] === "\\") index++;
    else if (text[index] === close) return index;
  }
  return text.length;
}

/** A glob cut at its `{a,b}` lists. */
interface BraceLists {
  /** The text before each list, and after the last: one more than the lists. */
  texts: string[];
  /** Each list's options. */
  options: string[][];
}

/** The `{a,b}` lists of a glob, in order; a `{` without a `}` after it is text. */
function braceLists(glob: string): BraceLists {
  const lists: BraceLists = { texts: [], options: [] };
  let at = 0;
  for (;;) {
    const open = glob.indexOf("{", at);
    const close = open < 0 ? -1 : glob.indexOf("}", open);
    if (close < 0) break;
    lists.texts.push(glob.slice(at, open));
    lists.options.push(glob.slice(open + 1, close).split(","));
    at = close + 1;
  }
  lists.texts.push(glob.slice(at));
  return lists;
}

/**
 * A glob with its `{a,b}` lists expanded, the last list turning fastest as in the shell: the
 * first `limit` expansions, and only those are built, however many there would be.
 */
export function expandBraces(glob: string, limit = MAX_PHRASES): string[] {
  const { texts, options } = braceLists(glob);
  const chosen = options.map(() => 0);
  const out: string[] = [];
  while (out.length < limit) {
    let expanded = texts[0];
    for (let list = 0; list < options.length; list++) {
      expanded += options[list][chosen[list]] + texts[list + 1];
    }
    out.push(expanded);
    let list = options.length - 1;
    while (list >= 0 && ++chosen[list] === options[list].length) chosen[list--] = 0;
    if (list < 0) break;
  }
  return out;
}

/** A path segment of a glob without its file extension (`*token*.ts` → `*token*`). */
function withoutExtension(segment: string): string {
  const dot = segment.lastIndexOf(".");
  if (dot <= 0) return segment;
  const extension = segment.slice(dot + 1);
  return /^[A-Za-z0-9*?]{0,6}$/.test(extension) ? segment.slice(0, dot) : segment;
}

/** The literal text of a glob, one string per brace alternative. */
function globLiterals(glob: string): string[] {
  return expandBraces(glob).map((expanded) =>
    expanded.split(/[\\/]/).map(withoutExtension).join(" ")
      .replace(/\[([^\]]*)\]/g, (_, members) => caseClass(members))
      .replace(/[*?!]/g, " ")
  );
}

/** Distinct non-empty phrases of `texts`, at most {@link MAX_PHRASES}. */
function phrases(texts: string[]): string[] {
  const out: string[] = [];
  for (const text of texts) {
    const phrase = phraseWords(text).join(" ");
    if (phrase && !out.includes(phrase) && out.length < MAX_PHRASES) out.push(phrase);
  }
  return out;
}

/**
 * The phrases of a regular expression, or of a fixed string when `fixed`; of its first
 * {@link MAX_PATTERN_LENGTH} characters.
 */
export function regexPhrases(pattern: string, fixed = false): string[] {
  const read = pattern.slice(0, MAX_PATTERN_LENGTH);
  return phrases(fixed ? read.split("\n") : regexLiterals(read));
}

/** The phrases of a glob, of its first {@link MAX_PATTERN_LENGTH} characters. */
export function globPhrases(glob: string): string[] {
  return phrases(globLiterals(glob.slice(0, MAX_PATTERN_LENGTH)));
}
