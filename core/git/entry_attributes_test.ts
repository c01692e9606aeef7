import { assert, assertEquals } from "@std/assert";
import { entryAttributesLine, withEntryAttributesLine } from "./entry_attributes.ts";

const LINE = entryAttributesLine(false);

Deno.test("the entry attributes line is added once, after what the file holds", () => {
  assertEquals(withEntryAttributesLine(undefined, LINE), `${LINE}\n`);
  assertEquals(withEntryAttributesLine("", LINE), `${LINE}\n`);
  assertEquals(withEntryAttributesLine("*.png binary", LINE), `*.png binary\n${LINE}\n`);
  assertEquals(withEntryAttributesLine("*.png binary\n", LINE), `*.png binary\n${LINE}\n`);
  assertEquals(withEntryAttributesLine(`*.png binary\r\n${LINE}\r\n`, LINE), undefined);
  assertEquals(withEntryAttributesLine(`  ${LINE}  \n`, LINE), undefined);
});

Deno.test("an earlier entry attributes line is replaced, whatever else the file holds", () => {
  const older = "entries/** merge=text\n";
  assertEquals(withEntryAttributesLine(older, LINE), `${LINE}\n`);
  assertEquals(withEntryAttributesLine(`${older}*.png binary\n`, LINE), `*.png binary\n${LINE}\n`);
  assertEquals(withEntryAttributesLine(`${LINE}\n*.png binary\n`, LINE), `*.png binary\n${LINE}\n`);
  const keeping = entryAttributesLine(true);
  assertEquals(withEntryAttributesLine(`${LINE}\n`, keeping), `${keeping}\n`);
  assertEquals(withEntryAttributesLine(`${keeping}\n`, LINE), `${LINE}\n`);
});

Deno.test("the entry attributes line unsets filter unless the repository sets one up itself", () => {
  assert(LINE.split(" ").includes("!filter"), LINE);
  assert(!entryAttributesLine(true).includes("filter"));
  assertEquals(entryAttributesLine(true).split(" ").length, LINE.split(" ").length - 1);
});
