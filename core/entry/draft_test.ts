import { assertEquals, assertMatch } from "@std/assert";
import { blankEntry } from "./entry.ts";
import {
  entryTemplate,
  NOTES_FOOTER,
  problemNotes,
  readDraft,
  stripNotes,
  withNotes,
} from "./draft.ts";
import { KNOWN_FIELDS } from "./schema.ts";

Deno.test("entryTemplate writes every field under a comment and reads back as the entry", () => {
  const entry = { ...blankEntry("kb-7q2mx", "2026-01-02"), title: "A title", body: "Body.\n" };
  const template = entryTemplate(entry);
  for (const field of KNOWN_FIELDS) {
    assertMatch(template, new RegExp(`\\n# ${field}: .+\\n${field}:`), field);
  }
  assertEquals(readDraft(template, "t"), { entry, problems: [] });
});

Deno.test("stripNotes removes only comment lines above the frontmatter", () => {
  assertEquals(
    stripNotes("# a\n#  b\n\n---\nid: x\n---\n# Heading\n"),
    "---\nid: x\n---\n# Heading\n",
  );
  assertEquals(stripNotes("# Heading\nbody\n"), "# Heading\nbody\n", "no frontmatter: kept");
  assertEquals(stripNotes("---\nid: x\n---\n"), "---\nid: x\n---\n");
});

Deno.test("withNotes replaces the old notes; readDraft ignores them", () => {
  const entry = { ...blankEntry("kb-7q2mx", "2026-01-02"), title: "T" };
  const text = entryTemplate(entry);
  const noted = withNotes(text, problemNotes("Not saved", [{ field: "type", message: "bad" }]));
  assertMatch(noted, /^# Not saved\n# {3}type: bad\n# \(Lines starting with #/);
  const twice = withNotes(withNotes(noted, ["once"]), ["twice"]);
  assertEquals(twice.slice(0, twice.indexOf("\n---\n")), "# twice\n" + NOTES_FOOTER);
  assertEquals(readDraft(noted, "t").entry, entry);
});

Deno.test("readDraft: text that is no entry is one problem on frontmatter", () => {
  const { entry, problems } = readDraft("just a body\n", "draft");
  assertEquals(entry, undefined);
  assertEquals(problems.map((problem) => problem.field), ["frontmatter"]);
});
