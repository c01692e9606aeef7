/**
 * Claude Code PreToolUse hook for the Agent (Task) tool: subagent memory. The prompt hook never
 * sees a subagent's prompt, so this hook runs the same decision on it (kernel rules, pointers,
 * the same budget) and hands the result to the subagent by rewriting the tool's input:
 * `updatedInput` is the input with the block appended to `prompt`, nothing else changed. No
 * `permissionDecision`: the rewritten call goes through the user's permission flow as the
 * original would (checked on Claude Code 2.1.197; see spec/hooks.md). Anything odd, no output:
 * the call runs unchanged. Exit 0 always.
 *
 * A subagent starts with an empty context, so what the session's ledger lists is shown to it
 * again; what it is shown is added to that ledger.
 *
 * @module
 */
import { type HookPayload, textField } from "../core/hook/payload.ts";
import { subagentPrompt, withAppendedPrompt } from "../core/prompt/subagent.ts";
import { runHookOnStdio } from "../io/hook/stdin.ts";

/** The largest stdin accepted; a bigger payload is passed through unchanged. */
const MAX_INPUT_BYTES = 8 * 1024 * 1024;

/** The debug record's `event`. */
const EVENT = "subagent";

/** The hook's stdout for a payload, or "" to leave the call unchanged. */
export async function subagentHookOutput(payload: HookPayload): Promise<string> {
  const toolInput = payload.tool_input;
  const prompt = subagentPrompt(payload.tool_name, toolInput);
  if (prompt === undefined) return "";
  const { contextForPrompt } = await import("../io/hook/prompt_context.ts");
  const result = await contextForPrompt({
    prompt,
    sessionId: textField(payload, "session_id"),
    dedup: false,
    event: EVENT,
  });
  const block = result.decision.assembly?.text;
  if (!block) return "";
  const updatedInput = withAppendedPrompt(toolInput as Record<string, unknown>, block);
  return JSON.stringify({ hookSpecificOutput: { hookEventName: "PreToolUse", updatedInput } });
}

/**
 * Run the hook on this process's stdin and stdout. Never throws: a failure means no output (and
 * a debug record when `KB_HOOK_DEBUG=1`).
 */
export function runSubagentHook(): Promise<void> {
  return runHookOnStdio(MAX_INPUT_BYTES, subagentHookOutput, async (error) => {
    const { recordFailure } = await import("../io/hook/debug_log.ts");
    recordFailure(error, undefined, EVENT);
  });
}

if (import.meta.main) {
  await runSubagentHook();
  Deno.exit(0);
}
