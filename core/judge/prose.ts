/**
 * What prose a Claude Code tool call would publish, from its PreToolUse payload. Pure: the
 * judge hook decides from this alone whether a model call is needed at all.
 *
 * - `Write` → `content`; `Edit` → `new_string`; `MultiEdit` → each `edits[].new_string`;
 *   `NotebookEdit` → `new_source`. Code files give only their comments and string literals.
 * - `Bash` → commit messages (`git commit -m/--message/-F -`) and the title and body of
 *   `gh pr|issue …` and `glab mr|issue …` commands that post them; any other command: none.
 * - Tools in {@link EXCLUDED_TOOLS}: none. Any other tool (review, comment, ticket, MCP tools):
 *   every string field of `tool_input` that {@link isProse}, at any depth.
 *
 * @module
 */
import { codeTexts, fileKind, PYTHON_SYNTAX } from "./code_prose.ts";
import { commandWords, parseShell } from "../shell/words.ts";

/** A piece of text a tool call would publish, and where it was found. */
export interface ProsePiece {
  /** Where the text comes from, for the judge: "commit message", "README.md", "comment in a.ts". */
  source: string;
  /** The text itself, as it would be published. */
  text: string;
}

/** Shorter text is never judged. */
export const MIN_PROSE_CHARS = 60;

/** Prose has at least this many words. */
const MIN_PROSE_WORDS = 5;

/** Built-in tools that publish nothing: a call to one is allowed without a look. */
export const EXCLUDED_TOOLS: ReadonlySet<string> = new Set([
  "Read",
  "Glob",
  "Grep",
  "LS",
  "NotebookRead",
  "TodoWrite",
  "TodoRead",
  "Task",
  "Agent",
  "TaskCreate",
  "TaskGet",
  "TaskList",
  "TaskOutput",
  "TaskStop",
  "TaskUpdate",
  "WebFetch",
  "WebSearch",
  "AskUserQuestion",
  "EnterPlanMode",
  "ExitPlanMode",
  "EnterWorktree",
  "ExitWorktree",
  "ListMcpResourcesTool",
  "ReadMcpResourceTool",
  "BashOutput",
  "KillShell",
  "KillBash",
  "Skill",
  "SlashCommand",
  "ToolSearch",
  "Monitor",
  "CronCreate",
  "CronDelete",
  "CronList",
  "ScheduleWakeup",
  "PushNotification",
  "SendUserMessage",
  "REPL",
  "PowerShell",
  "LSP",
  "Workflow",
]);

/** `tool_input` keys whose values are never prose, whatever their length. */
const NON_PROSE_KEYS = new Set([
  "id",
  "ids",
  "url",
  "uri",
  "href",
  "path",
  "file",
  "file_path",
  "filename",
  "sha",
  "hash",
  "ref",
  "branch",
  "query",
  "sql",
  "code",
  "command",
  "script",
  "diff",
  "patch",
  "pattern",
  "regex",
  "selector",
]);

/** The expressions {@link isProse} reads words with. */
interface WordExpressions {
  word: RegExp;
  edgePunctuation: RegExp;
  cjk: RegExp;
}

let wordExpressions: WordExpressions | undefined;

/**
 * {@link WordExpressions}, made on first use: creating an expression with Unicode properties costs
 * a hook's start about half a millisecond each, and most tool calls publish no prose.
 */
function expressions(): WordExpressions {
  return wordExpressions ??= {
    word: /^\p{L}+(?:['’-]\p{L}+)*$/u,
    edgePunctuation: /^[^\p{L}]+|[^\p{L}]+$/gu,
    cjk: /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/gu,
  };
}

/**
 * Whether `text` reads as prose: at least {@link MIN_PROSE_CHARS} characters and mostly words
 * (at least five, and at least half of its blank-separated tokens). Ids, slugs, enums, URLs,
 * paths, hashes and lists of them are single tokens or not words, so they are not prose. Long
 * enough text with 20 or more CJK characters counts as prose, since it has no blanks between
 * words.
 */
export function isProse(text: string): boolean {
  const trimmed = text.trim();
  if (trimmed.length < MIN_PROSE_CHARS) return false;
  const { word, edgePunctuation, cjk } = expressions();
  if ((trimmed.match(cjk)?.length ?? 0) >= 20) return true;
  const tokens = trimmed.split(/\s+/);
  const words = tokens.filter((token) => word.test(token.replace(edgePunctuation, ""))).length;
  return words >= MIN_PROSE_WORDS && words * 2 >= tokens.length;
}

function fileName(path: string): string {
  return path.split(/[\\/]/).pop() || path;
}

/**
 * The prose of `text` written to the file at `path`: all of it (when it is prose once fenced
 * code blocks are set aside), or a code file's comments and strings.
 */
function fileProse(path: string, text: string, kind = fileKind(path, text)): ProsePiece[] {
  const name = fileName(path);
  if (kind === "none") return [];
  if (kind === "prose") {
    return isProse(text.replace(/^```[^\n]*\n[\s\S]*?^```/gm, "")) ? [{ source: name, text }] : [];
  }
  return codeTexts(text, kind).filter((found) => isProse(found.text)).map((found) => ({
    source: `${found.kind} in ${name}`,
    text: found.text.trim(),
  }));
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? value as Record<string, unknown>
    : {};
}

function text(value: unknown): string {
  return typeof value === "string" ? value : "";
}

/** Every prose string field under `value`, with its key path. */
function fieldProse(tool: string, value: unknown, path: string, depth = 0): ProsePiece[] {
  if (depth > 10) return [];
  if (typeof value === "string") {
    return isProse(value) ? [{ source: `${tool} ${path}`, text: value }] : [];
  }
  if (Array.isArray(value)) {
    return value.flatMap((item, index) => fieldProse(tool, item, `${path}[${index}]`, depth + 1));
  }
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    NON_PROSE_KEYS.has(key.toLowerCase()) ? [] : fieldProse(tool, item, `${path}.${key}`, depth + 1)
  );
}

/** The prose a call of `toolName` with `toolInput` would publish; empty when there is none. */
export function extractProse(toolName: string, toolInput: unknown): ProsePiece[] {
  if (EXCLUDED_TOOLS.has(toolName)) return [];
  const input = record(toolInput);
  switch (toolName) {
    case "Write":
      return fileProse(text(input.file_path), text(input.content));
    case "Edit":
      return fileProse(text(input.file_path), text(input.new_string));
    case "MultiEdit":
      return (Array.isArray(input.edits) ? input.edits : []).flatMap((edit) =>
        fileProse(text(input.file_path), text(record(edit).new_string))
      );
    case "NotebookEdit":
      if (input.edit_mode === "delete") return [];
      return fileProse(
        text(input.notebook_path),
        text(input.new_source),
        input.cell_type === "code" ? PYTHON_SYNTAX : "prose",
      );
    case "Bash":
      return commandProse(text(input.command));
    default:
      return fieldProse(toolName, input, "tool_input");
  }
}

/** A flag whose value is published, and how to label it. */
interface PublishedFlag {
  long: string;
  short?: string;
  label: string;
  /** The value names a file to read; only `-` (stdin: a here-document) is followed. */
  file?: boolean;
}

const TITLE: PublishedFlag = { long: "--title", short: "-t", label: "title" };
const GH_BODY: PublishedFlag[] = [
  { long: "--body", short: "-b", label: "body" },
  { long: "--body-file", short: "-F", label: "body", file: true },
];
const GLAB_DESCRIPTION: PublishedFlag = {
  long: "--description",
  short: "-d",
  label: "description",
};
const GLAB_MESSAGE: PublishedFlag = { long: "--message", short: "-m", label: "message" };

/** `<program> <group> <action>` → the flags whose values it publishes. */
const PUBLISHING_COMMANDS: Record<string, PublishedFlag[]> = {
  "gh pr create": [TITLE, ...GH_BODY],
  "gh pr edit": [TITLE, ...GH_BODY],
  "gh pr comment": GH_BODY,
  "gh pr review": GH_BODY,
  "gh issue create": [TITLE, ...GH_BODY],
  "gh issue edit": [TITLE, ...GH_BODY],
  "gh issue comment": GH_BODY,
  "glab mr create": [TITLE, GLAB_DESCRIPTION],
  "glab mr update": [TITLE, GLAB_DESCRIPTION],
  "glab mr note": [GLAB_MESSAGE],
  "glab issue create": [TITLE, GLAB_DESCRIPTION],
  "glab issue update": [TITLE, GLAB_DESCRIPTION],
  "glab issue note": [GLAB_MESSAGE],
};

/**
 * The prose a shell command line would publish: commit messages and the titles and bodies of
 * gh and glab commands. Files named by `-F <file>` or `--body-file <file>` are not read (only
 * `-`, a here-document or here-string on stdin, is followed).
 */
export function commandProse(command: string): ProsePiece[] {
  const pieces: ProsePiece[] = [];
  for (const { words, heredocs } of parseShell(command)) {
    const [program, ...args] = commandWords(words);
    const name = program ? fileName(program) : "";
    let found: ProsePiece[] = [];
    if (name === "git") {
      const message = commitMessage(args, heredocs[0]);
      if (message !== undefined) found = [{ source: "commit message", text: message }];
    } else if (name === "gh" || name === "glab") {
      const flags = PUBLISHING_COMMANDS[`${name} ${args[0]} ${args[1]}`];
      if (flags) {
        found = publishedValues(`${name} ${args[0]} ${args[1]}`, args.slice(2), flags, heredocs[0]);
      }
    }
    if (isProse(found.map((piece) => piece.text).join("\n\n"))) pieces.push(...found);
  }
  return pieces;
}

/** git options before the subcommand that take a separate value. */
const GIT_VALUED_OPTIONS = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace"]);

/** `git commit` long options that take a value (as `--x=v` or `--x v`). */
const COMMIT_VALUED_LONG = new Set([
  "--message",
  "--file",
  "--author",
  "--date",
  "--template",
  "--reuse-message",
  "--reedit-message",
  "--fixup",
  "--squash",
  "--cleanup",
  "--trailer",
  "--pathspec-from-file",
]);

/** `git commit` short options that take a value, attached or as the next word. */
const COMMIT_VALUED_SHORT = "mFCct";

/** `git commit` short options whose value, if any, must be attached: `-S<keyid>`, `-u<mode>`. */
const COMMIT_OPTIONAL_SHORT = "Su";

/**
 * The message of a `git …` command when it is a commit that gives one: every `-m` paragraph
 * joined by a blank line as git does, or stdin (`-F -`) when it is a here-document.
 */
function commitMessage(args: string[], stdin: string | undefined): string | undefined {
  let index = 0;
  while (index < args.length && args[index].startsWith("-")) {
    index += GIT_VALUED_OPTIONS.has(args[index]) ? 2 : 1;
  }
  if (args[index] !== "commit") return undefined;
  const messages: string[] = [];
  let fromStdin = false;
  const take = (option: string, value: string | undefined) => {
    if (value === undefined) return;
    if (option === "m" || option === "--message") messages.push(value);
    if ((option === "F" || option === "--file") && value === "-") fromStdin = true;
  };
  for (let at = index + 1; at < args.length; at++) {
    const arg = args[at];
    if (arg === "--") break;
    if (arg.startsWith("--")) {
      const equals = arg.indexOf("=");
      const name = equals === -1 ? arg : arg.slice(0, equals);
      if (!COMMIT_VALUED_LONG.has(name)) continue;
      take(name, equals === -1 ? args[++at] : arg.slice(equals + 1));
    } else if (arg.startsWith("-") && arg.length > 1) {
      for (let char = 1; char < arg.length; char++) {
        const option = arg[char];
        if (COMMIT_OPTIONAL_SHORT.includes(option)) break;
        if (!COMMIT_VALUED_SHORT.includes(option)) continue;
        take(option, char + 1 < arg.length ? arg.slice(char + 1) : args[++at]);
        break;
      }
    }
  }
  if (fromStdin && stdin !== undefined) messages.push(stdin.replace(/\n+$/, ""));
  return messages.length ? messages.join("\n\n") : undefined;
}

/** The values `args` give to `flags` (the last one wins, as in gh and glab), in flag order. */
function publishedValues(
  command: string,
  args: string[],
  flags: PublishedFlag[],
  stdin: string | undefined,
): ProsePiece[] {
  const values = new Map<PublishedFlag, string>();
  for (let at = 0; at < args.length; at++) {
    const arg = args[at];
    if (arg === "--") break;
    for (const flag of flags) {
      let value: string | undefined;
      if (arg === flag.long || arg === flag.short) value = args[++at];
      else if (arg.startsWith(`${flag.long}=`)) value = arg.slice(flag.long.length + 1);
      else if (flag.short && !arg.startsWith("--") && arg.startsWith(flag.short)) {
        value = arg.slice(flag.short.length);
      } else continue;
      if (flag.file) value = value === "-" ? stdin?.replace(/\n+$/, "") : undefined;
      if (value !== undefined) values.set(flag, value);
      break;
    }
  }
  return flags.filter((flag) => values.has(flag)).map((flag) => ({
    source: `${command} ${flag.label}`,
    text: values.get(flag)!,
  }));
}
