import { assertEquals } from "@std/assert";
import { blankEntry, type Entry } from "./entry.ts";
import {
  applyEdits,
  changedFields,
  commitMessage,
  editOutcome,
  entryFileName,
  formatListChanges,
  listChanges,
  slugify,
  touchUpdated,
  vainRemovals,
} from "./edit.ts";

function sample(): Entry {
  return {
    ...blankEntry("kb-7q2mx", "2026-01-02"),
    title: "Rotate a token",
    tags: ["security", "npm"],
    aliases: ["cf"],
    links: [{ rel: "supersedes", to: "kb-3hd8w" }, { rel: "related", to: "kb-f8z2t" }],
    source: "https://example.org",
  };
}

Deno.test("applyEdits: lists are cleared, then added to, then removed from; other fields kept", () => {
  const before = sample();
  const after = applyEdits(before, {
    tags: { add: ["ci", "npm"], remove: ["security"] },
    aliases: { clear: true, add: ["token leak"] },
    links: { add: [{ rel: "refines", to: "kb-r4b9t" }], remove: [{ to: "kb-3hd8w" }] },
  });
  assertEquals(after.tags, ["npm", "ci"]);
  assertEquals(after.aliases, ["token leak"]);
  assertEquals(after.links, [
    { rel: "related", to: "kb-f8z2t" },
    { rel: "refines", to: "kb-r4b9t" },
  ]);
  assertEquals(after.title, before.title);
  assertEquals(before.tags, ["security", "npm"], "the input is not changed");
});

Deno.test("applyEdits: a removal wins over an addition; --remove-link rel:id keeps other relations", () => {
  const after = applyEdits(sample(), {
    tags: { add: ["x"], remove: ["x"] },
    links: {
      add: [{ rel: "related", to: "kb-3hd8w" }],
      remove: [{ rel: "supersedes", to: "kb-3hd8w" }],
    },
  });
  assertEquals(after.tags, ["security", "npm"]);
  assertEquals(after.links.map((link) => `${link.rel}:${link.to}`), [
    "related:kb-f8z2t",
    "related:kb-3hd8w",
  ]);
});

Deno.test("applyEdits: scalar fields, an empty source removes it", () => {
  const after = applyEdits(sample(), {
    title: "  New title ",
    type: "howto",
    status: "archived",
    kernel: true,
    body: "Body.\n",
    source: " ",
  });
  assertEquals(after.title, "New title");
  assertEquals(after.type, "howto");
  assertEquals(after.status, "archived");
  assertEquals(after.kernel, true);
  assertEquals(after.body, "Body.\n");
  assertEquals("source" in after, false);
});

Deno.test("changedFields and listChanges name what moved, by frontmatter name", () => {
  const before = sample();
  const after = applyEdits(before, {
    title: "Other",
    appliesTo: { add: ["coding"] },
    links: { clear: true, add: [{ rel: "related", to: "kb-f8z2t" }] },
  });
  assertEquals(changedFields(before, after), ["title", "applies_to", "links"]);
  const changes = listChanges(before, after);
  assertEquals(changes, [
    { field: "applies_to", added: ["coding"], removed: [] },
    { field: "links", added: [], removed: ["supersedes:kb-3hd8w"] },
  ]);
  assertEquals(formatListChanges(changes), [
    "applies_to: +coding",
    "links: -supersedes:kb-3hd8w",
  ]);
  assertEquals(changedFields(before, applyEdits(before, {})), []);
});

Deno.test("touchUpdated, commitMessage, slugify", () => {
  const entry = sample();
  assertEquals(touchUpdated(entry, "2026-03-04").updated, "2026-03-04");
  assertEquals(touchUpdated(entry, "2025-12-31").updated, "2026-01-02", "never before created");
  assertEquals(commitMessage(entry), "kb: add kb-7q2mx: Rotate a token");
  assertEquals(
    commitMessage(entry, ["title", "tags"]),
    "kb: edit kb-7q2mx: Rotate a token (title, tags)",
  );
  assertEquals(slugify("Ça marche: déjà vu!"), "ca-marche-deja-vu");
  assertEquals(slugify("!!!"), "entry");
});

Deno.test("entryFileName: the id, then the title's slug", () => {
  const entry = { ...blankEntry("kb-7q2mx", "2026-01-02"), title: "Pin the Node version!" };
  assertEquals(entryFileName(entry), "kb-7q2mx-pin-the-node-version.md");
});

Deno.test("editOutcome: the changed fields name the commit; updated moves to today", () => {
  const before = { ...blankEntry("kb-7q2mx", "2026-01-02"), title: "Old" };
  const next = { ...before, title: "New", tags: ["ci"] };
  const outcome = editOutcome(before, next, "2026-03-04");
  assertEquals(outcome.changed, changedFields(before, next));
  assertEquals(outcome.entry.updated, "2026-03-04");
  assertEquals(outcome.entry.title, "New");
  assertEquals(outcome.message, commitMessage(next, outcome.changed));
});

Deno.test("editOutcome: an unreadable entry before the edit changes all", () => {
  const next = { ...blankEntry("kb-7q2mx", "2026-05-06"), title: "Fixed" };
  const outcome = editOutcome(undefined, next, "2026-01-01");
  assertEquals(outcome.changed, ["all"]);
  assertEquals(outcome.message, "kb: edit kb-7q2mx: Fixed (all)");
  assertEquals(outcome.entry.updated, "2026-05-06", "never before created");
});

Deno.test("vainRemovals: a removal of what the list does not hold, nor the edit adds; none from a list cleared", () => {
  assertEquals(
    vainRemovals(sample(), {
      tags: { add: ["ci"], remove: ["ci", "security", "nosuch"] },
      aliases: { clear: true, remove: ["gone"] },
      links: { remove: [{ to: "kb-f8z2t" }, { rel: "refines", to: "kb-3hd8w" }] },
    }),
    [
      { field: "tags", items: ["nosuch"], held: ["security", "npm"] },
      {
        field: "links",
        items: ["refines:kb-3hd8w"],
        held: ["supersedes:kb-3hd8w", "related:kb-f8z2t"],
      },
    ],
  );
});
