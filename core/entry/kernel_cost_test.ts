import { assertEquals } from "@std/assert";
import type { KernelRule } from "../index/format.ts";
import { kernelRuleCost, LIMITS } from "./schema.ts";
import { assemble } from "../prompt/decision.ts";

function rule(id: string, title: string, body: string): KernelRule {
  return { id, title, type: "rule", hash: "h", body, path: `entries/${id}-rule.md` };
}

const fetch = () => "git-kb get";

Deno.test("kernelRuleCost is what one more inlined rule adds to the hook's text", () => {
  const first = rule("kb-aaaaa", "Write short sentences", "Keep them under 20 words.");
  const second = rule("kb-bbbbb", "Name the cause", "  Every error names its cause.\n\n");
  const one = assemble([first], [], fetch).text;
  const two = assemble([first, second], [], fetch).text;
  assertEquals(two.length - one.length, kernelRuleCost(second));
});

Deno.test("a rule that costs the whole kernel budget is inlined; one character more is not", () => {
  const heading = kernelRuleCost(rule("kb-aaaaa", "Title", ""));
  const fits = rule("kb-aaaaa", "Title", "x".repeat(LIMITS.kernelBudgetChars - heading));
  assertEquals(kernelRuleCost(fits), LIMITS.kernelBudgetChars);
  assertEquals(assemble([fits], [], fetch).kernel, ["kb-aaaaa"]);
  const over = { ...fits, body: `${fits.body}x` };
  assertEquals(assemble([over], [], fetch).kernelDegraded, ["kb-aaaaa"]);
});
