/**
 * The closed vocabularies and limits of the entry contract (spec/entry-format.md).
 *
 * @module
 */
import { kernelBlock } from "../text/display.ts";

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
  /**
   * Largest entry file read, in bytes: far above any real note (a body holds at most
   * {@link LIMITS.maxBodyBytes}), so a huge file (a teammate's, a mistake) costs a bounded read.
   */
  maxEntryFileBytes: 1024 * 1024,
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

/** Whether `text` is a `YYYY-MM-DD` date that exists in the calendar (no 2026-02-31). */
export function isCalendarDate(text: string): boolean {
  if (!DATE_PATTERN.test(text)) return false;
  const [year, month, day] = text.split("-").map(Number);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
  return day <= days;
}

/** Code points that end a line for some reader, by name. */
const LINE_BREAKS: Readonly<Record<number, string>> = {
  0x0a: "LINE FEED",
  0x0b: "LINE TABULATION",
  0x0c: "FORM FEED",
  0x0d: "CARRIAGE RETURN",
  0x85: "NEXT LINE",
  0x2028: "LINE SEPARATOR",
  0x2029: "PARAGRAPH SEPARATOR",
};

function codePoint(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, "0")}`;
}

/**
 * Why `text` cannot be written to a file as it is, or undefined when it can: a UTF-16 surrogate
 * that is not half of a pair (JSON can carry one, `"\ud800"`; UTF-8 cannot, and writing it would
 * put U+FFFD in its place without a word).
 */
export function loneSurrogateProblem(text: string): string | undefined {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0xd800 || code > 0xdfff) continue;
    const next = text.charCodeAt(index + 1);
    if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      index++;
      continue;
    }
    return `holds a lone surrogate (${codePoint(code)} at character ${index + 1}), half of a ` +
      "character, which UTF-8 cannot store: it would be saved as U+FFFD. Send the whole " +
      "character, or leave it out";
  }
  return undefined;
}

/**
 * Why `text` cannot be a one-line field (title, tag, alias, source, link target, …), or
 * undefined when it can: control characters (C0, DEL, C1 such as U+0085), ANSI escape sequences,
 * and line or paragraph separators would break the line it is shown on, or forge another one;
 * bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069) would show it in
 * another order than it is read.
 */
export function oneLineProblem(text: string): string | undefined {
  const lone = loneSurrogateProblem(text);
  if (lone) return lone;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    const where = `at character ${index + 1}`;
    if (code === 0x1b || code === 0x9b) {
      return `holds an ANSI escape sequence (${codePoint(code)} ${where}); write plain text`;
    }
    if (code in LINE_BREAKS) {
      return `spans lines (${codePoint(code)} ${LINE_BREAKS[code]} ${where}); keep it on one line`;
    }
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) {
      return `holds a control character (${codePoint(code)} ${where}); write plain text`;
    }
    if (isBidiControl(code)) {
      return `holds a bidirectional control (${codePoint(code)} ${where}), which reorders how ` +
        "the text shows; write plain text";
    }
  }
  return undefined;
}

/** Whether `code` is a bidirectional formatting control. */
function isBidiControl(code: number): boolean {
  return code === 0x061c || code === 0x200e || code === 0x200f ||
    (code >= 0x202a && code <= 0x202e) || (code >= 0x2066 && code <= 0x2069);
}

/** What a kernel rule needs to be inlined in a prompt: its id, title and body. */
export interface KernelCostRule {
  /** The rule's entry id. */
  id: string;
  /** The rule's title, its heading in the prompt. */
  title: string;
  /** The rule's markdown body, inlined in a fence. */
  body: string;
}

/**
 * The characters a kernel rule takes of {@link LIMITS.kernelBudgetChars} when the prompt hook
 * inlines it: its block (heading and fenced body, core/text/display.ts `kernelBlock`) and the blank
 * line before it. The save check and the hook both count with this, so a rule the save accepts
 * is one the hook inlines.
 */
export function kernelRuleCost(rule: KernelCostRule): number {
  return kernelBlock(rule).length + 2;
}
