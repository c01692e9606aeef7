import { assertEquals } from "@std/assert";
import { sentencesOf } from "./sentences.ts";
import { MAX_SPLIT_CHARS, MAX_SPLIT_WORDS } from "../text/tokenize.ts";

Deno.test("sentencesOf splits at line breaks and after sentence ends, blank ones left out", () => {
  assertEquals(
    sentencesOf("The deploy broke. Why?\n\nModuleNotFoundError: No module named 'yaml'\n  \n"),
    ["The deploy broke.", "Why?", "ModuleNotFoundError: No module named 'yaml'"],
  );
});

Deno.test("sentencesOf keeps a dotted name, a version and a path whole", () => {
  assertEquals(sentencesOf("run console.log in v1.2.3 of ./src/app.ts now"), [
    "run console.log in v1.2.3 of ./src/app.ts now",
  ]);
});

Deno.test("sentencesOf splits at every kind of line break", () => {
  assertEquals(sentencesOf("one\r\ntwo\rthree\u2028four\u2029five\n"), [
    "one",
    "two",
    "three",
    "four",
    "five",
  ]);
});

Deno.test("sentencesOf reads what a prompt's words are read from, in as many pieces at most", () => {
  assertEquals(sentencesOf("a\n".repeat(4_000_000)).length, MAX_SPLIT_WORDS);
  const long = sentencesOf(`${"x".repeat(MAX_SPLIT_CHARS - 1)} cut. after`);
  assertEquals(long.map((sentence) => sentence.length), [MAX_SPLIT_CHARS - 1]);
});
