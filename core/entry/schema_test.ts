import { assert, assertEquals } from "@std/assert";
import {
  ACTIVITIES,
  DATE_PATTERN,
  ENTRY_TYPES,
  ID_PATTERN,
  INVERSE_RELS,
  isCalendarDate,
  isOneOf,
  KNOWN_FIELDS,
  LIMITS,
  LINK_RELS,
  loneSurrogateProblem,
  oneLineProblem,
  STATUSES,
} from "./schema.ts";

Deno.test("the closed vocabularies are those of the contract", () => {
  assertEquals([...ENTRY_TYPES], ["decision", "rule", "howto", "concept", "bookmark", "note"]);
  assertEquals([...LINK_RELS], [
    "supersedes",
    "refines",
    "depends-on",
    "contradicts",
    "related",
  ]);
  assertEquals([...ACTIVITIES], ["writing", "reviewing", "planning", "coding"]);
  assertEquals([...STATUSES], ["active", "superseded", "archived"]);
  assertEquals(INVERSE_RELS, {
    "supersedes": "superseded-by",
    "refines": "refined-by",
    "depends-on": "needed-by",
    "contradicts": "contradicted-by",
    "related": "related",
  });
});

Deno.test("ID_PATTERN takes kb- and five of [0-9a-z] only", () => {
  for (const id of ["kb-7q2mx", "kb-00000", "kb-zzzzz"]) assert(ID_PATTERN.test(id), id);
  for (
    const id of [
      "kb-ABCDE",
      "kb-1234",
      "kb-123456",
      "kb-../x",
      "kb-a/b12",
      "kb-7q2mx\n",
      " kb-7q2mx",
    ]
  ) {
    assert(!ID_PATTERN.test(id), id);
  }
});

Deno.test("DATE_PATTERN takes YYYY-MM-DD only", () => {
  assert(DATE_PATTERN.test("2026-06-29"));
  for (const date of ["2026-6-29", "29-06-2026", "2026-06-29T00:00:00Z", "20260629"]) {
    assert(!DATE_PATTERN.test(date), date);
  }
});

Deno.test("isOneOf accepts members only, and only strings", () => {
  assert(isOneOf(ENTRY_TYPES, "howto"));
  assert(!isOneOf(ENTRY_TYPES, "Howto"));
  assert(!isOneOf(ENTRY_TYPES, undefined));
  assert(!isOneOf(ENTRY_TYPES, ["howto"]));
});

Deno.test("the kernel budget fits in the hook budget, which fits under the cap", () => {
  assert(LIMITS.kernelBudgetChars < LIMITS.hookBudgetChars);
  assert(LIMITS.hookBudgetChars < LIMITS.hookCapChars);
  assertEquals(LIMITS.hookCapChars, 10_000);
});

Deno.test("KNOWN_FIELDS lists every contract field once", () => {
  assertEquals(new Set(KNOWN_FIELDS).size, KNOWN_FIELDS.length);
  for (
    const field of ["id", "title", "type", "tags", "aliases", "applies_to", "kernel", "status"]
  ) {
    assert((KNOWN_FIELDS as readonly string[]).includes(field), field);
  }
  for (const field of ["created", "updated", "source", "links"]) {
    assert((KNOWN_FIELDS as readonly string[]).includes(field), field);
  }
});

Deno.test("isCalendarDate takes only dates that exist", () => {
  for (const date of ["2026-06-29", "2024-02-29", "2000-02-29", "2026-12-31", "2026-01-31"]) {
    assert(isCalendarDate(date), date);
  }
  for (
    const date of [
      "2026-02-31",
      "9999-99-99",
      "2025-02-29",
      "1900-02-29",
      "2026-04-31",
      "2026-00-01",
    ]
  ) {
    assert(!isCalendarDate(date), date);
  }
  assert(!isCalendarDate("2026-6-29"));
});

Deno.test("oneLineProblem names the character that breaks a one-line field", () => {
  assertEquals(oneLineProblem("Plain title: with ünïcode, émoji 🙂 and — dashes"), undefined);
  assertEquals(
    oneLineProblem("ab\u2028c"),
    "spans lines (U+2028 LINE SEPARATOR at character 3); keep it on one line",
  );
  assert(oneLineProblem("\u001b[31m")?.startsWith("holds an ANSI escape sequence (U+001B"));
  assert(oneLineProblem("x\u0085")?.includes("NEXT LINE"));
  assert(oneLineProblem("x\u0007")?.includes("control character (U+0007"));
});

Deno.test("loneSurrogateProblem names half a character, and passes whole pairs", () => {
  assertEquals(loneSurrogateProblem("émoji 🙂 and 𝄞"), undefined);
  assert(
    loneSurrogateProblem("ab\ud800")?.startsWith("holds a lone surrogate (U+D800 at character 3)"),
  );
  assert(loneSurrogateProblem("\udc00🙂")?.includes("(U+DC00 at character 1)"));
  assert(loneSurrogateProblem("🙂\ude42")?.includes("(U+DE42 at character 3)"));
  assert(oneLineProblem("x\udbff")?.includes("saved as U+FFFD"));
});
