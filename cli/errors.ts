/**
 * Turning errors into one line for the user and an exit code. A missing Deno permission names
 * the flag to add instead of printing a stack trace.
 *
 * @module
 */
import { EXIT, type ExitCode, KbError } from "../core/exit.ts";
import { UsageError } from "./args.ts";
import { onStderr } from "./output.ts";
import { selfCommand } from "../io/self_command.ts";

const PERMISSION = /Requires (\w+) access to "?([^",]*)"?/;

/** The error underneath wrappers that only record where it happened (`RecordedError`). */
function unwrap(error: unknown): unknown {
  while (error instanceof Error && error.name === "RecordedError" && error.cause !== undefined) {
    error = error.cause;
  }
  return error;
}

/** The flag that grants what a permission error says is missing, e.g. `--allow-run=git`. */
export function missingPermissionFlag(error: unknown): string | undefined {
  error = unwrap(error);
  if (!(error instanceof Error) || error.name !== "NotCapable") return undefined;
  const match = PERMISSION.exec(error.message);
  if (!match) return "--allow-all";
  const [, kind, target] = match;
  const flag = kind === "write" || kind === "read" || kind === "run" || kind === "env" ||
      kind === "net" || kind === "sys" || kind === "ffi"
    ? `--allow-${kind}`
    : "--allow-all";
  return target ? `${flag}=${target}` : flag;
}

/**
 * The exit code for an error: the code a {@link KbError} (a usage error among them) carries, else
 * that of a runtime error.
 */
export function exitCodeOf(error: unknown): ExitCode {
  error = unwrap(error);
  return error instanceof KbError ? error.exitCode : EXIT.failed;
}

/** An error's own message (a wrapper's cause's), without the command's name or colour. */
export function messageOf(error: unknown): string {
  error = unwrap(error);
  return error instanceof Error ? error.message : String(error);
}

/**
 * One line (or a short block) for stderr saying what went wrong and what to do. A usage error
 * lists every mistake, then `usage` (the command's usage line) when given, then where the help is.
 */
export function describeError(error: unknown, command: string, usage?: string): string {
  error = unwrap(error);
  const { red } = onStderr;
  const flag = missingPermissionFlag(error);
  if (flag) {
    return red(`git-kb ${command}: missing permission: run deno again with ${flag}`) +
      ` (${(error as Error).message.split(",")[0]})`;
  }
  if (error instanceof UsageError) {
    return [
      ...error.problems.map((problem) => red(`git-kb ${command}: ${problem}`)),
      ...(usage ? [usage] : []),
      `Run ${selfCommand()} ${command} --help for the options.`,
    ].join("\n");
  }
  const message = error instanceof Error ? error.message : String(error);
  return red(`git-kb ${command}: ${message}`);
}
