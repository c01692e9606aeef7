/**
 * Entries: parse markdown with YAML frontmatter, check each field against the contract, and
 * write an entry back out. Pure: no I/O. This is the only core module that loads the YAML
 * library, so the prompt hook never imports it.
 *
 * @module
 */
import yaml from "js-yaml";
import {
  ACTIVITIES,
  type Activity,
  DATE_PATTERN,
  ENTRY_TYPES,
  type EntryType,
  ID_PATTERN,
  isOneOf,
  KNOWN_FIELDS,
  LIMITS,
  LINK_RELS,
  type LinkRel,
  type Status,
  STATUSES,
} from "./schema.ts";
import { EntryParseError, splitFrontmatter } from "./frontmatter.ts";
import { parseSimpleFrontmatter } from "./simple_yaml.ts";

export { EntryParseError, splitFrontmatter };

/** A typed, directed link from one entry to another. */
export interface Link {
  rel: LinkRel;
  to: string;
}

/** One knowledge-base entry, as the contract defines it. */
export interface Entry {
  id: string;
  title: string;
  type: EntryType;
  tags: string[];
  aliases: string[];
  appliesTo: Activity[];
  kernel: boolean;
  status: Status;
  created: string;
  updated: string;
  source?: string;
  links: Link[];
  /** Frontmatter fields outside the contract, kept as they are on edit. */
  extra: Record<string, unknown>;
  /** The markdown after the frontmatter, byte for byte. */
  body: string;
}

/** One thing wrong with an entry: the field, what is wrong, and how to fix it. */
export interface Problem {
  field: string;
  message: string;
}

/** Frontmatter and body of an entry file, before any field is checked. */
export interface RawEntry {
  fields: Record<string, unknown>;
  body: string;
}

/** Parse an entry file into raw frontmatter fields and body. Throws {@link EntryParseError}. */
export function parseEntryText(text: string, source: string): RawEntry {
  const { frontmatter, body } = splitFrontmatter(text, source);
  let fields: unknown = parseSimpleFrontmatter(frontmatter);
  try {
    fields ??= yaml.load(frontmatter, { schema: yaml.CORE_SCHEMA, filename: source });
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new EntryParseError(source, `the frontmatter is not valid YAML (${reason})`);
  }
  if (fields === null || fields === undefined) fields = {};
  if (typeof fields !== "object" || Array.isArray(fields)) {
    throw new EntryParseError(source, "the frontmatter must be a mapping of field: value");
  }
  return { fields: fields as Record<string, unknown>, body };
}

function stringList(
  fields: Record<string, unknown>,
  name: string,
  problems: Problem[],
): string[] {
  const value = fields[name];
  if (value === undefined || value === null) return [];
  const list = typeof value === "string" ? [value] : value;
  if (!Array.isArray(list) || list.some((item) => typeof item !== "string" || !item.trim())) {
    problems.push({ field: name, message: "must be a list of non-empty strings, e.g. [a, b]" });
    return [];
  }
  if (list.length > LIMITS.maxListItems) {
    problems.push({
      field: name,
      message: `has ${list.length} items; at most ${LIMITS.maxListItems}`,
    });
  }
  return [...new Set(list.map((item: string) => item.trim()))];
}

function requiredString(
  fields: Record<string, unknown>,
  name: string,
  problems: Problem[],
  hint: string,
): string {
  const value = fields[name];
  if (typeof value === "string" && value.trim()) return value.trim();
  problems.push({
    field: name,
    message: value === undefined ? `is required (${hint})` : `must be a non-empty string (${hint})`,
  });
  return "";
}

function checkKeywords(list: string[], field: string, problems: Problem[]): string[] {
  for (const item of list) {
    if (item.length > LIMITS.maxKeywordChars || /[\n\r]/.test(item)) {
      problems.push({
        field,
        message: `"${
          item.slice(0, 40)
        }" is too long or spans lines; keep each under ${LIMITS.maxKeywordChars} characters`,
      });
    }
  }
  return list;
}

function readLinks(value: unknown, problems: Problem[]): Link[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.push({ field: "links", message: "must be a list of { rel, to } mappings" });
    return [];
  }
  const links: Link[] = [];
  for (const [index, item] of value.entries()) {
    const where = `links[${index}]`;
    if (typeof item !== "object" || item === null) {
      problems.push({
        field: where,
        message: "must be a mapping like { rel: related, to: kb-1a2b3 }",
      });
      continue;
    }
    const { rel, to } = item as Record<string, unknown>;
    if (!isOneOf(LINK_RELS, rel)) {
      problems.push({
        field: `${where}.rel`,
        message: `"${String(rel)}" is not a relation; use one of ${LINK_RELS.join(", ")}`,
      });
      continue;
    }
    if (typeof to !== "string" || !ID_PATTERN.test(to)) {
      problems.push({
        field: `${where}.to`,
        message: `"${String(to)}" is not an entry id; ids look like kb-1a2b3`,
      });
      continue;
    }
    if (!links.some((link) => link.rel === rel && link.to === to)) links.push({ rel, to });
  }
  if (links.length > LIMITS.maxListItems) {
    problems.push({
      field: "links",
      message: `has ${links.length} links; at most ${LIMITS.maxListItems}`,
    });
  }
  return links;
}

/**
 * Check raw fields against the contract and build the typed entry. Returns every problem found,
 * not only the first; `entry` is set only when there are none. Context checks (unique id, link
 * targets) are {@link checkAgainstKb}'s job.
 */
export function toEntry(raw: RawEntry): { entry?: Entry; problems: Problem[] } {
  const { fields, body } = raw;
  const problems: Problem[] = [];
  const id = requiredString(fields, "id", problems, "kb- and 5 characters of [0-9a-z]");
  if (id && !ID_PATTERN.test(id)) {
    problems.push({
      field: "id",
      message: `"${id}" is not a valid id; ids are kb- and 5 characters of [0-9a-z], like kb-7q2mx`,
    });
  }
  const title = requiredString(fields, "title", problems, "a one-line summary");
  if (title.length > LIMITS.maxTitleChars || /[\n\r]/.test(title)) {
    problems.push({
      field: "title",
      message: `must be one line of at most ${LIMITS.maxTitleChars} characters`,
    });
  }
  const type = fields.type;
  if (!isOneOf(ENTRY_TYPES, type)) {
    problems.push({
      field: "type",
      message: type === undefined
        ? `is required; use one of ${ENTRY_TYPES.join(", ")}`
        : `"${String(type)}" is not a type; use one of ${ENTRY_TYPES.join(", ")}`,
    });
  }
  const status = fields.status ?? "active";
  if (!isOneOf(STATUSES, status)) {
    problems.push({
      field: "status",
      message: `"${String(status)}" is not a status; use one of ${STATUSES.join(", ")}`,
    });
  }
  const kernel = fields.kernel ?? false;
  if (typeof kernel !== "boolean") {
    problems.push({ field: "kernel", message: "must be true or false" });
  }
  const appliesTo = stringList(fields, "applies_to", problems);
  for (const activity of appliesTo) {
    if (!isOneOf(ACTIVITIES, activity)) {
      problems.push({
        field: "applies_to",
        message: `"${activity}" is not an activity; use any of ${ACTIVITIES.join(", ")}`,
      });
    }
  }
  const dates: Record<string, string> = {};
  for (const name of ["created", "updated"]) {
    const value = fields[name];
    if (typeof value !== "string" || !DATE_PATTERN.test(value)) {
      problems.push({
        field: name,
        message: value === undefined
          ? "is required, as YYYY-MM-DD"
          : `"${String(value)}" is not a date; write YYYY-MM-DD`,
      });
    } else dates[name] = value;
  }
  if (dates.created && dates.updated && dates.updated < dates.created) {
    problems.push({ field: "updated", message: `is before created (${dates.created})` });
  }
  const source = fields.source;
  if (source !== undefined && source !== null && typeof source !== "string") {
    problems.push({ field: "source", message: "must be a string (a URL or a reference)" });
  }
  const bodyBytes = new TextEncoder().encode(body).length;
  if (bodyBytes > LIMITS.maxBodyBytes) {
    problems.push({
      field: "body",
      message:
        `is ${bodyBytes} bytes; the limit is ${LIMITS.maxBodyBytes}. Split it into linked entries`,
    });
  }
  const entry: Entry = {
    id,
    title,
    type: type as EntryType,
    tags: checkKeywords(stringList(fields, "tags", problems), "tags", problems),
    aliases: checkKeywords(stringList(fields, "aliases", problems), "aliases", problems),
    appliesTo: appliesTo as Activity[],
    kernel: kernel === true,
    status: status as Status,
    created: dates.created ?? "",
    updated: dates.updated ?? "",
    links: readLinks(fields.links, problems),
    extra: Object.fromEntries(
      Object.entries(fields).filter(([key]) => !(KNOWN_FIELDS as readonly string[]).includes(key)),
    ),
    body,
  };
  if (typeof source === "string" && source.trim()) entry.source = source.trim();
  return problems.length ? { problems } : { entry, problems };
}

/** A new active note with every optional field empty and both dates set to `date`. */
export function blankEntry(id: string, date: string): Entry {
  return {
    id,
    title: "",
    type: "note",
    tags: [],
    aliases: [],
    appliesTo: [],
    kernel: false,
    status: "active",
    created: date,
    updated: date,
    links: [],
    extra: {},
    body: "",
  };
}

/** What an entry is checked against beyond its own fields. */
export interface KbContext {
  /** Ids of the entries already in the knowledge base, with the path of each. */
  ids: ReadonlyMap<string, string>;
  /** The path this entry is saved at; an id already at this path is the entry itself. */
  path?: string;
}

/** Check the rules that need the rest of the knowledge base: a unique id, links that resolve. */
export function checkAgainstKb(entry: Entry, context: KbContext): Problem[] {
  const problems: Problem[] = [];
  const owner = context.ids.get(entry.id);
  if (owner !== undefined && owner !== context.path) {
    problems.push({
      field: "id",
      message: `${entry.id} is already used by ${owner}; ids are never reused`,
    });
  }
  for (const [index, link] of entry.links.entries()) {
    if (link.to === entry.id) {
      problems.push({ field: `links[${index}].to`, message: "an entry cannot link to itself" });
    } else if (!context.ids.has(link.to)) {
      problems.push({
        field: `links[${index}].to`,
        message:
          `${link.to} does not exist; link only to existing entries (git-kb search to find one)`,
      });
    }
  }
  return problems;
}

function yamlValue(value: unknown): string {
  return yaml.dump(value, { flowLevel: 0, lineWidth: -1, schema: yaml.CORE_SCHEMA }).trimEnd();
}

/**
 * Write an entry as markdown with frontmatter: contract fields in a fixed order, then unknown
 * fields as they were, then the body unchanged.
 */
export function serializeEntry(entry: Entry): string {
  const lines = [
    `id: ${entry.id}`,
    `title: ${yamlValue(entry.title)}`,
    `type: ${entry.type}`,
    `tags: ${yamlValue(entry.tags)}`,
  ];
  if (entry.aliases.length) lines.push(`aliases: ${yamlValue(entry.aliases)}`);
  if (entry.appliesTo.length) lines.push(`applies_to: ${yamlValue(entry.appliesTo)}`);
  lines.push(`kernel: ${entry.kernel}`, `status: ${entry.status}`);
  lines.push(`created: ${entry.created}`, `updated: ${entry.updated}`);
  if (entry.source) lines.push(`source: ${yamlValue(entry.source)}`);
  if (entry.links.length) {
    lines.push(
      "links:",
      ...entry.links.map((link) =>
        `  - { rel: ${yamlValue(link.rel)}, to: ${yamlValue(link.to)} }`
      ),
    );
  }
  const extra = Object.keys(entry.extra).length
    ? yaml.dump(entry.extra, { lineWidth: -1, schema: yaml.CORE_SCHEMA })
    : "";
  return `---\n${lines.join("\n")}\n${extra}---\n${entry.body}`;
}

/** Format problems as indented lines for an error message. */
export function formatProblems(problems: Problem[]): string {
  return problems.map((problem) => `  ${problem.field}: ${problem.message}`).join("\n");
}
