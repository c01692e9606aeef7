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

/**
 * git's and the OS's words for a write the file system refused, where git gives no error code:
 * git's own for an object it may not add (a folder of `.git/objects` that a `sudo git` made
 * root's), a permission, a read-only mount.
 */
export const NO_WRITE_WORDS =
  /insufficient permission|Permission denied|Operation not permitted|Read-only file system/;

/**
 * The error codes of a write that found no room: a full disk, a quota, a file size limit (which
 * the tests stand in for a full disk with).
 */
export const NO_ROOM_CODES: ReadonlySet<string> = new Set(["ENOSPC", "EDQUOT", "EFBIG"]);

/**
 * The OS's words for a write that found no room, as git and Deno give them; git says `Out of
 * diskspace` when a write of its index or a pack wrote nothing.
 */
export const NO_ROOM_WORDS =
  /No space left on device|Disk quota exceeded|File too large|Out of diskspace/;

/**
 * Whether a file error found no room: by its `code`, or by its words where the runtime gives it
 * none (Deno names no code for EFBIG).
 */
export function noRoom(code: unknown, message: string): boolean {
  return (typeof code === "string" && NO_ROOM_CODES.has(code)) || NO_ROOM_WORDS.test(message);
}

/**
 * The refusal of a save that could not write in `folder` for want of room (`message`: the OS's
 * error, see {@link NO_ROOM_CODES}): the folder, the OS's reason, that nothing was written or
 * committed, and how to see the room left.
 */
export function fullFolder(folder: string, message: string): Refusal {
  return {
    reason: `cannot write in ${folder} (${osWords(message)}), so nothing was written or ` +
      `committed; make room on its disk (${shellCommand(["df", "-h", folder])} shows what is ` +
      "left), then run the command again",
    commands: [],
  };
}

/**
 * What a command says when the file system refused it a write in git-kb's cache (a permission, a
 * read-only mount, or no room; see {@link cacheRefused}): the folder, the OS's
 * reason, that the cache is rebuilt at any time, and the ways on, the last being `newCacheLine`
 * (a pasted line that gives the shell a cache of its own). Ends "and run again.", as every cache
 * refusal does.
 */
export function unwritableCache(folder: string, message: string, newCacheLine: string): string {
  return `cannot write git-kb's cache in ${folder} (${osWords(message)}); it only holds what ` +
    "git-kb rebuilds at any time: free room there or make it writable (or give this shell a " +
    `cache of its own: ${newCacheLine}) and run again.`;
}

/**
 * Whether a file error (`code`, `message`) is one {@link unwritableCache} words: no write, or no
 * room.
 */
export function cacheRefused(code: unknown, message: string): boolean {
  return (typeof code === "string" && UNWRITABLE_CODES.has(code)) || noRoom(code, message);
}
