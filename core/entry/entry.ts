/**
 * Entries: parse markdown with YAML frontmatter, check each field against the contract, and
 * write an entry back out. Pure: no I/O. This is the only core module that loads the YAML
 * library, so the prompt hook never imports it.
 *
 * @module
 */
import { stringify } from "@std/yaml";
import {
  ACTIVITIES,
  type Activity,
  ENTRY_TYPES,
  type EntryType,
  ID_PATTERN,
  isCalendarDate,
  isOneOf,
  KNOWN_FIELDS,
  LIMITS,
  LINK_RELS,
  type LinkRel,
  loneSurrogateProblem,
  oneLineProblem,
  type Status,
  STATUSES,
} from "./schema.ts";
import { EntryParseError, splitFrontmatter } from "./frontmatter.ts";
import { parseSimpleFrontmatter } from "./simple_yaml.ts";
import { parseFrontmatterYaml } from "./frontmatter_yaml.ts";

export { EntryParseError, splitFrontmatter };

/** A typed, directed link from one entry to another. */
export interface Link {
  /** How this entry relates to the target. */
  rel: LinkRel;
  /** The target entry's id. */
  to: string;
}

/** One knowledge-base entry, as the contract defines it. */
export interface Entry {
  /** The stable id, `kb-` and five base-36 characters. */
  id: string;
  /** One line naming what the entry says. */
  title: string;
  /** What kind of knowledge the entry holds. */
  type: EntryType;
  /** Lowercase tags; the search and the prompt hook match them as keywords. */
  tags: string[];
  /** Other names of the subject, matched like tags. */
  aliases: string[];
  /** Activities the entry applies to; the prompt hook surfaces it when a prompt names one. */
  appliesTo: Activity[];
  /** Whether the entry is a kernel rule, inlined whole in every prompt's context. */
  kernel: boolean;
  /** Whether the entry is in force, superseded or archived. */
  status: Status;
  /** The day the entry was created, `YYYY-MM-DD`. */
  created: string;
  /** The day the entry last changed, `YYYY-MM-DD`. */
  updated: string;
  /** Where the knowledge came from (a URL, a document, a person), when it is worth keeping. */
  source?: string;
  /** Declared links to other entries. */
  links: Link[];
  /** Frontmatter fields outside the contract, kept as they are on edit. */
  extra: Record<string, unknown>;
  /** The markdown after the frontmatter, byte for byte. */
  body: string;
}

/** One thing wrong with an entry: the field, what is wrong, and how to fix it. */
export interface Problem {
  /** The frontmatter field at fault, or the part of the entry. */
  field: string;
  /** What is wrong and how to fix it. */
  message: string;
  /**
   * Set when nothing is wrong with the entry itself: its file changed or went while it was being
   * edited (another command, a sync, a teammate's change).
   */
  raced?: true;
}

/** Frontmatter and body of an entry file, before any field is checked. */
export interface RawEntry {
  /** The frontmatter as parsed, field by field. */
  fields: Record<string, unknown>;
  /** The markdown after the frontmatter, byte for byte. */
  body: string;
}

/** Parse an entry file into raw frontmatter fields and body. Throws {@link EntryParseError}. */
export function parseEntryText(text: string, source: string): RawEntry {
  const { frontmatter, body } = splitFrontmatter(text, source);
  const fields = parseSimpleFrontmatter(frontmatter) ?? parseFrontmatterYaml(frontmatter, source) ??
    {};

  if (typeof fields !== "object" || Array.isArray(fields)) {
    throw new EntryParseError(source, "the frontmatter must be a mapping of field: value");
  }
  return { fields: fields as Record<string, unknown>, body };
}

/** A list field as it is in the file: one string, or a list of non-empty strings, trimmed. */
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
  return list.map((item: string) => item.trim());
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

/** The links of the file as `{ rel, to }` mappings, their values checked later. */
function readLinks(value: unknown, problems: Problem[]): Link[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.push({ field: "links", message: "must be a list of { rel, to } mappings" });
    return [];
  }
  const links: Link[] = [];
  for (const [index, item] of value.entries()) {
    if (typeof item !== "object" || item === null || Array.isArray(item)) {
      problems.push({
        field: `links[${index}]`,
        message: "must be a mapping like { rel: related, to: kb-1a2b3 }",
      });
      continue;
    }
    const { rel, to } = item as Record<string, unknown>;
    links.push({ rel: rel as LinkRel, to: to as string });
  }
  return links;
}

function withoutDuplicates(links: Link[]): Link[] {
  return links.filter((link, index) =>
    links.findIndex((other) => other.rel === link.rel && other.to === link.to) === index
  );
}

/** The field a problem is about: `links` for `links[2].to`. */
function rootField(field: string): string {
  return /^[a-z_]+/.exec(field)?.[0] ?? field;
}

/**
 * Check raw fields against the contract and build the typed entry. Returns every problem found,
 * not only the first; `entry` is set only when there are none. The shape of each field is
 * checked here, its value by {@link checkEntryFields}; context checks (unique id, link targets)
 * are {@link checkAgainstKb}'s job.
 */
export function toEntry(raw: RawEntry): { entry?: Entry; problems: Problem[] } {
  const { fields, body } = raw;
  const problems: Problem[] = [];
  const id = requiredString(fields, "id", problems, "kb- and 5 characters of [0-9a-z]");
  const title = requiredString(fields, "title", problems, "a one-line summary");
  const kernel = fields.kernel ?? false;
  if (typeof kernel !== "boolean") {
    problems.push({ field: "kernel", message: "must be true or false" });
  }
  const dates: Record<string, string> = {};
  for (const name of ["created", "updated"]) {
    const value = fields[name];
    if (typeof value === "string") dates[name] = value;
    else {
      problems.push({
        field: name,
        message: value === undefined
          ? "is required, as YYYY-MM-DD"
          : `"${String(value)}" is not a date; write YYYY-MM-DD`,
      });
    }
  }
  const source = fields.source;
  if (source !== undefined && source !== null && typeof source !== "string") {
    problems.push({ field: "source", message: "must be a string (a URL or a reference)" });
  }
  const entry: Entry = {
    id,
    title,
    type: fields.type as EntryType,
    tags: stringList(fields, "tags", problems),
    aliases: stringList(fields, "aliases", problems),
    appliesTo: stringList(fields, "applies_to", problems) as Activity[],
    kernel: kernel === true,
    status: (fields.status ?? "active") as Status,
    created: dates.created ?? "",
    updated: dates.updated ?? "",
    links: readLinks(fields.links, problems),
    extra: Object.fromEntries(
      Object.entries(fields).filter(([key]) => !(KNOWN_FIELDS as readonly string[]).includes(key)),
    ),
    body,
  };
  if (typeof source === "string" && source.trim()) entry.source = source.trim();
  const shaped = new Set(problems.map((problem) => rootField(problem.field)));
  for (const problem of checkEntryFields(entry)) {
    if (!shaped.has(rootField(problem.field))) problems.push(problem);
  }
  if (problems.length) return { problems };
  entry.tags = [...new Set(entry.tags)];
  entry.aliases = [...new Set(entry.aliases)];
  entry.appliesTo = [...new Set(entry.appliesTo)];
  entry.links = withoutDuplicates(entry.links);
  return { entry, problems };
}

/** The start of `text`, quoted, with every character that is not printable escaped. */
function quoted(text: string): string {
  const start = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return JSON.stringify(start).replace(
    /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g,
    (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** A problem with a one-line field's text, if it has one. */
function oneLine(field: string, text: string, problems: Problem[]): void {
  const problem = oneLineProblem(text);
  if (problem) problems.push({ field, message: `${quoted(text)} ${problem}` });
}

function checkList(field: string, list: readonly string[], problems: Problem[]): void {
  if (list.length > LIMITS.maxListItems) {
    problems.push({ field, message: `has ${list.length} items; at most ${LIMITS.maxListItems}` });
  }
  for (const item of list) {
    if (typeof item !== "string" || !item.trim()) {
      problems.push({ field, message: "must be a list of non-empty strings, e.g. [a, b]" });
    } else if (item.length > LIMITS.maxKeywordChars) {
      problems.push({
        field,
        message: `${
          quoted(item)
        } is too long; keep each under ${LIMITS.maxKeywordChars} characters`,
      });
    } else oneLine(field, item, problems);
  }
}

function checkChoice<T extends string>(
  field: string,
  list: readonly T[],
  value: unknown,
  what: string,
  problems: Problem[],
): void {
  if (isOneOf(list, value)) return;
  problems.push({
    field,
    message: value === undefined
      ? `is required; use one of ${list.join(", ")}`
      : `${quoted(String(value))} is not ${what}; use one of ${list.join(", ")}`,
  });
}

function checkDates(entry: Entry, problems: Problem[]): void {
  for (const field of ["created", "updated"] as const) {
    const value = entry[field];
    if (typeof value !== "string" || !isCalendarDate(value)) {
      problems.push({
        field,
        message: `${
          quoted(String(value))
        } is not a date in the calendar; write YYYY-MM-DD, like 2026-06-29`,
      });
    }
  }
  if (isCalendarDate(entry.created) && isCalendarDate(entry.updated)) {
    if (entry.updated < entry.created) {
      problems.push({ field: "updated", message: `is before created (${entry.created})` });
    }
  }
}

function checkLinks(links: readonly Link[], problems: Problem[]): void {
  if (links.length > LIMITS.maxListItems) {
    problems.push({
      field: "links",
      message: `has ${links.length} links; at most ${LIMITS.maxListItems}`,
    });
  }
  for (const [index, { rel, to }] of links.entries()) {
    checkChoice(`links[${index}].rel`, LINK_RELS, rel, "a relation", problems);
    if (typeof to !== "string" || !ID_PATTERN.test(to)) {
      problems.push({
        field: `links[${index}].to`,
        message: `${quoted(String(to))} is not an entry id; ids look like kb-1a2b3`,
      });
    }
  }
}

/** Whether `value`, or any key or value inside it, is a string holding a NUL character. */
function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return value.includes("\0");
  if (typeof value !== "object" || value === null || depth > 64) return false;
  return Object.entries(value).some(([key, item]) =>
    key.includes("\0") || holdsNul(item, depth + 1)
  );
}

/**
 * The 1-based line where an unresolved git conflict starts in `body`: a `<<<<<<<` line, then a
 * `=======` line, then a `>>>>>>>` line, outside fenced code blocks (an entry about resolving
 * conflicts may show them in one). Undefined when there is none.
 */
export function conflictStart(body: string): number | undefined {
  let fence: string | undefined;
  let start: number | undefined;
  let middle = false;
  const lines = body.split("\n");
  for (let at = 0; at < lines.length; at++) {
    const line = lines[at];
    const opener = /^(`{3,}|~{3,})/.exec(line)?.[1];
    if (opener && (!fence || line.startsWith(fence))) {
      fence = fence ? undefined : opener;
      continue;
    }
    if (fence) continue;
    if (/^<{7}(?: |$)/.test(line)) [start, middle] = [at + 1, false];
    else if (start !== undefined && /^={7}$/.test(line)) middle = true;
    else if (start !== undefined && middle && /^>{7}(?: |$)/.test(line)) return start;
  }
  return undefined;
}

/** A body's size in bytes when it is over an entry's limit ({@link LIMITS}); else undefined. */
export function bytesOverLimit(body: string): number | undefined {
  const bytes = new TextEncoder().encode(body).length;
  return bytes > LIMITS.maxBodyBytes ? bytes : undefined;
}

function checkBody(body: string, problems: Problem[]): void {
  const lone = loneSurrogateProblem(body);
  if (lone) problems.push({ field: "body", message: lone });
  const conflict = conflictStart(body);
  if (conflict !== undefined) {
    problems.push({
      field: "body",
      message: `holds unresolved git conflict markers (from line ${conflict} of the body); ` +
        "keep the text you want and delete the <<<<<<<, ======= and >>>>>>> lines",
    });
  }
  if (body.includes("\0")) {
    const at = body.indexOf("\0");
    problems.push({
      field: "body",
      message: `holds a NUL character (at character ${at + 1}); git would store the entry as ` +
        "a binary file. Remove it",
    });
  }
  const bodyBytes = bytesOverLimit(body);
  if (bodyBytes !== undefined) {
    problems.push({
      field: "body",
      message:
        `is ${bodyBytes} bytes; the limit is ${LIMITS.maxBodyBytes}. Split it into linked entries`,
    });
  }
}

/**
 * Check every field value of an entry against the contract, before anything is written: an id of
 * exactly `kb-` and five of `[0-9a-z]`, one-line fields without control characters, escapes or
 * line separators, dates that exist, no NUL anywhere, the vocabularies and limits. Returns every
 * problem, each naming the field as it is written in the file.
 */
export function checkEntryFields(entry: Entry): Problem[] {
  const problems: Problem[] = [];
  if (typeof entry.id !== "string" || !ID_PATTERN.test(entry.id)) {
    problems.push({
      field: "id",
      message: `${
        quoted(String(entry.id))
      } is not an id; ids are exactly kb- and 5 characters of [0-9a-z], like kb-7q2mx`,
    });
  }
  if (typeof entry.title !== "string" || !entry.title.trim()) {
    problems.push({ field: "title", message: "is required (a one-line summary)" });
  } else if (entry.title.length > LIMITS.maxTitleChars) {
    problems.push({
      field: "title",
      message: `must be one line of at most ${LIMITS.maxTitleChars} characters`,
    });
  } else oneLine("title", entry.title, problems);
  checkChoice("type", ENTRY_TYPES, entry.type, "a type", problems);
  checkList("tags", entry.tags, problems);
  checkList("aliases", entry.aliases, problems);
  for (const activity of entry.appliesTo) {
    checkChoice("applies_to", ACTIVITIES, activity, "an activity", problems);
  }
  if (typeof entry.kernel !== "boolean") {
    problems.push({ field: "kernel", message: "must be true or false" });
  }
  checkChoice("status", STATUSES, entry.status, "a status", problems);
  checkDates(entry, problems);
  if (entry.source !== undefined) oneLine("source", entry.source, problems);
  checkLinks(entry.links, problems);
  if (holdsNul(entry.extra)) {
    problems.push({
      field: "frontmatter",
      message: "a field outside the contract holds a NUL character; remove it",
    });
  }
  checkBody(entry.body, problems);
  return problems;
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
  /** What finds an entry's id, named for a link to no entry; the CLI's `git-kb search` by default. */
  findIds?: string;
}

/**
 * The links of `entry` to no entry of `ids` (a link to itself aside): each target by the field a
 * problem names it with (`links[1].to`), as {@link checkAgainstKb} reports them.
 */
export function linksToNoEntry(
  entry: Entry,
  ids: ReadonlyMap<string, string>,
): Map<string, string> {
  const missing = new Map<string, string>();
  entry.links.forEach(({ to }, index) => {
    if (to !== entry.id && !ids.has(to)) missing.set(`links[${index}].to`, to);
  });
  return missing;
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
  const missing = linksToNoEntry(entry, context.ids);
  entry.links.forEach(({ to }, index) => {
    const field = `links[${index}].to`;
    if (to === entry.id) problems.push({ field, message: "an entry cannot link to itself" });
    else if (missing.has(field)) {
      problems.push({
        field,
        message: `${to} does not exist; link only to existing entries (${
          context.findIds ?? "git-kb search"
        } to find one)`,
      });
    }
  });
  return problems;
}

function yamlValue(value: unknown): string {
  return stringify(value, { flowLevel: 0, lineWidth: -1, schema: "core" }).trimEnd();
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
    ? stringify(entry.extra, { lineWidth: -1, schema: "core" })
    : "";
  return `---\n${lines.join("\n")}\n${extra}---\n${entry.body}`;
}

/**
 * Why `what` was not saved, before its problems are listed: not valid, or, when every problem is
 * a change made meanwhile ({@link Problem.raced}), changed while it was being edited.
 */
export function notSavedBecause(what: string, problems: readonly Problem[]): string {
  const raced = problems.length > 0 && problems.every((problem) => problem.raced);
  return `${what} ${raced ? "changed while it was being edited" : "is not valid"}; ` +
    "nothing was written";
}

/** Format problems as indented lines for an error message. */
export function formatProblems(problems: Problem[]): string {
  return problems.map((problem) => `  ${problem.field}: ${problem.message}`).join("\n");
}
