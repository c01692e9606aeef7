import { assertEquals, assertStrictEquals } from "@std/assert";
import { parse } from "@std/yaml";
import { parseSimpleFrontmatter } from "./simple_yaml.ts";
import { splitFrontmatter } from "./frontmatter.ts";

const core = (text: string) => parse(text, { schema: "core" });

Deno.test("the fast path agrees with the YAML library on every sample entry it accepts", () => {
  const dir = new URL("../../fixtures/sample-kb/entries/", import.meta.url);
  let accepted = 0;
  for (const item of Deno.readDirSync(dir)) {
    const text = Deno.readTextFileSync(new URL(item.name, dir));
    const { frontmatter } = splitFrontmatter(text, item.name);
    const fast = parseSimpleFrontmatter(frontmatter);
    if (fast === undefined) continue;
    accepted++;
    assertEquals(fast, core(frontmatter), item.name);
  }
  assertEquals(accepted > 30, true, `the fast path took only ${accepted} sample entries`);
});

Deno.test("the fast path reads what git-kb writes", () => {
  const text = [
    "id: kb-7q2mx",
    "title: Rotate a leaked npm or Cloudflare token",
    "type: howto",
    "tags: [security, ci/cd, node.js, postgres_15]",
    "aliases: []",
    "kernel: false",
    "status: active",
    "created: 2026-06-29",
    "updated: 2026-07-02",
    "source: https://example.org/guide",
    "links:",
    "  - { rel: supersedes, to: kb-1a2b3 }",
    "  - { rel: depends-on, to: kb-9z8y7 }",
    "",
  ].join("\n");
  const fast = parseSimpleFrontmatter(text);
  assertEquals(fast, core(text));
  assertStrictEquals(fast?.created, "2026-06-29");
});

Deno.test("anything outside the simple shape goes to the YAML library", () => {
  const cases = [
    "title: 123",
    "title: null",
    "title: ~",
    "title: True",
    "title: yes",
    "title: 'quoted'",
    'title: "quoted"',
    "title: a: b",
    "title: a # comment",
    "# comment\nid: kb-00000",
    "title: >\n  folded",
    "title:\n  nested: map",
    "tags: [1, 2]",
    "tags: [a, 'b']",
    "tags: [a, [b]]",
    "tags:\n  - a",
    "id: kb-1\nid: kb-2",
    "title: trailing space ",
    "title: tab\there",
    "title: windows\r",
    "links:\n  - { rel: related, to: 12345 }",
    "links:\n  - {rel: related, to: kb-1a2b3}",
    "links:",
    "title: .inf",
    "title: -dash",
    "reviewed_by: {a: 1}",
    "title: ends with colon:",
    "tags: [a:, b]",
  ];
  for (const text of cases) {
    assertEquals(parseSimpleFrontmatter(text), undefined, JSON.stringify(text));
  }
});
