/**
 * The rules of changing an entry, shared by `add` and `edit`: field edits applied to an entry,
 * list fields grown and shrunk, which fields and list items changed, the `updated` date, the
 * commit message and the file's slug. Pure: no I/O.
 *
 * @module
 */
import type { Entry, Link } from "./entry.ts";

/**
 * Changes to one list field, applied in this order: `clear` empties it, `add` appends what it
 * does not hold yet, `remove` takes items out (so a removal wins over an addition).
 */
export interface ListEdit<Item, Match = Item> {
  clear?: boolean;
  add?: readonly Item[];
  remove?: readonly Match[];
}

/** A link to remove: every link to `to`, or only the one with relation `rel`. */
export interface LinkMatch {
  rel?: string;
  to: string;
}

/** What to change in an entry; absent fields stay as they are. Values are checked on save. */
export interface EntryEdits {
  title?: string;
  type?: string;
  status?: string;
  source?: string;
  kernel?: boolean;
  body?: string;
  tags?: ListEdit<string>;
  aliases?: ListEdit<string>;
  appliesTo?: ListEdit<string>;
  links?: ListEdit<Link, LinkMatch>;
}

/** The list fields of an entry, by their frontmatter names. */
export const LIST_FIELDS = {
  tags: "tags",
  aliases: "aliases",
  applies_to: "appliesTo",
  links: "links",
} as const satisfies Record<string, keyof Entry>;

/** A list field by its frontmatter name. */
export type ListField = keyof typeof LIST_FIELDS;

/** The fields a change is reported by, frontmatter name → entry property. */
const FIELDS = {
  title: "title",
  type: "type",
  ...LIST_FIELDS,
  kernel: "kernel",
  status: "status",
  source: "source",
  body: "body",
  extra: "extra",
} as const satisfies Record<string, keyof Entry>;

function applyList<Item, Match>(
  current: readonly Item[],
  edit: ListEdit<Item, Match> | undefined,
  key: (item: Item) => string,
  matches: (item: Item, match: Match) => boolean,
): Item[] {
  if (!edit) return [...current];
  const next = edit.clear ? [] : [...current];
  for (const item of edit.add ?? []) {
    if (!next.some((kept) => key(kept) === key(item))) next.push(item);
  }
  return next.filter((item) => !(edit.remove ?? []).some((match) => matches(item, match)));
}

function sameText(item: string, match: string): boolean {
  return item === match;
}

/** A link as the CLI writes it: `rel:id`. */
export function linkLabel(link: LinkMatch): string {
  return link.rel ? `${link.rel}:${link.to}` : link.to;
}

function linkMatches(link: Link, match: LinkMatch): boolean {
  return link.to === match.to && (match.rel === undefined || link.rel === match.rel);
}

/** `entry` with `edits` applied (a copy; `entry` is not changed). */
export function applyEdits(entry: Entry, edits: EntryEdits): Entry {
  const next: Entry = { ...entry, extra: { ...entry.extra } };
  if (edits.title !== undefined) next.title = edits.title.trim();
  if (edits.type !== undefined) next.type = edits.type as Entry["type"];
  if (edits.status !== undefined) next.status = edits.status as Entry["status"];
  if (edits.source !== undefined) {
    const source = edits.source.trim();
    if (source) next.source = source;
    else delete next.source;
  }
  if (edits.kernel !== undefined) next.kernel = edits.kernel;
  if (edits.body !== undefined) next.body = edits.body;
  next.tags = applyList(entry.tags, edits.tags, String, sameText);
  next.aliases = applyList(entry.aliases, edits.aliases, String, sameText);
  next.appliesTo = applyList(entry.appliesTo, edits.appliesTo, String, sameText) as Entry[
    "appliesTo"
  ];
  next.links = applyList(entry.links, edits.links, linkLabel, linkMatches);
  return next;
}

/** Which fields differ between two versions of an entry, by frontmatter name. */
export function changedFields(before: Entry, after: Entry): string[] {
  return Object.entries(FIELDS)
    .filter(([, property]) => JSON.stringify(before[property]) !== JSON.stringify(after[property]))
    .map(([name]) => name);
}

/** What was added to and removed from one list field. */
export interface ListChange {
  field: ListField;
  added: string[];
  removed: string[];
}

function labels(entry: Entry, field: ListField): string[] {
  return field === "links"
    ? entry.links.map(linkLabel)
    : [...entry[LIST_FIELDS[field]] as readonly string[]];
}

/** The list items added and removed between two versions of an entry, field by field. */
export function listChanges(before: Entry, after: Entry): ListChange[] {
  const changes: ListChange[] = [];
  for (const field of Object.keys(LIST_FIELDS) as ListField[]) {
    const old = labels(before, field);
    const now = labels(after, field);
    const added = now.filter((item) => !old.includes(item));
    const removed = old.filter((item) => !now.includes(item));
    if (added.length || removed.length) changes.push({ field, added, removed });
  }
  return changes;
}

/** The items asked to be taken out of one list field that match nothing in it. */
export interface VainRemoval {
  field: ListField;
  /** The items as given (`rel:id` or `id` for a link). */
  items: string[];
  /** What the field holds, as {@link listChanges} labels it. */
  held: string[];
}

/**
 * The removals of `edits` that take nothing out of `entry`: items it does not hold and the same
 * edit does not add (a list it also clears is left out: clearing takes everything).
 */
export function vainRemovals(entry: Entry, edits: EntryEdits): VainRemoval[] {
  const found: VainRemoval[] = [];
  for (const field of Object.keys(LIST_FIELDS) as ListField[]) {
    const edit = edits[LIST_FIELDS[field] as keyof EntryEdits] as
      | ListEdit<string | Link, string | LinkMatch>
      | undefined;
    if (!edit?.remove?.length || edit.clear) continue;
    const items = [...entry[LIST_FIELDS[field]] as readonly (string | Link)[], ...edit.add ?? []];
    const matches = (item: string | Link, match: string | LinkMatch) =>
      typeof item === "string" ? item === match : linkMatches(item, match as LinkMatch);
    const vain = edit.remove.filter((match) => !items.some((item) => matches(item, match)));
    if (vain.length) {
      const label = (match: string | LinkMatch) =>
        typeof match === "string" ? match : linkLabel(match);
      found.push({ field, items: vain.map(label), held: labels(entry, field) });
    }
  }
  return found;
}

/** One line per changed list: `links: +related:kb-1a2b3 -supersedes:kb-9z8y7`. */
export function formatListChanges(changes: readonly ListChange[]): string[] {
  return changes.map(({ field, added, removed }) =>
    `${field}: ${
      [...added.map((item) => `+${item}`), ...removed.map((item) => `-${item}`)]
        .join(" ")
    }`
  );
}

/** `entry` with `updated` set to `today`, never before `created`. */
export function touchUpdated(entry: Entry, today: string): Entry {
  return { ...entry, updated: today > entry.created ? today : entry.created };
}

/** The commit message of a save: `kb: add <id>: <title>` or `kb: edit <id>: <title> (fields)`. */
export function commitMessage(entry: Entry, changed?: readonly string[]): string {
  return changed
    ? `kb: edit ${entry.id}: ${entry.title} (${changed.join(", ")})`
    : `kb: add ${entry.id}: ${entry.title}`;
}

/** A lowercase ASCII slug of a title, at most 50 characters, for the file name. */
export function slugify(title: string): string {
  const slug = title.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase()
    .replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  return slug.slice(0, 50).replace(/-+$/, "") || "entry";
}

/** The file name of a new entry: `<id>-<slug of its title>.md`. */
export function entryFileName(entry: Entry): string {
  return `${entry.id}-${slugify(entry.title)}.md`;
}

/** What an edit saves: the entry with `updated` moved, the fields it changed, its commit message. */
export interface EditOutcome {
  /** The edited entry, `updated` set to today (never before `created`). */
  entry: Entry;
  /** The fields that differ from the entry before, or `["all"]` when that could not be read. */
  changed: string[];
  /** The commit message naming those fields. */
  message: string;
}

/** The outcome of editing `before` (undefined when unreadable) into `next` on `today`. */
export function editOutcome(before: Entry | undefined, next: Entry, today: string): EditOutcome {
  const changed = before ? changedFields(before, next) : ["all"];
  return { entry: touchUpdated(next, today), changed, message: commitMessage(next, changed) };
}
