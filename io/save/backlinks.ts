/**
 * Which entries link to a given one, read from the entry files themselves (their frontmatter
 * `links`, and the `[[id]]` mentions of their bodies), so it holds whatever state the index is in.
 *
 * @module
 */
import { parseEntryText } from "../../core/entry/entry.ts";
import { mentionedIds } from "../../core/entry/mentions.ts";
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

/** A mention of another entry in an entry file's body, `[[kb-7q2mx]]`. */
export interface Mention {
  /** The id of the entry whose body holds the mention. */
  from: string;
  /** Its file, relative to the knowledge base. */
  path: string;
  /** The id it mentions. */
  to: string;
}

/**
 * The `links` of an entry file's frontmatter as { rel, to } pairs and the ids its body mentions;
 * none when it has none or does not parse.
 */
function declaredLinks(
  text: string,
  path: string,
): { id: string; links: { rel: string; to: string }[]; mentions: string[] } {
  try {
    const { fields, body } = parseEntryText(text, path);
    const links = Array.isArray(fields.links) ? fields.links : [];
    return {
      id: String(fields.id ?? ""),
      links: links.filter((link) => typeof link?.to === "string")
        .map((link) => ({ rel: String(link.rel), to: link.to })),
      mentions: mentionedIds(body),
    };
  } catch {
    return { id: "", links: [], mentions: [] };
  }
}

/**
 * Every link and every body mention, in an entry file under `entries/`, of one of `ids`, from an
 * entry that is not itself in `ids`; sorted by file.
 */
export function linksTo(
  kbDir: string,
  ids: ReadonlySet<string>,
): { links: Backlink[]; mentions: Mention[] } {
  const found: Backlink[] = [];
  const mentioned: Mention[] = [];
  for (const path of listEntries(kbDir).sort()) {
    let text: string;
    try {
      text = readKbFile(kbDir, path);
    } catch (error) {
      // Not an entry the index serves (too large, not UTF-8), so no link of its counts.
      if (error instanceof UnreadableEntryError) continue;
      throw error;
    }
    const { id, links, mentions } = declaredLinks(text, path);
    if (ids.has(id)) continue;
    for (const { rel, to } of links) if (ids.has(to)) found.push({ from: id, path, rel, to });
    for (const to of mentions) if (ids.has(to)) mentioned.push({ from: id, path, to });
  }
  return { links: found, mentions: mentioned };
}
