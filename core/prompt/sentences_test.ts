import { assertEquals } from "@std/assert";
import { sentencesOf } from "./sentences.ts";

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
