/**
 * Obsidian-style wikilinks resolved to entry ids, pure. `[[Title]]`, `[[Title|shown text]]` and
 * `[[Title#heading]]` name a note by its file name, its title or one of its aliases (in any
 * case); each becomes a `[[kb-id]]` mention in the body, and its id a `related` link. A link that
 * names no imported note is left as written and reported. Embeds (`![[image.png]]`) and links
 * inside code are left alone.
 *
 * @module
 */

/** An imported note a wikilink may name. */
export interface LinkTarget {
  /** The entry id the note was given. */
  id: string;
  /** The note's path inside the imported folder, e.g. `Ops/Rotate keys.md`. */
  sourcePath: string;
  title: string;
  aliases: readonly string[];
}

/** A body with its wikilinks resolved. */
export interface ResolvedBody {
  body: string;
  /** The ids the body now links to, once each, in order. */
  linked: string[];
  /** The names of wikilinks that named no note, once each. */
  unresolved: string[];
}

/** The key a name is looked up by: trimmed, lower case, without a `.md` ending or folders. */
function keyOf(name: string): string {
  return name.trim().replace(/\.md$/i, "").toLowerCase();
}

/**
 * A lookup from a wikilink's name to an id: by path (`Ops/Rotate keys`), file name, title, then
 * alias. A name two notes share resolves to the first note that has it in the earliest of
 * these, so a title never loses to another note's alias.
 */
export function wikilinkLookup(
  targets: readonly LinkTarget[],
): (name: string) => string | undefined {
  const byKey = new Map<string, string>();
  const claim = (name: string, id: string) => {
    const key = keyOf(name);
    if (key && !byKey.has(key)) byKey.set(key, id);
  };
  for (const target of targets) claim(target.sourcePath, target.id);
  for (const target of targets) {
    claim(target.sourcePath.slice(target.sourcePath.lastIndexOf("/") + 1), target.id);
  }
  for (const target of targets) claim(target.title, target.id);
  for (const target of targets) for (const alias of target.aliases) claim(alias, target.id);
  return (name) =>
    byKey.get(keyOf(name)) ?? byKey.get(keyOf(name.slice(name.lastIndexOf("/") + 1)));
}

const WIKILINK = /(!?)\[\[([^\]|#\n]+)(?:#([^\]|\n]*))?(?:\|([^\]\n]*))?\]\]/g;

/** Resolve the wikilinks of `body` with `lookup` (see the module doc). */
export function resolveWikilinks(
  body: string,
  lookup: (name: string) => string | undefined,
): ResolvedBody {
  const linked: string[] = [];
  const unresolved: string[] = [];
  let fenced = false;
  const lines = body.split("\n").map((line) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced || !line.includes("[[")) return line;
    return line.split(/(`[^`]*`)/).map((piece, index) =>
      index % 2 ? piece : piece.replace(WIKILINK, (whole, embed, name, heading, shown) => {
        if (embed) return whole;
        const id = lookup(name);
        if (!id) {
          if (!unresolved.includes(name.trim())) unresolved.push(name.trim());
          return whole;
        }
        if (!linked.includes(id)) linked.push(id);
        const mention = heading?.trim() ? `[[${id}]] (${heading.trim()})` : `[[${id}]]`;
        return shown?.trim() ? `${shown.trim()} (${mention})` : mention;
      })
    ).join("");
  });
  return { body: lines.join("\n"), linked, unresolved };
}
