import { assert, assertEquals } from "@std/assert";
import { idForFile, idFromPath, isEntryId, meantId, nameWithId } from "./identity.ts";

Deno.test("isEntryId: kb- and five lower-case letters or digits, nothing else", () => {
  assertEquals(isEntryId("kb-7q2mx"), true);
  for (const value of ["kb-7Q2MX", "kb-7q2m", "kb-7q2mxy", " kb-7q2mx", "kb_7q2mx", 7, undefined]) {
    assertEquals(isEntryId(value), false, String(value));
  }
});

Deno.test("idFromPath reads only a whole id at the start of the file name", () => {
  assertEquals(idFromPath("entries/a/kb-7q2mx-x.md"), "kb-7q2mx");
  assertEquals(idFromPath("entries/kb-7q2mx.md"), "kb-7q2mx");
  assertEquals(idFromPath("kb-7q2mx-x.md"), "kb-7q2mx");
  assertEquals(
    idFromPath("entries/kb-7q2mx-x.txt"),
    "kb-7q2mx",
    "a name with an id, whatever its end",
  );
  assertEquals(idFromPath("entries/kb-7q2mxy.md"), undefined);
  assertEquals(idFromPath("entries/xkb-7q2mx-a.md"), undefined);
  assertEquals(idFromPath("entries/kb-7q2mx.md.bak"), undefined);
  assertEquals(
    idFromPath("kb-7q2mx-dir/notes.md"),
    undefined,
    "the folder's name is not the file's",
  );
});

Deno.test("nameWithId puts the id in front, in place of the one the name starts with", () => {
  assertEquals(nameWithId("kb-old00-rotate-keys.md", "kb-new00"), "kb-new00-rotate-keys.md");
  assertEquals(nameWithId("rotate-keys.md", "kb-new00"), "kb-new00-rotate-keys.md");
  assertEquals(
    nameWithId("kb-old00.md", "kb-new00"),
    "kb-new00-kb-old00.md",
    "no dash: kept whole",
  );
});

Deno.test("idForFile: an entry id, the same for the same path, none of those taken", () => {
  const id = idForFile("entries/notes.md", new Set());
  assert(isEntryId(id), id);
  assertEquals(idForFile("entries/notes.md", new Set()), id);
  const other = idForFile("entries/notes.md", new Set([id]));
  assert(isEntryId(other) && other !== id, other);
});

Deno.test("meantId: the id a mistyped one meant, when one is near", () => {
  const ids = ["kb-7q2mx", "kb-3hd8w"];
  assertEquals(meantId("kb-7q2nx", ids), "kb-7q2mx", "one character off");
  assertEquals(meantId("kb-q72mx", ids), "kb-7q2mx", "two characters swapped");
  assertEquals(meantId("7q2mx", ids), "kb-7q2mx", "without kb-");
  assertEquals(meantId("KB-7Q2MX", ids), "kb-7q2mx", "in capitals");
  assertEquals(meantId("kb-zzzzz", ids), undefined, "none near");
  assertEquals(meantId("rotate", ids), undefined, "not an id at all");
});
