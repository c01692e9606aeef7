import { assert, assertEquals } from "@std/assert";
import { findLessons, lessonExcerpt, transcriptTurns } from "./transcript.ts";

/** Transcript records as Claude Code writes them, one JSON object a line. */
function jsonl(records: unknown[]): string {
  return records.map((record) => JSON.stringify(record)).join("\n") + "\n";
}

const user = (text: string) => ({ type: "user", message: { role: "user", content: text } });
const bash = (id: string, command: string) => ({
  type: "assistant",
  message: {
    role: "assistant",
    content: [{ type: "tool_use", id, name: "Bash", input: { command } }],
  },
});
const result = (id: string, text: string, failed: boolean) => ({
  type: "user",
  message: {
    role: "user",
    content: [{ type: "tool_result", tool_use_id: id, content: text, is_error: failed }],
  },
});

Deno.test("a command that failed and then worked is a lesson spanning both", () => {
  const turns = transcriptTurns(jsonl([
    user("run the tests"),
    bash("t1", "deno test --allow-all"),
    result("t1", "error: Module not found", true),
    bash("t2", "deno cache main.ts"),
    result("t2", "ok", false),
    bash("t3", "deno test --allow-all"),
    result("t3", "ok | 3 passed", false),
  ]));
  assertEquals(findLessons(turns), [{ kind: "recovered", from: 2, to: 7 }]);
});

Deno.test("a user confirming a fix after a failure is a lesson; chat alone is none", () => {
  const fixed = transcriptTurns(jsonl([
    bash("t1", "npm publish"),
    result("t1", "E403 forbidden", true),
    user("I rotated the token, thanks, it works now"),
  ]));
  assertEquals(findLessons(fixed), [{ kind: "confirmed", from: 2, to: 3 }]);
  const chat = transcriptTurns(jsonl([user("hello"), user("it works now, what a day")]));
  assertEquals(findLessons(chat), []);
  assertEquals(findLessons(transcriptTurns("")), []);
});

Deno.test("a cut first line, meta records, summaries and garbage are passed over", () => {
  const text = '"content":"half a record"}\n' + jsonl([
    { type: "user", isMeta: true, message: { role: "user", content: "caveat" } },
    { type: "summary", summary: "x" },
    user("real"),
  ]) + "not json\n[1,2]\n";
  const turns = transcriptTurns(text, 40);
  assertEquals(turns.map((turn) => [turn.line, turn.text]), [[43, "real"]]);
});

Deno.test("the excerpt numbers lines as in the file, masks credentials before clipping, stays bounded", () => {
  const token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
  const turns = transcriptTurns(
    jsonl([
      bash("t1", `GITHUB_TOKEN=${token} gh release create`),
      result("t1", "HTTP 401", true),
      bash("t2", "gh auth login"),
      result("t2", "done", false),
      bash("t3", "gh release create"),
      result("t3", "created", false),
    ]),
    100,
  );
  const lessons = findLessons(turns);
  const excerpt = lessonExcerpt(turns, lessons);
  assert(!excerpt.text.includes(token), excerpt.text);
  assert(excerpt.text.startsWith("L100 assistant Bash call: "), excerpt.text);
  assertEquals(excerpt.first, 100);
  assertEquals(excerpt.last, 105);
  const long = transcriptTurns(jsonl([
    bash("t1", "make"),
    result("t1", "x".repeat(50_000), true),
    bash("t2", "make"),
    result("t2", "ok", false),
  ]));
  const small = lessonExcerpt(long, findLessons(long), {
    chars: 2_000,
    turnChars: 1_500,
    before: 8,
    after: 2,
  });
  assert(small.text.length <= 2_000, `${small.text.length}`);
  assert(small.text.includes("L4 user Bash result: ok"), small.text);
});
