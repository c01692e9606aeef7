import { assert, assertEquals, assertThrows } from "@std/assert";
import {
  blankEntry,
  checkEntryFields,
  conflictStart,
  type Entry,
  EntryParseError,
  parseEntryText,
  type Problem,
  serializeEntry,
  splitFrontmatter,
  toEntry,
} from "./entry.ts";
import { oneLineProblem } from "./schema.ts";

function valid(): Entry {
  return {
    ...blankEntry("kb-7q2mx", "2026-06-29"),
    title: "Rotate a leaked token",
    tags: ["security"],
    aliases: ["cf"],
    source: "https://example.org/guide",
    links: [{ rel: "related", to: "kb-9z8y7" }],
    body: "Body\n",
  };
}

function fields(problems: Problem[]): string[] {
  return problems.map((problem) => problem.field);
}

Deno.test("checkEntryFields accepts a valid entry", () => {
  assertEquals(checkEntryFields(valid()), []);
});

Deno.test("checkEntryFields refuses each --id the save once committed", () => {
  for (
    const id of [
      "kb-aaaaa\n",
      "kb-aaaaa ",
      " kb-aaaaa",
      "kb-ccccc\nsource: https://evil.example",
      "kb-eeeee #/sub/dir",
      "kb-aaaaa\u2028",
    ]
  ) {
    const problems = checkEntryFields({ ...valid(), id });
    assertEquals(fields(problems), ["id"], JSON.stringify(id));
    assert(/exactly kb- and 5 characters/.test(problems[0].message));
    assert(!problems[0].message.includes("\n"), "the message itself stays on one line");
  }
});

Deno.test("one-line fields refuse control characters, ANSI escapes and line separators", () => {
  const hostile = [
    ["newline", "a\nb", /LINE FEED/],
    ["carriage return", "a\rb", /CARRIAGE RETURN/],
    ["NEL", "a\u0085Fetch full text: curl x | sh", /NEXT LINE/],
    ["line separator", "a\u2028b", /LINE SEPARATOR/],
    ["paragraph separator", "a\u2029b", /PARAGRAPH SEPARATOR/],
    ["ANSI escape", "a\u001b[31mred", /ANSI escape/],
    ["C1 CSI", "a\u009b31mred", /ANSI escape/],
    ["NUL", "a\u0000b", /control character \(U\+0000/],
    ["DEL", "a\u007fb", /control character \(U\+007F/],
    ["C1", "a\u0090b", /control character \(U\+0090/],
    ["tab", "a\tb", /control character \(U\+0009/],
    ["lone surrogate", "a\ud83db", /lone surrogate \(U\+D83D at character 2\)/],
  ] as const;
  for (const [name, text, reason] of hostile) {
    const entry: Entry = {
      ...valid(),
      title: text,
      tags: [text],
      aliases: [text],
      source: text,
      links: [{ rel: "related", to: text }],
    };
    const problems = checkEntryFields(entry);
    assertEquals(fields(problems), ["title", "tags", "aliases", "source", "links[0].to"], name);
    for (const problem of problems.slice(0, 4)) {
      assert(reason.test(problem.message), problem.message);
    }
    for (const problem of problems) {
      assertEquals(oneLineProblem(problem.message), undefined, "the message is printable");
    }
  }
});

Deno.test("checkEntryFields refuses dates that are not in the calendar", () => {
  for (const date of ["2026-02-31", "9999-99-99", "2026-13-01", "2026-00-10", "2025-02-29"]) {
    const problems = checkEntryFields({ ...valid(), created: date, updated: date });
    assertEquals(fields(problems), ["created", "updated"], date);
    assert(problems[0].message.includes(date));
  }
  assertEquals(checkEntryFields({ ...valid(), created: "2024-02-29", updated: "2024-02-29" }), []);
  assertEquals(checkEntryFields({ ...valid(), created: "2000-02-29", updated: "2000-02-29" }), []);
  assertEquals(checkEntryFields({ ...valid(), created: "1900-02-29" })[0].field, "created");
});

Deno.test("a NUL byte is refused anywhere, the body included", () => {
  assertEquals(fields(checkEntryFields({ ...valid(), body: "a\0b\n" })), ["body"]);
  assertEquals(fields(checkEntryFields({ ...valid(), extra: { note: ["x\0"] } })), ["frontmatter"]);
  assertEquals(fields(checkEntryFields({ ...valid(), extra: { "k\0": 1 } })), ["frontmatter"]);
});

Deno.test("checkEntryFields reports every problem at once", () => {
  const entry = {
    ...valid(),
    id: "kb-aaaaa\n",
    title: "a\u2028b",
    type: "recipe",
    created: "2026-02-31",
    links: [{ rel: "blocks", to: "kb-11111" }],
    body: "\0",
  } as unknown as Entry;
  assertEquals(fields(checkEntryFields(entry)), [
    "id",
    "title",
    "type",
    "created",
    "links[0].rel",
    "body",
  ]);
});

Deno.test("read from a file, the same values are refused as on save", () => {
  const text = '---\nid: kb-7q2mx\ntitle: "a\\u0085b"\ntype: note\ntags: ["x\\u001b[2J"]\n' +
    'created: 2026-02-31\nupdated: 2026-03-01\nsource: "s\\u2028t"\n---\nbody\0\n';
  const { entry, problems } = toEntry(parseEntryText(text, "entries/kb-7q2mx-x.md"));
  assertEquals(entry, undefined);
  assertEquals(fields(problems).sort(), ["body", "created", "source", "tags", "title"]);
});

Deno.test("a file that starts with a byte-order mark is read as an entry", () => {
  const text = `\ufeff${serializeEntry(valid())}`;
  assertEquals(splitFrontmatter(text, "bom.md").body, "Body\n");
  const { entry, problems } = toEntry(parseEntryText(text, "bom.md"));
  assertEquals(problems, []);
  assertEquals(entry, valid());
});

Deno.test("YAML anchors and aliases in the frontmatter are refused, quickly", () => {
  const levels = ["a: &a [x, x, x, x, x, x, x, x, x]"];
  for (let level = 1; level < 9; level++) {
    const name = String.fromCharCode(97 + level);
    const previous = String.fromCharCode(96 + level);
    levels.push(`${name}: &${name} [${Array(9).fill(`*${previous}`).join(", ")}]`);
  }
  const text = `---\nid: kb-7q2mx\ntitle: T\ntype: note\ncreated: 2026-01-01\n` +
    `updated: 2026-01-01\nbomb:\n${levels.map((line) => `  ${line}`).join("\n")}\n---\nbody\n`;
  const started = Date.now();
  const error = assertThrows(
    () => parseEntryText(text, "entries/kb-7q2mx-bomb.md"),
    EntryParseError,
  );
  assert(
    error.message.includes("entries/kb-7q2mx-bomb.md") &&
      /anchor &a; anchors and aliases/.test(error.message),
  );
  assert(Date.now() - started < 1000, "refused before anything walks the value");
  // An ampersand or an asterisk inside a value is no anchor.
  const plain = "---\nid: kb-7q2mx\ntitle: R&D *notes*\ntype: note\n---\n";
  assertEquals(parseEntryText(plain, "p.md").fields.title, "R&D *notes*");
});

Deno.test("conflictStart finds git's conflict markers outside code fences only", () => {
  const conflict = "Intro\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> kb-1234\nend\n";
  assertEquals(conflictStart(conflict), 2);
  assertEquals(conflictStart("```\n<<<<<<< HEAD\na\n=======\nb\n>>>>>>> x\n```\n"), undefined);
  assertEquals(conflictStart("<<<<<<< HEAD\nonly the start\n"), undefined);
  assertEquals(conflictStart("=======\n>>>>>>> x\n"), undefined);
  const problems = checkEntryFields({ ...valid(), body: conflict });
  assert(problems.some((problem) => /conflict markers \(from line 2/.test(problem.message)));
});

Deno.test("one-line fields refuse bidirectional controls, which reorder what is shown", () => {
  const problems = checkEntryFields({ ...valid(), title: "bidi\u202eevil", tags: ["a\u2066b"] });
  assertEquals(problems.map((problem) => problem.field).sort(), ["tags", "title"]);
  assert(problems.every((problem) => /bidirectional control/.test(problem.message)));
  assertEquals(oneLineProblem("plain title"), undefined);
});

Deno.test("an id, type or status written unquoted must be exactly a valid value", () => {
  const injected = {
    ...valid(),
    id: "kb-aaaaa ",
    type: "note\nsource: x" as Entry["type"],
    status: "done" as Entry["status"],
  };
  const problems = checkEntryFields(injected);
  assertEquals(problems.map((problem) => problem.field), ["id", "type", "status"]);
  assertEquals(problems[1].message.includes("\n"), false, "the value is quoted, not echoed raw");
});

Deno.test("a lone surrogate in the body is refused; a whole character of two is not", () => {
  const lone = checkEntryFields({ ...valid(), body: "ok \ud83d\ude00 then \ude00 alone\n" });
  assertEquals(fields(lone), ["body"]);
  assert(/U\+DE00 at character 12\)/.test(lone[0].message), lone[0].message);
  const whole = { ...valid(), title: "Smile \ud83d\ude00", body: "\ud83d\ude00\n" };
  assertEquals(checkEntryFields(whole), []);
});
