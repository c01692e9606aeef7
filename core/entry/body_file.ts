/**
 * A body given to `git-kb add` (`--body-file`) that opens with a frontmatter block: a note written
 * with one, or an entry of another knowledge base. Its fields are read as the entry's (forgivingly:
 * one tag for a list, a number for a title), the text after it is the body. Pure: no I/O.
 *
 * @module
 */
import { type Link, parseEntryText, type Problem } from "./entry.ts";
import type { KNOWN_FIELDS } from "./schema.ts";

/** The fields a body file's frontmatter gives, each as `add`'s flag would give it. */
export interface BodyFileFields {
  /** The text after the frontmatter. */
  body: string;
  id?: string;
  title?: string;
  type?: string;
  status?: string;
  source?: string;
  kernel?: boolean;
  created?: string;
  updated?: string;
  tags?: string[];
  aliases?: string[];
  appliesTo?: string[];
  links?: Link[];
  /** Fields outside the contract, kept as they are (as an entry keeps them). */
  extra: Record<string, unknown>;
  /** Fields whose value cannot be read as the contract has them: nothing was taken of them. */
  problems: Problem[];
}

/** Whether `text` opens with a frontmatter block (a `---` line first, a byte-order mark aside). */
export function opensWithFrontmatter(text: string): boolean {
  return /^\ufeff?---\r?\n/.test(text);
}

/** A one-line value as text: a string, or a number or a date YAML read as one. */
function textOf(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value instanceof Date && !Number.isNaN(value.getTime())) {
    return value.toISOString().slice(0, 10);
  }
  return undefined;
}

/** A list value as texts: one value for a list of it, a list of one-line values. */
function textsOf(value: unknown): string[] | undefined {
  const list = Array.isArray(value) ? value : [value];
  const texts = list.map(textOf);
  return texts.every((text) => text !== undefined) ? texts as string[] : undefined;
}

/** A `links` value as links: a list of `{ rel, to }` mappings of strings. */
function linksOf(value: unknown): Link[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const links: Link[] = [];
  for (const item of value) {
    const { rel, to } = (item ?? {}) as Record<string, unknown>;
    if (typeof rel !== "string" || typeof to !== "string") return undefined;
    links.push({ rel: rel as Link["rel"], to });
  }
  return links;
}

/** How each contract field is read, and what its value must be when it cannot be. */
const READERS: Record<
  typeof KNOWN_FIELDS[number],
  [
    key: Exclude<keyof BodyFileFields, "body" | "extra" | "problems">,
    read: (v: unknown) => unknown,
    want: string,
  ]
> = {
  id: ["id", textOf, "one line of text"],
  title: ["title", textOf, "one line of text"],
  type: ["type", textOf, "one line of text"],
  status: ["status", textOf, "one line of text"],
  source: ["source", textOf, "one line of text"],
  created: ["created", textOf, "a date, YYYY-MM-DD"],
  updated: ["updated", textOf, "a date, YYYY-MM-DD"],
  kernel: ["kernel", (v) => typeof v === "boolean" ? v : undefined, "true or false"],
  tags: ["tags", textsOf, "a list, e.g. [a, b]"],
  aliases: ["aliases", textsOf, "a list, e.g. [a, b]"],
  applies_to: ["appliesTo", textsOf, "a list, e.g. [a, b]"],
  links: ["links", linksOf, "a list of { rel, to } mappings"],
};

/**
 * The fields and body of `text` when it opens with a frontmatter block; undefined when it does
 * not (the whole text is the body). A field left empty (`tags:`) is taken as not given. Throws
 * {@link EntryParseError} (naming `source`) when the block cannot be read.
 */
export function readBodyFile(text: string, source: string): BodyFileFields | undefined {
  if (!opensWithFrontmatter(text)) return undefined;
  const { fields, body } = parseEntryText(text, source);
  const read: BodyFileFields = { body, extra: {}, problems: [] };
  for (const [name, value] of Object.entries(fields)) {
    if (!Object.hasOwn(READERS, name)) {
      read.extra[name] = value;
      continue;
    }
    if (value === null || value === undefined) continue;
    const [key, readValue, want] = READERS[name as keyof typeof READERS];
    const typed = readValue(value);
    if (typed === undefined) read.problems.push({ field: name, message: `must be ${want}` });
    else (read as unknown as Record<string, unknown>)[key] = typed;
  }
  return read;
}
