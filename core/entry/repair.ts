/**
 * Reading an entry forgivingly: whatever a person or another tool wrote is served when it can
 * be. A field with a natural value is given it, with a repair that says what was done: `updated`
 * from `created` (then the file's last commit, then its modification time), `type` and `status`
 * case-folded, scalars in lists read as strings, dates with a time read as dates, an unquoted
 * `title: a: b` read as the text it meant. Only a file with no id to be had, frontmatter that
 * does not parse even so, or a value that cannot be given a meaning is left out, with its
 * problems. Saving stays strict: {@link toEntry} and {@link checkEntryFields} are the contract,
 * and this module only prepares what they check.
 *
 * @module
 */
import {
  ACTIVITIES,
  ENTRY_TYPES,
  ID_PATTERN,
  isCalendarDate,
  isOneOf,
  LIMITS,
  LINK_RELS,
  STATUSES,
} from "./schema.ts";
import { type Entry, parseEntryText, type Problem, toEntry } from "./entry.ts";
import { splitFrontmatter } from "./frontmatter.ts";
import { idFromPath } from "./identity.ts";
import { nonProseLines } from "../text/fences.ts";

/** What the reader knows of an entry's file besides its text. */
export interface FileFacts {
  /** The file's path inside the knowledge base, e.g. `entries/kb-7q2mx-rotate-keys.md`. */
  path: string;
  /**
   * The date a file's missing dates fall back to (its last commit, else its modification time),
   * as YYYY-MM-DD. Asked only when a date is missing, since finding it may cost a git call.
   */
  fallbackDate: () => string;
}

/** An entry read forgivingly: the entry and what was repaired, or why it was left out. */
export interface ForgivingRead {
  /** The entry as served, set when the file could be read as one. */
  entry?: Entry;
  /** What was given a natural value or read differently from how it is written. */
  repairs: Problem[];
  /**
   * The repairs that drop or replace something written (an unknown type read as `note`, a list
   * item left out, a title cut short): a save of the entry as read would lose it, so `edit`
   * refuses until a person decides.
   */
  lossy: Problem[];
  /** Why the file is left out (empty when `entry` is set). */
  problems: Problem[];
}

/** Repairs as they are gathered: every one, and those that drop or replace what was written. */
interface Repairs {
  all: Problem[];
  lossy: Problem[];
}

/** Record a repair; `lossy` when it drops or replaces something written. */
type Repaired = (field: string, message: string, lossy?: boolean) => void;

/** The default type of an entry that names none, or one outside the contract. */
const DEFAULT_TYPE = "note";

/**
 * Read an entry file's text forgivingly (see the module doc). Never throws: a file that cannot
 * be read as an entry is returned with its problems.
 */
export function readEntryForgivingly(text: string, facts: FileFacts): ForgivingRead {
  const repairs: Repairs = { all: [], lossy: [] };
  let parsed: { fields: Record<string, unknown>; body: string };
  try {
    parsed = parseLeniently(text, facts.path, repairs.all);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { repairs: [], lossy: [], problems: [{ field: "frontmatter", message }] };
  }
  const fields = repairFields(parsed.fields, parsed.body, facts, repairs);
  const { entry, problems } = toEntry({ fields, body: parsed.body });
  if (!entry) return { repairs: [], lossy: [], problems };
  return { entry, repairs: repairs.all, lossy: repairs.lossy, problems: [] };
}

/**
 * The frontmatter and body of `text`: a file without frontmatter is all body, and frontmatter
 * that is not YAML only because a top-level value holds `: ` unquoted is read with that value
 * quoted. Throws {@link EntryParseError} for anything else that does not parse.
 */
function parseLeniently(
  text: string,
  source: string,
  repairs: Problem[],
): { fields: Record<string, unknown>; body: string } {
  try {
    return parseEntryText(text, source);
  } catch (error) {
    // Only a file that does not parse as written is split again, to see what can be read.
    let split: { frontmatter: string; body: string };
    try {
      split = splitFrontmatter(text, source);
    } catch {
      repairs.push({
        field: "frontmatter",
        message: "is missing; the entry is read from its file name and its body",
      });
      return { fields: {}, body: text.charCodeAt(0) === 0xfeff ? text.slice(1) : text };
    }
    const quoted = quoteLooseValues(split.frontmatter);
    if (!quoted.fields.length) throw error;
    let reparsed;
    try {
      reparsed = parseEntryText(`---\n${quoted.text}---\n`, source);
    } catch {
      throw error;
    }
    for (const field of quoted.fields) {
      repairs.push({ field, message: 'holds ": " without quotes; read as one piece of text' });
    }
    return { fields: reparsed.fields, body: split.body };
  }
}

/** A top-level `key: value` line whose value is plain text (not quoted, a list or a block). */
const LOOSE_LINE = /^([A-Za-z_][\w-]*):[ \t]+([^\s"'[{|>&*!#][^\n]*?)[ \t]*$/;

/** Frontmatter with every plain top-level value that holds `: ` double-quoted. */
function quoteLooseValues(frontmatter: string): { text: string; fields: string[] } {
  const fields: string[] = [];
  const lines = frontmatter.split("\n").map((line) => {
    const match = LOOSE_LINE.exec(line.replace(/\r$/, ""));
    if (!match || !match[2].includes(": ")) return line;
    fields.push(match[1]);
    return `${match[1]}: ${JSON.stringify(match[2])}`;
  });
  const text = lines.join("\n");
  return { text: text.endsWith("\n") ? text : `${text}\n`, fields };
}

/** The fields with every repairable value given its natural reading. */
function repairFields(
  original: Record<string, unknown>,
  body: string,
  facts: FileFacts,
  repairs: Repairs,
): Record<string, unknown> {
  const fields = { ...original };
  const repaired: Repaired = (field, message, lossy = false) => {
    repairs.all.push({ field, message });
    if (lossy) repairs.lossy.push({ field, message });
  };
  if (fields.id === undefined || fields.id === null) {
    const id = idFromPath(facts.path);
    if (id) {
      fields.id = id;
      repaired("id", `is missing; read from the file name as ${id}`);
    }
  }
  repairTitle(fields, body, facts.path, repaired);
  fields.type = chosen(fields.type, ENTRY_TYPES, DEFAULT_TYPE, "type", repaired);
  fields.status = chosen(fields.status, STATUSES, "active", "status", repaired);
  fields.kernel = kernelFlag(fields.kernel, repaired);
  fields.tags = textList(commaSeparated(fields.tags, repaired), "tags", repaired);
  fields.aliases = textList(fields.aliases, "aliases", repaired);
  fields.applies_to = textList(fields.applies_to, "applies_to", repaired)?.filter((item) => {
    if (isOneOf(ACTIVITIES, item)) return true;
    repaired("applies_to", `"${item}" is not an activity; left out of applies_to`, true);
    return false;
  });
  repairDates(fields, facts, repaired);
  if (typeof fields.source === "number" || typeof fields.source === "boolean") {
    fields.source = String(fields.source);
    repaired("source", "is not text; read as text");
  }
  fields.links = usableLinks(fields.links, repaired);
  return fields;
}

function repairTitle(
  fields: Record<string, unknown>,
  body: string,
  path: string,
  repaired: Repaired,
): void {
  const title = fields.title;
  if (typeof title === "number" || typeof title === "boolean") {
    fields.title = String(title);
    repaired("title", "is not text; read as text");
  } else if (typeof title === "string" && /[\r\n]/.test(title.trim())) {
    fields.title = title.trim().replace(/\s*[\r\n]+\s*/g, " ");
    repaired("title", "spans several lines; read as one");
  } else if (typeof title === "string" && title.trim().length > LIMITS.maxTitleChars) {
    fields.title = `${title.trim().slice(0, LIMITS.maxTitleChars - 1)}…`;
    repaired("title", `is longer than ${LIMITS.maxTitleChars} characters; cut short`, true);
  } else if (title === undefined || title === null || title === "") {
    const heading = firstHeading(body);
    const fromName = heading ?? titleFromPath(path);
    if (fromName) {
      fields.title = fromName;
      repaired("title", `is missing; read from the ${heading ? "first heading" : "file name"}`);
    }
  }
}

/** The text of the body's first `# heading` outside code fences. */
export function firstHeading(body: string): string | undefined {
  const inCode = nonProseLines();
  for (const line of body.split("\n")) {
    // A file saved with Windows line ends keeps a `\r` at the end of each line.
    const match = inCode(line) ? null : /^#{1,6}[ \t]+(.+?)[ \t#]*\r?$/.exec(line);
    if (match) return match[1].trim();
  }
  return undefined;
}

/** A title from a file name: `kb-7q2mx-rotate-api-keys.md` → `rotate api keys`. */
function titleFromPath(path: string): string | undefined {
  const name = path.slice(path.lastIndexOf("/") + 1).replace(/\.md$/, "");
  const words = (idFromPath(path) ? name.slice(9) : name).replace(/[-_]+/g, " ").trim();
  return words || undefined;
}

/** A vocabulary value case-folded, or the default (with a repair) when it is missing or unknown. */
function chosen(
  value: unknown,
  vocabulary: readonly string[],
  fallback: string,
  field: string,
  repaired: Repaired,
): unknown {
  if (value === undefined || value === null) {
    if (field === "type") repaired(field, `is missing; read as ${fallback}`);
    return fallback;
  }
  if (typeof value !== "string") return value;
  const folded = value.trim().toLowerCase();
  if (vocabulary.includes(folded)) {
    if (folded !== value) repaired(field, `"${value}" read as ${folded}`);
    return folded;
  }
  repaired(field, `"${value}" is not one of ${vocabulary.join(", ")}; read as ${fallback}`, true);
  return fallback;
}

/** `kernel` as a boolean: yes/no and true/false in any case; anything else is not a kernel rule. */
function kernelFlag(value: unknown, repaired: Repaired): boolean {
  if (value === undefined || value === null) return false;
  if (typeof value === "boolean") return value;
  const word = String(value).trim().toLowerCase();
  const flag = word === "true" || word === "yes";
  repaired(
    "kernel",
    `"${String(value)}" read as ${flag}`,
    !["true", "false", "yes", "no"].includes(word),
  );
  return flag;
}

/**
 * Tags written as one comma-separated text (`tags: git, ci`, as Obsidian allows) as the list
 * they mean; any other value as it is.
 */
function commaSeparated(value: unknown, repaired: Repaired): unknown {
  if (typeof value !== "string" || !value.includes(",")) return value;
  const items = value.split(",").map((item) => item.trim()).filter(Boolean);
  repaired("tags", `is one text "${value}"; read as the list [${items.join(", ")}]`);
  return items;
}

/** A list field's items as trimmed text: scalars (null, yes, numbers) as strings, blanks dropped. */
function textList(
  value: unknown,
  field: string,
  repaired: Repaired,
): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  const items = Array.isArray(value) ? value : [value];
  const list: string[] = [];
  for (const item of items) {
    if (item !== null && typeof item === "object") {
      repaired(field, "holds a mapping or a list as an item; left out", true);
      continue;
    }
    const text = String(item).trim();
    if (typeof item !== "string") repaired(field, `${String(item)} read as the text "${text}"`);
    if (text.length > LIMITS.maxKeywordChars) {
      repaired(
        field,
        `"${text.slice(0, 40)}…" is longer than ${LIMITS.maxKeywordChars} characters; left out`,
        true,
      );
    } else if (text) list.push(text);
  }
  if (list.length > LIMITS.maxListItems) {
    repaired(field, `has ${list.length} items; the first ${LIMITS.maxListItems} are read`, true);
    list.length = LIMITS.maxListItems;
  }
  return list;
}

/** `created` and `updated` as dates: a time is dropped, a missing one is taken from the other. */
function repairDates(
  fields: Record<string, unknown>,
  facts: FileFacts,
  repaired: Repaired,
): void {
  for (const name of ["created", "updated"]) {
    const value = fields[name];
    const date = value instanceof Date
      ? value.toISOString().slice(0, 10)
      : typeof value === "string"
      ? /^(\d{4}-\d{2}-\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(value.trim())?.[1]
      : undefined;
    if (date && isCalendarDate(date)) {
      if (date !== value) repaired(name, `"${String(value)}" read as the date ${date}`);
      fields[name] = date;
    } else {
      if (value !== undefined && value !== null) {
        repaired(name, `"${String(value)}" is not a date; ignored`, true);
      }
      delete fields[name];
    }
  }
  const created = fields.created as string | undefined;
  const updated = fields.updated as string | undefined;
  if (updated === undefined) {
    fields.updated = created ?? facts.fallbackDate();
    repaired("updated", `is missing; read as ${fields.updated}${created ? " (created)" : ""}`);
  }
  if (created === undefined) {
    fields.created = updated ?? fields.updated;
    repaired("created", `is missing; read as ${fields.created}`);
  }
  if ((fields.updated as string) < (fields.created as string)) {
    repaired("updated", `is before created; read as ${fields.created}`, true);
    fields.updated = fields.created;
  }
}

/** The links that can be followed; the others are left out with a repair each. */
function usableLinks(
  value: unknown,
  repaired: Repaired,
): unknown {
  if (!Array.isArray(value)) return value;
  return value.filter((link) => {
    const { rel, to } = (link ?? {}) as Record<string, unknown>;
    if (isOneOf(LINK_RELS, rel) && typeof to === "string" && ID_PATTERN.test(to)) return true;
    repaired("links", `${JSON.stringify(link)} is not a { rel, to } link to an id; left out`, true);
    return false;
  });
}
