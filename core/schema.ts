/**
 * The closed vocabularies and limits of the entry contract (spec/entry-format.md).
 *
 * @module
 */

/** Kinds of entry. */
export const ENTRY_TYPES = ["decision", "rule", "howto", "concept", "bookmark", "note"] as const;
/** A kind of entry. */
export type EntryType = typeof ENTRY_TYPES[number];

/** Relations an entry may declare towards another one (directed from the declaring entry). */
export const LINK_RELS = ["supersedes", "refines", "depends-on", "contradicts", "related"] as const;
/** A declared link relation. */
export type LinkRel = typeof LINK_RELS[number];

/** How an incoming edge of each relation reads from the target's side. */
export const INVERSE_RELS: Readonly<Record<LinkRel, string>> = {
  "supersedes": "superseded-by",
  "refines": "refined-by",
  "depends-on": "needed-by",
  "contradicts": "contradicted-by",
  "related": "related",
};

/** Kinds of work an entry can apply to, matched against the prompt's activity. */
export const ACTIVITIES = ["writing", "reviewing", "planning", "coding"] as const;
/** A kind of work. */
export type Activity = typeof ACTIVITIES[number];

/** Lifecycle states; only `active` entries are surfaced by hooks. */
export const STATUSES = ["active", "superseded", "archived"] as const;
/** A lifecycle state. */
export type Status = typeof STATUSES[number];

/** Shape of an entry id: `kb-` and five characters of `[0-9a-z]`. */
export const ID_PATTERN = /^kb-[0-9a-z]{5}$/;

/** Shape of a calendar date field. */
export const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** Limits that keep entries and the hook's output small. */
export const LIMITS = {
  /** Largest body, in bytes of UTF-8. */
  maxBodyBytes: 64 * 1024,
  /** Longest title, in characters. */
  maxTitleChars: 200,
  /** Most tags, aliases or links on one entry. */
  maxListItems: 32,
  /** Longest tag or alias, in characters. */
  maxKeywordChars: 64,
  /** The hard cap Claude Code applies to one additionalContext string. */
  hookCapChars: 10_000,
  /** What the prompt hook allows itself, leaving headroom under the cap. */
  hookBudgetChars: 9_000,
  /** What all kernel bodies together may take of the hook budget. */
  kernelBudgetChars: 6_000,
} as const;

/** Frontmatter keys of the contract, in the order they are written. */
export const KNOWN_FIELDS = [
  "id",
  "title",
  "type",
  "tags",
  "aliases",
  "applies_to",
  "kernel",
  "status",
  "created",
  "updated",
  "source",
  "links",
] as const;

/** True when `value` is one of `list`. */
export function isOneOf<T extends string>(list: readonly T[], value: unknown): value is T {
  return typeof value === "string" && (list as readonly string[]).includes(value);
}
