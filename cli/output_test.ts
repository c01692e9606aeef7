import assert from "node:assert/strict";
import { colourWanted, plural } from "./output.ts";

Deno.test("plural puts the count before the right noun", () => {
  assert.equal(plural(0, "entry", "entries"), "0 entries");
  assert.equal(plural(1, "entry", "entries"), "1 entry");
  assert.equal(plural(2, "entry", "entries"), "2 entries");
});

Deno.test("colour on a terminal only, and NO_COLOR turns it off only when it is non-empty", () => {
  assert.equal(colourWanted(undefined, true), true);
  assert.equal(colourWanted("", true), true, "NO_COLOR= (empty) keeps colour (no-color.org)");
  assert.equal(colourWanted("1", true), false);
  assert.equal(colourWanted(undefined, false), false, "never when the stream is not a terminal");
});
