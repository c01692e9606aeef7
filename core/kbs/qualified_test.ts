import { assertEquals } from "@std/assert";
import { interleave, qualifyId, splitQualifiedId } from "./qualified.ts";

Deno.test("qualified ids: split at the first colon; a plain id has no knowledge base", () => {
  assertEquals(qualifyId("team", "kb-7q2mx"), "team:kb-7q2mx");
  assertEquals(splitQualifiedId("team:kb-7q2mx"), { kb: "team", id: "kb-7q2mx" });
  assertEquals(splitQualifiedId("kb-7q2mx"), { id: "kb-7q2mx" });
  assertEquals(splitQualifiedId(":kb-7q2mx"), { kb: "", id: "kb-7q2mx" });
});

Deno.test("interleave: each list's first, then each one's second, lists of any length", () => {
  assertEquals(interleave([[1, 2, 3], [10], [], [20, 21]]), [1, 10, 20, 2, 21, 3]);
  assertEquals(interleave([]), []);
});
