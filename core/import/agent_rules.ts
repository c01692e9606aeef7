/**
 * Agents' own instruction files read as notes, pure: each `##` section of a CLAUDE.md or
 * AGENTS.md (or each `#` section when it has no `##`) becomes a rule, and each Cursor rule file
 * (`.cursor/rules/*.mdc`) one rule, its `description` the title, its `globs` tags, and
 * `alwaysApply: true` making it a kernel candidate. git-kb's own exported block is skipped, so
 * an export followed by an import brings nothing back twice.
 *
 * @module
 */
import { withoutBlock } from "../export/agent_files.ts";
import { slugify } from "../entry/edit.ts";
import { LIMITS } from "../entry/schema.ts";
import { frontmatterOf, type ImportedNote, type SourceNote } from "./note.ts";

/** A note read from an agent file, and whether it asks to apply always. */
export interface AgentRule extends ImportedNote {
  /** The source said the rule applies to every request (Cursor's `alwaysApply`). */
  alwaysApply: boolean;
}

/** Whether a path is an agent instruction file this module reads. */
export function isAgentFile(path: string): boolean {
  const name = path.slice(path.lastIndexOf("/") + 1);
  return name === "CLAUDE.md" || name === "AGENTS.md" || name === "CLAUDE.local.md" ||
    /(^|\/)\.cursor\/rules\/[^/]+\.mdc$/.test(path);
}

/** The rules of an agent file (see the module doc). */
export function readAgentFile(note: SourceNote): AgentRule[] {
  return note.path.endsWith(".mdc") ? [cursorRule(note)] : sectionRules(note);
}

/** The `@path` imports of a CLAUDE.md, outside code, in order. */
export function claudeImports(text: string): string[] {
  const imports: string[] = [];
  let fenced = false;
  for (const line of text.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    for (const match of line.replace(/`[^`]*`/g, "").matchAll(/(?:^|\s)@([~.\w/-][^\s]*)/g)) {
      if (!match[1].includes("@")) imports.push(match[1]);
    }
  }
  return imports;
}

function rule(
  note: SourceNote,
  title: string,
  body: string,
  extra: Partial<AgentRule> = {},
): AgentRule {
  return {
    sourcePath: note.path,
    title: title.replace(/\s+/g, " ").trim().slice(0, LIMITS.maxTitleChars) || "rule",
    type: "rule",
    status: "active",
    tags: [],
    aliases: [],
    created: note.fileDates.created,
    updated: note.fileDates.updated,
    body: body.trim() ? `${body.trim()}\n` : "",
    supersedes: [],
    warnings: [],
    alwaysApply: false,
    ...extra,
  };
}

/** A Cursor rule file: frontmatter (description, globs, alwaysApply), then the rule. */
function cursorRule(note: SourceNote): AgentRule {
  const warnings: string[] = [];
  const { fields, body } = frontmatterOf(note.text, warnings);
  const name = note.path.slice(note.path.lastIndexOf("/") + 1).replace(/\.mdc$/, "");
  const globs = typeof fields.globs === "string"
    ? fields.globs.split(",")
    : Array.isArray(fields.globs)
    ? fields.globs.map(String)
    : [];
  const description = typeof fields.description === "string" ? fields.description : "";
  return rule(note, description || name.replace(/[-_]+/g, " "), body, {
    tags: ["cursor-rule", ...globs.map((glob) => glob.trim()).filter(Boolean)].slice(
      0,
      LIMITS.maxListItems,
    ),
    alwaysApply: fields.alwaysApply === true || fields.alwaysApply === "true",
    warnings,
  });
}

/** The sections of a CLAUDE.md or AGENTS.md, without git-kb's own block. */
function sectionRules(note: SourceNote): AgentRule[] {
  const text = withoutBlock(note.text);
  const lines = text.split("\n");
  const level = lines.some((line) => /^##[ \t]/.test(line)) ? "## " : "# ";
  const sections: { title: string; lines: string[] }[] = [];
  let current: { title: string; lines: string[] } | undefined;
  let fenced = false;
  for (const line of lines) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (!fenced && line.startsWith(level)) {
      current = { title: line.slice(level.length).replace(/#+\s*$/, ""), lines: [] };
      sections.push(current);
    } else if (current) current.lines.push(line);
    else if (line.trim() && !/^#\s/.test(line) && !/^@\S+\s*$/.test(line)) {
      current = { title: fileTitle(note.path), lines: [line] };
      sections.push(current);
    }
  }
  const kept = sections.filter((section) =>
    section.lines.some((line) => line.trim() && !/^@\S+\s*$/.test(line))
  );
  const keys = new Set<string>();
  return kept.map((section) => {
    // Keyed by its heading, so a second import finds a section again after others move.
    let key = `${note.path}#${slugify(section.title)}`;
    while (keys.has(key)) key += "-2";
    keys.add(key);
    return rule({ ...note, path: key }, section.title, section.lines.join("\n"));
  });
}

function fileTitle(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/, "");
}
