/**
 * An entry's 1-hop neighbourhood: links it declares and links that point at it, the latter
 * named by their inverse relation (supersedes → superseded-by).
 *
 * @module
 */
import { INVERSE_RELS, type LinkRel } from "./schema.ts";

/** A neighbour of an entry, how it relates, and its title (undefined when it is missing). */
export interface Neighbour {
  /** The relation as seen from the entry asked about (the inverse for an incoming link). */
  rel: string;
  /** The other entry's id. */
  id: string;
  /** Whether the entry asked about declares the link (`out`) or the other one does (`in`). */
  direction: "out" | "in";
  /** The other entry's title; undefined when no entry has that id. */
  title?: string;
}

/** A link row: [from, rel, to, from title, to title or null]. */
export type LinkRowLike = readonly [string, string, string, string?, (string | null)?];

/** Neighbours of `id` from the list of all links. */
export function neighbours(id: string, links: ReadonlyArray<LinkRowLike>): Neighbour[] {
  const found: Neighbour[] = [];
  for (const row of links) {
    const outgoing = row[0] === id;
    if (!outgoing && row[2] !== id) continue;
    const neighbour: Neighbour = outgoing
      ? { rel: row[1], id: row[2], direction: "out" }
      : { rel: INVERSE_RELS[row[1] as LinkRel] ?? row[1], id: row[0], direction: "in" };
    const title = outgoing ? row[4] : row[3];
    if (title) neighbour.title = title;
    found.push(neighbour);
  }
  return found;
}

/**
 * One neighbour as `git-kb get --links` lists it: an arrow for the direction, the relation, the
 * id and the title (`(missing)` when no entry has the id).
 *
 * @example
 * ```ts
 * linkLine({ rel: "refines", id: "kb-1a2b3", direction: "out", title: "Rebase" });
 * // "→ refines kb-1a2b3 Rebase"
 * ```
 */
export function linkLine(link: Neighbour): string {
  return `${link.direction === "out" ? "→" : "←"} ${link.rel} ${link.id} ${
    link.title ?? "(missing)"
  }`;
}
