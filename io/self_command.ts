/**
 * How a printed command runs git-kb itself, so that a hint works when pasted: through the
 * plugin's launcher that ran this process when `git-kb` is not on PATH.
 *
 * @module
 */
import { shellCommand, shellQuote } from "../core/shell/quote.ts";

/**
 * The command that runs git-kb, as a pasted line must spell it: `KB_CLI` (a command prefix, used
 * verbatim) when set, as the plugin's launcher sets it to its own path, quoted; the launcher under
 * `CLAUDE_PLUGIN_ROOT` for a hook run without it; else `git-kb`, for a process started some other
 * way (`deno run app/main.ts`, `deno task`).
 */
export function selfCommand(): string {
  const root = Deno.env.get("CLAUDE_PLUGIN_ROOT");
  return Deno.env.get("KB_CLI") || (root ? shellQuote(`${root}/bin/git-kb`) : "git-kb");
}

/** A git-kb command line to paste: {@link selfCommand}, then `words`, each quoted. */
export function kbCommand(...words: string[]): string {
  return `${selfCommand()} ${shellCommand(words)}`;
}

/**
 * The `edit` that takes entry `from`'s links to each of `targets` out (one `--remove-link` each),
 * with `kbFlag` (`--kb <dir>`, `--to <name>`, or none) naming its knowledge base: what gets an
 * entry whose link was left dangling (`rm --force`) through its next edit.
 */
export function removeLinksCommand(
  from: string,
  targets: readonly string[],
  kbFlag: readonly string[] = [],
): string {
  const removals = [...new Set(targets)].flatMap((to) => ["--remove-link", to]);
  return kbCommand("edit", from, ...removals, ...kbFlag);
}
