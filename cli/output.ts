/**
 * Writing to the terminal: colour only on a TTY and never with NO_COLOR.
 *
 * @module
 */

let colourDecision: boolean | undefined;

/** Whether stdout should get ANSI colours. */
export function useColour(): boolean {
  if (colourDecision === undefined) {
    let noColour = false;
    try {
      noColour = Deno.env.get("NO_COLOR") !== undefined;
    } catch {
      /* without env access, stay plain */
      noColour = true;
    }
    colourDecision = !noColour && Deno.stdout.isTerminal();
  }
  return colourDecision;
}

function paint(code: number, reset: number) {
  return (text: string) => useColour() ? `\x1b[${code}m${text}\x1b[${reset}m` : text;
}

/** Bold text. */
export const bold: (text: string) => string = paint(1, 22);
/** Dim text, for secondary details. */
export const dim: (text: string) => string = paint(2, 22);
/** Cyan text, for ids. */
export const cyan: (text: string) => string = paint(36, 39);
/** Yellow text, for warnings. */
export const yellow: (text: string) => string = paint(33, 39);
/** Red text, for errors. */
export const red: (text: string) => string = paint(31, 39);
/** Green text, for success. */
export const green: (text: string) => string = paint(32, 39);

/** Print data as JSON on stdout. */
export function printJson(data: unknown): void {
  console.log(JSON.stringify(data, null, 2));
}
