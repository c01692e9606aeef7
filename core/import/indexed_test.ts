/** Folders with an index (core/import/indexed.ts, core/import/kinds.ts). */
import { deepStrictEqual as deepEqual, strictEqual as equal } from "node:assert/strict";
import { conceptHeader, indexLines, readKnowledgeFolder, readMemoryFolder } from "./indexed.ts";
import { detectKind } from "./kinds.ts";
import type { SourceNote } from "./note.ts";

const FILE_DATES = { created: "2023-05-01", updated: "2023-06-01" };
const file = (path: string, text: string): SourceNote => ({ path, text, fileDates: FILE_DATES });

Deno.test("a concept header: status and timestamp lines at the top, a title line before them", () => {
  deepEqual(conceptHeader("status: active\ntimestamp: 2024-02-03T10:00:00Z\n\nBody.\n"), {
    fields: { status: "active", timestamp: "2024-02-03T10:00:00Z" },
    body: "Body.\n",
  });
  deepEqual(conceptHeader("# Retry\nstatus: draft\nBody.\n")?.body, "# Retry\n\nBody.\n");
  equal(conceptHeader("title: x\n\nBody.\n"), undefined, "no status or timestamp");
  equal(conceptHeader("Body.\nstatus: x\n"), undefined, "not at the top");
});

Deno.test("an index names its files by link or wikilink, with the summary after them", () => {
  const lines = indexLines(
    "area/index.md",
    "# Index\n- [Retry policy](retry.md) — when to retry\n* [[backoff|Backoff]]: how long\n" +
      "| [Queues](../queues.md) | one queue per tenant | 2024 |\n- [Docs](https://x.example)\n" +
      "- [Escape](../../etc.md)\nProse [not](listed.md).\n",
  );
  deepEqual([...lines], [
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
  deepEqual(indexes, ["index.md"]);
  equal(notes.length, 1);
  const [retry] = notes;
  equal(retry.title, "Retry policy");
  equal(retry.status, "superseded");
  deepEqual([retry.created, retry.updated], ["2024-02-03", "2024-02-03"]);
  deepEqual(retry.aliases, ["Retries"]);
  equal(retry.body, "retry idempotent calls only\n\nTwice.\n");
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
  deepEqual(notes.map((note) => [note.sourcePath, note.title, note.type]), [
    ["MEMORY.md#tooling", "Tooling", "note"],
    ["debugging.md", "Debugging tricks", "rule"],
  ]);
  equal(notes[0].body.trim(), "- Use pnpm, not npm");
  equal(notes[1].body, "flaky test tricks\n\nRerun with --seed.\n");
  deepEqual(notes[1].tags, ["claude-memory"]);
});

Deno.test("a folder's kind is told from what it holds", () => {
  const concept = file("a.md", "status: active\n\nA.\n");
  equal(detectKind({ name: "x", obsidian: true, files: [] }), "obsidian");
  equal(
    detectKind({ name: "memory", obsidian: false, files: [file("MEMORY.md", "")] }),
    "claude-memory",
  );
  equal(detectKind({ name: "knowledge", obsidian: false, files: [concept] }), "knowledge");
  equal(
    detectKind({ name: "kb", obsidian: false, files: [file("index.md", ""), concept] }),
    "knowledge",
  );
  equal(detectKind({ name: "kb", obsidian: false, files: [concept] }), "markdown", "no index");
  equal(
    detectKind({
      name: "kb",
      obsidian: false,
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
  equal(topic.title, "Deploys");
  equal(topic.body, "how we ship\n\nTag, then push.\n");
  const { notes } = readKnowledgeFolder([
    file("index.md", "- [Retry policy](retry-policy.md)\n- [retry](retry.md)\n"),
    file("retry-policy.md", "status: active\n\nTwice.\n"),
    file("retry.md", "status: active\n\nOnce.\n"),
  ]);
  deepEqual(notes.map((note) => [note.title, note.aliases]), [
    ["Retry policy", []],
    ["retry", []],
  ]);
});
