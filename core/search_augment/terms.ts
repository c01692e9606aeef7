/**
 * What a code search looks for, pure: the search terms of a Grep or Glob tool call, or of a Bash
 * command that runs `rg`, `grep` (`egrep`, `fgrep`), `git grep` or `find -name`. Each term comes
 * back as a phrase: its meaningful words, lowercase, separated by blanks.
 *
 * Regular expressions give one phrase per alternative (`|`, and `\|` of basic regexps); their
 * metacharacters, classes (`\s`, `[a-z]`), quantifiers and anchors break words and are never
 * words themselves. Globs lose their wildcards, brace lists expand to one phrase each, and a
 * file's extension is dropped (`*.ts` says nothing). Words are split at camelCase, `_`, `-`,
 * `.` and `/`; words under 3 characters, numbers, stopwords and {@link CODE_NOISE_WORDS} are
 * dropped. Flags and their values, paths, revisions and file lists are never terms; an inverted
 * search (`grep -v`) has none.
 *
 * Bounded on any input: only the first {@link MAX_PATTERN_LENGTH} characters of a pattern are
 * read, brace lists build only the expansions kept, and a command run by another (`xargs`,
 * `find -exec`) is followed at most {@link MAX_COMMAND_DEPTH} deep.
 *
 * @module
 */
import { commandWords, parseShell } from "../shell/words.ts";
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

/** How deep commands run by commands (`xargs grep`, `find -exec grep`) are followed. */
export const MAX_COMMAND_DEPTH = 4;

/** Programs that run a regular-expression search over files or piped text. */
const GREP_PROGRAMS = new Set(["grep", "egrep", "fgrep", "zgrep", "ggrep", "ugrep"]);

/**
 * The meaningful words of a literal piece of text (see the module notes), split as the index
 * splits the compounds of what it holds (accents folded, camelCase parts), so a search for
 * `CrashLoopBackOff` finds the entry that names it. A CJK bigram is a word, short as it is.
 */
export function phraseWords(text: string): string[] {
  const kept: string[] = [];
  for (const word of splitWords(splitCamelCase(foldAccents(text)))) {
    if (word.length < 3 && !isCjk(word.codePointAt(0)!)) continue;
    if (/^\d+$/.test(word) || STOPWORDS.has(word)) continue;
    if (CODE_NOISE_WORDS.has(word) || kept.includes(word)) continue;
    if (kept.push(word) === MAX_PHRASE_WORDS) break;
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

/** How a search program's options are read. */
interface OptionTable {
  /** Short options that take a value, attached (`-A3`) or as the next word. */
  valuedShort: string;
  /** Long options that take a value (`--x=v` or `--x v`). */
  valuedLong: ReadonlySet<string>;
  /** Options whose value is a pattern. */
  pattern: { short: string; long: string };
  /** Short and long options that make patterns fixed strings. */
  fixed: { short: string; long: string };
  /** Short and long options that invert the search. */
  invert: { short: string; long: string };
}

const GREP_OPTIONS: OptionTable = {
  valuedShort: "efmABCdD",
  valuedLong: new Set([
    "--regexp",
    "--file",
    "--max-count",
    "--after-context",
    "--before-context",
    "--context",
    "--include",
    "--exclude",
    "--exclude-dir",
    "--exclude-from",
    "--color",
    "--colour",
    "--label",
    "--binary-files",
    "--devices",
    "--directories",
    "--group-separator",
    "--threads",
    "--max-depth",
  ]),
  pattern: { short: "e", long: "--regexp" },
  fixed: { short: "F", long: "--fixed-strings" },
  invert: { short: "v", long: "--invert-match" },
};

const RG_OPTIONS: OptionTable = {
  valuedShort: "efgmABCtTMjErd",
  valuedLong: new Set([
    "--regexp",
    "--file",
    "--glob",
    "--iglob",
    "--type",
    "--type-not",
    "--type-add",
    "--type-clear",
    "--max-count",
    "--max-columns",
    "--max-depth",
    "--max-filesize",
    "--after-context",
    "--before-context",
    "--context",
    "--threads",
    "--encoding",
    "--replace",
    "--sort",
    "--sortr",
    "--color",
    "--colors",
    "--ignore-file",
    "--pre",
    "--pre-glob",
    "--path-separator",
    "--context-separator",
    "--field-context-separator",
    "--field-match-separator",
    "--engine",
    "--regex-size-limit",
    "--dfa-size-limit",
    "--hostname-bin",
    "--hyperlink-format",
  ]),
  pattern: { short: "e", long: "--regexp" },
  fixed: { short: "F", long: "--fixed-strings" },
  invert: { short: "v", long: "--invert-match" },
};

/** What a search command's arguments say. */
interface ParsedSearch {
  patterns: string[];
  positionals: string[];
  fixed: boolean;
  invert: boolean;
  /** Values of glob options (`rg -g`), in order. */
  globs: string[];
  /** Long flags without a value seen, such as `--files`. */
  flags: Set<string>;
}

/** Read a grep-like command's arguments with `table`. */
function parseSearchArgs(args: string[], table: OptionTable): ParsedSearch {
  const parsed: ParsedSearch = {
    patterns: [],
    positionals: [],
    fixed: false,
    invert: false,
    globs: [],
    flags: new Set(),
  };
  const take = (option: string, value: string) => {
    if (option === `-${table.pattern.short}` || option === table.pattern.long) {
      parsed.patterns.push(value);
    } else if (option === "-g" || option === "--glob" || option === "--iglob") {
      parsed.globs.push(value);
    }
  };
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    if (arg === "--") {
      parsed.positionals.push(...args.slice(index + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const equals = arg.indexOf("=");
      const name = equals < 0 ? arg : arg.slice(0, equals);
      const attached = equals < 0 ? undefined : arg.slice(equals + 1);
      if (table.valuedLong.has(name)) take(name, attached ?? args[++index] ?? "");
      else if (name === table.fixed.long) parsed.fixed = true;
      else if (name === table.invert.long) parsed.invert = true;
      else parsed.flags.add(name);
      continue;
    }
    if (arg.startsWith("-") && arg.length > 1) {
      for (let at = 1; at < arg.length; at++) {
        const flag = arg[at];
        if (table.valuedShort.includes(flag)) {
          take(`-${flag}`, arg.slice(at + 1) || (args[++index] ?? ""));
          break;
        }
        if (flag === table.fixed.short) parsed.fixed = true;
        if (flag === table.invert.short) parsed.invert = true;
      }
      continue;
    }
    parsed.positionals.push(arg);
  }
  return parsed;
}

/** The phrases of a grep-like command's arguments. */
function grepPhrases(args: string[], table: OptionTable, fixed = false): string[] {
  const parsed = parseSearchArgs(args, table);
  if (parsed.invert) return [];
  if (parsed.flags.has("--files")) return parsed.globs.flatMap(globPhrases).slice(0, MAX_PHRASES);
  const patterns = parsed.patterns.length ? parsed.patterns : parsed.positionals.slice(0, 1);
  return patterns.flatMap((pattern) => regexPhrases(pattern, fixed || parsed.fixed)).slice(
    0,
    MAX_PHRASES,
  );
}

/** git options before the subcommand that take a separate value. */
const GIT_VALUED = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path"]);

/** The phrases of `git … grep …`, or none for another git command. */
function gitGrepPhrases(args: string[]): string[] {
  let index = 0;
  while (index < args.length && args[index].startsWith("-")) {
    if (GIT_VALUED.has(args[index])) index++;
    index++;
  }
  if (args[index] !== "grep") return [];
  return grepPhrases(args.slice(index + 1), GREP_OPTIONS);
}

/** `find` tests whose value is a glob, or a regular expression. */
const FIND_GLOB_TESTS = new Set([
  "-name",
  "-iname",
  "-path",
  "-ipath",
  "-wholename",
  "-iwholename",
]);
const FIND_REGEX_TESTS = new Set(["-regex", "-iregex"]);
const FIND_EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

/**
 * The phrases of `find`'s name and path tests, and of a search it runs with `-exec` (`depth`:
 * how many commands run this one).
 */
function findPhrases(args: string[], depth: number): string[] {
  const found: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    if (FIND_GLOB_TESTS.has(arg)) found.push(...globPhrases(args[++index] ?? ""));
    else if (FIND_REGEX_TESTS.has(arg)) found.push(...regexPhrases(args[++index] ?? ""));
    else if (FIND_EXEC.has(arg)) {
      let end = index + 1;
      while (end < args.length && args[end] !== ";" && args[end] !== "+") end++;
      found.push(...wordsPhrases(args.slice(index + 1, end), depth + 1));
      index = end;
    }
  }
  return found;
}

/** xargs options that take a separate value. */
const XARGS_VALUED = new Set(["-I", "-n", "-P", "-L", "-d", "-E", "-s", "-a"]);

/** The command xargs runs: its words after xargs's own options. */
function afterXargs(args: string[]): string[] {
  let index = 0;
  while (index < args.length && args[index].startsWith("-")) {
    if (XARGS_VALUED.has(args[index])) index++;
    index++;
  }
  return args.slice(index);
}

/** The last path component of a program word (`/usr/bin/grep` → `grep`). */
function programName(word: string): string {
  return word.slice(word.lastIndexOf("/") + 1);
}

/**
 * The phrases of one simple command's words; `depth` counts the commands that run it, and past
 * {@link MAX_COMMAND_DEPTH} it has none.
 */
function wordsPhrases(words: string[], depth = 0): string[] {
  if (depth >= MAX_COMMAND_DEPTH) return [];
  const [program, ...args] = commandWords(words);
  const name = program ? programName(program) : "";
  if (name === "xargs") return wordsPhrases(afterXargs(args), depth + 1);
  if (name === "rg") return grepPhrases(args, RG_OPTIONS);
  if (GREP_PROGRAMS.has(name)) return grepPhrases(args, GREP_OPTIONS, name === "fgrep");
  if (name === "git") return gitGrepPhrases(args);
  if (name === "find") return findPhrases(args, depth);
  return [];
}

/** Every command line that runs a search names one of these: most are not parsed at all. */
const SEARCH_PROGRAM_PARTS = ["rg", "grep", "find"];

/** The phrases of every search a shell command line runs (each command of a pipe or list). */
export function commandPhrases(command: string): string[] {
  if (!SEARCH_PROGRAM_PARTS.some((part) => command.includes(part))) return [];
  const found: string[] = [];
  for (const { words } of parseShell(command)) {
    for (const phrase of wordsPhrases(words)) {
      if (!found.includes(phrase) && found.length < MAX_PHRASES) found.push(phrase);
    }
  }
  return found;
}

function field(input: unknown, name: string): string | undefined {
  if (typeof input !== "object" || input === null) return undefined;
  const value = (input as Record<string, unknown>)[name];
  return typeof value === "string" ? value : undefined;
}

/**
 * The search phrases of a tool call: Grep's `pattern` (a regular expression), Glob's `pattern`,
 * or the searches a Bash `command` runs. Any other tool, or input of another shape, has none.
 *
 * @example
 * ```ts
 * searchPhrases("Grep", { pattern: "rotateToken|revoke_key" }); // ["rotate token", "revoke key"]
 * searchPhrases("Bash", { command: "find . -name '*.ts'" }); // []
 * ```
 */
export function searchPhrases(toolName: string, toolInput: unknown): string[] {
  if (toolName === "Grep") {
    const pattern = field(toolInput, "pattern");
    return pattern === undefined ? [] : regexPhrases(pattern);
  }
  if (toolName === "Glob") {
    const pattern = field(toolInput, "pattern");
    return pattern === undefined ? [] : globPhrases(pattern);
  }
  if (toolName === "Bash") {
    const command = field(toolInput, "command");
    return command === undefined ? [] : commandPhrases(command);
  }
  return [];
}
