import { assert, assertEquals } from "@std/assert";
import { editedSince, lastImports } from "./edited_here.ts";

Deno.test("lastImports: the newest import commit of each entry id, with the path it had there", () => {
  const log = "\x01c2\0\nentries/kb-aaaaa-new-title.md\0entries/README.md\0\x01" +
    "c1\0\nentries/kb-aaaaa-old-title.md\0entries/kb-bbbbb.md\0attachments/kb-ccccc.md\0";
  assertEquals(
    [...lastImports(log)],
    [
      ["kb-aaaaa", { commit: "c2", path: "entries/kb-aaaaa-new-title.md" }],
      ["kb-bbbbb", { commit: "c1", path: "entries/kb-bbbbb.md" }],
    ],
  );
  assertEquals(lastImports("").size, 0);
});

const entry = (fields: string, body = "Body.\n") =>
  `---\nid: kb-aaaaa\ntitle: Deploy\ntype: note\n${fields}status: active\n` +
  `created: 2026-01-01\nupdated: 2026-01-02\n---\n${body}`;

Deno.test("editedSince: a field the import writes changed is an edit; a link or a flag it keeps is not", () => {
  const imported = entry("tags: [ops]\n");
  assert(!editedSince(imported, imported));
  assert(editedSince(imported, entry("tags: [ops, mine]\n")));
  assert(editedSince(imported, entry("tags: [ops]\n", "Body, edited.\n")));
  assert(
    !editedSince(imported, entry("tags: [ops]\nlinks:\n  - { rel: related, to: kb-bbbbb }\n")),
  );
  assert(!editedSince(imported, entry("tags: [ops]\nkernel: true\n")));
  assert(editedSince(imported, "not an entry at all\n"), "what cannot be compared is kept");
});
