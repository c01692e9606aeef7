/**
 * The note a command that reads one knowledge base (`stats`, `review`, `eval`) prints when the
 * config names several and none was chosen: it read the default only, and here is the command
 * line that reads each of the others. Nothing is left out without saying so.
 *
 * @module
 */
import { resolveKbs } from "../config.ts";
import { kbCommand } from "../self_command.ts";

/**
 * Undefined when `flag` (the command's `--kb`) or `KB_DIR` chose the knowledge base, or the
 * config names one only; else a line naming the default the command read and, for each other
 * knowledge base, `words` run again with `--kb` and its folder.
 */
export function defaultOnlyNote(
  flag: string | undefined,
  words: readonly string[],
): string | undefined {
  if (flag !== undefined) return undefined;
  const { kbs, source } = resolveKbs();
  if (source === "KB_DIR" || kbs.length < 2) return undefined;
  const [chosen, ...others] = kbs;
  const each = others.map((kb) => `for ${kb.name}: ${kbCommand(...words, "--kb", kb.kbDir)}`);
  return `only the default knowledge base, ${chosen.name}, was read; ${each.join("; ")}`;
}
