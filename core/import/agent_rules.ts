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
import { nonProseLines } from "../text/fences.ts";
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
  const inCode = nonProseLines();
  for (const line of text.split("\n")) {
    if (inCode(line)) continue;
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

/** A `##` section of a CLAUDE.md or AGENTS.md: its heading, its lines, and its key. */
interface Section {
  title: string;
  lines: string[];
  /** `<file>#<slug of the heading>`, unique in the file: a second import finds it again. */
  key: string;
}

/** The sections of a CLAUDE.md or AGENTS.md, without git-kb's own block. */
function sectionsOf(note: SourceNote): Section[] {
  const text = withoutBlock(note.text);
  const lines = text.split("\n");
  const level = lines.some((line) => /^##[ \t]/.test(line)) ? "## " : "# ";
  const sections: Omit<Section, "key">[] = [];
  let current: Omit<Section, "key"> | undefined;
  const inCode = nonProseLines();
  for (const line of lines) {
    if (!inCode(line) && line.startsWith(level)) {
      current = { title: line.slice(level.length).replace(/#+\s*$/, ""), lines: [] };
      sections.push(current);
    } else if (current) current.lines.push(line);
    else if (line.trim() && !/^#\s/.test(line) && !/^@\S+\s*$/.test(line)) {
      current = { title: fileTitle(note.path), lines: [line] };
      sections.push(current);
    }
  }
  const keys = new Set<string>();
  return sections.map((section) => {
    let key = `${note.path}#${slugify(section.title)}`;
    while (keys.has(key)) key += "-2";
    keys.add(key);
    return { ...section, key };
  });
}

/** Why a section is no rule: nothing in it, or only `@imports` (read as notes of their own). */
function sectionLeftOut(section: Section): string | undefined {
  const said = section.lines.filter((line) => line.trim());
  if (!said.length) return "is an empty section: there is nothing in it to keep";
  if (said.every((line) => /^@\S+\s*$/.test(line))) {
    return "holds only @imports, whose files are read as notes of their own";
  }
  return undefined;
}

function sectionRules(note: SourceNote): AgentRule[] {
  return sectionsOf(note).filter((section) => !sectionLeftOut(section)).map((section) =>
    rule({ ...note, path: section.key }, section.title, section.lines.join("\n"))
  );
}

/**
 * The sections of an agent file that are no rule, each by its key (`CLAUDE.md#setup`) with why;
 * none for a Cursor rule file, which is one rule.
 */
export function sectionsLeftOut(note: SourceNote): { path: string; reason: string }[] {
  if (note.path.endsWith(".mdc")) return [];
  return sectionsOf(note).flatMap((section) => {
    const reason = sectionLeftOut(section);
    return reason ? [{ path: section.key, reason }] : [];
  });
}

function fileTitle(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/, "");
}
