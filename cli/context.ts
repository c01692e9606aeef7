/**
 * `git-kb context "<prompt>"`: the prompt hook's decision as plain text or JSON, for agents
 * without hooks (their instructions tell them to run it first).
 *
 * @module
 */
import { contextForPrompt } from "../io/hook/prompt_context.ts";
import { type CommandSpec, helpText, nonBlank, parseCommand, UsageError } from "./args.ts";
import { printJson, printStored } from "./output.ts";
import { kbCommand, selfCommand } from "../io/self_command.ts";
import type { Decision } from "../core/prompt/decision.ts";

/** The command: its usage, options and positionals. */
export const command = {
  usage: ['context "<prompt>" [options]'],
  about: `Print what the prompt hook would add for this prompt: kernel rules in full and
pointers (id, title, why) to entries worth fetching with git-kb get. Prints
nothing on stdout when nothing surfaces (skipped, no signal, or all already
shown), and says why on stderr.`,
  options: {
    session: {
      type: "string",
      value: "<id>",
      help: "deduplicate against this session's ledger, and record in it",
      check: nonBlank("a session id"),
    },
    json: {
      type: "boolean",
      help: "print the whole decision as JSON (outcome, pointers, near misses, why it held back)",
    },
  },
  positionals: { name: '"<prompt>"', min: 1 },
} as const satisfies CommandSpec;

/** Help text. */
export const help: string = helpText(command);

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, command.options, command);
  const prompt = positionals.join(" ");
  if (!prompt.trim()) {
    throw new UsageError(
      `the prompt is blank; give its words, e.g. ${selfCommand()} context "rotate the npm token"`,
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
      reference: decision.reference ?? null,
      activities: decision.activities,
      kernel: decision.assembly?.kernel ?? [],
      kernelDegraded: decision.assembly?.kernelDegraded ?? [],
      pointers: decision.assembly?.pointers ?? [],
      nearMisses: decision.nearMisses,
      heldBack: decision.heldBack ?? null,
      deduped: decision.deduped,
      text: decision.assembly?.text ?? "",
    });
  } else if (decision.assembly) printStored(decision.assembly.text);
  else console.error(nothingAdded(decision, args));
  return 0;
}

/** What the hook skips, by the reason its decision gives, and what to give it instead. */
const SKIPPED: Record<string, string> = {
  empty: "an empty prompt; give the task in a few words",
  slash_command: "a slash command; give the task in words",
  short: "a prompt this short; give the task in a few more words",
  mechanical: "pasted output and mechanical replies; give the task in words",
};

/**
 * Why the hook would add nothing, for stderr (stdout stays empty), with the call that says more
 * when there is more to say.
 */
function nothingAdded(decision: Decision, args: readonly string[]): string {
  const said = "git-kb context: the hook would add nothing";
  if (decision.outcome === "skipped") {
    const what = SKIPPED[decision.skipReason ?? ""] ??
      `this prompt (${decision.skipReason}); give the task in words`;
    return `${said}: it skips ${what}`;
  }
  const why = decision.outcome === "all_deduped"
    ? "every entry it matches was shown in this session already"
    : "no entry matches this prompt well enough";
  return `${said}: ${why}; the entries it nearly matched: ${
    kbCommand("context", ...args, "--json")
  }`;
}
