import { assert, assertEquals } from "@std/assert";
import { median, quantile } from "./_timing.ts";

Deno.test("median and quantile: odd and even counts, interpolation, order of input, none", () => {
  assertEquals(median([3, 1, 2]), 2);
  assertEquals(median([4, 1, 3, 2]), 2.5);
  assertEquals(quantile([10, 20, 30, 40, 50], 0.25), 20);
  assertEquals(quantile([1, 2], 0.75), 1.75);
  assertEquals(quantile([7], 0.9), 7);
  assert(Number.isNaN(median([])));
});
