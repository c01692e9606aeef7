/**
 * Ignored files in the way of a move (core/sync/ignored.ts): git status read into uncommitted and
 * ignored files, odd names included; what a move writes over, files and folders both ways; the
 * refusal names each with its rule and prints a quoted `mv` per file, then the retry.
 */
import { assertEquals, assertMatch } from "@std/assert";
import { ignoredInTheWay, ignoredRefusal, parseStatus } from "./ignored.ts";

Deno.test("status is read into uncommitted and ignored files, a rename's two names included", () => {
  const output = " M entries/kb-aaaaa-a.md\0R  entries/new b.md\0entries/old b.md\0" +
    "?? notes/draft.md\0!! entries/kb-bbbbb-x y\nz.md\0!! drafts/a.md\0";
  const status = parseStatus(output);
  assertEquals(
    [...status.uncommitted],
    ["entries/kb-aaaaa-a.md", "entries/new b.md", "entries/old b.md", "notes/draft.md"],
  );
  assertEquals(status.ignored, ["entries/kb-bbbbb-x y\nz.md", "drafts/a.md"]);
  assertEquals(parseStatus(""), { uncommitted: new Set<string>(), ignored: [] });
});

Deno.test("in the way: an ignored file where a file comes, where a folder comes, and a folder of ignored files where a file comes", () => {
  const touched = ["entries/kb-aaaaa-a b.md", "notes/x.md", "drafts", "README.md"];
  const ignored = ["entries/kb-aaaaa-a b.md", "notes", "drafts/one.md", "drafts/two.md", "x.log"];
  assertEquals(ignoredInTheWay(touched, ignored), ["drafts", "entries/kb-aaaaa-a b.md", "notes"]);
  assertEquals(ignoredInTheWay(touched, ["entries/kb-aaaaa-a b.md.bak", "note"]), []);
  assertEquals(ignoredInTheWay([], ignored), []);
});

Deno.test("the refusal names each file and its rule; the commands move each aside, quoted, then retry", () => {
  const refusal = ignoredRefusal(
    "/home/o'brien/kb",
    [
      { path: "entries/a b.md", aside: "entries/a b.md.mine", rule: ".git/info/exclude:1:*.md" },
      { path: "entries/c.md", aside: "entries/c.md.mine-2" },
    ],
    "origin",
    "git-kb sync",
  );
  assertMatch(refusal.reason, /^origin has files at entries\/a b\.md \(ignored by \.git\/info/);
  assertMatch(refusal.reason, /, entries\/c\.md, where this clone keeps some of its own out of/);
  assertMatch(refusal.reason, /\(to entries\/a b\.md\.mine, entries\/c\.md\.mine-2\)/);
  assertEquals(refusal.commands, [
    `mv -- '/home/o'\\''brien/kb/entries/a b.md' '/home/o'\\''brien/kb/entries/a b.md.mine'`,
    `mv -- '/home/o'\\''brien/kb/entries/c.md' '/home/o'\\''brien/kb/entries/c.md.mine-2'`,
    "git-kb sync",
  ]);
  const one = ignoredRefusal("/kb", [{ path: "x.md", aside: "x.md.mine" }], "origin", "retry");
  assertMatch(one.reason, /^origin has a file at x\.md, where this clone keeps one of its own/);
  assertMatch(one.reason, /overwrite it without a word; move it aside \(to x\.md\.mine\)/);
});
