import { ok, strictEqual as equal } from "node:assert/strict";
import { median, quantile } from "./_timing.ts";

Deno.test("median and quantile: odd and even counts, interpolation, order of input, none", () => {
  equal(median([3, 1, 2]), 2);
  equal(median([4, 1, 3, 2]), 2.5);
  equal(quantile([10, 20, 30, 40, 50], 0.25), 20);
  equal(quantile([1, 2], 0.75), 1.75);
  equal(quantile([7], 0.9), 7);
  ok(Number.isNaN(median([])));
});
