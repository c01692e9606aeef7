import { assert, assertEquals, assertStrictEquals } from "@std/assert";
import type { Entry } from "../entry/entry.ts";
import { buildIndex, makeEntry as plainEntry } from "../index/_memory_index.ts";
import { duplicateLine, findDuplicate, SMALL_KB_LINE, withCapturedMaterial } from "./duplicates.ts";

let counter = 0;
function entry(title: string, tags: string[], body = "Some words."): Entry {
  counter++;
  return plainEntry({ id: `kb-d${String(counter).padStart(4, "0")}`, title, tags, body });
}

const TOPICS = [
  ["Rotate a leaked npm token", ["npm", "security"]],
  ["Docker build cache busting with ARG", ["docker", "ci"]],
  ["Postgres vacuum full locks the table", ["postgres", "database"]],
  ["git rebase onto another base branch", ["git"]],
  ["Deno permission flags for hooks", ["deno", "security"]],
  ["Kubernetes liveness probe timeouts", ["kubernetes"]],
  ["Python venv on Debian needs python3-venv", ["python", "debian"]],
  ["SSH agent forwarding through a jump host", ["ssh"]],
  ["Terraform state lock stuck after a crash", ["terraform"]],
  ["Rust borrow checker and closures", ["rust"]],
  ["TypeScript strict null checks in old code", ["typescript"]],
  ["Nginx proxy_pass trailing slash", ["nginx"]],
] as const;

function sampleIndex() {
  return buildIndex(TOPICS.map(([title, tags]) => entry(title, [...tags]))).reader();
}

Deno.test("a candidate saying what an entry says is its duplicate; a new subject is not", () => {
  const reader = sampleIndex();
  const line = duplicateLine(reader);
  assert(line > 0 && line < 2, `${line}`);
  const twin = findDuplicate(reader, {
    title: "Terraform state lock stuck after a crashed apply",
    tags: ["terraform"],
  }, line);
  assertStrictEquals(
    reader.docById(twin?.id ?? "")?.title,
    "Terraform state lock stuck after a crash",
  );
  const fresh = findDuplicate(reader, {
    title: "Flaky Playwright tests need a retry on CI",
    tags: ["playwright", "ci"],
  }, line);
  assertEquals(fresh, undefined);
});

Deno.test("the line is the knowledge base's own: tiny bases fall back, and it follows the KB", () => {
  const tiny = buildIndex([entry("One lonely note", ["x"])]).reader();
  assertEquals(duplicateLine(tiny), SMALL_KB_LINE);
  // A knowledge base of near twins kept apart on purpose: its line rises, so a candidate must be
  // closer than those twins are to each other to count as a duplicate.
  const twins = buildIndex(
    Array.from(
      { length: 12 },
      (_, index) => entry(`Deploy service ${index} to staging`, ["deploy", "staging"]),
    ),
  ).reader();
  assert(duplicateLine(twins) > duplicateLine(sampleIndex()));
});

Deno.test("an edit keeps the entry's own text and adds the candidate's under a heading", () => {
  const existing = { ...entry("Terraform state lock", ["terraform"], "Run force-unlock.\n") };
  const edited = withCapturedMaterial(existing, {
    body: "Check no apply runs first: `terraform force-unlock <id>`.",
    tags: ["terraform", "locks"],
  }, "2026-12-03")!;
  assert(edited.body.startsWith("Run force-unlock.\n\n## Seen again in a session (2026-12-03)\n"));
  assertEquals(edited.tags.join(","), "terraform,locks");
  assertEquals(edited.updated, "2026-12-03");
  assertEquals(
    withCapturedMaterial(existing, { body: "Run force-unlock.", tags: [] }, "2026-12-03"),
    undefined,
  );
});
