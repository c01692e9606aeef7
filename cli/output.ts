/**
 * Writing to the terminal: colour only where the stream is a terminal and `NO_COLOR` is not set
 * to a non-empty value (https://no-color.org); counts with the right noun.
 *
 * @module
 */
import { tagsShown, terminalSafe } from "../core/text/display.ts";

/**
 * Whether to colour a stream: it is a terminal, and `NO_COLOR` is unset or empty.
 *
 * @param noColor the value of `NO_COLOR`, undefined when unset
 */
export function colourWanted(noColor: string | undefined, isTerminal: boolean): boolean {
  return isTerminal && !noColor;
}

function readNoColor(): string | undefined {
  try {
    return Deno.env.get("NO_COLOR");
  } catch {
    return "without env access, stay plain";
  }
}

const decisions = new Map<"stdout" | "stderr", boolean>();

/** Whether `stream` (stdout unless told) should get ANSI colours; decided once per stream. */
export function useColour(stream: "stdout" | "stderr" = "stdout"): boolean {
  let decision = decisions.get(stream);
  if (decision === undefined) {
    const terminal = stream === "stdout" ? Deno.stdout.isTerminal() : Deno.stderr.isTerminal();
    decision = colourWanted(readNoColor(), terminal);
    decisions.set(stream, decision);
  }
  return decision;
}

/**
 * Write `text`, ended by a newline, to stdout: as it is when stdout is no terminal (an agent, a
 * file), but for the tag characters a model would read as words nobody sees ({@link tagsShown});
 * on a terminal, without what the terminal would act on ({@link terminalSafe}, a CRLF line end
 * kept as a line end). An entry's body holds a teammate's words, and could write the clipboard
 * (OSC 52), hide a line or write one over another as the user reads it.
 */
export function printStored(text: string): void {
  const shown = Deno.stdout.isTerminal()
    ? terminalSafe(text.replaceAll("\r\n", "\n"))
    : tagsShown(text);
  Deno.stdout.writeSync(new TextEncoder().encode(shown.endsWith("\n") ? shown : `${shown}\n`));
}

/** Functions that colour text for one stream. */
export interface Palette {
  /** Bold text. */
  bold(text: string): string;
  /** Dim text, for secondary details. */
  dim(text: string): string;
  /** Cyan text, for ids. */
  cyan(text: string): string;
  /** Yellow text, for warnings. */
  yellow(text: string): string;
  /** Red text, for errors. */
  red(text: string): string;
  /** Green text, for success. */
  green(text: string): string;
}

function palette(stream: "stdout" | "stderr"): Palette {
  const paint = (code: number, reset: number) => (text: string) =>
    useColour(stream) ? `\x1b[${code}m${text}\x1b[${reset}m` : text;
  return {
    bold: paint(1, 22),
    dim: paint(2, 22),
    cyan: paint(36, 39),
    yellow: paint(33, 39),
    red: paint(31, 39),
    green: paint(32, 39),
  };
}

/** Colours for what goes to stderr (errors, warnings): decided by whether stderr is a terminal. */
export const onStderr: Palette = palette("stderr");

const onStdout = palette("stdout");
/** Bold text on stdout. */
export const bold: (text: string) => string = onStdout.bold;
/** Dim text on stdout, for secondary details. */
export const dim: (text: string) => string = onStdout.dim;
/** Cyan text on stdout, for ids. */
export const cyan: (text: string) => string = onStdout.cyan;
/** Yellow text on stdout, for warnings. */
export const yellow: (text: string) => string = onStdout.yellow;
/** Red text on stdout, for errors. */
export const red: (text: string) => string = onStdout.red;
/** Green text on stdout, for success. */
export const green: (text: string) => string = onStdout.green;

/** A count with its noun in the right number (core/text/plural.ts). */
export { plural } from "../core/text/plural.ts";

/** Print data as JSON on stdout. */
export function printJson(data: unknown): void {
  console.log(JSON.stringify(data, null, 2));
}
