import { assertEquals } from "@std/assert";
import { fullFolder, noRoom, osWords, unwritableFolder } from "./unwritable.ts";

Deno.test("osWords keeps the OS's words and drops the error number and the temp file's name", () => {
  assertEquals(
    osWords("Permission denied (os error 13): writefile '/kb/entries/.12-ab-0.tmp'"),
    "Permission denied",
  );
  assertEquals(osWords("something else"), "something else");
});

Deno.test("an unwritable folder of the user's own: chmod u+w, shell-quoted, then run again", () => {
  const refusal = unwritableFolder(
    "/home/me/my kb/entries",
    "Permission denied (os error 13): writefile '/home/me/my kb/entries/.1-a-0.tmp'",
    true,
  );
  assertEquals(refusal, {
    reason: "cannot write in /home/me/my kb/entries (Permission denied), so nothing was written " +
      "or committed; make the folder writable, then run the command again",
    commands: ["chmod u+w '/home/me/my kb/entries'"],
  });
});

Deno.test("an unwritable folder whose mode allows the write: the command showing why, no chmod", () => {
  const refusal = unwritableFolder("/kb's/entries", "Read-only file system (os error 30)", false);
  assertEquals(refusal, {
    reason: "cannot write in /kb's/entries (Read-only file system), so nothing was written or " +
      "committed; make the folder writable (ls -ld '/kb'\\''s/entries' shows its owner and mode; a " +
      "read-only mount or an immutable attribute stops writes too), then run the command again",
    commands: [],
  });
});

Deno.test("a folder on a full disk: nothing written, the df that shows the room left", () => {
  const refusal = fullFolder(
    "/home/me/my kb/entries",
    "No space left on device (os error 28): writefile '/home/me/my kb/entries/.1-a-0.tmp'",
  );
  assertEquals(refusal, {
    reason: "cannot write in /home/me/my kb/entries (No space left on device), so nothing was " +
      "written or committed; make room on its disk (df -h '/home/me/my kb/entries' shows what is " +
      "left), then run the command again",
    commands: [],
  });
});

Deno.test("noRoom knows git's words for a write that found no room, its own among them", () => {
  for (
    const words of [
      "unable to write loose object file: No space left on device",
      "sha1 file '.git/objects/pack/tmp_idx_H90vWb' write error. Out of diskspace",
      "write error: Disk quota exceeded",
      "unable to write loose object file: File too large",
    ]
  ) assertEquals(noRoom(undefined, words), true, words);
  assertEquals(noRoom(undefined, "Could not resolve host: example.com"), false);
  assertEquals(noRoom("ENOSPC", "write failed"), true);
});
