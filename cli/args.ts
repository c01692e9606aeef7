/**
 * Argument parsing shared by every command: `node:util` parseArgs, with mistakes turned into
 * {@link UsageError} (exit 2) and `--help` answered from the command's own help text.
 *
 * @module
 */
import { parseArgs, type ParseArgsConfig } from "node:util";

/** A mistake in how a command was called; the CLI exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** Options every command accepts. */
export const COMMON_OPTIONS = {
  kb: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const satisfies ParseArgsConfig["options"];

/** Parse `args` against `options` (plus the common ones); positionals allowed. */
export function parseCommand<T extends NonNullable<ParseArgsConfig["options"]>>(
  args: string[],
  options: T,
) {
  try {
    return parseArgs({
      args,
      options: { ...COMMON_OPTIONS, ...options },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new UsageError(message.replace(/\. To specify a positional argument.*$/s, "."));
  }
}

/** Parse a whole number option, or throw a usage error naming it. */
export function positiveInt(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) {
    throw new UsageError(`--${name} takes a whole number of at least 1, not "${value}"`);
  }
  return number;
}
