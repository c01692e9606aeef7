/**
 * The forgiving read (core/entry/repair.ts): hand-written and foreign entries are served with
 * their natural values and a repair each; only what has no meaning is left out.
 */
import { assert, assertEquals, assertStrictEquals } from "@std/assert";
import { readEntryForgivingly } from "./repair.ts";
import { checkEntryFields, serializeEntry } from "./entry.ts";

const PATH = "entries/kb-7q2mx-rotate-keys.md";

function read(frontmatter: string | undefined, body = "Body.\n", path = PATH, date = "2025-01-02") {
  const text = frontmatter === undefined ? body : `---\n${frontmatter}---\n${body}`;
  let asked = 0;
  const result = readEntryForgivingly(text, { path, fallbackDate: () => (asked++, date) });
  return { ...result, asked };
}

const CONTRACT = "id: kb-7q2mx\ntitle: Rotate keys\ntype: howto\ncreated: 2024-03-01\n" +
  "updated: 2024-03-02\n";

Deno.test("an entry written to the contract is read with no repair and no date lookup", () => {
  const { entry, repairs, problems, asked } = read(CONTRACT);
  assertStrictEquals(entry?.title, "Rotate keys");
  assertEquals(repairs, []);
  assertEquals(problems, []);
  assertEquals(asked, 0);
});

Deno.test("a missing updated comes from created, a missing created from updated", () => {
  const noUpdated = read("id: kb-7q2mx\ntitle: T\ntype: note\ncreated: 2024-03-01\n");
  assertStrictEquals(noUpdated.entry?.updated, "2024-03-01");
  assertEquals(noUpdated.asked, 0);
  assert(noUpdated.repairs.some((repair) => repair.field === "updated"));
  const noCreated = read("id: kb-7q2mx\ntitle: T\ntype: note\nupdated: 2024-03-05\n");
  assertStrictEquals(noCreated.entry?.created, "2024-03-05");
});

Deno.test("with no date at all, both come from the file's fallback date, asked once", () => {
  const { entry, asked } = read("id: kb-7q2mx\ntitle: T\n");
  assertStrictEquals(entry?.created, "2025-01-02");
  assertStrictEquals(entry?.updated, "2025-01-02");
  assertEquals(asked, 1);
});

Deno.test("dates with a time are read as dates", () => {
  for (const value of ["2024-03-01T10:20:00Z", "2024-03-01 10:20", "2024-03-01T10:20:00+02:00"]) {
    const { entry, repairs } = read(`id: kb-7q2mx\ntitle: T\ncreated: ${value}\n`);
    assertStrictEquals(entry?.created, "2024-03-01", value);
    assert(repairs.some((repair) => repair.field === "created" && repair.message.includes(value)));
  }
});

Deno.test("type and status are case-folded; unknown values read as note and active", () => {
  const folded = read("id: kb-7q2mx\ntitle: T\ntype: Howto\nstatus: Superseded\n");
  assertStrictEquals(folded.entry?.type, "howto");
  assertStrictEquals(folded.entry?.status, "superseded");
  const unknown = read("id: kb-7q2mx\ntitle: T\ntype: recipe\nstatus: draft\n");
  assertStrictEquals(unknown.entry?.type, "note");
  assertStrictEquals(unknown.entry?.status, "active");
  assert(unknown.repairs.some((repair) => repair.message.includes('"recipe"')));
});

Deno.test("scalars in lists are read as strings, blanks and mappings left out", () => {
  const { entry, repairs } = read(
    "id: kb-7q2mx\ntitle: T\ntags: [null, 42, true, ' ', {a: 1}, k8s]\n",
  );
  assertEquals(entry?.tags, ["null", "42", "true", "k8s"]);
  assert(repairs.length >= 3);
});

Deno.test("tags written as one comma-separated text are read as the list; an alias's comma stays", () => {
  const { entry, repairs, lossy } = read(
    "id: kb-7q2mx\ntitle: T\ntags: git, ci/cd ,\naliases: rotate, revoke\n",
  );
  assertEquals(entry?.tags, ["git", "ci/cd"]);
  assertEquals(entry?.aliases, ["rotate, revoke"]);
  assertEquals(repairs.filter((repair) => repair.field === "tags").length, 1);
  assertEquals(lossy.filter((repair) => repair.field === "tags"), []);
  assertEquals(read("id: kb-7q2mx\ntitle: T\ntags: git\n").entry?.tags, ["git"]);
});

Deno.test("an unquoted title holding ': ' is read as the text it meant", () => {
  const { entry, repairs } = read(
    "id: kb-7q2mx\ntitle: Grafana: add a panel\ncreated: 2024-03-01\n",
  );
  assertStrictEquals(entry?.title, "Grafana: add a panel");
  assertEquals(repairs.map((repair) => repair.field), ["title", "type", "updated"]);
});

Deno.test("the id comes from the file name, the title from the first heading, else the name", () => {
  const noFrontmatter = read(undefined, "```\n# not this\n```\n# Rotate the keys\n\nText.\n");
  assertStrictEquals(noFrontmatter.entry?.id, "kb-7q2mx");
  assertStrictEquals(noFrontmatter.entry?.title, "Rotate the keys");
  const fromName = read("created: 2024-03-01\n", "No heading here.\n");
  assertStrictEquals(fromName.entry?.title, "rotate keys");
});

Deno.test("kernel yes/no and numbers as source are read; broken links are dropped", () => {
  const { entry } = read(
    "id: kb-7q2mx\ntitle: T\nkernel: 'yes'\nsource: 12\nlinks: [{rel: related, to: kb-aaaaa}, " +
      "{rel: likes, to: kb-bbbbb}, nonsense]\n",
  );
  assertStrictEquals(entry?.kernel, true);
  assertStrictEquals(entry?.source, "12");
  assertEquals(entry?.links, [{ rel: "related", to: "kb-aaaaa" }]);
});

Deno.test("what cannot be given a meaning is left out with its problems", () => {
  const cases: [string | undefined, string, string][] = [
    ["id: kb-7q2mx\ntitle: [unclosed\n", PATH, "frontmatter"],
    ["id: KB-NOPE\ntitle: T\n", PATH, "id"],
    ["title: T\n", "entries/notes.md", "id"],
    [undefined, "entries/readme.md", "id"],
    ["id: kb-7q2mx\ntitle: T\nx: &a [1]\ny: *a\n", PATH, "frontmatter"],
  ];
  for (const [frontmatter, path, field] of cases) {
    const { entry, problems } = read(frontmatter, "Body.\n", path);
    assertEquals(entry, undefined, `${path}: ${frontmatter}`);
    assert(problems.some((problem) => problem.field === field), JSON.stringify(problems));
  }
});

Deno.test("every repaired entry passes the strict contract and serializes to a valid file", () => {
  const { entry } = read("title: Grafana: x\ntype: HOWTO\ntags: [1]\ncreated: 2024-03-01 10:00\n");
  assert(entry);
  assertEquals(checkEntryFields(entry), []);
  const again = readEntryForgivingly(serializeEntry(entry), { path: PATH, fallbackDate: () => "" });
  assertEquals(again.repairs, []);
  assertEquals(again.entry, entry);
});

Deno.test("repairs that drop or replace what was written are marked lossy; the others are not", () => {
  const lossless = read("id: kb-7q2mx\ntitle: A: b\ntype: Howto\ntags: [1]\ncreated: 2024-03-01\n");
  assert(lossless.repairs.length >= 3);
  assertEquals(lossless.lossy, []);
  const lossy = read("id: kb-7q2mx\ntitle: T\ntype: recipe\ntags: [{a: 1}]\ncreated: 2024-02-31\n");
  assertEquals(lossy.lossy.map((repair) => repair.field), ["type", "tags", "created"]);
});
