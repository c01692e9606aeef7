/**
 * Mentions of entries in a body, `[[kb-7q2mx]]`, as imports write links between notes and as
 * people write them by hand. They are plain text to the entry contract (no save checks them), so
 * whoever removes or moves an entry looks for them here.
 *
 * @module
 */
import { ID_PATTERN } from "./schema.ts";

/** An entry id anywhere in a text, as a regular expression's source (`ID_PATTERN` unanchored). */
export const ID_IN_TEXT: string = ID_PATTERN.source.replace(/^\^|\$$/g, "");

/** A mention of an entry, `[[kb-7q2mx]]`, the id captured; global, so use it with replace or matchAll. */
export const MENTION: RegExp = new RegExp(`\\[\\[(${ID_IN_TEXT})\\]\\]`, "g");

/** The ids `body` mentions, each once, in the order they first appear. */
export function mentionedIds(body: string): string[] {
  return [...new Set([...body.matchAll(MENTION)].map(([, id]) => id))];
}
