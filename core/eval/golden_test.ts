import { assertEquals } from "@std/assert";
import { goldenLine, parseGolden } from "./golden.ts";

Deno.test("parseGolden: cases with line numbers; blank lines skipped; duplicate ids once", () => {
  const text = [
    goldenLine("rotate the npm token", ["kb-7q2mx"]),
    "",
    '{"prompt": "thanks", "expect": []}',
    '{"prompt": "pin actions", "expect": ["kb-2yb6n", "kb-2yb6n", "kb-5qe0h"]}',
  ].join("\n");
  assertEquals(parseGolden(text), {
    cases: [
      { line: 1, prompt: "rotate the npm token", expect: ["kb-7q2mx"] },
      { line: 3, prompt: "thanks", expect: [] },
      { line: 4, prompt: "pin actions", expect: ["kb-2yb6n", "kb-5qe0h"] },
    ],
    problems: [],
  });
});

Deno.test("parseGolden: every unusable line is named with what to fix", () => {
  const text = [
    "not json",
    "[1, 2]",
    '{"prompt": "", "expect": []}',
    '{"prompt": "no expect"}',
    '{"prompt": "bad id", "expect": ["7q2mx"]}',
    '{"prompt": "fine", "expect": ["kb-7q2mx"]}',
  ].join("\n");
  const { cases, problems } = parseGolden(text);
  assertEquals(cases.map((item) => item.line), [6]);
  assertEquals(problems.map((problem) => problem.line), [1, 2, 3, 4, 5]);
  assertEquals(problems[0].message, "not valid JSON");
  assertEquals(
    problems[3].message,
    '"expect" must be a list of entry ids, [] when nothing should surface',
  );
  assertEquals(
    problems[4].message,
    '"expect" holds "7q2mx", which is not an entry id like kb-7q2mx',
  );
});
