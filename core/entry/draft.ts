/**
 * The text a person edits in their editor: the template of a new entry (every field, each with a
 * comment saying what goes there), notes at the top of a draft (why it was not saved), and reading
 * a draft back as a whole entry. Pure: no I/O.
 *
 * @module
 */
import {
  type Entry,
  EntryParseError,
  parseEntryText,
  type Problem,
  serializeEntry,
  splitFrontmatter,
  toEntry,
} from "./entry.ts";
import { ACTIVITIES, ENTRY_TYPES, KNOWN_FIELDS, LINK_RELS, STATUSES } from "./schema.ts";

/** What each field of the template says about itself, as the comment line above it. */
const FIELD_HELP: Record<typeof KNOWN_FIELDS[number], string> = {
  id: "kb- and 5 characters of [0-9a-z]; a new one was picked for you",
  title: "required: one line that says what this is",
  type: ENTRY_TYPES.join(" | "),
  tags: "what it is about, e.g. [git, ci/cd]",
  aliases: "other words people search for it by: abbreviations, synonyms",
  applies_to: `the kinds of work it is for: any of [${ACTIVITIES.join(", ")}]`,
  kernel: "true: the body goes into every prompt (keep it short)",
  status: STATUSES.join(" | "),
  created: "YYYY-MM-DD",
  updated: "YYYY-MM-DD",
  source: "where it came from: a URL or a reference",
  links: `e.g. [{ rel: related, to: kb-1a2b3 }]; rel is one of ${LINK_RELS.join(", ")}`,
};

/** Fields {@link serializeEntry} leaves out when empty, as the template writes them. */
const EMPTY_FIELDS: Partial<Record<typeof KNOWN_FIELDS[number], string>> = {
  aliases: "aliases: []",
  applies_to: "applies_to: []",
  source: "source:",
  links: "links: []",
};

const TEMPLATE_HEADER = [
  "# A new git-kb entry: fill in the fields, write the markdown body after the closing ---,",
  "# then save and close the editor. Empty the file to cancel.",
];

/** The explanation that ends every notes block. */
export const NOTES_FOOTER =
  "# (Lines starting with # above the first --- are removed before saving.)";

/** The frontmatter lines of `text` grouped by top-level field: `links:` keeps its item lines. */
function fieldBlocks(frontmatter: string): Map<string, string[]> {
  const blocks = new Map<string, string[]>();
  let current: string[] = [];
  for (const line of frontmatter.split("\n").filter(Boolean)) {
    const key = /^([A-Za-z_][A-Za-z0-9_-]*):/.exec(line)?.[1];
    if (key && !line.startsWith(" ")) blocks.set(key, current = []);
    current.push(line);
  }
  return blocks;
}

/**
 * The text `add --edit` opens: a header saying what to do, then `entry` with every contract field
 * written out (empty ones too), each under a comment line that explains it, then the body.
 */
export function entryTemplate(entry: Entry): string {
  const { frontmatter, body } = splitFrontmatter(serializeEntry(entry), entry.id);
  const blocks = fieldBlocks(frontmatter);
  const lines: string[] = [];
  for (const field of KNOWN_FIELDS) {
    const block = blocks.get(field) ?? [EMPTY_FIELDS[field] ?? `${field}:`];
    lines.push(`# ${field}: ${FIELD_HELP[field]}`, ...block);
    blocks.delete(field);
  }
  for (const block of blocks.values()) lines.push(...block);
  return `${TEMPLATE_HEADER.join("\n")}\n---\n${lines.join("\n")}\n---\n${body}`;
}

/**
 * `text` without the comment lines above its frontmatter: every leading line that starts with `#`
 * (or is blank), when a `---` line follows them. Text with no frontmatter is returned as it is,
 * so a markdown heading is never taken for a note.
 */
export function stripNotes(text: string): string {
  const lines = text.split("\n");
  const first = lines.findIndex((line) => !line.startsWith("#") && line.trim() !== "");
  if (first <= 0 || !/^---\r?$/.test(lines[first])) return text;
  return lines.slice(first).join("\n");
}

/** `text` with its old notes replaced by `notes`, one `#` line each, above the frontmatter. */
export function withNotes(text: string, notes: readonly string[]): string {
  const stripped = stripNotes(text);
  if (!notes.length) return stripped;
  const block = notes.flatMap((note) => note.split("\n")).map((line) => `# ${line}`.trimEnd());
  return `${[...block, NOTES_FOOTER].join("\n")}\n${stripped}`;
}

/** Problems as notes: a heading line, then `field: message` per problem. */
export function problemNotes(heading: string, problems: readonly Problem[]): string[] {
  return [heading, ...problems.map((problem) => `  ${problem.field}: ${problem.message}`)];
}

/**
 * Read a draft (the notes stripped) as a whole entry: the typed entry, or every problem found.
 * Text that is not an entry at all is one problem, on the field `frontmatter`.
 */
export function readDraft(text: string, source: string): { entry?: Entry; problems: Problem[] } {
  try {
    return toEntry(parseEntryText(stripNotes(text), source));
  } catch (error) {
    if (!(error instanceof EntryParseError)) throw error;
    return { problems: [{ field: "frontmatter", message: error.message }] };
  }
}
