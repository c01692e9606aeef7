/**
 * Entries stay the bytes git-kb wrote, and merge by git's own three-way merge, whatever a
 * `.gitattributes` in the tree asks. A teammate's `.gitattributes` can name, for entries:
 *
 * - another merge driver: with `merge=union`, two machines' edits of one entry merge without a
 *   conflict into a file holding both versions' lines (two `title:` lines in one front matter),
 *   and a sync or save reports success;
 * - a conversion between the committed file and the one on disk: `working-tree-encoding=UTF-16`
 *   checks every entry that comes in out as UTF-16, which git-kb cannot read (the entry drops out
 *   of the index, with a sync reporting success) and which a save then cannot stage; a `filter`
 *   the user set up for other repositories (git-lfs's, say) commits what its clean command makes
 *   of an entry, not the entry; `ident`, `eol`, `text` and the older `crlf` rewrite lines;
 * - `diff` unset (or `binary`), which makes git grep skip the entry when a sync or save looks for
 *   conflict markers, and a `conflict-marker-size` other than 7, whose markers, left in an entry
 *   after a merge by hand, that search does not find.
 *
 * The repository's `info/attributes` outranks every `.gitattributes`, so git-kb writes one line
 * there before it merges, stages or checks out entries: `merge=text`, and every other attribute
 * that acts on an entry unspecified, as if no `.gitattributes` said anything of it. It is local
 * to the clone, never committed.
 *
 * @module
 */

/** The line of `info/attributes` that keeps every entry as written, merged three-way. */
export const ENTRY_ATTRIBUTES_LINE = "entries/** merge=text !conflict-marker-size !diff !text " +
  "!crlf !eol !working-tree-encoding !filter !ident";

/**
 * `attributes`, the text of a repository's `info/attributes` (undefined when there is none), with
 * {@link ENTRY_ATTRIBUTES_LINE} added as its last line; undefined when it holds the line already.
 */
export function withEntryAttributesLine(attributes: string | undefined): string | undefined {
  const text = attributes ?? "";
  if (text.split(/\r?\n/).some((line) => line.trim() === ENTRY_ATTRIBUTES_LINE)) return undefined;
  const separator = text === "" || text.endsWith("\n") ? "" : "\n";
  return `${text}${separator}${ENTRY_ATTRIBUTES_LINE}\n`;
}
