import { assertEquals } from "@std/assert";
import { type ContextReference, contextReference, isQuestion } from "./context.ts";

/** A knowledge base that holds only these joined identifier terms. */
const knows = (term: string) => ["knownhost"].includes(term);

const kindOf = (prompt: string) => contextReference(prompt, knows)?.kind;

Deno.test("contextReference: deixis, a closed class, with 'that' and 'there' by position", () => {
  const table: [string, ContextReference["kind"] | undefined][] = [
    ["format this file", "deixis"],
    ["split these two functions", "deixis"],
    ["add a comment here", "deixis"],
    ["the same fix in the other handler", "deixis"],
    ["that's not what I meant", "deixis"],
    ["undo that last change", "deixis"],
    // A question that points still asks the knowledge base; the relative pronoun, the existential "there", an anaphoric "it": no reference.
    ["how do we handle retries in this repo?", undefined],
    ["list the files that match a glob", undefined],
    ["is there a way to list open ports", undefined],
    ["are there flags to keep the timestamps", undefined],
    ["download the archive and unpack it", undefined],
    ["crashloopbackoff again after the deploy", undefined],
    ["kubernetes pod in crashloopbackoff", undefined],
  ];
  for (const [prompt, kind] of table) assertEquals(kindOf(prompt), kind, prompt);
});

Deno.test("contextReference: the assistant as a person, not the generic or asked 'you'", () => {
  const table: [string, ContextReference["kind"] | undefined][] = [
    ["undo your last edit to the readme", "assistant"],
    ["the regex you wrote misses ports", "assistant"],
    ["you missed the empty case", "assistant"],
    ["why did you pick a map there?", "assistant"],
    ["can you show me how to rotate a token", undefined],
    ["how do you list open ports", undefined],
    ["what happens when you delete a remote branch", undefined],
    ["thank you", undefined],
    ["how do I rotate our token", undefined],
  ];
  for (const [prompt, kind] of table) assertEquals(kindOf(prompt), kind, prompt);
});

Deno.test("contextReference: the project's files, lines and identifiers the knowledge base lacks", () => {
  const table: [string, ContextReference | undefined][] = [
    ["add a docstring to every function in parser.py", { kind: "file", text: "parser.py" }],
    ["look at .github/workflows/ci.yml", { kind: "file", text: ".github/workflows/ci.yml" }],
    ["type error in (src/api/client.ts)", { kind: "file", text: "src/api/client.ts" }],
    ["the grep on line 40 should ignore case", { kind: "line", text: "line 40" }],
    ["put the curl call in fetchWeather behind a timeout", {
      kind: "identifier",
      text: "fetchWeather",
    }],
    ["rename usr_nm to user_name", { kind: "identifier", text: "usr_nm" }],
    ["wrap parseArgs() in a try block", { kind: "identifier", text: "parseArgs()" }],
    // Paths of the system, an identifier the knowledge base holds, abbreviations, versions,
    // a product name in PascalCase, "and/or": no reference.
    ["edit /etc/hosts to add a name", undefined],
    ["where does ~/.ssh/config go", undefined],
    ["set escape-time in /home/me/.config/tmux/tmux.conf: why?", undefined],
    ["remove a host from known_hosts", undefined],
    ["convert images, e.g. png to jpeg", undefined],
    ["upgrade from 1.5 to 2.0", undefined],
    ["kubernetes pod in CrashLoopBackOff", undefined],
    ["convert single images and/or whole folders", undefined],
  ];
  for (const [prompt, reference] of table) {
    assertEquals(contextReference(prompt, knows), reference, prompt);
  }
});

Deno.test("isQuestion: a question mark at the end, or an interrogative first", () => {
  assertEquals(isQuestion("does this handle nil?  "), true);
  assertEquals(isQuestion("how do we deploy"), true);
  assertEquals(isQuestion("Why is this slow"), true);
  assertEquals(isQuestion("rename this variable"), false);
  assertEquals(isQuestion(""), false);
  assertEquals(isQuestion("is it `restartPolicy`?"), true);
  assertEquals(isQuestion('he asked "why?"'), true);
  // The `?` of code, after a space or an operator, and SQL's WHERE in capitals do not ask.
  assertEquals(isQuestion("set `delay = tries > 3 ?"), false);
  assertEquals(isQuestion("const x = pod ??"), false);
  assertEquals(isQuestion("match it with .*?"), false);
  assertEquals(isQuestion("WHERE status = 'failed'"), false);
});

Deno.test("contextReference: a megabyte of hostile tokens takes well under a second", () => {
  const megabyte = (unit: string) => unit.repeat(Math.ceil(1_000_000 / unit.length));
  const shapes = [
    "a".repeat(20_000),
    megabyte(`${"a".repeat(255)} `),
    megabyte(`${"a_".repeat(127)}a `),
    megabyte(`${"a/".repeat(127)}a.`),
    megabyte(`${"abC".repeat(85)} `),
    megabyte(`${"a.".repeat(127)}b `),
    megabyte("line line "),
  ];
  for (const text of shapes) {
    const started = performance.now();
    contextReference(text, () => false);
    const ms = performance.now() - started;
    assertEquals(ms < 1_000, true, `${text.slice(0, 12)}…: ${ms.toFixed(0)} ms`);
  }
});
