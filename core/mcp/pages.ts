/**
 * Pages of a list the server serves, as the Model Context Protocol's pagination has it: a list
 * comes a page at a time, each with the opaque `nextCursor` that asks for the next one, and a
 * cursor the server never gave is refused (`-32602`). A cursor names the last item of the page
 * it follows, not a position, so an entry added or removed between two pages neither repeats
 * an item nor skips one that was there all along.
 *
 * @module
 */

/** What marks a cursor as this module's, before the item it names. */
const PREFIX = "after:";

/** A cursor read: the key of the item the next page starts after, or why it is not one. */
export type Cursor = { after: string } | { invalid: string };

/** The cursor of the page after the item of key `key`. */
export function cursorAfter(key: string): string {
  const bytes = new TextEncoder().encode(`${PREFIX}${key}`);
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** Why `cursor` is refused: the server never gave it. */
export function notGiven(cursor: string): string {
  const shown = cursor.length > 80 ? `${cursor.slice(0, 80)}…` : cursor;
  return `the cursor ${JSON.stringify(shown)} is not one this server gave; list again without one`;
}

/** `cursor` read back, or why it is not one {@link cursorAfter} makes. */
export function readCursor(cursor: string): Cursor {
  const invalid = { invalid: notGiven(cursor) };
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) return invalid;
  let text: string;
  try {
    const binary = atob(cursor.replaceAll("-", "+").replaceAll("_", "/"));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return invalid;
  }
  if (!text.startsWith(PREFIX) || text.length === PREFIX.length) return invalid;
  return { after: text.slice(PREFIX.length) };
}

/** One page of a list, and the cursor of the next one when there is more. */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/**
 * The page of `items` (in any order) after the item of key `after` (none: the first page), at
 * most `size` long, the items ordered by `key`.
 */
export function pageOf<T>(
  items: readonly T[],
  key: (item: T) => string,
  after: string | undefined,
  size: number,
): Page<T> {
  const ordered = [...items].sort((a, b) => byCodeUnits(key(a), key(b)));
  const rest = after === undefined
    ? ordered
    : ordered.filter((item) => byCodeUnits(key(item), after) > 0);
  const page = rest.slice(0, size);
  return rest.length > size ? { items: page, nextCursor: cursorAfter(key(page.at(-1)!)) } : {
    items: page,
  };
}

/** Strings compared by their UTF-16 code units, the same on every machine. */
function byCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
