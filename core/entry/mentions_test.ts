import { assertEquals } from "@std/assert";
import { mentionedIds } from "./mentions.ts";

Deno.test("the ids a body mentions, once each, in order; lookalikes are not mentions", () => {
  assertEquals(
    mentionedIds(
      "See [[kb-7q2mx]], [[kb-aaaaa]] and [[kb-7q2mx]]; not [[kb-7q2]] or [kb-bbbbb].\n",
    ),
    ["kb-7q2mx", "kb-aaaaa"],
  );
  assertEquals(mentionedIds("Nothing.\n"), []);
});
