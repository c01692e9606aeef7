import { assertEquals } from "@std/assert";
import { colourWanted, plural } from "./output.ts";

Deno.test("plural puts the count before the right noun", () => {
  assertEquals(plural(0, "entry", "entries"), "0 entries");
  assertEquals(plural(1, "entry", "entries"), "1 entry");
  assertEquals(plural(2, "entry", "entries"), "2 entries");
});

Deno.test("colour on a terminal only, and NO_COLOR turns it off only when it is non-empty", () => {
  assertEquals(colourWanted(undefined, true), true);
  assertEquals(colourWanted("", true), true, "NO_COLOR= (empty) keeps colour (no-color.org)");
  assertEquals(colourWanted("1", true), false);
  assertEquals(colourWanted(undefined, false), false, "never when the stream is not a terminal");
});
