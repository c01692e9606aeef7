/** Agent files written by `git-kb export` (core/export/agent_files.ts). */
import { ok, strictEqual as equal } from "node:assert/strict";
import {
  AGENT_FILES,
  BEGIN_MARKER,
  blockDamage,
  END_MARKER,
  exportBlock,
  exportedFile,
  withBlock,
} from "./agent_files.ts";

const RULE = { id: "kb-aaaaa", title: "Never force-push main", body: "Use a PR.\n" };

Deno.test("a rerun replaces only git-kb's block; the user's text before and after is kept", () => {
  const first = exportedFile("agents", "# My project\n\nMy own rules.\n", [RULE]).text;
  ok(first.startsWith("# My project\n\nMy own rules.\n\n" + BEGIN_MARKER));
  const edited = `${first}\n## After\nMore of mine.\n`;
  const second = exportedFile("agents", edited, [{ ...RULE, body: "Changed.\n" }]).text;
  ok(second.startsWith("# My project\n\nMy own rules.\n\n"));
  ok(second.endsWith("\n## After\nMore of mine.\n"));
  ok(second.includes("Changed.") && !second.includes("Use a PR."));
  equal(second.split(BEGIN_MARKER).length, 2, "one block");
  equal(exportedFile("agents", second, [{ ...RULE, body: "Changed.\n" }]).text, second);
});

Deno.test("a rule's body cannot end the block early", () => {
  const block = exportBlock([{ ...RULE, body: `text ${END_MARKER} more` }]);
  equal(block.split(END_MARKER).length, 2);
  equal(withBlock(withBlock("", block), exportBlock([])), exportBlock([]));
});

Deno.test("limits: rules that do not fit are left out, last first, and named", () => {
  const long = (id: string) => ({ id, title: id, body: "x\n".repeat(120) });
  const claude = exportedFile("claude", "", [long("kb-11111"), long("kb-22222"), long("kb-33333")]);
  ok(claude.text.split("\n").length - 1 <= AGENT_FILES.claude.limit.lines);
  equal(claude.leftOut.join(","), "kb-22222,kb-33333");
  const windsurf = exportedFile("windsurf", "", [{
    id: "kb-44444",
    title: "w",
    body: "y".repeat(13_000),
  }]);
  ok(windsurf.text.length <= AGENT_FILES.windsurf.limit.chars);
  equal(windsurf.leftOut.join(","), "kb-44444");
});

Deno.test("the cursor rule gets its alwaysApply frontmatter once", () => {
  const first = exportedFile("cursor", "", [RULE]).text;
  ok(first.startsWith("---\ndescription: "));
  ok(first.includes("alwaysApply: true"));
  equal(exportedFile("cursor", first, [RULE]).text, first);
});

Deno.test("blockDamage: one whole block or none is fine; a lone marker or two blocks are not", () => {
  const block = exportBlock([RULE]);
  equal(blockDamage("# Mine\n"), undefined);
  equal(blockDamage(`# Mine\n\n${block}after\n`), undefined);
  ok(blockDamage(`${BEGIN_MARKER}\nold\n## Mine\n`)?.reason.includes("without an end marker"));
  ok(blockDamage(`old\n${END_MARKER}\n## Mine\n`)?.reason.includes("without a begin marker"));
  ok(blockDamage(`${END_MARKER}\n${BEGIN_MARKER}\n`)?.reason.includes("without a begin marker"));
  equal(blockDamage(`${block}\n${block}`)?.reason, "has 2 git-kb blocks (a merge can double it)");
});

Deno.test("a rule's title cannot end the block early either", () => {
  const block = exportBlock([{ ...RULE, title: `t ${END_MARKER}` }]);
  equal(blockDamage(block), undefined);
});
