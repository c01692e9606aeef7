/**
 * Claude Code PreToolUse hook for Grep, Glob and Bash: the search augment. When the agent
 * searches the code, the knowledge base's entries on what it searches for are handed to it as
 * `additionalContext`, deduplicated through the session ledger the prompt hook keeps. Never a
 * permission decision: the call goes on as it would without this hook. Hook JSON on stdin;
 * nothing on stdout when nothing matches. Exit 0 always: any failure means no output.
 *
 * A call that searches for nothing (most Bash commands) is decided from the payload alone: the
 * knowledge base and its index are opened only when there is a term to look up.
 *
 * @module
 */
import { type HookPayload, textField } from "../core/hook/payload.ts";
import { searchPhrases } from "../core/search_augment/terms.ts";
import { runHookOnStdio } from "../io/hook/stdin.ts";

/** The largest stdin accepted; a bigger payload is not a search worth matching. */
const MAX_INPUT_BYTES = 1024 * 1024;

/** The hook's stdout for a payload, or "" when the search surfaces nothing. */
export async function searchHookOutput(payload: HookPayload): Promise<string> {
  const tool = textField(payload, "tool_name");
  if (tool === undefined) return "";
  const phrases = searchPhrases(tool, payload.tool_input);
  if (!phrases.length) return "";
  const { contextForSearch } = await import("../io/hook/search_context.ts");
  const result = await contextForSearch({
    phrases,
    tool,
    sessionId: textField(payload, "session_id"),
  });
  const text = result.decision.assembly?.text;
  if (!text) return "";
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: "PreToolUse", additionalContext: text },
  });
}

/**
 * Run the hook on this process's stdin and stdout. Never throws: a failure means no output (and
 * a debug record when `KB_HOOK_DEBUG=1`).
 */
export function runSearchHook(): Promise<void> {
  return runHookOnStdio(MAX_INPUT_BYTES, searchHookOutput, async (error) => {
    // The same module as the search's own: one dynamic import, so one set of chunks to load.
    const { recordSearchFailure } = await import("../io/hook/search_context.ts");
    recordSearchFailure(error);
  });
}

if (import.meta.main) {
  await runSearchHook();
  Deno.exit(0);
}
