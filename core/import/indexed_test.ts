/** Folders with an index (core/import/indexed.ts, core/import/kinds.ts). */
import { assertEquals } from "@std/assert";
import { conceptHeader, indexLines, readKnowledgeFolder, readMemoryFolder } from "./indexed.ts";
import { detectKind } from "./kinds.ts";
import type { SourceNote } from "./note.ts";

const FILE_DATES = { created: "2023-05-01", updated: "2023-06-01" };
const file = (path: string, text: string): SourceNote => ({ path, text, fileDates: FILE_DATES });

Deno.test("a concept header: status and timestamp lines at the top, a title line before them", () => {
  assertEquals(conceptHeader("status: active\ntimestamp: 2024-02-03T10:00:00Z\n\nBody.\n"), {
    fields: { status: "active", timestamp: "2024-02-03T10:00:00Z" },
    body: "Body.\n",
  });
  assertEquals(conceptHeader("# Retry\nstatus: draft\nBody.\n")?.body, "# Retry\n\nBody.\n");
  assertEquals(conceptHeader("title: x\n\nBody.\n"), undefined, "no status or timestamp");
  assertEquals(conceptHeader("Body.\nstatus: x\n"), undefined, "not at the top");
});

Deno.test("an index names its files by link or wikilink, with the summary after them", () => {
  const lines = indexLines(
    "area/index.md",
    "# Index\n- [Retry policy](retry.md) — when to retry\n* [[backoff|Backoff]]: how long\n" +
      "| [Queues](../queues.md) | one queue per tenant | 2024 |\n- [Docs](https://x.example)\n" +
      "- [Escape](../../etc.md)\nProse [not](listed.md).\n",
  );
  assertEquals([...lines], [
    ["area/retry.md", { title: "Retry policy", summary: "when to retry" }],
    ["area/backoff.md", { title: "Backoff", summary: "how long" }],
    ["queues.md", { title: "Queues", summary: "one queue per tenant" }],
  ]);
});

Deno.test("a knowledge folder: concept files with the index's summary; the index is no note", () => {
  const { notes, indexes } = readKnowledgeFolder([
    file("index.md", "- [Retries](retry.md) — retry idempotent calls only\n"),
    file("retry.md", "status: deprecated\ntimestamp: 2024-02-03\n\n# Retry policy\n\nTwice.\n"),
  ]);
  assertEquals(indexes, ["index.md"]);
  assertEquals(notes.length, 1);
  const [retry] = notes;
  assertEquals(retry.title, "Retry policy");
  assertEquals(retry.status, "superseded");
  assertEquals([retry.created, retry.updated], ["2024-02-03", "2024-02-03"]);
  assertEquals(retry.aliases, ["Retries"]);
  assertEquals(retry.body, "retry idempotent calls only\n\nTwice.\n");
});

Deno.test("a Claude memory folder: topic files, and MEMORY.md sections that are more than links", () => {
  const notes = readMemoryFolder([
    file(
      "MEMORY.md",
      "# Memory\n\n- [Debugging](debugging.md) — flaky test tricks\n\n## Tooling\n\n" +
        "- Use pnpm, not npm\n- [Debugging](debugging.md)\n",
    ),
    file("debugging.md", "---\nname: Debugging tricks\ntype: feedback\n---\nRerun with --seed.\n"),
  ]);
  assertEquals(notes.map((note) => [note.sourcePath, note.title, note.type]), [
    ["MEMORY.md#tooling", "Tooling", "note"],
    ["debugging.md", "Debugging tricks", "rule"],
  ]);
  assertEquals(notes[0].body.trim(), "- Use pnpm, not npm");
  assertEquals(notes[1].body, "flaky test tricks\n\nRerun with --seed.\n");
  assertEquals(notes[1].tags, ["claude-memory"]);
});

Deno.test("a folder's kind is told from what it holds", () => {
  const concept = file("a.md", "status: active\n\nA.\n");
  assertEquals(detectKind({ name: "x", obsidian: true, dendron: false, files: [] }), "obsidian");
  assertEquals(detectKind({ name: "vault", obsidian: false, dendron: true, files: [] }), "dendron");
  assertEquals(
    detectKind({ name: "memory", obsidian: false, dendron: false, files: [file("MEMORY.md", "")] }),
    "claude-memory",
  );
  assertEquals(
    detectKind({ name: "knowledge", obsidian: false, dendron: false, files: [concept] }),
    "knowledge",
  );
  assertEquals(
    detectKind({
      name: "kb",
      obsidian: false,
      dendron: false,
      files: [file("index.md", ""), concept],
    }),
    "knowledge",
  );
  assertEquals(
    detectKind({ name: "kb", obsidian: false, dendron: false, files: [concept] }),
    "markdown",
    "no index",
  );
  assertEquals(
    detectKind({
      name: "kb",
      obsidian: false,
      dendron: false,
      files: [file("INDEX.md", ""), concept, file("b.md", "B"), file("c.md", "C")],
    }),
    "markdown",
    "most files are no concept files",
  );
});

Deno.test("a topic file's description is its summary where the index gives none; the index's words title a file named only by its name", () => {
  const [topic] = readMemoryFolder([
    file("MEMORY.md", "- [Deploys](deploys.md)\n"),
    file("deploys.md", "---\ndescription: 'how we ship'\n---\nTag, then push.\n"),
  ]);
  assertEquals(topic.title, "Deploys");
  assertEquals(topic.body, "how we ship\n\nTag, then push.\n");
  const { notes } = readKnowledgeFolder([
    file("index.md", "- [Retry policy](retry-policy.md)\n- [retry](retry.md)\n"),
    file("retry-policy.md", "status: active\n\nTwice.\n"),
    file("retry.md", "status: active\n\nOnce.\n"),
  ]);
  assertEquals(notes.map((note) => [note.title, note.aliases]), [
    ["Retry policy", []],
    ["retry", []],
  ]);
});
