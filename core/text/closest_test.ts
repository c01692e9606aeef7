import assert from "node:assert/strict";
import { closestWord, editDistance } from "./closest.ts";

Deno.test("editDistance counts insertions, deletions, replacements and swaps", () => {
  assert.equal(editDistance("search", "search"), 0);
  assert.equal(editDistance("serch", "search"), 1);
  assert.equal(editDistance("saerch", "search"), 1, "a swap of neighbours is one edit");
  assert.equal(editDistance("", "get"), 3);
  assert.equal(editDistance("kitten", "sitting"), 3);
});

Deno.test("closestWord suggests a near word and nothing for an unrelated one", () => {
  const commands = ["init", "add", "edit", "search", "get", "index", "doctor", "stats"];
  assert.equal(closestWord("serach", commands), "search");
  assert.equal(closestWord("gte", commands), "get");
  assert.equal(closestWord("doctr", commands), "doctor");
  assert.equal(closestWord("foo", commands), undefined);
  assert.equal(closestWord("frobnicate", commands), undefined);
  assert.equal(closestWord("x", commands), undefined);
});
