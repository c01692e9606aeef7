/**
 * What `git-kb promote` writes, pure: the copy of an entry for another knowledge base and the
 * original marked as superseded by it. A link must name an entry of its own knowledge base, so
 * the copy's links are carried over to what the target holds: a link to an entry promoted before
 * points at its copy there, a link to an id the target holds stays, and the others are dropped,
 * which the command reports. Promoting again after a linked entry was promoted adds the links
 * that can now be carried ({@link carriedLinks}). Both sides say where the other is, in frontmatter fields outside the contract (kept
 * as they are by every edit): `promoted_from: personal:kb-7q2mx` on the copy,
 * `superseded_by: team:kb-3hd8w` on the original; a second promote finds the copy by the first.
 *
 * @module
 */
import type { Entry, Link } from "../entry/entry.ts";

/** The field of a copy naming its original, `name:id`. */
export const PROMOTED_FROM = "promoted_from";

/** The field of an original naming its copy, `name:id`. */
export const SUPERSEDED_BY = "superseded_by";

/** The copy to save in the target, and the links it left out. */
export interface PromotedCopy {
  /** The entry for the target knowledge base. */
  copy: Entry;
  /** Links of the original to entries the target does not hold: not carried over. */
  dropped: Link[];
}

/**
 * The original's links as the target can hold them: each pointed at `targetIdOf(link.to)` (the
 * id of that entry's copy in the target, or the same id when the target holds it), once each;
 * the links with no such id are `dropped`.
 */
export function carriedLinks(
  links: readonly Link[],
  targetIdOf: (id: string) => string | undefined,
): { links: Link[]; dropped: Link[] } {
  const carried: Link[] = [];
  const dropped: Link[] = [];
  for (const link of links) {
    const to = targetIdOf(link.to);
    if (to === undefined) dropped.push(link);
    else if (!carried.some((kept) => kept.rel === link.rel && kept.to === to)) {
      carried.push({ rel: link.rel, to });
    }
  }
  return { links: carried, dropped };
}

/** The links of `wanted` that `links` lacks (same rel and target). */
export function missingLinks(links: readonly Link[], wanted: readonly Link[]): Link[] {
  return wanted.filter((link) => !links.some((has) => has.rel === link.rel && has.to === link.to));
}

/**
 * The copy of `original` for the target knowledge base: `id` (a new one, as the original
 * keeps its own), links carried over as {@link carriedLinks} does (`targetIdOf`), status active,
 * updated `today`, and {@link PROMOTED_FROM} naming `from` (the original's `name:id`).
 */
export function promotedCopy(
  original: Entry,
  options: {
    id: string;
    from: string;
    today: string;
    targetIdOf: (id: string) => string | undefined;
  },
): PromotedCopy {
  const { links, dropped } = carriedLinks(original.links, options.targetIdOf);
  const extra: Record<string, unknown> = { ...original.extra, [PROMOTED_FROM]: options.from };
  delete extra[SUPERSEDED_BY];
  return {
    copy: {
      ...original,
      id: options.id,
      status: "active",
      updated: options.today,
      links,
      extra,
    },
    dropped,
  };
}

/** `original` marked superseded by its copy (`by`, the copy's `name:id`), updated `today`. */
export function supersededOriginal(original: Entry, by: string, today: string): Entry {
  return {
    ...original,
    status: "superseded",
    updated: today,
    extra: { ...original.extra, [SUPERSEDED_BY]: by },
  };
}
