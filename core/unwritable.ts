/**
 * What a save says when the file system refused it a write in a folder of the knowledge base
 * (`entries/` made read-only, owned by another user, on a read-only mount): the folder, the OS's
 * reason, that nothing was written or committed, and a command that gets the user on.
 *
 * @module
 */
import type { Refusal } from "./exit.ts";
import { shellCommand } from "./shell/quote.ts";

/** The error codes of a write the file system refused: permission, or a read-only mount. */
export const UNWRITABLE_CODES: ReadonlySet<string> = new Set(["EACCES", "EPERM", "EROFS"]);

/**
 * The OS's words in a Deno file error's message, without the error number and the operation on a
 * temp file's name that follow them: `Permission denied` of `Permission denied (os error 13):
 * writefile '…/.123-ab-0.tmp'`.
 */
export function osWords(message: string): string {
  return message.replace(/\s*\(os error \d+\)[\s\S]*$/, "").trim() || message;
}

/**
 * The refusal of a save that could not write in `folder` because of `message` (the OS's error).
 * `ownModeLacksWrite`: the folder is the user's own and its mode lacks their write bit, which the
 * command `chmod u+w` gives back; else (another owner, a read-only mount, an immutable folder) the
 * reason names the command that shows its owner and mode, and there is no command to run.
 */
export function unwritableFolder(
  folder: string,
  message: string,
  ownModeLacksWrite: boolean,
): Refusal {
  const head = `cannot write in ${folder} (${osWords(message)}), so nothing was written or ` +
    "committed; make the folder writable";
  const tail = ", then run the command again";
  if (ownModeLacksWrite) {
    return { reason: head + tail, commands: [shellCommand(["chmod", "u+w", folder])] };
  }
  return {
    reason: `${head} (${shellCommand(["ls", "-ld", folder])} shows its owner and mode; a ` +
      `read-only mount or an immutable attribute stops writes too)${tail}`,
    commands: [],
  };
}
