/**
 * What a sync moved, in entries (core/sync/changes.ts): git's name-status read as entries added,
 * changed and removed, a rename with its id kept one change, and names safe for a terminal.
 */
import { assertEquals } from "@std/assert";
import { classifyChanges, describeEntry, entryLabel, parseNameStatus } from "./changes.ts";

Deno.test("name-status output is read file by file, odd names included", () => {
  const output = "A\0entries/kb-aaaaa-new.md\0M\0entries/kb-bbbbb-a b\nc.md\0D\0README.md\0";
  assertEquals(parseNameStatus(output), [
    { status: "A", path: "entries/kb-aaaaa-new.md" },
    { status: "M", path: "entries/kb-bbbbb-a b\nc.md" },
    { status: "D", path: "README.md" },
  ]);
  assertEquals(parseNameStatus(""), []);
});

Deno.test("entries are sorted into added, changed and removed; a rename keeping its id is one change", () => {
  const changes = classifyChanges([
    { status: "A", path: "entries/kb-aaaaa-new.md" },
    { status: "M", path: "entries/kb-bbbbb-edited.md" },
    { status: "T", path: "entries/kb-ccccc-now-a-link.md" },
    { status: "D", path: "entries/kb-ddddd-old-name.md" },
    { status: "A", path: "entries/kb-ddddd-new-name.md" },
    { status: "D", path: "entries/kb-eeeee-gone.md" },
    { status: "D", path: "entries/hand-written.md" },
    { status: "A", path: "entries/other-hand-written.md" },
    { status: "A", path: "entries/.gitkeep" },
  ]);
  assertEquals(changes, {
    added: ["entries/kb-aaaaa-new.md", "entries/other-hand-written.md"],
    changed: [
      "entries/kb-bbbbb-edited.md",
      "entries/kb-ccccc-now-a-link.md",
      "entries/kb-ddddd-new-name.md",
    ],
    removed: ["entries/kb-eeeee-gone.md", "entries/hand-written.md"],
  });
});

Deno.test("an entry is named by its frontmatter, else its file name, and safely for a terminal", () => {
  const text = '---\nid: kb-zzzzz\ntitle: "Red \\e[31malert\\e[0m\\u2028now"\ntype: note\n---\nx\n';
  const entry = describeEntry(text, "entries/kb-zzzzz-red.md");
  assertEquals(entry.id, "kb-zzzzz");
  assertEquals(entryLabel(entry), 'kb-zzzzz "Red alert now"');
  const unreadable = describeEntry("---\ntitle: [\n---\n", "entries/kb-yyyyy-broken.md");
  assertEquals(unreadable, { id: "kb-yyyyy", title: "", path: "entries/kb-yyyyy-broken.md" });
  assertEquals(entryLabel(describeEntry("", "entries/notes.md")), "entries/notes.md");
});
