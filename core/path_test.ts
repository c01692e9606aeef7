import { strictEqual as equal } from "node:assert/strict";
import { basename, dirname, isAbsolute, join, resolveFrom } from "./path.ts";

Deno.test("join normalizes separators, dots and double dots", () => {
  equal(join("/a/b", "c"), "/a/b/c");
  equal(join("/a/b/", "./c//d"), "/a/b/c/d");
  equal(join("/a/b", "../c"), "/a/c");
  equal(join("/a", "../../c"), "/c", "cannot climb above the root");
  equal(join("a", "..", "..", "b"), "../b", "relative paths keep leading ..");
  equal(join("a", ""), "a");
  equal(join("."), ".");
  equal(join("C:\\work", "kb"), "C:/work/kb");
  equal(join("/a/.git", "HEAD"), "/a/.git/HEAD", "a dot file is a name like any other");
  equal(join("/a/b/", "."), "/a/b");
  equal(join("/a/b", ".."), "/a");
  equal(join("/"), "/");
  equal(join("a/"), "a");
  equal(join("C:x"), "x", "a drive-relative path loses its drive, already normal or not");
  equal(join("/a/b/c.json"), "/a/b/c.json", "a normal path comes back as it is");
});

Deno.test("isAbsolute and resolveFrom", () => {
  equal(isAbsolute("/x"), true);
  equal(isAbsolute("C:\\x"), true);
  equal(isAbsolute("x/y"), false);
  equal(isAbsolute("C:"), false, "a drive alone is not a path");
  equal(isAbsolute("1:\\x"), false, "a drive is a letter");
  equal(isAbsolute(""), false);
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

Deno.test("basename: the last segment that is not empty, either separator", () => {
  equal(basename("/srv/kb/"), "kb");
  equal(basename("C:\\work\\notes"), "notes");
  equal(basename("kb"), "kb");
  equal(basename("/"), undefined);
});
