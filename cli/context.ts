/**
 * `git-kb context "<prompt>"`: the prompt hook's decision as plain text or JSON, for agents
 * without hooks (their instructions tell them to run it first).
 *
 * @module
 */
import { contextForPrompt } from "../io/hook/prompt_context.ts";
import { parseCommand, UsageError } from "./args.ts";
import { printJson } from "./output.ts";

/** Help text. */
export const help = `Usage: git-kb context "<prompt>" [options]

Print what the prompt hook would add for this prompt: kernel rules in full and
pointers (id, title, why) to entries worth fetching with git-kb get. Prints
nothing when nothing surfaces (skipped, no signal, or all already shown).

Options:
  --session <id>  deduplicate against this session's ledger, and record in it
  --json          print the whole decision as JSON (outcome, pointers, near misses)
  --kb <dir>      the knowledge base folder`;

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, {
    session: { type: "string" },
    json: { type: "boolean" },
  }, { positionals: { name: '"<prompt>"', min: 1 } });
  const prompt = positionals.join(" ");
  if (!prompt.trim()) {
    throw new UsageError(
      'the prompt is blank; give its words, e.g. git-kb context "rotate the npm token"',
    );
  }
  const { decision } = await contextForPrompt({
    prompt,
    sessionId: values.session,
    kbFlag: values.kb,
    explain: values.json,
  });
  if (values.json) {
    printJson({
      outcome: decision.outcome,
      skipReason: decision.skipReason ?? null,
      activities: decision.activities,
      kernel: decision.assembly?.kernel ?? [],
      kernelDegraded: decision.assembly?.kernelDegraded ?? [],
      pointers: decision.assembly?.pointers ?? [],
      nearMisses: decision.nearMisses,
      deduped: decision.deduped,
      text: decision.assembly?.text ?? "",
    });
  } else if (decision.assembly) console.log(decision.assembly.text);
  return 0;
}
