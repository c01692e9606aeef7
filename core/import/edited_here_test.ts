import { assert, assertEquals } from "@std/assert";
import { editedSince, lastImports } from "./edited_here.ts";

Deno.test("lastImports: each entry id's newest file an import commit wrote, path and blob", () => {
  const change = (blob: string, status: string, path: string) =>
    `:100644 100644 ${"1".repeat(40)} ${blob} ${status}\0${path}\0`;
  const [a2, a1, b1, gone] = ["a", "b", "c", "0"].map((digit) => digit.repeat(40));
  const log = `\x01c3\0\n${change(gone, "D", "entries/kb-ddddd-gone.md")}` +
    `\x01c2\0\n${change(a2, "M", "entries/kb-aaaaa-new-title.md")}` +
    change(a2, "A", "entries/README.md") +
    `\x01c1\0\n${change(a1, "A", "entries/kb-aaaaa-old-title.md")}` +
    change(b1, "A", "entries/kb-bbbbb.md") + change(b1, "A", "attachments/kb-ccccc.md");
  assertEquals(
    [...lastImports(log)],
    [
      ["kb-aaaaa", { path: "entries/kb-aaaaa-new-title.md", blob: a2 }],
      ["kb-bbbbb", { path: "entries/kb-bbbbb.md", blob: b1 }],
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

Deno.test("editedSince: a property of the note the import kept, changed or taken out, is an edit", () => {
  const keys = "imported_from: Deploy.md\nimported_folder: notes-1a2b3c\n";
  const imported = entry(`tags: [ops]\npublish: false\n${keys}`);
  assert(!editedSince(imported, imported));
  assert(editedSince(imported, entry(`tags: [ops]\npublish: true\n${keys}`)), "changed");
  assert(editedSince(imported, entry(`tags: [ops]\n${keys}`)), "taken out");
  // A field added since is the entry's own (a promote's, the user's): an update keeps it.
  assert(!editedSince(imported, entry(`tags: [ops]\npublish: false\nowner: me\n${keys}`)));
  // The import's own keys are its to rewrite.
  assert(!editedSince(imported, entry("tags: [ops]\npublish: false\nimported_from: x.md\n")));
});
