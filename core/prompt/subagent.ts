/**
 * Subagent memory, pure: which Agent (formerly Task) tool calls get the knowledge base's
 * context appended to their prompt, and the rewritten input, in which the prompt is the only
 * field that changes and changes only by an appended block.
 *
 * @module
 */
import { PROMPT_WORDING, SEVERAL_PROMPT_HEADER } from "./decision.ts";

/** The subagent tool's names: `Agent` since Claude Code 2.1, `Task` before. */
export const SUBAGENT_TOOLS: ReadonlySet<string> = new Set(["Agent", "Task"]);

/** What separates the subagent's prompt from the appended block. */
export const BLOCK_SEPARATOR = "\n\n";

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The prompt of a subagent tool call worth extending, or undefined: another tool, an input
 * without a non-empty string `prompt`, a fork (`subagent_type: "fork"` inherits the parent's
 * context, which already holds what the session was shown), or a prompt that already carries a
 * block of ours.
 */
export function subagentPrompt(toolName: unknown, toolInput: unknown): string | undefined {
  if (typeof toolName !== "string" || !SUBAGENT_TOOLS.has(toolName)) return undefined;
  if (!isObject(toolInput) || toolInput.subagent_type === "fork") return undefined;
  const prompt = toolInput.prompt;
  if (typeof prompt !== "string" || !prompt.trim()) return undefined;
  const ours = prompt.includes(PROMPT_WORDING.header) || prompt.includes(SEVERAL_PROMPT_HEADER);
  return ours ? undefined : prompt;
}

/**
 * `toolInput` with `block` appended to its `prompt`: every other field, and the order of the
 * fields, as they were.
 *
 * @example
 * ```ts
 * withAppendedPrompt({ description: "d", prompt: "Fix it" }, "git-kb: …");
 * // { description: "d", prompt: "Fix it\n\ngit-kb: …" }
 * ```
 */
export function withAppendedPrompt(
  toolInput: Record<string, unknown>,
  block: string,
): Record<string, unknown> {
  return { ...toolInput, prompt: `${toolInput.prompt}${BLOCK_SEPARATOR}${block}` };
}
