import { assertEquals, assertThrows } from "@std/assert";
import { readBodyFile } from "./body_file.ts";
import { EntryParseError } from "./entry.ts";

Deno.test("readBodyFile: a text with no frontmatter block is all body", () => {
  assertEquals(readBodyFile("# Title\n\nText.\n", "n.md"), undefined);
  assertEquals(readBodyFile("Text\n---\nmore\n", "n.md"), undefined);
});

Deno.test("readBodyFile: the block's fields, read forgivingly, and the text after it", () => {
  const read = readBodyFile(
    "---\ntitle: 2024\ntags: deploy\nkernel: true\nlinks:\n  - { rel: related, to: kb-7q2mx }\n" +
      "cssclass: wide\naliases:\n---\nBody.\n",
    "n.md",
  );
  assertEquals(read, {
    body: "Body.\n",
    title: "2024",
    tags: ["deploy"],
    kernel: true,
    links: [{ rel: "related", to: "kb-7q2mx" }],
    extra: { cssclass: "wide" },
    problems: [],
  });
});

Deno.test("readBodyFile: a field of the wrong shape is a problem, a block that does not parse throws", () => {
  const read = readBodyFile("---\ntags: { a: 1 }\nkernel: maybe\n---\nx\n", "n.md");
  assertEquals(read?.problems.map((problem) => problem.field), ["tags", "kernel"]);
  assertThrows(() => readBodyFile("---\ntitle: [unclosed\n---\nx\n", "n.md"), EntryParseError);
  assertThrows(() => readBodyFile("---\ntitle: no closing line\n", "n.md"), EntryParseError);
});
