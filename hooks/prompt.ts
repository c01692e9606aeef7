/**
 * Claude Code UserPromptSubmit hook: hook JSON on stdin, additionalContext JSON on stdout when
 * something surfaces, nothing otherwise. Exit 0 always: any failure means no output.
 *
 * @module
 */
import { type HookPayload, textField } from "../core/hook/payload.ts";
import { contextForPrompt } from "../io/hook/prompt_context.ts";
import { recordFailure } from "../io/hook/debug_log.ts";
import { runHookOnStdio } from "../io/hook/stdin.ts";

/** The largest stdin accepted; a bigger payload is not a prompt worth matching. */
const MAX_INPUT_BYTES = 8 * 1024 * 1024;

/**
 * The event name the reply carries: the payload's own for Gemini CLI's `BeforeAgent` (same
 * reply shape as Claude Code's), else `UserPromptSubmit` (Claude Code and Codex).
 */
function replyEvent(event: unknown): string {
  return event === "BeforeAgent" ? event : "UserPromptSubmit";
}

/** The hook's stdout for a payload, or "" when nothing surfaces. */
export async function promptHookOutput(payload: HookPayload): Promise<string> {
  const prompt = textField(payload, "prompt");
  if (prompt === undefined) return "";
  const result = await contextForPrompt({ prompt, sessionId: textField(payload, "session_id") });
  const text = result.decision.assembly?.text;
  if (!text) return "";
  return JSON.stringify({
    hookSpecificOutput: {
      hookEventName: replyEvent(payload.hook_event_name),
      additionalContext: text,
    },
  });
}

/**
 * Run the hook on this process's stdin and stdout. Never throws: a failure means no output
 * (and a debug record when `KB_HOOK_DEBUG=1`).
 */
export function runPromptHook(): Promise<void> {
  return runHookOnStdio(MAX_INPUT_BYTES, promptHookOutput, (error) => recordFailure(error));
}

if (import.meta.main) {
  await runPromptHook();
  Deno.exit(0);
}
