/** Agent instruction files read as rules (core/import/agent_rules.ts). */
import { deepStrictEqual as deepEqual, strictEqual as equal } from "node:assert/strict";
import { claudeImports, isAgentFile, readAgentFile } from "./agent_rules.ts";
import { exportBlock } from "../export/agent_files.ts";

const DATES = { created: "2024-01-01", updated: "2024-02-01" };

Deno.test("each ## section of a CLAUDE.md is a rule, keyed by its heading; imports found", () => {
  const text = "# Project\n\n@docs/style.md\n\n## Testing\n\nRun `deno task test`.\n\n" +
    "## Commits\n\n- Small commits\n```\n## not a heading\n```\n\n## Empty\n\n" +
    exportBlock([{ id: "kb-aaaaa", title: "Exported", body: "Skip me." }]);
  const rules = readAgentFile({ path: "CLAUDE.md", text, fileDates: DATES });
  deepEqual(rules.map((rule) => [rule.sourcePath, rule.title, rule.type]), [
    ["CLAUDE.md#testing", "Testing", "rule"],
    ["CLAUDE.md#commits", "Commits", "rule"],
  ]);
  equal(rules[1].body, "- Small commits\n```\n## not a heading\n```\n");
  deepEqual(claudeImports(text), ["docs/style.md"]);
  deepEqual(claudeImports("mail me@example.com and `@not/this`\n@~/prefs.md\n"), ["~/prefs.md"]);
});

Deno.test("a file without ## sections is one rule per # section, or one rule titled by its name", () => {
  const plain = readAgentFile({
    path: "sub/AGENTS.md",
    text: "Always run lint.\n",
    fileDates: DATES,
  });
  deepEqual(plain.map((rule) => [rule.title, rule.body]), [["AGENTS", "Always run lint.\n"]]);
  const headed = readAgentFile({ path: "AGENTS.md", text: "# A\nx\n# B\ny\n", fileDates: DATES });
  deepEqual(headed.map((rule) => rule.title), ["A", "B"]);
});

Deno.test("a Cursor rule: description as title, globs as tags, alwaysApply kept", () => {
  const [rule] = readAgentFile({
    path: ".cursor/rules/react-style.mdc",
    text: "---\ndescription: React components style\nglobs: src/**/*.tsx, lib/*.tsx\n" +
      "alwaysApply: true\n---\nUse function components.\n",
    fileDates: DATES,
  });
  equal(rule.title, "React components style");
  deepEqual(rule.tags, ["cursor-rule", "src/**/*.tsx", "lib/*.tsx"]);
  equal(rule.alwaysApply, true);
  equal(rule.body, "Use function components.\n");
  const [named] = readAgentFile({
    path: ".cursor/rules/no_any.mdc",
    text: "No any.\n",
    fileDates: DATES,
  });
  equal(named.title, "no any");
  equal(named.alwaysApply, false);
});

Deno.test("isAgentFile knows CLAUDE.md, AGENTS.md and Cursor rules only", () => {
  deepEqual(
    ["CLAUDE.md", "x/AGENTS.md", ".cursor/rules/a.mdc", "notes.md", "rules/a.mdc"].map(isAgentFile),
    [true, true, true, false, false],
  );
});
