/**
 * Asking the judge model: {@link askModel} (io/model/claude.ts, the one isolated `claude -p`
 * call) with the judge's system prompt, recursion marker and settings. See spec/judge.md.
 *
 * @module
 */
import { JUDGE_MARKER, JUDGE_SYSTEM_PROMPT, type JudgeConfig } from "../../core/judge/verdict.ts";
import { askModel } from "../model/claude.ts";

/**
 * Run the judge model on `prompt` and return what it printed; `cwd` should be the knowledge
 * base's cache folder. Throws `ModelError` (io/model/claude.ts) when the binary is missing or
 * not allowed, exits non-zero, or runs past `config.timeoutMs` (it is then killed with its
 * process group).
 */
export function askJudgeModel(prompt: string, config: JudgeConfig, cwd: string): Promise<string> {
  return askModel(prompt, {
    ...config,
    systemPrompt: JUDGE_SYSTEM_PROMPT,
    env: { [JUDGE_MARKER]: "1" },
    settings: { timeout: "KB_PROSE_LINT_TIMEOUT_MS", binary: "KB_PROSE_LINT_CLAUDE" },
  }, cwd);
}
