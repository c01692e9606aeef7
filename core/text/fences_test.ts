/** Fenced code blocks (core/text/fences.ts). */
import { assertEquals } from "@std/assert";
import { fencedLines } from "./fences.ts";

/** Which of `lines` are code. */
function code(lines: string[]): boolean[] {
  const inCode = fencedLines();
  return lines.map(inCode);
}

Deno.test("a fence ends at one of its own character, as long or longer, with nothing after it", () => {
  assertEquals(
    code(["a", "````md", "```js", "x", "```", "````", "b"]),
    [false, true, true, true, true, true, false],
  );
  assertEquals(code(["~~~", "```", "~~~~", "c"]), [true, true, true, false]);
  assertEquals(code(["```", "```js", "```  \r", "d"]), [true, true, true, false]);
  assertEquals(code(["> ```", "> x", "> ```", "e"]), [true, true, true, false]);
});

Deno.test("three backticks with a backtick after them are prose, not a fence", () => {
  assertEquals(code(["```a` b", "c"]), [false, false]);
});
