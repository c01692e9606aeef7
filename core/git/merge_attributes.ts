/**
 * Git's own three-way merge for every entry, whatever a `.gitattributes` in the tree asks. A
 * teammate's `.gitattributes` can name another merge driver for entries: with `merge=union`, two
 * machines' edits of one entry merge without a conflict into a file holding both versions' lines
 * (two `title:` lines in one front matter), and a sync or save reports success. The repository's
 * `info/attributes` outranks every `.gitattributes`, so git-kb writes one line there before it
 * merges. It is local to the clone, never committed.
 *
 * @module
 */

/** The line of `info/attributes` that gives every entry git's built-in three-way merge. */
export const ENTRY_MERGE_LINE = "entries/** merge=text";

/**
 * `attributes`, the text of a repository's `info/attributes` (undefined when there is none), with
 * {@link ENTRY_MERGE_LINE} added as its last line; undefined when it holds the line already.
 */
export function withEntryMergeLine(attributes: string | undefined): string | undefined {
  const text = attributes ?? "";
  if (text.split(/\r?\n/).some((line) => line.trim() === ENTRY_MERGE_LINE)) return undefined;
  const separator = text === "" || text.endsWith("\n") ? "" : "\n";
  return `${text}${separator}${ENTRY_MERGE_LINE}\n`;
}
