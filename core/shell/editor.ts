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

/**
 * The longest editor command read, in UTF-8 bytes: a program path longer than PATH_MAX (4096
 * with its NUL) cannot be run, and the launcher, which reads the value a character at a time in
 * sh, must finish in bounded time.
 */
export const MAX_EDITOR_BYTES = 4096;

/** The blanks trimmed from either end of the value, as the launcher's `[[:space:]]` in C. */
const EDGE_BLANKS = /^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g;

/**
 * Whether editor command `value` is unset or only spaces, tabs, line breaks, vertical tabs, form
 * feeds and carriage returns: then the next variable (`$EDITOR` after `$VISUAL`) applies.
 */
export function editorBlank(value: string | undefined): boolean {
  return value === undefined || value.replace(EDGE_BLANKS, "") === "";
}

/** A word sh would apply to the environment before the program: `NAME=value`. */
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/**
 * A blank that sh keeps inside a word (its words split at spaces, tabs and line breaks only),
 * where core/shell/words.ts, like JavaScript's `\s`, splits: a carriage return, a no-break space.
 */
const OTHER_BLANK = /[^\S \t\n]/;

/**
 * The program and arguments of editor command `value` (blanks at its ends left out, see
 * {@link editorBlank}), as sh would pass them; else, as a phrase for a message, what sh would
 * evaluate in it, why it names no program, or that it is longer than {@link MAX_EDITOR_BYTES}.
 */
export function editorWords(value: string): EditorWords {
  const bytes = new TextEncoder().encode(value).length;
  if (bytes > MAX_EDITOR_BYTES) {
    return { refused: `it is ${bytes} bytes long, more than the ${MAX_EDITOR_BYTES} read` };
  }
  const command = value.replace(EDGE_BLANKS, "");
  const { words, evaluated } = literalCommand(command);
  if (evaluated !== undefined) return { refused: `it has ${evaluated}` };
  // sh passes a backslash that ends the value as it is (`vi\` runs a program named `vi\`), where
  // core/shell/words.ts drops it, which would run vi: not read either way.
  let end = command.length;
  while (end > 0 && command[end - 1] === "\\") end--;
  if ((command.length - end) % 2 === 1) return { refused: "it ends with a lone \\" };
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
