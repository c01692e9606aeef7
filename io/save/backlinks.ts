/**
 * Which entries link to a given one, read from the entry files themselves (their frontmatter
 * `links`), so it holds whatever state the index is in.
 *
 * @module
 */
import { parseEntryText } from "../../core/entry/entry.ts";
import { listEntries, readKbFile, UnreadableEntryError } from "../kb.ts";

/** A link from one entry file to another entry. */
export interface Backlink {
  /** The id of the entry that holds the link. */
  from: string;
  /** Its file, relative to the knowledge base. */
  path: string;
  rel: string;
  /** The id it links to. */
  to: string;
}

/** The `links` of an entry file's frontmatter as { rel, to } pairs; [] when it has none or does not parse. */
function declaredLinks(
  text: string,
  path: string,
): { id: string; links: { rel: string; to: string }[] } {
  try {
    const { fields } = parseEntryText(text, path);
    const links = Array.isArray(fields.links) ? fields.links : [];
    return {
      id: String(fields.id ?? ""),
      links: links.filter((link) => typeof link?.to === "string")
        .map((link) => ({ rel: String(link.rel), to: link.to })),
    };
  } catch {
    return { id: "", links: [] };
  }
}

/**
 * Every link, in an entry file under `entries/`, to one of `ids`, from an entry that is not
 * itself in `ids`; sorted by file.
 */
export function linksTo(kbDir: string, ids: ReadonlySet<string>): Backlink[] {
  const found: Backlink[] = [];
  for (const path of listEntries(kbDir).sort()) {
    let text: string;
    try {
      text = readKbFile(kbDir, path);
    } catch (error) {
      // Not an entry the index serves (too large, not UTF-8), so no link of its counts.
      if (error instanceof UnreadableEntryError) continue;
      throw error;
    }
    const { id, links } = declaredLinks(text, path);
    if (ids.has(id)) continue;
    for (const { rel, to } of links) if (ids.has(to)) found.push({ from: id, path, rel, to });
  }
  return found;
}
