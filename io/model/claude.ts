/**
 * One call of a model through the `claude` CLI in print mode, isolated so that it cannot fire
 * hooks (ours included: no recursion), load plugins, MCP servers, CLAUDE.md or tools, and leaves
 * no session behind in the user's history. The prose judge (io/judge/model.ts) and the capture
 * of knowledge from sessions (io/capture/run.ts) both ask their model through {@link askModel}.
 * Each flag was checked against the real CLI (2.1.197); see spec/judge.md.
 *
 * @module
 */
import { outputExcerpt } from "../../core/model/reply.ts";
import { ProcessTimeoutError, runProcess } from "../process.ts";

/** What one model call needs besides its prompt. */
export interface ModelCall {
  /** The `claude` binary: a name on PATH or a path. */
  claude: string;
  /** The model asked (`sonnet`, `haiku`, a full name). */
  model: string;
  /** How long the model may take; it is killed, with its process group, after that. */
  timeoutMs: number;
  /** The system prompt, replacing Claude Code's agent prompt. */
  systemPrompt: string;
  /** Added to the inherited environment: a recursion marker the caller's own hook checks. */
  env: Readonly<Record<string, string>>;
  /** The environment variables that set the timeout and the binary, named in error messages. */
  settings: { timeout: string; binary: string };
  /** Stops the model (with its group) when aborted. */
  signal?: AbortSignal;
}

/**
 * The `claude` arguments for one call; the prompt goes to stdin.
 * - `-p --output-format json`: print mode, one JSON envelope whose `result` is the reply.
 * - `--settings {"disableAllHooks":true}`: no user, project or plugin hook runs inside.
 * - `--no-session-persistence`: no transcript under `~/.claude/projects`, nothing to resume.
 * - `--tools ""`, `--strict-mcp-config`: no tools and no MCP servers, so a single turn.
 * - `--system-prompt`: the caller's own, instead of Claude Code's agent prompt.
 */
export function modelArgs(model: string, systemPrompt: string): string[] {
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
    systemPrompt,
  ];
}

/**
 * Added to every call's environment: the safe mode of Claude Code 2.1.169+ (no CLAUDE.md,
 * skills, plugins, hooks or MCP; auth and settings' `env` still apply), which older versions
 * ignore.
 */
export const SAFE_MODE_ENV: Readonly<Record<string, string>> = {
  CLAUDE_CODE_SAFE_MODE: "1",
  CLAUDE_CODE_DISABLE_CLAUDE_MDS: "1",
};

/**
 * How long the reply may take to arrive once the model's process has exited: what it printed
 * is read then, even when a process it left behind still holds its output open.
 */
export const EXIT_GRACE_MS = 250;

/** Why the model gave no usable output. */
export class ModelError extends Error {
  /** `missing`: no binary; `denied`: no run permission; `exit`: non-zero; `timeout`: killed. */
  readonly kind: "missing" | "denied" | "exit" | "timeout";

  /** An error of `kind`, with a message that says what to do. */
  constructor(kind: ModelError["kind"], message: string) {
    super(message);
    this.kind = kind;
    this.name = "ModelError";
  }
}

/**
 * Run the model on `prompt` and return what it printed. `cwd` should be a folder with no
 * project settings or CLAUDE.md of its own (the knowledge base's cache folder). Throws
 * {@link ModelError} when the binary is missing or not allowed, exits non-zero, or runs past
 * `call.timeoutMs` (it is then killed). The model runs in a process group of its own; its reply
 * is read when it exits, whatever it left running, and what it left is killed where the
 * permissions allow (see `runProcess`). An abort of `call.signal` is thrown as its reason.
 */
export async function askModel(prompt: string, call: ModelCall, cwd: string): Promise<string> {
  const { claude, timeoutMs, settings } = call;
  let output;
  try {
    output = await runProcess(claude, modelArgs(call.model, call.systemPrompt), {
      cwd,
      env: { ...call.env, ...SAFE_MODE_ENV },
      stdin: prompt,
      timeoutMs,
      ownGroup: true,
      exitGraceMs: EXIT_GRACE_MS,
      signal: call.signal,
    });
  } catch (error) {
    if (error instanceof ProcessTimeoutError) {
      throw new ModelError(
        "timeout",
        `${claude} did not answer within ${timeoutMs} ms; raise ${settings.timeout}`,
      );
    }
    if (error instanceof Deno.errors.NotFound) {
      throw new ModelError(
        "missing",
        `${claude} was not found: install Claude Code or set ${settings.binary} to its path`,
      );
    }
    if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
      throw new ModelError(
        "denied",
        `not allowed to run ${claude}: run the hook with --allow-run=${claude}`,
      );
    }
    throw error;
  }
  if (output.code !== 0) {
    const detail = outputExcerpt(output.stderr.trim() ? output.stderr : output.stdout);
    throw new ModelError("exit", `${claude} exited with code ${output.code}: ${detail}`);
  }
  return output.stdout;
}
