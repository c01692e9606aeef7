/**
 * A hook's payload: the JSON object an agent writes on the hook's stdin. One parser for every
 * hook, so each refuses the same inputs (anything but a JSON object) with the same message; and
 * the one way a hook names a failure in its debug record.
 *
 * @module
 */

/** A parsed hook payload: a JSON object, its fields not yet checked. */
export type HookPayload = Readonly<Record<string, unknown>>;

/** The payload fields hooks read as text. */
export type TextField =
  | "session_id"
  | "prompt"
  | "tool_name"
  | "hook_event_name"
  | "cwd"
  | "transcript_path";

/** Raised when stdin is JSON but not an object (an array, a string, a number, null). */
export class PayloadError extends TypeError {
  constructor() {
    super("the hook payload is not a JSON object");
    this.name = "PayloadError";
  }
}

/**
 * Parse a hook's stdin into its payload. Throws a `SyntaxError` on invalid JSON (saying where,
 * never quoting the input: the engine's own message would put a piece of a prompt into the
 * debug log) and a {@link PayloadError} on JSON that is not an object.
 */
export function parsePayload(input: string): HookPayload {
  let value: unknown;
  try {
    value = JSON.parse(input);
  } catch (error) {
    const at = /at position \d+(?: \(line \d+ column \d+\))?/.exec((error as Error).message);
    throw new SyntaxError(`the hook payload is not JSON${at ? ` (${at[0]})` : ""}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new PayloadError();
  }
  return value as HookPayload;
}

/** A text field of the payload, or undefined when it is missing or not a string. */
export function textField(payload: HookPayload, field: TextField): string | undefined {
  const value = payload[field];
  return typeof value === "string" ? value : undefined;
}

/** One line naming an error for a debug record or a reason: its name and message. */
export function errorSummary(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
