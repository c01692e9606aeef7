/**
 * The searches a shell command line runs, pure: the patterns of `rg`, `grep` (`egrep`, `fgrep`),
 * `git grep` and `find -name` in each command of a pipe or list, as phrases (`patterns.ts`).
 * Flags and their values, paths, revisions and file lists are never patterns; an inverted
 * search (`grep -v`) has none. A command run by another (`xargs`, `find -exec`) is followed at
 * most {@link MAX_COMMAND_DEPTH} deep, so any command line is read in bounded time.
 *
 * @module
 */
import { commandWords, parseShell } from "../shell/words.ts";
import { globPhrases, MAX_PHRASES, regexPhrases } from "./patterns.ts";

/** How deep commands run by commands (`xargs grep`, `find -exec grep`) are followed. */
export const MAX_COMMAND_DEPTH = 4;

/** Programs that run a regular-expression search over files or piped text. */
const GREP_PROGRAMS = new Set(["grep", "egrep", "fgrep", "zgrep", "ggrep", "ugrep"]);

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
