/**
 * What a code search looks for, pure: the search terms of a Grep or Glob tool call (its pattern:
 * `patterns.ts`), or of a Bash command that runs `rg`, `grep` (`egrep`, `fgrep`), `git grep` or
 * `find -name` (`commands.ts`). Each term comes back as a phrase: its meaningful words,
 * lowercase, separated by blanks. Bounded on any input.
 *
 * @module
 */
import { commandPhrases } from "./commands.ts";
import { globPhrases, regexPhrases } from "./patterns.ts";

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
