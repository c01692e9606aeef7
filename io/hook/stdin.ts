/**
 * A hook's standard streams. All of stdin is read synchronously: on these machines
 * `Deno.stdin.readSync` costs nothing measurable, while a stream reader adds milliseconds to
 * the hook's start.
 *
 * @module
 */

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
 * Run a hook on this process's stdin and stdout: `answer` turns the payload (at most `maxBytes`)
 * into the text to print, "" for nothing. Never throws: a failure prints nothing and goes to
 * `onFailure`, whose own failure is swallowed too. A hook always fails open.
 */
export async function runHookOnStdio(
  maxBytes: number,
  answer: (input: string) => Promise<string>,
  onFailure: (error: unknown) => unknown,
): Promise<void> {
  globalThis.addEventListener("unhandledrejection", (event) => event.preventDefault());
  let output = "";
  try {
    output = await answer(readStdinText(maxBytes));
  } catch (error) {
    try {
      await onFailure(error);
    } catch { /* the failure record is best effort */ }
  }
  if (output) writeHookOutput(output);
}
