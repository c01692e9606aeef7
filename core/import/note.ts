/**
 * A markdown note from another tool (an Obsidian vault, a plain folder of markdown) read as the
 * fields of an entry, pure: the title from the frontmatter, a `# heading` before the note's
 * words or the file name; tags from the frontmatter (a list or a comma string), inline `#tags` and the folders the
 * note sits in; aliases; dates from the frontmatter, else from what the caller found (the source
 * file's git history, then its modification time); a type inferred from what the note is.
 * Wikilinks are resolved afterwards, across all notes, by `wikilinks.ts`.
 *
 * @module
 */
import { parseEntryText } from "../entry/entry.ts";
import { parseFrontmatterYaml } from "../entry/frontmatter_yaml.ts";
import { firstHeading } from "../entry/repair.ts";
import {
  ENTRY_TYPES,
  type EntryType,
  isCalendarDate,
  KNOWN_FIELDS,
  LIMITS,
  type Status,
} from "../entry/schema.ts";
import { IMPORTED_FOLDER, IMPORTED_FROM } from "./plan.ts";
import { tomlFields } from "./toml.ts";
import { nonProseLines } from "../text/fences.ts";

/** A source file as the caller read it. */
export interface SourceNote {
  /** The path inside the imported folder, with `/` separators, e.g. `Ops/Rotate keys.md`. */
  path: string;
  /** The file's text. */
  text: string;
  /** The file's first and last change (git history, else its modification time), YYYY-MM-DD. */
  fileDates: { created: string; updated: string };
}

/** A note read as the fields of an entry, before it has an id. */
export interface ImportedNote {
  /** Where the note came from, inside the imported folder: kept so a second import updates it. */
  sourcePath: string;
  title: string;
  type: EntryType;
  status: Status;
  tags: string[];
  aliases: string[];
  created: string;
  updated: string;
  /** A URL the note is about (a bookmark's address, a `source:`/`url:` field). */
  source?: string;
  /**
   * Names of the notes this one says it supersedes (a `supersedes:` field, or a first line
   * "Supersedes [[X]]" / "Replaces X"), resolved like wikilinks.
   */
  supersedes: string[];
  /** The body, wikilinks still as written. */
  body: string;
  /**
   * The note's frontmatter fields the entry has no field of its own for (see {@link keptFields}),
   * kept in the entry as they are.
   */
  fields?: Record<string, unknown>;
  /**
   * What could not be read as written, e.g. frontmatter that is not YAML, a title cut at the
   * contract's length, tags past the contract's number left out.
   */
  warnings: string[];
}

/** Read a source note (see the module doc). Never throws. */
export function readNote(note: SourceNote): ImportedNote {
  const warnings: string[] = [];
  const { fields, body } = frontmatterOf(note.text, warnings);
  return noteFromFields(note, { ...pageProperties(body), ...fields }, body, warnings);
}

/** The page properties a note's title, aliases and tags are read from, as fields are named. */
const PAGE_PROPERTIES: Record<string, string> = { title: "title", alias: "aliases", tags: "tags" };

/**
 * The title, aliases and tags a Logseq page (or an Obsidian Dataview note) gives in the
 * `key:: value` lines it starts with, its page properties, as frontmatter fields: `[[…]]` around a
 * name is not part of it (`alias:: [[CI]], [[Build]]` names `CI` and `Build`). The lines stay in
 * the body, as the note has them; the other properties are left there.
 */
function pageProperties(body: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const line of body.replace(/^\s*\n/, "").split("\n")) {
    const property = /^([A-Za-z][\w-]*)::[ \t]*(.*?)\s*$/.exec(line);
    if (!property) break;
    const field = PAGE_PROPERTIES[property[1].toLowerCase()];
    if (field && property[2]) fields[field] = property[2].replace(/\[\[([^\]\n]*)\]\]/g, "$1");
  }
  return fields;
}

/**
 * A note from fields the caller has read already (a frontmatter, or the `key: value` lines a
 * concept file starts with) and the body after them.
 */
export function noteFromFields(
  note: SourceNote,
  fields: Record<string, unknown>,
  body: string,
  warnings: string[] = [],
): ImportedNote {
  const named = fileTitle(note.path);
  const title = text(fields.title) ?? text(fields.name) ?? topHeading(body, named) ?? named;
  const description = text(fields.description);
  const dates = noteDates(fields, note.fileDates, note.path);
  const source = text(fields.source) ?? text(fields.url) ?? soleUrl(body);
  const supersedes = supersededNames(fields, body);
  const type = inferType(fields, title, body);
  const status = inferStatus(fields);
  const aliases = aliasesOf(fields);
  return {
    sourcePath: note.path,
    title: oneLineTitle(title, warnings),
    type,
    status,
    tags: within(
      "tags",
      unique([
        ...listOf(fields.tags, "tag", warnings),
        ...inlineTags(body),
        ...folderTags(note.path),
      ]),
      warnings,
    ),
    aliases: within(
      "aliases",
      unique(listOf(aliases.names, "alias", warnings).map((alias) => alias.replace(/^#/, ""))),
      warnings,
    ),
    ...dates,
    ...(source ? { source } : {}),
    supersedes,
    body: withDescription(withoutTitleHeading(body, title), description),
    fields: { ...keptFields(fields, { type, status, ...dates, source }), ...aliases.kept },
    warnings,
  };
}

/**
 * An alias that is an address of the page on a site, not a name of the note: Hugo's `aliases:
 * [/posts/old-url/]` (or `old.html`, `https://…`), the URLs that redirect to it.
 */
const PAGE_ADDRESS = /^(?:\/|[a-z][a-z0-9+.-]*:\/\/)|\.html?$|\/$/i;

/**
 * The aliases a note's `aliases` (or `alias`) field gives as names, and the field kept with the
 * others it gives, which are its page's addresses (see {@link PAGE_ADDRESS}), when it has any.
 */
function aliasesOf(
  fields: Record<string, unknown>,
): { names: unknown[]; kept: Record<string, unknown> } {
  const name = fields.aliases !== undefined ? "aliases" : "alias";
  const value = fields[name];
  const items = Array.isArray(value) ? value : typeof value === "string" ? value.split(",") : [];
  const isAddress = (item: unknown) => typeof item === "string" && PAGE_ADDRESS.test(item.trim());
  const addresses = items.filter(isAddress);
  if (!addresses.length) return { names: items, kept: {} };
  const names = items.filter((item) => !isAddress(item));
  // Kept as written when it gives addresses alone, else as the list of them.
  return { names, kept: { [keptName(name)]: names.length ? addresses : value } };
}

/** The name a field of the note is kept under: `note_<name>` when the entry uses the name. */
function keptName(name: string): string {
  return ENTRY_OWN.includes(name) ? `note_${name}` : name;
}

/** The frontmatter fields an import reads into the entry's own fields, or its body. */
const READ_FIELDS = new Set([
  "title",
  "description",
  "tags",
  "aliases",
  "alias",
  "supersedes",
  "replaces",
]);

/** The frontmatter fields a date is read from. */
const DATE_FIELDS = new Set(["created", "date", "timestamp", "updated", "modified"]);

/** The field names an entry keeps for itself: the contract's, and the import's keys. */
const ENTRY_OWN: readonly string[] = [...KNOWN_FIELDS, IMPORTED_FROM, IMPORTED_FOLDER];

/**
 * The note's fields the entry has no place for, so that no property of the note is lost: every
 * field but those read into the entry (`title`, `tags`, `aliases`…), `name` when it gave the
 * title, a date field whose date is the entry's `created` or `updated` (its time of day is not
 * kept), a `source` or `url` that is the entry's source, and a `type` or `status` that is the
 * entry's word. One whose name the entry uses for its own (`id`, `links`, `kernel`, a `type:
 * book`…) is kept as `note_<name>`, so that it is never read as the entry's.
 */
function keptFields(
  fields: Record<string, unknown>,
  entry: Pick<ImportedNote, "type" | "status" | "created" | "updated" | "source">,
): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(fields)) {
    if (READ_FIELDS.has(name) || (name === "name" && text(fields.title) === undefined)) continue;
    const date = DATE_FIELDS.has(name) ? dateOf(value) : undefined;
    if (date && (date === entry.created || date === entry.updated)) continue;
    if ((name === "source" || name === "url") && text(value) === entry.source) continue;
    const said = text(value)?.toLowerCase();
    if ((name === "type" || name === "status") && said === entry[name]) continue;
    kept[keptName(name)] = value;
  }
  return kept;
}

/** The body with the note's `description:` as its first line, unless the body has it already. */
function withDescription(body: string, description: string | undefined): string {
  if (!description || body.includes(description)) return body;
  return `${description.replace(/\s+/g, " ")}\n\n${body.replace(/^\s*\n/, "")}`;
}

/**
 * The notes a note says it supersedes: its `supersedes:` (or `replaces:`) field, a list or one
 * name, wikilink brackets or not; else a first prose line that starts "Supersedes" or "Replaces"
 * and names them as wikilinks (or one plain name).
 */
function supersededNames(fields: Record<string, unknown>, body: string): string[] {
  const named = fields.supersedes ?? fields.replaces;
  const listed = Array.isArray(named) ? named : named === undefined ? [] : [named];
  const names = listed.filter((item) => typeof item === "string" || Array.isArray(item))
    .map((item) => Array.isArray(item) ? item.flat().join("") : item)
    .map((item) => item.trim().replace(/^\[\[|\]\]$/g, "").replace(/[|#].*$/, "").trim());
  if (names.length) return unique(names.filter(Boolean)).slice(0, LIMITS.maxListItems);
  const first = body.split("\n").find((line) => line.trim() && !/^#{1,6}\s/.test(line))?.trim();
  const said = first && /^(?:supersedes|replaces)\b:?\s*(.+)$/i.exec(first)?.[1];
  if (!said) return [];
  const linked = [...said.matchAll(/\[\[([^\]|#\n]+)/g)].map((match) => match[1].trim());
  return unique(linked.length ? linked : [said.replace(/[.!]+$/, "").trim()])
    .slice(0, LIMITS.maxListItems);
}

/**
 * The frontmatter fields of a note's `text` (empty when there are none or they do not parse, said
 * in `warnings`) and its body: YAML between `---` lines, or TOML between `+++` lines as Hugo
 * writes it (kept in the body when it is not read).
 */
export function frontmatterOf(
  text: string,
  warnings: string[],
): { fields: Record<string, unknown>; body: string } {
  const clean = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const toml = /^\+\+\+[ \t]*\r?\n([\s\S]*?)\r?\n?\+\+\+[ \t]*(?:\r?\n|$)/.exec(clean);
  if (toml) {
    try {
      return { fields: tomlFields(toml[1]), body: clean.slice(toml[0].length) };
    } catch (error) {
      // Kept where it is: its fields are not read, but none of its words is lost.
      warnings.push(
        `its TOML frontmatter is kept in the body as written: ${(error as Error).message}`,
      );
      return { fields: {}, body: clean };
    }
  }
  const match = /^---\r?\n([\s\S]*?)\r?\n?---[ \t]*(?:\r?\n|$)/.exec(clean);
  if (!match) return { fields: {}, body: clean };
  const body = clean.slice(match[0].length);
  try {
    return { fields: fieldsOf(match[1]), body };
  } catch (error) {
    const { text, quoted } = plainValuesQuoted(match[1]);
    try {
      const fields = quoted.length ? fieldsOf(text) : undefined;
      if (fields) {
        warnings.push(
          `its frontmatter is not valid YAML: the ${quoted.join(", ")} of it read as plain text`,
        );
        return { fields, body };
      }
    } catch {
      // Still not YAML: left out as a whole, below.
    }
    warnings.push(`its frontmatter is left out: ${frontmatterFault(error)}`);
    return { fields: {}, body };
  }
}

/**
 * Why a note's frontmatter does not parse, as the note's author reads it: no "Cannot parse
 * entry" preamble, and YAML's place of the fault (`(1:30)`, counted from the first line after
 * `---`) given as a line of the file.
 */
function frontmatterFault(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.replace(/^Cannot parse entry "[^"]*": (?:the frontmatter is )?/, "")
    .replace(
      / \((\d+):(\d+)\)\)$/,
      (_, line, column) => ` at line ${Number(line) + 1}, column ${column})`,
    );
}

/**
 * The fields of a note's frontmatter text (without its `---` lines); throws when not YAML. A title
 * YAML reads as a number is its text as written: `title: 09` (a Dendron journal's month) is `09`,
 * not `9`, and `title: 0.110` is not `0.11`.
 */
function fieldsOf(frontmatter: string): Record<string, unknown> {
  const fields = parseEntryText(`---\n${frontmatter}\n---\n`, "the note").fields;
  const written = /^title:[ \t]+([^\s#'"][^#\n]*?)[ \t]*(?:#[^\n]*)?$/m.exec(frontmatter)?.[1];
  return typeof fields.title === "number" && written ? { ...fields, title: written } : fields;
}

/**
 * The frontmatter with each top-level `key: value` line whose value is not YAML on its own made a
 * quoted string, as the note's author meant it: `title: ADR-19 — prices: stored with tax` (a
 * second `: `) and ``title: `git commit` is not isolated`` (a leading backtick) are plain text
 * to a person, and so are `title: "250 queued" is not delivery` (a quoted start, then more),
 * `related: [[a]] [[b]]` (wikilinks) and Cursor's `globs: **\/*.ts` (an alias to YAML, and
 * entries refuse anchors, so never one). A value that opens a list, a map or a block (`[`, `{`,
 * `|`, `>`), an anchor or a tag (`&`, `!`) meant YAML, and is left as it is. Returns the keys
 * quoted, in order.
 */
function plainValuesQuoted(frontmatter: string): { text: string; quoted: string[] } {
  const quoted: string[] = [];
  const lines = frontmatter.split("\n").map((line) => {
    const field = /^([A-Za-z_][\w-]*):[ \t]+((?:\[\[|[^\s[{|>&!]).*?)\s*$/.exec(line);
    if (!field) return line;
    try {
      parseFrontmatterYaml(line, "the note");
      return line;
    } catch {
      quoted.push(field[1]);
      return `${field[1]}: ${JSON.stringify(field[2])}`;
    }
  });
  return { text: lines.join("\n"), quoted };
}

/** A scalar field as trimmed text, if it has any. */
function text(value: unknown): string | undefined {
  if (typeof value === "string" || typeof value === "number") {
    return String(value).trim() || undefined;
  }
  return undefined;
}

/**
 * A list field from a list, or a comma (or space, for tags) separated string: `aliases: key
 * rotation` is one alias; an item longer than the contract allows is left out, and said in
 * `warnings` as a `what`.
 */
function listOf(value: unknown, what: "tag" | "alias", warnings: string[]): string[] {
  const items = Array.isArray(value)
    ? value
    : typeof value === "string"
    ? value.split(value.includes(",") || what !== "tag" ? "," : /\s+/)
    : [];
  return items
    .filter((item) => item !== null && typeof item !== "object")
    .map((item) => String(item).trim().replace(/^#/, ""))
    .filter((item) => {
      if (item.length <= LIMITS.maxKeywordChars) return item !== "";
      warnings.push(
        `${what} left out, longer than ${LIMITS.maxKeywordChars} characters: ` +
          `"${item.slice(0, 40)}…"`,
      );
      return false;
    });
}

/** The first items of a list the contract allows, the others said in `warnings`. */
function within(field: string, items: string[], warnings: string[]): string[] {
  if (items.length <= LIMITS.maxListItems) return items;
  const left = items.slice(LIMITS.maxListItems);
  warnings.push(
    `${field} cut from ${items.length} to ${LIMITS.maxListItems}; left out: ${left.join(", ")}`,
  );
  return items.slice(0, LIMITS.maxListItems);
}

/** A CSS hex colour (`#f00`, `#ff0000`, `#ff000080`): never a tag. */
const HEX_COLOUR = /^(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;

/**
 * The body's `#tags`, in prose only: not in code (fenced, indented, inline with any number of
 * backticks, `<code>`), headings, link targets or addresses; a number or a hex colour is never
 * one. `#a/b` nested tags read as `a/b`.
 */
function inlineTags(body: string): string[] {
  const tags: string[] = [];
  for (const line of proseLines(body)) {
    if (/^#{1,6}\s/.test(line)) continue;
    const plain = line.replace(/(`+)[^`]*?\1/g, " ").replace(/<code>.*?<\/code>/gi, " ")
      .replace(/\]\([^)]*\)/g, "]").replace(/<[a-z][a-z0-9+.-]*:[^>\s]*>/gi, " ");
    for (const match of plain.matchAll(/(?:^|\s)#([\p{L}\p{N}_][\p{L}\p{N}_/-]*)/gu)) {
      if (!/^\d+$/.test(match[1]) && !HEX_COLOUR.test(match[1])) tags.push(match[1].toLowerCase());
    }
  }
  return tags;
}

/**
 * The folders a note sits in, as tags: `Ops/Cloud/x.md` → `ops`, `cloud`; a Jekyll site's
 * `_posts/x.md` → `posts` (its `_` marks the folder as Jekyll's, no part of the name). A folder
 * named by a number is none, as `#2024` is no tag: a Zettelkasten's note folder
 * (`1841/README.md`), a year's.
 */
function folderTags(path: string): string[] {
  return path.split("/").slice(0, -1).map((folder) =>
    withoutNotionId(folder).trim().toLowerCase().replace(/\s+/g, "-").replace(/^_+/, "")
  ).filter((folder) => folder && !/^\d+$/.test(folder) && folder.length <= LIMITS.maxKeywordChars);
}

/**
 * The lines of a body outside code: fenced blocks (``` or ~~~, in a list or a quote too, closed
 * by a fence of the same character at least as long) and indented blocks after a blank line.
 */
function proseLines(body: string): string[] {
  const inCode = nonProseLines();
  let blank = true;
  let indented = false;
  return body.split("\n").filter((line) => {
    if (inCode(line)) return false;
    indented = /^(?: {4}|\t)/.test(line) && (blank || indented);
    blank = !line.trim();
    return !indented;
  });
}

/**
 * A line before a note's words that is none of them: an HTML tag (`<p align="center">`), badges
 * and images, a line of `#tags`, a Logseq `key:: value` property, an MDX page's `import` or
 * `export` line, an HTML comment on one line.
 */
const BEFORE_THE_WORDS = new RegExp(
  "^[ \\t]*(?:<!--.*-->|</?[A-Za-z][^>]*>|(?:\\[?!\\[[^\\]]*\\]\\([^)]*\\)(?:\\]\\([^)]*\\))?[ \\t]*)+|" +
    "(?:#[\\p{L}\\p{N}_/-]+[ \\t]*)+|[A-Za-z][\\w-]*::.*|(?:import|export)[ \\t].*)?\\r?$",
  "u",
);

/**
 * The name of a part of any note (`Definition`, `Overview`, `Summary`, `Todo`), which a heading
 * gives a section: one heading of it on its own, `# Overview`, titles no note.
 */
const SECTION_NAME = new RegExp(
  "^(?:abstract|background|context|contents|definitions?|description|details|examples?|" +
    "ideas|intro|introduction|key points|log|notes?|overview|problem|questions|references|" +
    "related|solution|sources|summary|table of contents|takeaways|tl;?dr|to ?do|usage)[ \\t]*:?$",
  "i",
);

/** An MDX page's `import {` whose names go on over the next lines, to a `} from "…"` one. */
const OPEN_IMPORT = /^import[ \t][^}]*\{[^}]*$/;

/**
 * The note's `# heading` when it comes before the note's words and is its only one, and names
 * more than a part: one after them, or after a `## section`, or one of several, or one that a
 * section of any note could have (`# Definition`, `# Overview`) while the file's name says more
 * (`Cache.md`, not `1-introduction.md` or `README.md`), names a part of the note (a Zettelkasten's
 * `# Definition` … `# Example` … `# Todo`), not the note, which its file name titles, as Obsidian
 * titles every note.
 */
function topHeading(body: string, fileName: string): string | undefined {
  const lines = body.split("\n");
  let comment = false;
  let importing = false;
  const first = lines.find((line) => {
    if (comment || /^[ \t]*<!--/.test(line) && !line.includes("-->")) {
      comment = !line.includes("-->");
      return false;
    }
    if (importing || OPEN_IMPORT.test(line)) {
      importing = !line.includes("}");
      return false;
    }
    return !BEFORE_THE_WORDS.test(line);
  });
  if (!first || !/^#[ \t]/.test(first)) return undefined;
  const inCode = nonProseLines();
  const headings = lines.filter((line) => !inCode(line) && /^#[ \t]/.test(line));
  const heading = headings.length === 1 ? firstHeading(first) : undefined;
  if (heading === undefined || !SECTION_NAME.test(heading)) return heading;
  // A docs site's `1-introduction.md` says no more than its `# Introduction`, spelled better, and
  // a folder's `README.md` or `index.md` says less.
  const named = fileName.replace(/^[\d\s._-]+/, "").replace(/[-_]+/g, " ").toLowerCase();
  const said = named === heading.replace(/[\s:]+$/, "").toLowerCase();
  return said || /^(?:readme|index)$/.test(named) ? heading : undefined;
}

/**
 * A file or folder name without the id a Notion export ends it with: `Team Wiki
 * 8c14a3b7b53f4b908b0f8db1eaa2fb87` is `Team Wiki`.
 */
function withoutNotionId(name: string): string {
  return name.replace(/ [0-9a-f]{32}$/, "");
}

/**
 * A title from a file name: `Ops/Rotate keys.md` → `Rotate keys`; a Logseq page of a namespace,
 * `Whiteboard___Action Bar.md` (or `Whiteboard%2FAction Bar.md`), is `Whiteboard/Action Bar`; a
 * Notion page's, `Deploy 1a2b…987.md`, `Deploy`.
 */
function fileTitle(path: string): string {
  const name = path.slice(path.lastIndexOf("/") + 1).replace(/\.(md|markdown|mdx|mdc)$/i, "");
  return withoutNotionId(name).replace(/___|%2F/gi, "/").trim() || "untitled";
}

/** A title on one line within the contract's length; a cut is said in `warnings`. */
function oneLineTitle(title: string, warnings: string[]): string {
  const line = title.replace(/\s+/g, " ").trim();
  if (line.length <= LIMITS.maxTitleChars) return line;
  const kept = line.slice(0, LIMITS.maxTitleChars - 1);
  warnings.push(
    `title cut at ${LIMITS.maxTitleChars} characters; left out: "${line.slice(kept.length)}"`,
  );
  return `${kept}…`;
}

/** The body without a first heading that only repeats the title. */
function withoutTitleHeading(body: string, title: string): string {
  const trimmed = body.replace(/^\s*\n/, "");
  const match = /^#[ \t]+(.+?)[ \t#]*\r?\n/.exec(trimmed);
  return match && match[1].trim() === title.trim()
    ? trimmed.slice(match[0].length).replace(/^\s*\n/, "")
    : body;
}

/**
 * A date field as YYYY-MM-DD (a time after it is dropped); a Unix time in milliseconds (Dendron's
 * `created: 1652376991319`) or seconds, as its day in UTC.
 */
function dateOf(value: unknown): string | undefined {
  if (typeof value === "number") {
    const milliseconds = value >= 1e12 && value < 1e13
      ? value
      : value >= 1e9 && value < 1e10
      ? value * 1000
      : undefined;
    return Number.isInteger(value) && milliseconds !== undefined
      ? new Date(milliseconds).toISOString().slice(0, 10)
      : undefined;
  }
  const date = typeof value === "string"
    ? /^(\d{4}-\d{2}-\d{2})/.exec(value.trim())?.[1]
    : undefined;
  return date && isCalendarDate(date) ? date : undefined;
}

/**
 * The day a note's name states, as a daily note, a journal page and a blog post are named: its
 * file's name, else its folder's, starting with the date (`2024-05-03.md`, Logseq's
 * `journals/2024_05_03.md`, Jekyll's `_posts/2021-01-01-hello.md`, Docusaurus's
 * `blog/2023-07-04/index.md`).
 */
function nameDate(path: string): string | undefined {
  const [file, folder = ""] = path.split("/").reverse();
  for (const name of [file, folder]) {
    const date = /^(\d{4})([-_.])(\d{2})\2(\d{2})(?!\d)/.exec(name);
    const day = date && `${date[1]}-${date[3]}-${date[4]}`;
    if (day && isCalendarDate(day)) return day;
  }
  return undefined;
}

/**
 * Created and updated: the frontmatter's dates first, then the one the note's name states (its
 * creation), then the file's. A note updated before the file's date (a fresh checkout's, with no
 * created date of its own) was created by then.
 */
function noteDates(
  fields: Record<string, unknown>,
  fileDates: SourceNote["fileDates"],
  path: string,
): { created: string; updated: string } {
  const stated = dateOf(fields.created) ?? dateOf(fields.date) ?? dateOf(fields.timestamp) ??
    nameDate(path);
  let created = stated ?? fileDates.created;
  let updated = dateOf(fields.updated) ?? dateOf(fields.modified) ?? dateOf(fields.timestamp) ??
    fileDates.updated;
  if (updated < created) {
    if (stated) updated = created;
    else created = updated;
  }
  return { created, updated };
}

/** The one URL a note holds when it is little else (a bookmark). */
function soleUrl(body: string): string | undefined {
  const urls = body.match(/https?:\/\/[^\s)>\]]+/g) ?? [];
  if (urls.length !== 1) return undefined;
  const words = body.replace(urls[0], "").split(/\s+/).filter((word) => /\w/.test(word));
  return words.length <= 30 ? urls[0] : undefined;
}

/** The note's type: a field of the contract's, else what its title, status and body say. */
function inferType(fields: Record<string, unknown>, title: string, body: string): EntryType {
  const named = text(fields.type)?.toLowerCase();
  if (named && (ENTRY_TYPES as readonly string[]).includes(named)) return named as EntryType;
  if (soleUrl(body) || text(fields.url)) return "bookmark";
  if (/^(how to|how-to|howto)\b/i.test(title)) return "howto";
  if (/^(adr\b|decision\b)/i.test(title) || /^#{1,6}\s+decision\s*$/im.test(body)) {
    return "decision";
  }
  return "note";
}

/** The note's status: a superseded or archived note says so in its status field. */
function inferStatus(fields: Record<string, unknown>): Status {
  const status = text(fields.status)?.toLowerCase() ?? "";
  if (/^(superseded|deprecated|obsolete|replaced|legacy)/.test(status)) return "superseded";
  if (/^(archived|done|closed|retired|inactive)/.test(status)) return "archived";
  return "active";
}

/** The items of a list once each, case-insensitively, in their first spelling. */
function unique(items: string[]): string[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = item.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
