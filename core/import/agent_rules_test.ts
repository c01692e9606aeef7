/** Agent instruction files read as rules (core/import/agent_rules.ts). */
import { assertEquals } from "@std/assert";
import { claudeImports, isAgentFile, readAgentFile, sectionsLeftOut } from "./agent_rules.ts";
import { exportBlock } from "../export/agent_files.ts";

const DATES = { created: "2024-01-01", updated: "2024-02-01" };

Deno.test("each ## section of a CLAUDE.md is a rule, keyed by its heading; imports found", () => {
  const text = "# Project\n\n@docs/style.md\n\n## Testing\n\nRun `deno task test`.\n\n" +
    "## Commits\n\n- Small commits\n```\n## not a heading\n```\n\n## Empty\n\n" +
    exportBlock([{ id: "kb-aaaaa", title: "Exported", body: "Skip me." }]);
  const rules = readAgentFile({ path: "CLAUDE.md", text, fileDates: DATES });
  assertEquals(rules.map((rule) => [rule.sourcePath, rule.title, rule.type]), [
    ["CLAUDE.md#testing", "Testing", "rule"],
    ["CLAUDE.md#commits", "Commits", "rule"],
  ]);
  assertEquals(rules[1].body, "- Small commits\n```\n## not a heading\n```\n");
  assertEquals(claudeImports(text), ["docs/style.md"]);
  assertEquals(claudeImports("mail me@example.com and `@not/this`\n@~/prefs.md\n"), ["~/prefs.md"]);
});

Deno.test("a CLAUDE.md that shows a CLAUDE.md in a longer fence keeps its heading and import in it", () => {
  const text = "## Setup\n\nWrite yours so:\n\n````md\n```\n## Not a section\n@docs/no.md\n```\n" +
    "````\n\n## Style\n\nShort lines.\n";
  const rules = readAgentFile({ path: "CLAUDE.md", text, fileDates: DATES });
  assertEquals(rules.map((rule) => rule.title), ["Setup", "Style"]);
  assertEquals(claudeImports(text), []);
});

Deno.test("a file without ## sections is one rule per # section, or one rule titled by its name", () => {
  const plain = readAgentFile({
    path: "sub/AGENTS.md",
    text: "Always run lint.\n",
    fileDates: DATES,
  });
  assertEquals(plain.map((rule) => [rule.title, rule.body]), [["AGENTS", "Always run lint.\n"]]);
  const headed = readAgentFile({ path: "AGENTS.md", text: "# A\nx\n# B\ny\n", fileDates: DATES });
  assertEquals(headed.map((rule) => rule.title), ["A", "B"]);
});

/** The rule read from the Cursor rule file `name` of `frontmatter` lines and `body`. */
function cursorRule(name: string, frontmatter: string, body: string) {
  const text = `---\n${frontmatter}---\n${body}`;
  return readAgentFile({ path: `.cursor/rules/${name}`, text, fileDates: DATES })[0];
}

Deno.test("a Cursor rule: description as title, globs as tags, alwaysApply kept", () => {
  const rule = cursorRule(
    "react-style.mdc",
    "description: React components style\nglobs: src/**/*.tsx, lib/*.tsx\nalwaysApply: true\n",
    "Use function components.\n",
  );
  assertEquals(rule.title, "React components style");
  assertEquals(rule.tags, ["cursor-rule", "src/**/*.tsx", "lib/*.tsx"]);
  assertEquals(rule.alwaysApply, true);
  assertEquals(rule.body, "Use function components.\n");
  const [named] = readAgentFile({
    path: ".cursor/rules/no_any.mdc",
    text: "No any.\n",
    fileDates: DATES,
  });
  assertEquals(named.title, "no any");
  assertEquals(named.alwaysApply, false);
});

Deno.test("a Cursor rule as Cursor writes it: globs unquoted, a colon in the description", () => {
  const rule = cursorRule(
    "ts.mdc",
    "description: TypeScript: strict style\nglobs: **/*.ts, **/*.tsx\nalwaysApply: true\n",
    "Use strict mode.\n",
  );
  assertEquals(rule.title, "TypeScript: strict style");
  assertEquals(rule.tags, ["cursor-rule", "**/*.ts", "**/*.tsx"]);
  assertEquals(rule.alwaysApply, true);
  assertEquals(rule.body, "Use strict mode.\n");
  assertEquals(rule.warnings, [
    "its frontmatter is not valid YAML: the description, globs of it read as plain text",
  ]);
});

Deno.test("isAgentFile knows CLAUDE.md, AGENTS.md and Cursor rules only", () => {
  assertEquals(
    ["CLAUDE.md", "x/AGENTS.md", ".cursor/rules/a.mdc", "notes.md", "rules/a.mdc"].map(isAgentFile),
    [true, true, true, false, false],
  );
});

Deno.test("a section with nothing in it, or only @imports, is no rule, and is named with why", () => {
  const note = {
    path: "CLAUDE.md",
    text: "# R\n\n## A\n\nx\n\n## Empty\n\n## Imports\n\n@docs/a.md\n\n## B\n\ny\n",
    fileDates: DATES,
  };
  assertEquals(readAgentFile(note).map((rule) => rule.title), ["A", "B"]);
  assertEquals(sectionsLeftOut(note), [
    { path: "CLAUDE.md#empty", reason: "is an empty section: there is nothing in it to keep" },
    {
      path: "CLAUDE.md#imports",
      reason: "holds only @imports, whose files are read as notes of their own",
    },
  ]);
  assertEquals(sectionsLeftOut({ ...note, path: ".cursor/rules/x.mdc" }), []);
});
