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
