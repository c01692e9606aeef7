import { equal } from "node:assert";
import { dirname, isAbsolute, join, resolveFrom } from "./path.ts";

Deno.test("join normalizes separators, dots and double dots", () => {
  equal(join("/a/b", "c"), "/a/b/c");
  equal(join("/a/b/", "./c//d"), "/a/b/c/d");
  equal(join("/a/b", "../c"), "/a/c");
  equal(join("/a", "../../c"), "/c", "cannot climb above the root");
  equal(join("a", "..", "..", "b"), "../b", "relative paths keep leading ..");
  equal(join("a", ""), "a");
  equal(join("."), ".");
  equal(join("C:\\work", "kb"), "C:/work/kb");
});

Deno.test("isAbsolute and resolveFrom", () => {
  equal(isAbsolute("/x"), true);
  equal(isAbsolute("C:\\x"), true);
  equal(isAbsolute("x/y"), false);
  equal(resolveFrom("/home/me", "kb"), "/home/me/kb");
  equal(resolveFrom("/home/me", "/srv/kb/"), "/srv/kb");
  equal(resolveFrom("/home/me", "../kb"), "/home/kb");
});

Deno.test("dirname", () => {
  equal(dirname("/a/b/c.json"), "/a/b");
  equal(dirname("/a"), "/");
  equal(dirname("a"), ".");
  equal(dirname("entries/kb-1.md"), "entries");
});
