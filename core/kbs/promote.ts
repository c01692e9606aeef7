/**
 * What `git-kb promote` writes, pure: the copy of an entry for another knowledge base and the
 * original marked as superseded by it. The copy keeps the links to entries the target holds and
 * drops the others (a link must name an entry of its own knowledge base), which the command
 * reports. Both sides say where the other is, in frontmatter fields outside the contract (kept
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
 * The copy of `original` for the target knowledge base: `id` (a new one, as the original
 * keeps its own), links to entries the target lacks (`targetHas` says) dropped, status active,
 * updated `today`, and {@link PROMOTED_FROM} naming `from` (the original's `name:id`).
 */
export function promotedCopy(
  original: Entry,
  options: { id: string; from: string; today: string; targetHas: (id: string) => boolean },
): PromotedCopy {
  const kept = original.links.filter((link) => options.targetHas(link.to));
  const extra: Record<string, unknown> = { ...original.extra, [PROMOTED_FROM]: options.from };
  delete extra[SUPERSEDED_BY];
  return {
    copy: {
      ...original,
      id: options.id,
      status: "active",
      updated: options.today,
      links: kept,
      extra,
    },
    dropped: original.links.filter((link) => !kept.includes(link)),
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
