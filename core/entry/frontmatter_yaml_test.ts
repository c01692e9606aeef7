import { assertEquals, assertThrows } from "@std/assert";
import { parseFrontmatterYaml } from "./frontmatter_yaml.ts";
import { EntryParseError } from "./frontmatter.ts";

Deno.test("an anchor is refused wherever it stands, used or not, and named", () => {
  const anchored = {
    "an unused anchor on a scalar": ["title: &t Title\n", "&t"],
    "a scalar alias": ["title: &t Title\nsource: *t\n", "&t"],
    "an anchor on a block mapping": ["extra: &m\n  a: 1\nmore: *m\n", "&m"],
    "an anchor in a flow list": ["tags: [a, &x b, *x]\n", "&x"],
    "an anchor on a list item": ["tags:\n  - &x a\n  - b\n", "&x"],
    "an anchor beside a text ampersand": ["title: R&D\nx: &y [1]\n", "&y"],
    "an anchor on a key": ["? &k key\n: value\n", "&k"],
  };
  for (const [what, [yaml, name]] of Object.entries(anchored)) {
    const error = assertThrows(() => parseFrontmatterYaml(yaml, "e.md"), EntryParseError, name);
    assertEquals(
      /anchors and aliases \(&name, \*name\) are not allowed/.test(error.message),
      true,
      what,
    );
  }
});

Deno.test("an ampersand that is text is read as text", () => {
  const text = [
    "title: R&D *notes* & more",
    "quoted: 'a &b' ",
    'double: "&c *d"',
    "tags: [R&D, a & b]",
    "block: |",
    "  &e is text here",
    "R&D key: v # a comment with &f",
    "folded: >-",
    "  *g &h",
  ].join("\n");
  assertEquals(parseFrontmatterYaml(`${text}\n`, "e.md"), {
    title: "R&D *notes* & more",
    quoted: "a &b",
    double: "&c *d",
    tags: ["R&D", "a & b"],
    block: "&e is text here\n",
    "R&D key": "v",
    folded: "*g &h",
  });
});

Deno.test("text holding the private character the check uses is still read", () => {
  assertEquals(parseFrontmatterYaml("title: a\uE000b & c\n", "e.md"), { title: "a\uE000b & c" });
});

Deno.test("YAML that is not valid names the reason; an alias without an anchor is invalid", () => {
  assertThrows(
    () => parseFrontmatterYaml("title: [a\n", "e.md"),
    EntryParseError,
    "not valid YAML",
  );
  assertThrows(
    () => parseFrontmatterYaml("title: *a\n", "e.md"),
    EntryParseError,
    "not valid YAML",
  );
});
