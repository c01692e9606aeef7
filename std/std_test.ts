import {
  assert,
  assertEquals,
  AssertionError,
  assertMatch,
  assertNotEquals,
  assertRejects,
  assertStrictEquals,
  assertThrows,
} from "@std/assert";
import { parseArgs } from "@std/cli/parse-args";
import { dirname } from "@std/path/posix/dirname";
import { join } from "@std/path/posix/join";
import { normalize } from "@std/path/posix/normalize";
import { relative } from "@std/path/posix/relative";
import { parse, stringify } from "@std/yaml";

Deno.test("posix paths: normalize, join, dirname and relative as @std/path has them", () => {
  const normalized = ["", "/", "//", "a/../", "/a/", "/a/b/../..", "a//b/./c", "../../x/", "/.."];
  assertEquals(normalized.map(normalize), [
    ".",
    "/",
    "/",
    "./",
    "/a/",
    "/",
    "a/b/c",
    "../../x/",
    "/",
  ]);
  assertEquals(join("/kb", "entries", "../index.json"), "/kb/index.json");
  assertEquals(join("a", "", "b"), "a/b");
  assertEquals(join(), ".");
  assertEquals([dirname("/a/b/"), dirname("/a"), dirname("a"), dirname("/")], [
    "/a",
    "/",
    ".",
    "/",
  ]);
  assertEquals(relative("/kb/entries", "/kb/index/shards"), "../index/shards");
  assertEquals(relative("/kb", "/kb/"), "");
});

Deno.test("parseArgs: booleans, strings, numbers, collected and negated flags, --", () => {
  assertEquals(
    parseArgs(["--check", "x", "--n", "3", "--s=4", "--", "--y"], {
      boolean: ["check", "compile"],
      string: ["s"],
    }),
    { _: ["x", "--y"], check: true, compile: false, n: 3, s: "4" },
  );
  assertEquals(
    parseArgs(["--t", "a", "--t", "b", "--no-color", "-h"], {
      collect: ["t"],
      string: ["t"],
      boolean: ["color", "help"],
      negatable: ["color"],
      alias: { help: "h" },
    }),
    { _: [], t: ["a", "b"], color: false, help: true, h: true },
  );
  assertEquals(parseArgs(["a", "--x"], { stopEarly: true }), { _: ["a", "--x"] });
  assertEquals(parseArgs([], { default: { limit: 5 } }), { _: [], limit: 5 });
});

Deno.test("yaml: schemas, null for an empty document, SyntaxError on bad YAML", () => {
  assertEquals(parse("a: yes\nb: 2026-01-01\n", { schema: "core" }), { a: "yes", b: "2026-01-01" });
  assertStrictEquals(parse(""), null);
  assertThrows(() => parse("a: [b\n"), SyntaxError);
  assertThrows(() => parse("a: 1\na: 2\n"), SyntaxError, "duplicate");
  assertEquals(parse("a: 1\na: 2\n", { allowDuplicateKeys: true }), { a: 2 });
  assertEquals(stringify(["a", "b"], { flowLevel: 0 }), "[a, b]\n");
});

Deno.test("assertions: equality by value or identity, and what a throw or rejection gives", async () => {
  assertEquals({ a: [1, new Date(5)], b: new Map([[1, { c: 2 }]]) }, {
    a: [1, new Date(5)],
    b: new Map([[1, { c: 2 }]]),
  });
  assertNotEquals({ a: 1 }, { a: 2 });
  assertThrows(() => assertEquals({ a: 1 }, { a: 1, b: 2 }), AssertionError, "not equal");
  assertThrows(() => assertStrictEquals({}, {}), AssertionError);
  assertThrows(() => assert(false, "why"), AssertionError, "why");
  const error = assertThrows(() => JSON.parse("{"), SyntaxError);
  assertMatch(error.message, /JSON/);
  assertEquals(
    assertThrows(() => {
      throw "text";
    }),
    "text",
  );
  assertThrows(() => assertThrows(() => {}), AssertionError, "Expected function to throw");
  assertEquals(
    (await assertRejects(() => Deno.stat("/nowhere/at/all"), Deno.errors.NotFound)).name,
    "NotFound",
  );
  await assertRejects(() => assertRejects(() => Promise.resolve()), AssertionError);
});
