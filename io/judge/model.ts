/**
 * Asking the judge model: the `claude` CLI in print mode, isolated so that it cannot fire
 * hooks (ours included: no recursion), load plugins, MCP servers, CLAUDE.md or tools, and
 * leaves no session behind in the user's history. Each flag was checked against the real CLI
 * (2.1.197); see spec/judge.md.
 *
 * @module
 */
import {
  JUDGE_MARKER,
  JUDGE_SYSTEM_PROMPT,
  type JudgeConfig,
  outputExcerpt,
} from "../../core/judge/verdict.ts";
import { ProcessTimeoutError, runProcess } from "../process.ts";

/**
 * The `claude` arguments for one judge call; the prompt goes to stdin.
 * - `-p --output-format json`: print mode, one JSON envelope whose `result` is the reply.
 * - `--settings {"disableAllHooks":true}`: no user, project or plugin hook runs inside.
 * - `--no-session-persistence`: no transcript under `~/.claude/projects`, nothing to resume.
 * - `--tools ""`, `--strict-mcp-config`: no tools and no MCP servers, so a single turn.
 * - `--system-prompt`: the judge's own, instead of Claude Code's agent prompt.
 */
export function judgeArgs(model: string): string[] {
  return [
    "-p",
    "--model",
    model,
    "--output-format",
    "json",
    "--settings",
    JSON.stringify({ disableAllHooks: true }),
    "--no-session-persistence",
    "--tools",
    "",
    "--strict-mcp-config",
    "--system-prompt",
    JUDGE_SYSTEM_PROMPT,
  ];
}

/**
 * Added to the inherited environment of a judge call: the recursion marker, and the safe mode
 * of Claude Code 2.1.169+ (no CLAUDE.md, skills, plugins, hooks or MCP; auth and settings' `env`
 * still apply), which older versions ignore.
 */
export const JUDGE_ENV: Readonly<Record<string, string>> = {
  [JUDGE_MARKER]: "1",
  CLAUDE_CODE_SAFE_MODE: "1",
  CLAUDE_CODE_DISABLE_CLAUDE_MDS: "1",
};

/**
 * How long the verdict may take to arrive once the model's process has exited: what it printed
 * is read then, even when a process it left behind still holds its output open.
 */
export const EXIT_GRACE_MS = 250;

/** Why the judge model gave no usable output. */
export class JudgeModelError extends Error {
  /** `missing`: no binary; `denied`: no run permission; `exit`: non-zero; `timeout`: killed. */
  readonly kind: "missing" | "denied" | "exit" | "timeout";

  /** An error of `kind`, with a message that says what to do. */
  constructor(kind: JudgeModelError["kind"], message: string) {
    super(message);
    this.kind = kind;
    this.name = "JudgeModelError";
  }
}

/**
 * Run the judge model on `prompt` and return what it printed. `cwd` should be a folder with no
 * project settings or CLAUDE.md of its own (the knowledge base's cache folder). Throws
 * {@link JudgeModelError} when the binary is missing or not allowed, exits non-zero, or runs
 * past `config.timeoutMs` (it is then killed). The model runs in a process group of its own; its
 * verdict is read when it exits, whatever it left running, and what it left is killed where the
 * permissions allow (see `runProcess`).
 */
export async function askJudgeModel(
  prompt: string,
  config: JudgeConfig,
  cwd: string,
): Promise<string> {
  const { claude, timeoutMs } = config;
  let output;
  try {
    output = await runProcess(claude, judgeArgs(config.model), {
      cwd,
      env: { ...JUDGE_ENV },
      stdin: prompt,
      timeoutMs,
      ownGroup: true,
      exitGraceMs: EXIT_GRACE_MS,
    });
  } catch (error) {
    if (error instanceof ProcessTimeoutError) {
      throw new JudgeModelError(
        "timeout",
        `${claude} did not answer within ${timeoutMs} ms; raise KB_PROSE_LINT_TIMEOUT_MS`,
      );
    }
    if (error instanceof Deno.errors.NotFound) {
      throw new JudgeModelError(
        "missing",
        `${claude} was not found: install Claude Code or set KB_PROSE_LINT_CLAUDE to its path`,
      );
    }
    if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
      throw new JudgeModelError(
        "denied",
        `not allowed to run ${claude}: run the hook with --allow-run=${claude}`,
      );
    }
    throw error;
  }
  if (output.code !== 0) {
    const detail = outputExcerpt(output.stderr.trim() ? output.stderr : output.stdout);
    throw new JudgeModelError("exit", `${claude} exited with code ${output.code}: ${detail}`);
  }
  return output.stdout;
}
