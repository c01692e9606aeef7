/**
 * A hook's standard streams. All of stdin is read synchronously: on these machines
 * `Deno.stdin.readSync` costs nothing measurable, while a stream reader adds milliseconds to
 * the hook's start.
 *
 * @module
 */
import { type HookPayload, parsePayload } from "../../core/hook/payload.ts";

/** Raised when stdin holds more than the caller accepts. */
export class InputTooLargeError extends RangeError {
  constructor(limit: number) {
    super(`stdin is larger than ${limit} bytes`);
    this.name = "InputTooLargeError";
  }
}

/** Read stdin to the end as UTF-8 text; throws {@link InputTooLargeError} past `maxBytes`. */
export function readStdinText(maxBytes: number): string {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const buffer = new Uint8Array(64 * 1024);
  for (;;) {
    const read = Deno.stdin.readSync(buffer);
    if (read === null || read === 0) break;
    total += read;
    if (total > maxBytes) throw new InputTooLargeError(maxBytes);
    chunks.push(buffer.slice(0, read));
  }
  const all = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    all.set(chunk, offset);
    offset += chunk.length;
  }
  return new TextDecoder().decode(all);
}

/** Write `text` and a newline to stdout for a hook; a closed stdout is not an error there. */
export function writeHookOutput(text: string): void {
  try {
    Deno.stdout.writeSync(new TextEncoder().encode(text + "\n"));
  } catch { /* stdout closed: nothing to do */ }
}

/**
 * Run a hook on this process's stdin and stdout: the one runner every hook goes through. Stdin
 * (at most `maxBytes`) is parsed into its payload ({@link parsePayload}) and `answer` turns that
 * into the text to print, "" for nothing. Never throws: any failure (too much input, invalid
 * JSON, not an object, the answer's own) prints nothing and goes to `onFailure`, whose own
 * failure is swallowed too. A hook always fails open; its process then exits 0.
 */
export async function runHookOnStdio(
  maxBytes: number,
  answer: (payload: HookPayload) => Promise<string>,
  onFailure: (error: unknown) => unknown,
): Promise<void> {
  globalThis.addEventListener("unhandledrejection", (event) => event.preventDefault());
  let output = "";
  try {
    output = await answer(parsePayload(readStdinText(maxBytes)));
  } catch (error) {
    try {
      await onFailure(error);
    } catch { /* the failure record is best effort */ }
  }
  if (output) writeHookOutput(output);
}
