/** Reading a note's TOML frontmatter (core/import/toml.ts). */
import { assertEquals, assertMatch, assertThrows } from "@std/assert";
import { tomlFields } from "./toml.ts";

Deno.test("TOML frontmatter as ox-hugo and Hugo write it is read", () => {
  const fields = tomlFields(
    'title = "Financial Success: \\"Behave\\" \\u00e9"\nauthor = ["Jethro Kuan"]\n' +
      "draft = false\n# a comment\nlastmod = 2020-07-21T11:34:11+08:00\n" +
      "date = 2019-01-02\nweight = 1_000\nratio = -0.5\n" +
      "tags = ['rl', \"ml\", ]  # trailing comma and comment\n" +
      'params.math = true\n"quoted key" = 1\n\n[menu.main]\n  parent = "notes"\n',
  );
  assertEquals(fields, {
    title: 'Financial Success: "Behave" é',
    author: ["Jethro Kuan"],
    draft: false,
    lastmod: "2020-07-21T11:34:11+08:00",
    date: "2019-01-02",
    weight: 1000,
    ratio: -0.5,
    tags: ["rl", "ml"],
    params: { math: true },
    "quoted key": 1,
    menu: { main: { parent: "notes" } },
  });
});

Deno.test("TOML that is not read is refused with its line", () => {
  const cases: [string, RegExp][] = [
    ['[[links]]\nurl = "x"', /^line 1 of it starts an array of tables$/],
    ['title = "x"\nmeta = { a = 1 }', /^line 2 of it holds an inline table$/],
    ['summary = """\nlong\n"""', /^line 1 of it starts a string over several lines$/],
    ['tags = [\n  "a",\n]', /^line 1 of it starts an array over several lines$/],
    ['title = "x"\ntitle = "y"', /^line 2 of it gives title a second time$/],
    ["title: x", /^line 1 of it is not a key = value$/],
    ['title = "x" extra', /^line 1 of it goes on after its value$/],
    ['title = "a\\qb"', /^line 1 of it has an escape TOML does not have: \\q$/],
    ['a = 1\n[a]\nb = "x"', /^line 2 of it makes a a table, which an earlier line gave a value$/],
    ["when = tomorrow", /^line 1 of it holds a value that is not read: tomorrow$/],
  ];
  for (const [text, message] of cases) {
    assertMatch(assertThrows(() => tomlFields(text), Error, undefined, text).message, message);
  }
});
