import assert from "node:assert/strict";
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
  assert.deepEqual(after.tags, ["npm", "ci"]);
  assert.deepEqual(after.aliases, ["token leak"]);
  assert.deepEqual(after.links, [
    { rel: "related", to: "kb-f8z2t" },
    { rel: "refines", to: "kb-r4b9t" },
  ]);
  assert.equal(after.title, before.title);
  assert.deepEqual(before.tags, ["security", "npm"], "the input is not changed");
});

Deno.test("applyEdits: a removal wins over an addition; --remove-link rel:id keeps other relations", () => {
  const after = applyEdits(sample(), {
    tags: { add: ["x"], remove: ["x"] },
    links: {
      add: [{ rel: "related", to: "kb-3hd8w" }],
      remove: [{ rel: "supersedes", to: "kb-3hd8w" }],
    },
  });
  assert.deepEqual(after.tags, ["security", "npm"]);
  assert.deepEqual(after.links.map((link) => `${link.rel}:${link.to}`), [
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
  assert.equal(after.title, "New title");
  assert.equal(after.type, "howto");
  assert.equal(after.status, "archived");
  assert.equal(after.kernel, true);
  assert.equal(after.body, "Body.\n");
  assert.equal("source" in after, false);
});

Deno.test("changedFields and listChanges name what moved, by frontmatter name", () => {
  const before = sample();
  const after = applyEdits(before, {
    title: "Other",
    appliesTo: { add: ["coding"] },
    links: { clear: true, add: [{ rel: "related", to: "kb-f8z2t" }] },
  });
  assert.deepEqual(changedFields(before, after), ["title", "applies_to", "links"]);
  const changes = listChanges(before, after);
  assert.deepEqual(changes, [
    { field: "applies_to", added: ["coding"], removed: [] },
    { field: "links", added: [], removed: ["supersedes:kb-3hd8w"] },
  ]);
  assert.deepEqual(formatListChanges(changes), [
    "applies_to: +coding",
    "links: -supersedes:kb-3hd8w",
  ]);
  assert.deepEqual(changedFields(before, applyEdits(before, {})), []);
});

Deno.test("touchUpdated, commitMessage, slugify", () => {
  const entry = sample();
  assert.equal(touchUpdated(entry, "2026-03-04").updated, "2026-03-04");
  assert.equal(touchUpdated(entry, "2025-12-31").updated, "2026-01-02", "never before created");
  assert.equal(commitMessage(entry), "kb: add kb-7q2mx: Rotate a token");
  assert.equal(
    commitMessage(entry, ["title", "tags"]),
    "kb: edit kb-7q2mx: Rotate a token (title, tags)",
  );
  assert.equal(slugify("Ça marche: déjà vu!"), "ca-marche-deja-vu");
  assert.equal(slugify("!!!"), "entry");
});

Deno.test("entryFileName: the id, then the title's slug", () => {
  const entry = { ...blankEntry("kb-7q2mx", "2026-01-02"), title: "Pin the Node version!" };
  assert.equal(entryFileName(entry), "kb-7q2mx-pin-the-node-version.md");
});

Deno.test("editOutcome: the changed fields name the commit; updated moves to today", () => {
  const before = { ...blankEntry("kb-7q2mx", "2026-01-02"), title: "Old" };
  const next = { ...before, title: "New", tags: ["ci"] };
  const outcome = editOutcome(before, next, "2026-03-04");
  assert.deepEqual(outcome.changed, changedFields(before, next));
  assert.equal(outcome.entry.updated, "2026-03-04");
  assert.equal(outcome.entry.title, "New");
  assert.equal(outcome.message, commitMessage(next, outcome.changed));
});

Deno.test("editOutcome: an unreadable entry before the edit changes all", () => {
  const next = { ...blankEntry("kb-7q2mx", "2026-05-06"), title: "Fixed" };
  const outcome = editOutcome(undefined, next, "2026-01-01");
  assert.deepEqual(outcome.changed, ["all"]);
  assert.equal(outcome.message, "kb: edit kb-7q2mx: Fixed (all)");
  assert.equal(outcome.entry.updated, "2026-05-06", "never before created");
});
