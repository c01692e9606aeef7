import { assertEquals } from "@std/assert";
import { basename, dirname, fromHome, isAbsolute, isWithin, join, resolveFrom } from "./path.ts";

Deno.test("join normalizes separators, dots and double dots", () => {
  assertEquals(join("/a/b", "c"), "/a/b/c");
  assertEquals(join("/a/b/", "./c//d"), "/a/b/c/d");
  assertEquals(join("/a/b", "../c"), "/a/c");
  assertEquals(join("/a", "../../c"), "/c", "cannot climb above the root");
  assertEquals(join("a", "..", "..", "b"), "../b", "relative paths keep leading ..");
  assertEquals(join("a", ""), "a");
  assertEquals(join("."), ".");
  assertEquals(join("C:\\work", "kb"), "C:/work/kb");
  assertEquals(join("/a/.git", "HEAD"), "/a/.git/HEAD", "a dot file is a name like any other");
  assertEquals(join("/a/b/", "."), "/a/b");
  assertEquals(join("/a/b", ".."), "/a");
  assertEquals(join("/"), "/");
  assertEquals(join("a/"), "a");
  assertEquals(join("C:x"), "x", "a drive-relative path loses its drive, already normal or not");
  assertEquals(join("/a/b/c.json"), "/a/b/c.json", "a normal path comes back as it is");
});

Deno.test("isAbsolute and resolveFrom", () => {
  assertEquals(isAbsolute("/x"), true);
  assertEquals(isAbsolute("C:\\x"), true);
  assertEquals(isAbsolute("x/y"), false);
  assertEquals(isAbsolute("C:"), false, "a drive alone is not a path");
  assertEquals(isAbsolute("1:\\x"), false, "a drive is a letter");
  assertEquals(isAbsolute(""), false);
  assertEquals(resolveFrom("/home/me", "kb"), "/home/me/kb");
  assertEquals(resolveFrom("/home/me", "/srv/kb/"), "/srv/kb");
  assertEquals(resolveFrom("/home/me", "../kb"), "/home/kb");
});

Deno.test("dirname", () => {
  assertEquals(dirname("/a/b/c.json"), "/a/b");
  assertEquals(dirname("/a"), "/");
  assertEquals(dirname("a"), ".");
  assertEquals(dirname("entries/kb-1.md"), "entries");
});

Deno.test("basename: the last segment that is not empty, either separator", () => {
  assertEquals(basename("/srv/kb/"), "kb");
  assertEquals(basename("C:\\work\\notes"), "notes");
  assertEquals(basename("kb"), "kb");
  assertEquals(basename("/"), undefined);
});

Deno.test("isWithin: the folder itself and what lies below it, never a sibling of a longer name", () => {
  assertEquals(isWithin("/home/me/project", "/home/me/project"), true);
  assertEquals(isWithin("/home/me/project/plugin/bin/git-kb", "/home/me/project"), true);
  assertEquals(isWithin("/home/me/project-old/git-kb", "/home/me/project"), false);
  assertEquals(isWithin("/home/me", "/home/me/project"), false);
  assertEquals(isWithin("/opt/git-kb", "/"), true);
  assertEquals(isWithin("/", "/home"), false);
});

Deno.test("fromHome reads ~ and ~/… from the home folder, and leaves every other path as it is", () => {
  assertEquals(fromHome("~/My Notes", "/home/me"), "/home/me/My Notes");
  assertEquals(fromHome("~", "/home/me/"), "/home/me");
  assertEquals(fromHome("~/", "/home/me"), "/home/me");
  assertEquals(
    fromHome("~other/notes", "/home/me"),
    "~other/notes",
    "another user's home is not read",
  );
  assertEquals(fromHome("notes/~/x", "/home/me"), "notes/~/x");
  assertEquals(fromHome("./~", "/home/me"), "./~", "a folder named ~, written so, stays one");
  assertEquals(fromHome("~/x", undefined), "~/x", "no home: as it is");
  assertEquals(fromHome("~/x", "relative/home"), "~/x", "a relative home is no home");
});
