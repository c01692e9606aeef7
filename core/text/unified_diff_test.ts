import { assertEquals, assertMatch } from "@std/assert";
import { unifiedDiff } from "./unified_diff.ts";

Deno.test("unifiedDiff", async (t) => {
  const labels = { from: "old", to: "new" };
  await t.step("equal texts give nothing", () => {
    assertEquals(unifiedDiff("a\nb\n", "a\nb\n", labels), "");
  });
  await t.step("a changed line with its context", () => {
    assertEquals(
      unifiedDiff("a\nb\nc\n", "a\nB\nc\n", labels),
      "--- old\n+++ new\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n",
    );
  });
  await t.step("a new file", () => {
    assertEquals(unifiedDiff("", "x\ny\n", labels), "--- old\n+++ new\n@@ -0,0 +1,2 @@\n+x\n+y\n");
  });
  await t.step("everything removed", () => {
    assertEquals(unifiedDiff("x\n", "", labels), "--- old\n+++ new\n@@ -1,1 +0,0 @@\n-x\n");
  });
  await t.step("distant changes make separate hunks with their own line numbers", () => {
    const before = Array.from({ length: 20 }, (_, index) => `line ${index + 1}`);
    const after = before.map((line, index) =>
      index === 1 ? "changed 2" : index === 17 ? "changed 18" : line
    );
    after.splice(10, 0, "inserted");
    const diff = unifiedDiff(before.join("\n"), after.join("\n"), { ...labels, context: 1 });
    assertEquals(
      diff,
      [
        "--- old",
        "+++ new",
        "@@ -1,3 +1,3 @@",
        " line 1",
        "-line 2",
        "+changed 2",
        " line 3",
        "@@ -10,2 +10,3 @@",
        " line 10",
        "+inserted",
        " line 11",
        "@@ -17,3 +18,3 @@",
        " line 17",
        "-line 18",
        "+changed 18",
        " line 19",
        "",
      ].join("\n"),
    );
  });
  await t.step("a missing final newline is not a change", () => {
    assertEquals(unifiedDiff("a\nb", "a\nb\n", labels), "");
    assertEquals(
      unifiedDiff("a\nb", "a\nc\n", labels),
      "--- old\n+++ new\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n",
    );
  });
  await t.step("the labels are printed as given, a non-ASCII path unquoted", () => {
    const path = "/home/renée/.claude/settings.json";
    assertMatch(
      unifiedDiff("", "{}\n", { from: "/dev/null", to: path }),
      /^\+\+\+ \/home\/renée\//m,
    );
  });
});
