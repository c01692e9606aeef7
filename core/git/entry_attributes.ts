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
 * to the clone, never committed. One exception: when the repository's own config sets up a filter
 * driver (git-crypt's or transcrypt's, which encrypt what is pushed), the user chose it for this
 * knowledge base, and the `filter` a `.gitattributes` names stays in force (unset, the entries
 * would be pushed in the clear).
 *
 * @module
 */

/** How git-kb's own line of `info/attributes` starts, in this version and the earlier ones. */
const OWN_LINE_START = "entries/** merge=text";

/**
 * The line of `info/attributes` that keeps every entry as written, merged three-way; with
 * `keepFilter`, it leaves the `filter` a `.gitattributes` names in force.
 */
export function entryAttributesLine(keepFilter: boolean): string {
  const filter = keepFilter ? "" : " !filter";
  return `${OWN_LINE_START} !conflict-marker-size !diff !text !crlf !eol ` +
    `!working-tree-encoding${filter} !ident`;
}

/**
 * `attributes`, the text of a repository's `info/attributes` (undefined when there is none), with
 * `line` as git-kb's own line, last (one an earlier run or version wrote taken out); undefined
 * when that is how it reads already.
 */
export function withEntryAttributesLine(
  attributes: string | undefined,
  line: string,
): string | undefined {
  const lines = (attributes ?? "").split(/(?<=\n)/).filter(Boolean);
  const own = (item: string) => item.trim().startsWith(OWN_LINE_START);
  if (lines.filter(own).length === 1 && lines.at(-1)!.trim() === line) return undefined;
  const kept = lines.filter((item) => !own(item)).join("");
  const separator = kept === "" || kept.endsWith("\n") ? "" : "\n";
  return `${kept}${separator}${line}\n`;
}
