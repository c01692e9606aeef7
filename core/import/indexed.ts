/**
 * Folders that keep one file per topic and an index listing them, pure: a `knowledge/` folder
 * of concept files (each starting with `status:` / `timestamp:` lines, without frontmatter
 * fences, listed by an `index.md`), and Claude Code's auto-memory folder (`MEMORY.md` listing
 * its topic files). Each topic file becomes a note; the index is not one, but the text and the
 * one-line summary it gives a file become that note's alias and first line. A section of
 * `MEMORY.md` that says more than which files to read becomes a note of its own.
 *
 * @module
 */
import { slugify } from "../entry/edit.ts";
import { LIMITS } from "../entry/schema.ts";
import { nonProseLines } from "../text/fences.ts";
import { join } from "../path.ts";
import { type ImportedNote, noteFromFields, readNote, type SourceNote } from "./note.ts";

/** What an index says of a file it lists. */
export interface IndexLine {
  /** The link's text, e.g. `Retry policy` in `- [Retry policy](retry.md) — when to retry`. */
  title: string;
  /** The one-line summary after the link, if any. */
  summary: string;
}

/** The name of Claude Code's auto-memory index. */
export const MEMORY_INDEX = "MEMORY.md";

/** Whether a path is a `knowledge/` folder's index: `index.md`, `INDEX.md` or `_index.md`. */
export function isIndexFile(path: string): boolean {
  return /^_?index\.md$/i.test(path.slice(path.lastIndexOf("/") + 1));
}

/** A `key: value` line of a concept file's header. */
const HEADER_LINE = /^([A-Za-z][\w-]*):[ \t]*(.*?)[ \t]*$/;

/** Keys that make the lines at the top of a file a concept header. */
const CONCEPT_KEYS = new Set(["status", "timestamp"]);

/**
 * The `key: value` lines a concept file starts with (after an optional `# Title` line), and
 * the body without them; undefined when the file does not start with a `status:` or
 * `timestamp:` line among them.
 */
export function conceptHeader(
  text: string,
): { fields: Record<string, string>; body: string } | undefined {
  const lines = text.replace(/^\ufeff/, "").split("\n");
  let at = 0;
  while (at < lines.length && !lines[at].trim()) at++;
  const heading = /^#[ \t]/.test(lines[at] ?? "") ? at++ : -1;
  const fields: Record<string, string> = {};
  let concept = false;
  for (; at < lines.length; at++) {
    const match = HEADER_LINE.exec(lines[at].replace(/\r$/, ""));
    if (!match) break;
    const key = match[1].toLowerCase();
    fields[key] = match[2];
    if (CONCEPT_KEYS.has(key)) concept = true;
  }
  if (!concept) return undefined;
  const rest = lines.slice(at).join("\n").replace(/^\s*\n/, "");
  return { fields, body: heading >= 0 ? `${lines[heading]}\n\n${rest}` : rest };
}

/** A markdown link or wikilink to another file, at the start of a list item or a table cell. */
const LISTED =
  /^\s*(?:[-*+]|\d+[.)]|\|)\s*(?:\*\*)?(?:\[([^\]\n]+)\]\(<?([^)>\s]+)>?\)|\[\[([^\]|#\n]+)(?:\|([^\]\n]+))?\]\])(?:\*\*)?\s*(.*)$/;

/**
 * What the index at `indexPath` says of each file it lists, by the listed file's path inside
 * the imported folder (a link is read relative to the index's folder; a wikilink names a file
 * without its `.md`). Links to addresses elsewhere (`https:`, `#anchor`) are not files.
 */
export function indexLines(indexPath: string, text: string): Map<string, IndexLine> {
  const folder = indexPath.includes("/") ? indexPath.slice(0, indexPath.lastIndexOf("/")) : "";
  const listed = new Map<string, IndexLine>();
  for (const line of text.split("\n")) {
    const match = LISTED.exec(line.replace(/\r$/, ""));
    if (!match) continue;
    const [, linkText, href, wikiName, wikiText, after] = match;
    const target = href ?? `${wikiName.trim()}.md`;
    if (/^[a-z][a-z0-9+.-]*:|^#/i.test(target)) continue;
    let path: string;
    try {
      path = join(folder, decodeURIComponent(target.replace(/#.*$/, "")));
    } catch {
      continue;
    }
    if (path.startsWith("..") || listed.has(path)) continue;
    const summary = after.replace(/^[\s|:—–-]+/, "").replace(/\s*\|\s*$/, "")
      .split(/\s*\|\s*/)[0].trim();
    listed.set(path, { title: (linkText ?? wikiText ?? wikiName).trim(), summary });
  }
  return listed;
}

/** Whether a line of an index only points at a file it lists. */
function onlyLists(indexPath: string, line: string): boolean {
  return indexLines(indexPath, line).size > 0;
}

/**
 * The note a topic file makes, with what its index says of it: the index's link text its title
 * when only the file name titled it, else an alias when it is not the title; and the summary the
 * body's first line unless the body has it.
 */
function withIndexLine(note: ImportedNote, line: IndexLine | undefined): ImportedNote {
  if (!line) return note;
  const alias = line.title;
  const named = note.sourcePath.slice(note.sourcePath.lastIndexOf("/") + 1).replace(/\.md$/i, "");
  if (note.title === named && alias !== named && alias.length <= LIMITS.maxTitleChars) {
    // Titled by nothing but its file name: the index's words for it are the better title.
    return withIndexLine({ ...note, title: alias }, line);
  }
  const aliases = alias.toLowerCase() !== note.title.toLowerCase() &&
      alias.length <= LIMITS.maxKeywordChars &&
      !note.aliases.some((known) => known.toLowerCase() === alias.toLowerCase())
    ? [...note.aliases, alias].slice(0, LIMITS.maxListItems)
    : note.aliases;
  const summary = line.summary;
  const body = summary && !note.body.includes(summary)
    ? `${summary}\n\n${note.body.replace(/^\s*\n/, "")}`
    : note.body;
  return { ...note, aliases, body };
}

/** The notes of a `knowledge/` folder (see the module doc), and the index files read. */
export function readKnowledgeFolder(
  files: readonly SourceNote[],
): { notes: ImportedNote[]; indexes: string[] } {
  const indexes = files.filter((file) => isIndexFile(file.path));
  const listed = new Map<string, IndexLine>();
  for (const index of indexes) {
    for (const [path, line] of indexLines(index.path, index.text)) {
      if (!listed.has(path)) listed.set(path, line);
    }
  }
  const notes = files.filter((file) => !isIndexFile(file.path)).map((file) => {
    const header = conceptHeader(file.text);
    const note = header ? noteFromFields(file, header.fields, header.body) : readNote(file);
    return withIndexLine(note, listed.get(file.path));
  });
  return { notes, indexes: indexes.map((index) => index.path) };
}

/** The type a Claude memory file's `type:` names, in the contract's terms. */
function memoryType(type: string | undefined): string | undefined {
  if (type === "feedback") return "rule";
  return type === "user" || type === "project" ? "note" : undefined;
}

/** A section of `MEMORY.md`: its heading and lines. */
interface Section {
  title: string;
  lines: string[];
}

/** The sections of `MEMORY.md` by `#`/`##` heading; lines before the first go to `Memory`. */
function memorySections(text: string): Section[] {
  const sections: Section[] = [];
  let current: Section | undefined;
  const inCode = nonProseLines();
  for (const line of text.split("\n")) {
    const heading = inCode(line) ? undefined : /^#{1,2}[ \t]+(.+?)[ \t#]*$/.exec(line);
    if (heading) {
      current = { title: heading[1], lines: [] };
      sections.push(current);
    } else {
      if (!current) sections.push(current = { title: "Memory", lines: [] });
      current.lines.push(line);
    }
  }
  return sections;
}

/**
 * The notes of a Claude Code auto-memory folder (see the module doc): each topic file, and each
 * section of `MEMORY.md` with more in it than links to topic files, all tagged `claude-memory`.
 */
export function readMemoryFolder(files: readonly SourceNote[]): ImportedNote[] {
  const index = files.find((file) => file.path === MEMORY_INDEX);
  const listed = index ? indexLines(index.path, index.text) : new Map<string, IndexLine>();
  const tagged = (note: ImportedNote): ImportedNote => ({
    ...note,
    tags: ["claude-memory", ...note.tags.filter((tag) => tag !== "claude-memory")]
      .slice(0, LIMITS.maxListItems),
  });
  const notes: ImportedNote[] = [];
  if (index) {
    const keys = new Set<string>();
    for (const section of memorySections(index.text)) {
      const lines = section.lines.filter((line) => !onlyLists(index.path, line));
      if (!lines.some((line) => line.trim())) continue;
      // Keyed by its heading, so a second import finds the section again after others move.
      let key = `${MEMORY_INDEX}#${slugify(section.title)}`;
      while (keys.has(key)) key += "-2";
      keys.add(key);
      const note = readNote({ ...index, path: key, text: lines.join("\n") });
      notes.push(tagged({ ...note, title: section.title.slice(0, LIMITS.maxTitleChars) }));
    }
  }
  for (const file of files) {
    if (file === index) continue;
    const note = readNote(file);
    const type = memoryType(frontmatterLine(file.text, "type"));
    const typed = type ? { ...note, type: type as ImportedNote["type"] } : note;
    // A topic file's own `description:` is its summary where MEMORY.md gives none.
    const description = frontmatterLine(file.text, "description") ?? "";
    const line = listed.get(file.path) ??
      (description ? { title: note.title, summary: "" } : undefined);
    const summary = line?.summary || description;
    notes.push(tagged(withIndexLine(typed, line && { ...line, summary })));
  }
  return notes;
}

/** The value of a `key:` line of a file's frontmatter, unquoted, if it has one. */
function frontmatterLine(text: string, key: string): string | undefined {
  const match = /^---\r?\n([\s\S]*?)\r?\n---/.exec(text.replace(/^\ufeff/, ""));
  const line = match && new RegExp(`^${key}:[ \\t]*(.*?)[ \\t]*$`, "m").exec(match[1])?.[1];
  return line ? line.replace(/^(["'])(.*)\1$/, "$2").trim() || undefined : undefined;
}
