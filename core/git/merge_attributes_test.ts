import { assertEquals } from "@std/assert";
import { ENTRY_MERGE_LINE, withEntryMergeLine } from "./merge_attributes.ts";

Deno.test("the entry merge line is added once, after what the file holds", () => {
  assertEquals(withEntryMergeLine(undefined), `${ENTRY_MERGE_LINE}\n`);
  assertEquals(withEntryMergeLine(""), `${ENTRY_MERGE_LINE}\n`);
  assertEquals(withEntryMergeLine("*.png binary"), `*.png binary\n${ENTRY_MERGE_LINE}\n`);
  assertEquals(withEntryMergeLine("*.png binary\n"), `*.png binary\n${ENTRY_MERGE_LINE}\n`);
  assertEquals(withEntryMergeLine(`*.png binary\r\n${ENTRY_MERGE_LINE}\r\n`), undefined);
  assertEquals(withEntryMergeLine(`  ${ENTRY_MERGE_LINE}  \n`), undefined);
});
