/**
 * The editor command (`$VISUAL`, `$EDITOR`) read as its words. git runs it through sh; git-kb
 * evaluates no environment value, so it reads the value as sh reads a command's words (quotes and
 * backslashes honoured: `emacsclient -a ""`, `"/opt/my ed/bin/ed" -w`) and refuses a value sh
 * would evaluate first (a `$`, a `;`, a pattern), which it would otherwise run as something else.
 * The plugin launcher (build/launcher.sh) reads the program word the same way for its run
 * permission.
 *
 * @module
 */
import { literalCommand } from "./words.ts";

/** The editor command as a program and its arguments, or why it cannot be run without sh. */
export type EditorWords =
  | { program: string; args: string[]; refused?: undefined }
  | { refused: string };

/** A word sh would apply to the environment before the program: `NAME=value`. */
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * A blank that sh keeps inside a word (its words split at spaces, tabs and line breaks only),
 * where core/shell/words.ts, like JavaScript's `\s`, splits: a carriage return, a no-break space.
 */
const OTHER_BLANK = /[^\S \t\n]/;

/**
 * The program and arguments of editor command `command`, as sh would pass them; else, as a phrase
 * for a message, what sh would evaluate in it or why it names no program.
 */
export function editorWords(command: string): EditorWords {
  const { words, evaluated } = literalCommand(command);
  if (evaluated !== undefined) return { refused: `it has ${evaluated}` };
  const blank = OTHER_BLANK.exec(command)?.[0];
  if (blank !== undefined) {
    const code = blank.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0");
    return { refused: `it has a blank other than a space or a tab (U+${code})` };
  }
  const [program, ...args] = words;
  if (program === undefined) return { refused: "it names no program" };
  if (program === "") return { refused: "its program is an empty word" };
  if (ASSIGNMENT.test(program)) {
    return { refused: `it starts with ${program.split("=")[0]}=…, an assignment` };
  }
  return { program, args };
}
