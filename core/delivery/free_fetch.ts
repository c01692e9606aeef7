/**
 * Whether a Bash command line only fetches knowledge-base entries, pure: what the PreToolUse
 * fetch hook lets run without an approval prompt. It answers yes only for the fetch lines the
 * hooks print (`<launcher> get <ids> --kb <dir>`, several joined by ` ; ` where several knowledge
 * bases are configured) and for `get` written by hand the same way, and no for everything else.
 *
 * The line is read with core/shell/words.ts, then proved: it must be exactly those words, each
 * written so that every POSIX shell (sh, bash, zsh) reads it back as that word and nothing more
 * (bare safe characters, `'…'`, or `"…"` with nothing the shell expands inside), separated by
 * blanks, commands by `;`. Anything else (a pipe, `&&`, a redirection, `$(…)`, a backtick, a
 * glob, `~`, a newline, an assignment, a comment) makes the line something other than that
 * rendering, so it is not a fetch. The words must then be the launcher the hooks print, `get`,
 * at least one entry id (`kb-xxxxx`, or `name:kb-xxxxx`; a comma-separated list counts), and
 * only `get`'s reading flags: `--json`, `--links`, and `--kb` naming a configured knowledge base.
 *
 * @module
 */
import { isTypedEntryId } from "../kbs/qualified.ts";
import { isAbsolute } from "../path.ts";
import { shellQuote } from "../shell/quote.ts";
import { parseShell } from "../shell/words.ts";

/** What a fetch may name: the launcher and the knowledge bases. */
export interface FetchScope {
  /** The launcher as one word, unquoted: the path the hooks print, or `git-kb`. */
  launcher: string;
  /**
   * The folders `--kb` may name: the configured knowledge bases, as the hooks print them. Any
   * other folder could be one the agent wrote itself, and `get` runs git in the folder it reads.
   * Each must be absolute: a relative one names another folder wherever the model's shell has
   * moved to, so with one configured no fetch is free, `--kb` or not.
   */
  kbDirs: readonly string[];
}

/** The longest command line considered; a longer one is not a fetch line. */
export const MAX_FETCH_LINE = 16 * 1024;

/**
 * The fields of a Bash call's input that leave what runs as it is: the command, its label, how
 * long to wait and whether to wait. Any other field (`dangerouslyDisableSandbox` asks to run
 * outside the client's sandbox, and a future one may change what runs) makes a call not free.
 */
const PLAIN_BASH_FIELDS = new Set(["command", "description", "timeout", "run_in_background"]);

/**
 * The command line of a Bash call's `tool_input`, when the input holds nothing but the fields
 * that leave what runs as it is (a `dangerouslyDisableSandbox` of `false` counts as absent);
 * else undefined, and nothing about the call is free.
 */
export function plainBashCommand(toolInput: unknown): string | undefined {
  if (typeof toolInput !== "object" || toolInput === null || Array.isArray(toolInput)) {
    return undefined;
  }
  const fields = Object.entries(toolInput);
  const plain = fields.every(([field, value]) =>
    PLAIN_BASH_FIELDS.has(field) || (field === "dangerouslyDisableSandbox" && value === false)
  );
  const { command } = toolInput as Record<string, unknown>;
  return plain && typeof command === "string" ? command : undefined;
}

/** `get`'s flags that take no value and only change how entries are printed. */
const READING_FLAGS = new Set(["--json", "--links"]);

/**
 * The launcher a printed command prefix names, when it is exactly one shell word written as
 * core/shell/quote.ts writes it (as the plugin's launcher sets `KB_CLI`); else undefined, and no
 * fetch is free (a prefix of several words, such as `deno run … app/main.ts`, is never proved).
 */
export function launcherOf(prefix: string): string | undefined {
  const commands = parseShell(prefix);
  const word = commands.length === 1 && commands[0].words.length === 1
    ? commands[0].words[0]
    : undefined;
  return word !== undefined && shellQuote(word) === prefix ? word : undefined;
}

/** Whether `args` (the words after the launcher) are `get`, entry ids and reading flags only. */
function onlyGets(args: readonly string[], kbDirs: readonly string[]): boolean {
  if (args[0] !== "get") return false;
  let ids = 0;
  for (let index = 1; index < args.length; index++) {
    const arg = args[index];
    if (READING_FLAGS.has(arg)) continue;
    const dir = arg === "--kb" ? args[++index] : arg.startsWith("--kb=") ? arg.slice(5) : null;
    if (dir !== null) {
      if (dir === undefined || !kbDirs.includes(dir)) return false;
      continue;
    }
    const listed = arg.split(",");
    if (!listed.every(isTypedEntryId)) return false;
    ids += listed.length;
  }
  return ids > 0;
}

/** The ways of writing `word` that every POSIX shell reads back as exactly `word`. */
function spellings(word: string): string[] {
  const ways = new Set([shellQuote(word)]);
  if (!word.includes("'")) ways.add(`'${word}'`);
  if (!/["$`\\!]/.test(word)) ways.add(`"${word}"`);
  return [...ways];
}

/**
 * Whether `line` is exactly `commands` written out: each word in one of its
 * {@link spellings}, words separated by blanks, commands by a `;` (blanks around it allowed).
 */
function isRendering(line: string, commands: readonly string[][]): boolean {
  let at = 0;
  const skip = (pattern: RegExp): boolean => {
    pattern.lastIndex = at;
    const match = pattern.exec(line);
    if (!match) return false;
    at += match[0].length;
    return true;
  };
  for (const [index, words] of commands.entries()) {
    if (index > 0 && !skip(/[ \t]*;[ \t]*/y)) return false;
    for (const [position, word] of words.entries()) {
      if (position > 0 && !skip(/[ \t]+/y)) return false;
      const spelled = spellings(word).find((way) =>
        line.startsWith(way, at) && /^[ \t;]?$/.test(line.charAt(at + way.length))
      );
      if (spelled === undefined) return false;
      at += spelled.length;
    }
  }
  return at === line.length;
}

/**
 * `text` without the spaces, tabs and newlines at its two ends, in one pass each way (a regular
 * expression anchored at the end takes time quadratic in a long run of blanks).
 */
function trimBlanks(text: string): string {
  const blank = (at: number) => text[at] === " " || text[at] === "\t" || text[at] === "\n";
  let start = 0;
  let end = text.length;
  while (start < end && blank(start)) start++;
  while (end > start && blank(end - 1)) end--;
  return text.slice(start, end);
}

/**
 * Whether `command` (a Bash tool call's command line) does nothing but print knowledge-base
 * entries: one or more `get`s of `scope`'s launcher, as described in this module's summary.
 * Leading and trailing spaces, tabs and newlines are ignored (no other character: a shell reads
 * a no-break space as part of a word); anything it cannot prove is a no.
 *
 * @example
 * ```ts
 * const scope = { launcher: "/opt/kb/bin/git-kb", kbDirs: ["/home/me/kb"] };
 * isFreeFetch("/opt/kb/bin/git-kb get kb-7q2mx --kb /home/me/kb", scope); // true
 * isFreeFetch("/opt/kb/bin/git-kb get kb-7q2mx; rm -rf ~", scope); // false
 * ```
 */
export function isFreeFetch(command: string, scope: FetchScope): boolean {
  if (command.length > MAX_FETCH_LINE || !scope.kbDirs.every(isAbsolute)) return false;
  const line = trimBlanks(command);
  if (!line) return false;
  const commands = parseShell(line);
  if (!commands.length || commands.some((parsed) => parsed.heredocs.length)) return false;
  const words = commands.map((parsed) => parsed.words);
  return words.every(([program, ...args]) =>
    program === scope.launcher && onlyGets(args, scope.kbDirs)
  ) && isRendering(line, words);
}
