/**
 * An entry's 1-hop neighbourhood: links it declares and links that point at it, the latter
 * named by their inverse relation (supersedes → superseded-by).
 *
 * @module
 */
import { INVERSE_RELS, type LinkRel } from "./schema.ts";

/** A neighbour of an entry and how it relates. */
export interface Neighbour {
  rel: string;
  id: string;
  direction: "out" | "in";
}

/** Neighbours of `id` from the list of all links as [from, rel, to]. */
export function neighbours(
  id: string,
  links: ReadonlyArray<readonly [string, string, string]>,
): Neighbour[] {
  const found: Neighbour[] = [];
  for (const [from, rel, to] of links) {
    if (from === id) found.push({ rel, id: to, direction: "out" });
    else if (to === id) {
      found.push({ rel: INVERSE_RELS[rel as LinkRel] ?? rel, id: from, direction: "in" });
    }
  }
  return found;
}
