import { assertEquals } from "@std/assert";
import { cursorAfter, pageOf, readCursor } from "./pages.ts";

Deno.test("pageOf: pages in key order, each with the cursor of the next, none after the last", () => {
  const ids = ["kb-c", "kb-a", "kb-e", "kb-b", "kb-d"];
  const first = pageOf(ids, (id) => id, undefined, 2);
  assertEquals(first.items, ["kb-a", "kb-b"]);
  const after = readCursor(first.nextCursor!);
  assertEquals(after, { after: "kb-b" });
  const second = pageOf(ids, (id) => id, "kb-b", 2);
  assertEquals(second.items, ["kb-c", "kb-d"]);
  const last = pageOf(ids, (id) => id, "kb-d", 2);
  assertEquals(last, { items: ["kb-e"] });
  // An item removed since the last page: the next one starts after where it was.
  assertEquals(pageOf(["kb-a", "kb-c"], (id) => id, "kb-b", 2), { items: ["kb-c"] });
});

Deno.test("readCursor: a cursor the server did not make is refused", () => {
  assertEquals(readCursor(cursorAfter("team:kb-7q2mx")), { after: "team:kb-7q2mx" });
  for (const cursor of ["", "abc", "not a cursor", "%%%", btoa("before:kb-a"), btoa("after:")]) {
    const read = readCursor(cursor);
    assertEquals("invalid" in read, true, cursor);
  }
});
