import { assertEquals } from "@std/assert";
import { closestWord, editDistance } from "./closest.ts";

Deno.test("editDistance counts insertions, deletions, replacements and swaps", () => {
  assertEquals(editDistance("search", "search"), 0);
  assertEquals(editDistance("serch", "search"), 1);
  assertEquals(editDistance("saerch", "search"), 1, "a swap of neighbours is one edit");
  assertEquals(editDistance("", "get"), 3);
  assertEquals(editDistance("kitten", "sitting"), 3);
});

Deno.test("closestWord suggests a near word and nothing for an unrelated one", () => {
  const commands = ["init", "add", "edit", "search", "get", "index", "doctor", "stats"];
  assertEquals(closestWord("serach", commands), "search");
  assertEquals(closestWord("gte", commands), "get");
  assertEquals(closestWord("doctr", commands), "doctor");
  assertEquals(closestWord("foo", commands), undefined);
  assertEquals(closestWord("frobnicate", commands), undefined);
  assertEquals(closestWord("x", commands), undefined);
});
