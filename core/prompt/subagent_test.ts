/**
 * Which subagent calls get a block (core/prompt/subagent.ts), and the rewritten input: the prompt is
 * the only field that changes, and only by an appended block.
 */
import { assertEquals } from "@std/assert";
import { BLOCK_SEPARATOR, subagentPrompt, withAppendedPrompt } from "./subagent.ts";
import { PROMPT_WORDING } from "./decision.ts";

const INPUT = {
  description: "Rotate the CI token",
  prompt: "Rotate the leaked Cloudflare token used by our CI.",
  subagent_type: "general-purpose",
  run_in_background: false,
  nested: { keep: ["me", 1] },
};

Deno.test("subagentPrompt: Agent and Task calls with a prompt to extend", () => {
  assertEquals(subagentPrompt("Agent", INPUT), INPUT.prompt);
  assertEquals(subagentPrompt("Task", INPUT), INPUT.prompt);
  for (
    const [tool, input] of [
      ["Bash", INPUT],
      ["agent", INPUT],
      [undefined, INPUT],
      ["Agent", { ...INPUT, subagent_type: "fork" }],
      ["Agent", { ...INPUT, prompt: "  \n" }],
      ["Agent", { ...INPUT, prompt: ["x"] }],
      ["Agent", { ...INPUT, prompt: `${INPUT.prompt}\n\n${PROMPT_WORDING.header}` }],
      ["Agent", [INPUT]],
      ["Agent", null],
      ["Agent", "prompt"],
    ] as const
  ) {
    assertEquals(subagentPrompt(tool, input), undefined, JSON.stringify([tool, input]));
  }
});

Deno.test("withAppendedPrompt: only prompt changes, by appending; order and values kept", () => {
  const before = structuredClone(INPUT);
  const updated = withAppendedPrompt(INPUT, "git-kb: block");
  assertEquals(INPUT, before, "the input is not changed");
  assertEquals(Object.keys(updated), Object.keys(INPUT));
  const { prompt, ...rest } = updated;
  const { prompt: _original, ...unchanged } = INPUT;
  assertEquals(rest, unchanged);
  assertEquals(prompt, `${INPUT.prompt}${BLOCK_SEPARATOR}git-kb: block`);
});
