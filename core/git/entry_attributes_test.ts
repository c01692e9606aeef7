import { assertEquals } from "@std/assert";
import { ENTRY_ATTRIBUTES_LINE, withEntryAttributesLine } from "./entry_attributes.ts";

Deno.test("the entry attributes line is added once, after what the file holds", () => {
  assertEquals(withEntryAttributesLine(undefined), `${ENTRY_ATTRIBUTES_LINE}\n`);
  assertEquals(withEntryAttributesLine(""), `${ENTRY_ATTRIBUTES_LINE}\n`);
  assertEquals(withEntryAttributesLine("*.png binary"), `*.png binary\n${ENTRY_ATTRIBUTES_LINE}\n`);
  assertEquals(
    withEntryAttributesLine("*.png binary\n"),
    `*.png binary\n${ENTRY_ATTRIBUTES_LINE}\n`,
  );
  assertEquals(withEntryAttributesLine(`*.png binary\r\n${ENTRY_ATTRIBUTES_LINE}\r\n`), undefined);
  assertEquals(withEntryAttributesLine(`  ${ENTRY_ATTRIBUTES_LINE}  \n`), undefined);
  const older = "entries/** merge=text\n";
  assertEquals(withEntryAttributesLine(older), `${older}${ENTRY_ATTRIBUTES_LINE}\n`);
});
