import { assert, assertEquals, assertStrictEquals, assertThrows } from "@std/assert";
import {
  blankEntry,
  checkAgainstKb,
  type Entry,
  EntryParseError,
  formatProblems,
  parseEntryText,
  type Problem,
  serializeEntry,
  splitFrontmatter,
  toEntry,
} from "./entry.ts";
import { LIMITS } from "./schema.ts";

/** A full, valid set of frontmatter fields, as the YAML parser would return them. */
function validFields(): Record<string, unknown> {
  return {
    id: "kb-7q2mx",
    title: "Rotate a leaked npm or Cloudflare token",
    type: "howto",
    tags: ["security", "credentials"],
    aliases: ["cf"],
    applies_to: ["coding"],
    kernel: false,
    status: "active",
    created: "2026-06-29",
    updated: "2026-07-02",
    links: [{ rel: "related", to: "kb-9z8y7" }],
  };
}

function fieldsOf(problems: Problem[]): string[] {
  return problems.map((problem) => problem.field);
}

/** toEntry on `fields`, asserting it fails and that some problem names `field`. */
function assertProblem(fields: Record<string, unknown>, field: string, body = "Body\n"): Problem[] {
  const { entry, problems } = toEntry({ fields, body });
  assertEquals(entry, undefined, `expected no entry when ${field} is wrong`);
  assert(
    problems.some((problem) => problem.field === field),
    `expected a problem on "${field}", got ${JSON.stringify(problems)}`,
  );
  for (const problem of problems) assert(problem.message.length > 0, "every problem has a message");
  return problems;
}

function fullEntry(): Entry {
  return {
    id: "kb-7q2mx",
    title: "Rotate a leaked 'npm' token: now #1",
    type: "howto",
    tags: ["security", "ci/cd", "node.js", "c++", "true", "a, b"],
    aliases: ["cf", "token leak"],
    appliesTo: ["coding", "reviewing"],
    kernel: true,
    status: "superseded",
    created: "2026-06-29",
    updated: "2026-07-02",
    source: "https://example.org/guide?x=1#part",
    links: [
      { rel: "supersedes", to: "kb-1a2b3" },
      { rel: "refines", to: "kb-00000" },
      { rel: "depends-on", to: "kb-zzzzz" },
      { rel: "contradicts", to: "kb-abcde" },
      { rel: "related", to: "kb-9z8y7" },
    ],
    extra: {
      reviewer: "ana",
      priority: 3,
      flags: ["x", "y"],
      nested: { when: "2026-01-01", done: false },
    },
    body: "First line  \n\n\n  indented line\t\n---\nnot frontmatter\n\n",
  };
}

// --- splitFrontmatter -------------------------------------------------------------------------

Deno.test("splitFrontmatter separates the frontmatter from the body", () => {
  const { frontmatter, body } = splitFrontmatter("---\nid: kb-00000\n---\nHello\n", "a.md");
  assertEquals(frontmatter, "id: kb-00000\n");
  assertEquals(body, "Hello\n");
});

Deno.test("splitFrontmatter rejects text without an opening --- and names the file", () => {
  const error = assertThrows(
    () => splitFrontmatter("id: kb-00000\n---\nbody\n", "entries/no-open.md"),
    EntryParseError,
  );
  assert(error.message.includes("entries/no-open.md") && /opening/.test(error.message));
  // An opening marker that is not on the first line does not count either.
  assertThrows(() => splitFrontmatter("\n---\nid: x\n---\n", "lead.md"), EntryParseError);
});

Deno.test("splitFrontmatter rejects a frontmatter without a closing ---", () => {
  const error = assertThrows(
    () => splitFrontmatter("---\nid: kb-00000\ntitle: t\n", "entries/no-close.md"),
    EntryParseError,
  );
  assert(error.message.includes("entries/no-close.md") && /closing/.test(error.message));
  // "----" is not a closing marker.
  assertThrows(() => splitFrontmatter("---\nid: x\n----\nbody\n", "dashes.md"), EntryParseError);
});

Deno.test("splitFrontmatter handles CRLF line endings", () => {
  const text = "---\r\nid: kb-00000\r\ntitle: T\r\n---\r\nLine one\r\nLine two\r\n";
  const { frontmatter, body } = splitFrontmatter(text, "crlf.md");
  assertEquals(frontmatter, "id: kb-00000\r\ntitle: T\r\n");
  assertEquals(body, "Line one\r\nLine two\r\n");
  const raw = parseEntryText(text, "crlf.md");
  assertEquals(raw.fields.id, "kb-00000");
  assertEquals(raw.fields.title, "T");
});

Deno.test("splitFrontmatter keeps the body byte for byte", () => {
  const body = "  leading spaces\ntrailing spaces   \n\n\n\t tabbed\n---\nafter a rule\n\n\n";
  const result = splitFrontmatter(`---\nid: kb-00000\n---\n${body}`, "a.md");
  assertEquals(result.body, body);
  // A closing marker at the very end of the file leaves an empty body.
  assertEquals(splitFrontmatter("---\nid: kb-00000\n---", "a.md").body, "");
  // Trailing blanks after the closing marker are allowed.
  assertEquals(splitFrontmatter("---\nid: kb-00000\n--- \t\nx", "a.md").body, "x");
});

Deno.test("splitFrontmatter accepts an empty frontmatter", () => {
  const { frontmatter, body } = splitFrontmatter("---\n---\nbody", "a.md");
  assertEquals(frontmatter, "");
  assertEquals(body, "body");
});

// --- parseEntryText ---------------------------------------------------------------------------

Deno.test("parseEntryText turns bad YAML into an EntryParseError naming the file", () => {
  const error = assertThrows(
    () => parseEntryText("---\ntitle: [unclosed\nid: : :\n---\nbody\n", "entries/kb-bad00-x.md"),
    EntryParseError,
  );
  assert(
    error instanceof SyntaxError && error.name === "EntryParseError" &&
      error.message.includes("entries/kb-bad00-x.md") && /YAML/.test(error.message),
  );
});

Deno.test("parseEntryText rejects a frontmatter that is not a mapping", () => {
  for (const frontmatter of ["- a\n- b\n", "just a string\n", "42\n"]) {
    const error = assertThrows(
      () => parseEntryText(`---\n${frontmatter}---\nbody\n`, "list.md"),
      EntryParseError,
    );
    assert(
      error.message.includes("list.md") && /mapping/.test(error.message),
      `frontmatter ${JSON.stringify(frontmatter)}`,
    );
  }
});

Deno.test("parseEntryText reads an empty frontmatter as no fields", () => {
  const raw = parseEntryText("---\n---\nbody\n", "empty.md");
  assertEquals(raw, { fields: {}, body: "body\n" });
});

Deno.test("parseEntryText keeps dates as strings (CORE_SCHEMA, no timestamps)", () => {
  const raw = parseEntryText(
    "---\ncreated: 2026-06-29\nupdated: 2026-07-02\nwhen: 2026-01-01T10:00:00Z\n---\n",
    "d.md",
  );
  assertEquals(typeof raw.fields.created, "string");
  assertEquals(raw.fields.created, "2026-06-29");
  assertEquals(raw.fields.updated, "2026-07-02");
  assertEquals(raw.fields.when, "2026-01-01T10:00:00Z");
});

Deno.test("parseEntryText reads the example entry of the contract", () => {
  const text = [
    "---",
    "id: kb-7q2mx",
    "title: Rotate a leaked npm or Cloudflare token",
    "type: howto",
    "tags: [security, credentials, npm, cloudflare]",
    "aliases: [cf, token leak]",
    "applies_to: [coding]",
    "kernel: false",
    "status: active",
    "created: 2026-06-29",
    "updated: 2026-07-02",
    "source: https://example.org/guide",
    "links:",
    "  - { rel: supersedes, to: kb-1a2b3 }",
    "  - { rel: related, to: kb-9z8y7 }",
    "---",
    "Body in markdown. May mention other entries as [[kb-1a2b3]].",
    "",
  ].join("\n");
  const { entry, problems } = toEntry(parseEntryText(text, "entries/kb-7q2mx-rotate.md"));
  assertEquals(problems, []);
  assertEquals(entry, {
    id: "kb-7q2mx",
    title: "Rotate a leaked npm or Cloudflare token",
    type: "howto",
    tags: ["security", "credentials", "npm", "cloudflare"],
    aliases: ["cf", "token leak"],
    appliesTo: ["coding"],
    kernel: false,
    status: "active",
    created: "2026-06-29",
    updated: "2026-07-02",
    source: "https://example.org/guide",
    links: [{ rel: "supersedes", to: "kb-1a2b3" }, { rel: "related", to: "kb-9z8y7" }],
    extra: {},
    body: "Body in markdown. May mention other entries as [[kb-1a2b3]].\n",
  });
});

// --- toEntry ----------------------------------------------------------------------------------

Deno.test("toEntry accepts valid fields and fills defaults", () => {
  const fields = validFields();
  delete fields.status;
  delete fields.kernel;
  delete fields.aliases;
  delete fields.applies_to;
  delete fields.links;
  const { entry, problems } = toEntry({ fields, body: "b" });
  assertEquals(problems, []);
  assert(entry);
  assertEquals(entry.status, "active");
  assertEquals(entry.kernel, false);
  assertEquals(entry.aliases, []);
  assertEquals(entry.appliesTo, []);
  assertEquals(entry.links, []);
  assertEquals(entry.source, undefined);
  assert(!("source" in entry), "no source key when there is no source");
});

Deno.test("toEntry reads a single string tag as a list and drops duplicates", () => {
  const fields = { ...validFields(), tags: "security" };
  assertEquals(toEntry({ fields, body: "" }).entry?.tags, ["security"]);
  const dup = { ...validFields(), tags: ["a", " a ", "b", "a"] };
  assertEquals(toEntry({ fields: dup, body: "" }).entry?.tags, ["a", "b"]);
});

Deno.test("every field of the contract round-trips through serialize, parse and toEntry", () => {
  const entry = fullEntry();
  const text = serializeEntry(entry);
  const again = toEntry(parseEntryText(text, "round.md"));
  assertEquals(again.problems, []);
  assertEquals(again.entry, entry);
  // And serializing the result gives the same text.
  assertEquals(serializeEntry(again.entry!), text);
});

Deno.test("a minimal entry round-trips too", () => {
  const entry: Entry = { ...blankEntry("kb-00000", "2026-01-01"), title: "true" };
  const again = toEntry(parseEntryText(serializeEntry(entry), "min.md"));
  assertEquals(again.problems, []);
  assertEquals(again.entry, entry);
});

Deno.test("titles that YAML would read as other types are quoted on write", () => {
  for (const title of ["123", "null", "false", "1.5", "- dash", "key: value", "[x]", "# hash"]) {
    const entry = { ...fullEntry(), title };
    const again = toEntry(parseEntryText(serializeEntry(entry), "t.md"));
    assertEquals(again.problems, [], `title ${JSON.stringify(title)}`);
    assertStrictEquals(again.entry?.title, title);
  }
});

Deno.test("serializeEntry writes dates plainly and they parse back as strings", () => {
  const text = serializeEntry(fullEntry());
  assert(text.includes("\ncreated: 2026-06-29\n"), text);
  assert(text.includes("\nupdated: 2026-07-02\n"), text);
  assert(text.startsWith("---\nid: kb-7q2mx\n"), text);
  assert(text.endsWith(`---\n${fullEntry().body}`), "body is written last, unchanged");
  const raw = parseEntryText(text, "x.md");
  assertEquals(raw.fields.created, "2026-06-29");
});

Deno.test("unknown fields are kept in extra, not fed to contract fields, and written back", () => {
  const text = "---\nid: kb-00000\ntitle: T\ntype: note\ncreated: 2026-01-01\n" +
    "updated: 2026-01-02\nreviewer: ana\nmeta:\n  score: 4\n  seen: [a, b]\n---\nbody\n";
  const { entry, problems } = toEntry(parseEntryText(text, "x.md"));
  assertEquals(problems, []);
  assert(entry);
  assertEquals(entry.extra, { reviewer: "ana", meta: { score: 4, seen: ["a", "b"] } });
  const written = serializeEntry(entry);
  assert(written.includes("reviewer: ana"), written);
  assertEquals(parseEntryText(written, "x.md").fields.meta, { score: 4, seen: ["a", "b"] });
  // Known fields never end up in extra.
  for (const key of ["id", "title", "type", "created", "updated"]) assert(!(key in entry.extra));
});

Deno.test("a missing required field is reported on that field", () => {
  for (const field of ["id", "title", "type", "created", "updated"]) {
    const fields = validFields();
    delete fields[field];
    const problems = assertProblem(fields, field);
    assert(
      problems.find((problem) => problem.field === field)!.message.includes("required"),
      `missing ${field} says required`,
    );
  }
});

Deno.test("empty or non-string id and title are rejected", () => {
  assertProblem({ ...validFields(), id: "" }, "id");
  assertProblem({ ...validFields(), id: 12345 }, "id");
  assertProblem({ ...validFields(), title: "   " }, "title");
  assertProblem({ ...validFields(), title: ["a"] }, "title");
});

Deno.test("a malformed id is reported on id", () => {
  for (
    const id of ["kb-ABCDE", "kb-1234", "kb-123456", "kb-../x", "kb-a/b12", "KB-12345", "xx-12345"]
  ) {
    const problems = assertProblem({ ...validFields(), id }, "id");
    assert(problems.some((problem) => problem.message.includes(id)), `message quotes ${id}`);
  }
});

Deno.test("a title over the limit or spanning lines is rejected", () => {
  assertProblem({ ...validFields(), title: "x".repeat(LIMITS.maxTitleChars + 1) }, "title");
  assertProblem({ ...validFields(), title: "two\nlines" }, "title");
  const { problems } = toEntry({
    fields: { ...validFields(), title: "x".repeat(LIMITS.maxTitleChars) },
    body: "",
  });
  assertEquals(problems, []);
});

Deno.test("an unknown type is reported on type", () => {
  const problems = assertProblem({ ...validFields(), type: "recipe" }, "type");
  assert(problems[0].message.includes("recipe"));
  assert(problems[0].message.includes("howto"), "lists the allowed types");
});

Deno.test("an unknown link relation is reported on the link", () => {
  const problems = assertProblem(
    {
      ...validFields(),
      links: [{ rel: "related", to: "kb-11111" }, { rel: "blocks", to: "kb-22222" }],
    },
    "links[1].rel",
  );
  assert(problems.some((problem) => problem.message.includes("blocks")));
});

Deno.test("a link to something that is not an id, or not a mapping, is reported", () => {
  assertProblem({ ...validFields(), links: [{ rel: "related", to: "nowhere" }] }, "links[0].to");
  assertProblem({ ...validFields(), links: ["kb-11111"] }, "links[0]");
  assertProblem({ ...validFields(), links: "kb-11111" }, "links");
});

Deno.test("duplicate links are kept once", () => {
  const links = [{ rel: "related", to: "kb-11111" }, { rel: "related", to: "kb-11111" }, {
    rel: "refines",
    to: "kb-11111",
  }];
  const { entry } = toEntry({ fields: { ...validFields(), links }, body: "" });
  assertEquals(entry?.links, [{ rel: "related", to: "kb-11111" }, {
    rel: "refines",
    to: "kb-11111",
  }]);
});

Deno.test("an unknown applies_to activity is reported on applies_to", () => {
  const problems = assertProblem(
    { ...validFields(), applies_to: ["coding", "dancing"] },
    "applies_to",
  );
  assert(problems.some((problem) => problem.message.includes("dancing")));
});

Deno.test("an unknown status is reported on status", () => {
  assertProblem({ ...validFields(), status: "deleted" }, "status");
});

Deno.test("kernel must be a boolean", () => {
  for (const kernel of ["true", "yes", 1, "false"]) {
    assertProblem({ ...validFields(), kernel }, "kernel");
  }
  assertStrictEquals(
    toEntry({ fields: { ...validFields(), kernel: true }, body: "" }).entry?.kernel,
    true,
  );
});

Deno.test("dates must be YYYY-MM-DD strings", () => {
  assertProblem({ ...validFields(), created: "29/06/2026" }, "created");
  assertProblem({ ...validFields(), updated: 20260702 }, "updated");
  assertProblem({ ...validFields(), created: new Date("2026-06-29") }, "created");
});

Deno.test("updated before created is reported on updated", () => {
  const problems = assertProblem(
    { ...validFields(), created: "2026-07-02", updated: "2026-06-29" },
    "updated",
  );
  assert(problems.some((problem) => problem.message.includes("2026-07-02")));
  // The same day is fine.
  const same = toEntry({
    fields: { ...validFields(), created: "2026-07-02", updated: "2026-07-02" },
    body: "",
  });
  assertEquals(same.problems, []);
});

Deno.test("a body over LIMITS.maxBodyBytes is reported on body, counting UTF-8 bytes", () => {
  const atLimit = "x".repeat(LIMITS.maxBodyBytes);
  assertEquals(toEntry({ fields: validFields(), body: atLimit }).problems, []);
  assertProblem(validFields(), "body", atLimit + "x");
  // Multi-byte characters: under the limit in UTF-16 units, over it in bytes.
  const wide = "é".repeat(LIMITS.maxBodyBytes / 2 + 1);
  assert(wide.length < LIMITS.maxBodyBytes);
  assertProblem(validFields(), "body", wide);
});

Deno.test("non-string tags and aliases are reported on their field", () => {
  assertProblem({ ...validFields(), tags: [1, 2] }, "tags");
  assertProblem({ ...validFields(), tags: ["ok", { a: 1 }] }, "tags");
  assertProblem({ ...validFields(), tags: ["ok", ""] }, "tags");
  assertProblem({ ...validFields(), tags: { a: 1 } }, "tags");
  assertProblem({ ...validFields(), aliases: [true] }, "aliases");
});

Deno.test("too many tags, or a tag too long, is reported on tags", () => {
  const many = Array.from({ length: LIMITS.maxListItems + 1 }, (_, index) => `t${index}`);
  assertProblem({ ...validFields(), tags: many }, "tags");
  assertProblem({ ...validFields(), tags: ["x".repeat(LIMITS.maxKeywordChars + 1)] }, "tags");
});

Deno.test("a source that is not a string is reported on source", () => {
  assertProblem({ ...validFields(), source: 42 }, "source");
});

Deno.test("several problems are reported at once", () => {
  const fields = {
    id: "kb-BAD",
    type: "recipe",
    status: "gone",
    kernel: "yes",
    created: "2026-07-02",
    updated: "2026-06-01",
    tags: [1],
  };
  const { entry, problems } = toEntry({ fields, body: "" });
  assertEquals(entry, undefined);
  const named = new Set(fieldsOf(problems));
  for (const field of ["id", "title", "type", "status", "kernel", "updated", "tags"]) {
    assert(named.has(field), `expected a problem on ${field}, got ${[...named]}`);
  }
  const text = formatProblems(problems);
  assertEquals(text.split("\n").length, problems.length);
  assert(text.includes("  id: "));
});

// --- checkAgainstKb ---------------------------------------------------------------------------

function validEntry(links: Entry["links"] = []): Entry {
  const { entry } = toEntry({ fields: { ...validFields(), links }, body: "b" });
  assert(entry);
  return entry;
}

Deno.test("checkAgainstKb reports an id already used at another path", () => {
  const ids = new Map([["kb-7q2mx", "entries/kb-7q2mx-other.md"]]);
  const problems = checkAgainstKb(validEntry(), { ids, path: "entries/kb-7q2mx-new.md" });
  assertEquals(fieldsOf(problems), ["id"]);
  assert(problems[0].message.includes("entries/kb-7q2mx-other.md"));
  // Without a path of its own, any owner is somebody else.
  assertEquals(fieldsOf(checkAgainstKb(validEntry(), { ids })), ["id"]);
});

Deno.test("checkAgainstKb accepts the same id at its own path", () => {
  const ids = new Map([["kb-7q2mx", "entries/kb-7q2mx-rotate.md"]]);
  assertEquals(checkAgainstKb(validEntry(), { ids, path: "entries/kb-7q2mx-rotate.md" }), []);
  assertEquals(checkAgainstKb(validEntry(), { ids: new Map() }), []);
});

Deno.test("checkAgainstKb reports a dangling link with its index", () => {
  const entry = validEntry([{ rel: "related", to: "kb-11111" }, {
    rel: "refines",
    to: "kb-22222",
  }]);
  const ids = new Map([["kb-11111", "entries/kb-11111-a.md"]]);
  const problems = checkAgainstKb(entry, { ids });
  assertEquals(fieldsOf(problems), ["links[1].to"]);
  assert(problems[0].message.includes("kb-22222"));
});

Deno.test("checkAgainstKb reports a link to the entry itself", () => {
  const entry = validEntry([{ rel: "related", to: "kb-7q2mx" }]);
  const ids = new Map([["kb-7q2mx", "entries/kb-7q2mx-rotate.md"]]);
  const problems = checkAgainstKb(entry, { ids, path: "entries/kb-7q2mx-rotate.md" });
  assertEquals(fieldsOf(problems), ["links[0].to"]);
  assert(/itself/.test(problems[0].message));
});
