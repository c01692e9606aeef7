/**
 * The entries that share a title with another: a second active entry of one title (an agent
 * asked twice to remember the same thing) splits what the first says, and both come up as one
 * pointer line read twice. `add` names them after its save.
 *
 * @module
 */
import type { DocInfo } from "./format.ts";
import type { IndexReader } from "./reader.ts";

/**
 * A title as two are compared: Unicode-normalized, runs of whitespace as one space, no case.
 *
 * @example
 * ```ts
 * titleKey(" Rotate a leaked  NPM token"); // "rotate a leaked npm token"
 * ```
 */
export function titleKey(title: string): string {
  return title.normalize("NFC").trim().replace(/\s+/g, " ").toLowerCase();
}

/** The active entries of `reader` but `id` whose title is `title` as {@link titleKey} reads it. */
export function activeEntriesTitled(reader: IndexReader, title: string, id: string): DocInfo[] {
  const key = titleKey(title);
  const found: DocInfo[] = [];
  for (const [ord] of reader.files().values()) {
    const doc = reader.doc(ord);
    if (doc && doc.id !== id && doc.status === "active" && titleKey(doc.title) === key) {
      found.push(doc);
    }
  }
  return found.sort((a, b) => a.id.localeCompare(b.id));
}
