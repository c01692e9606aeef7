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
import { IMPORTED_FOLDER, IMPORTED_FROM } from "../import/plan.ts";
import { ID_IN_TEXT, MENTION } from "../entry/mentions.ts";

/** The field of a copy naming its original, `name:id`. */
export const PROMOTED_FROM = "promoted_from";

/** The field of an original naming its copy, `name:id`. */
export const SUPERSEDED_BY = "superseded_by";

/** The copy to save in the target, and the links and mentions it left out. */
export interface PromotedCopy {
  /** The entry for the target knowledge base. */
  copy: Entry;
  /** Links of the original to entries the target does not hold: not carried over. */
  dropped: Link[];
  /** Ids the body mentions (`[[id]]`) that the target does not hold: now plain qualified ids. */
  unlinked: string[];
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
 * keeps its own), links carried over as {@link carriedLinks} does (`targetIdOf`), the body's
 * mentions as {@link carriedBody} does, status active, updated `today`, and
 * {@link PROMOTED_FROM} naming `from` (the original's `name:id`).
 */
export function promotedCopy(
  original: Entry,
  options: {
    id: string;
    from: string;
    today: string;
    targetIdOf: (id: string) => string | undefined;
    /** How the body names an entry the target does not hold: its qualified id. */
    qualified: (id: string) => string;
  },
): PromotedCopy {
  const { links, dropped } = carriedLinks(original.links, options.targetIdOf);
  const { body, unlinked } = carriedBody(original.body, options.targetIdOf, options.qualified);
  const extra: Record<string, unknown> = { ...original.extra, [PROMOTED_FROM]: options.from };
  delete extra[SUPERSEDED_BY];
  // The copy is no import's note in the target: a later import there must not take it for one.
  delete extra[IMPORTED_FROM];
  delete extra[IMPORTED_FOLDER];
  return {
    copy: {
      ...original,
      id: options.id,
      status: "active",
      updated: options.today,
      links,
      body,
      extra,
    },
    dropped,
    unlinked,
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

/**
 * `body` for the target knowledge base: each `[[id]]` names the target's entry where it holds
 * the one meant (`targetIdOf`), and otherwise becomes the plain qualified id (`qualified`, such
 * as `personal:kb-7q2mx`), which no longer reads as a link there; those ids are `unlinked`.
 */
export function carriedBody(
  body: string,
  targetIdOf: (id: string) => string | undefined,
  qualified: (id: string) => string,
): { body: string; unlinked: string[] } {
  const unlinked: string[] = [];
  const carried = body.replace(MENTION, (_whole, id: string) => {
    const to = targetIdOf(id);
    if (to !== undefined) return `[[${to}]]`;
    if (!unlinked.includes(id)) unlinked.push(id);
    return qualified(id);
  });
  return { body: carried, unlinked };
}

/**
 * A copy's `body` once more of the entries it mentions are in the target: each plain qualified
 * id {@link carriedBody} left (`personal:kb-7q2mx`, `name` being the source's) whose entry now
 * has a copy there (`targetIdOf`) becomes a mention of it again, `[[kb-3hd8w]]`; the target's
 * ids it now mentions so are `relinked`.
 */
export function relinkedBody(
  body: string,
  name: string,
  targetIdOf: (id: string) => string | undefined,
): { body: string; relinked: string[] } {
  const relinked: string[] = [];
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const plain = new RegExp(`(?<![\\w:\\[-])${escaped}:(${ID_IN_TEXT})(?![\\w-])`, "g");
  const relinkedText = body.replace(plain, (whole, mentioned: string) => {
    const to = targetIdOf(mentioned);
    if (to === undefined) return whole;
    if (!relinked.includes(to)) relinked.push(to);
    return `[[${to}]]`;
  });
  return { body: relinkedText, relinked };
}

/**
 * An embed or link of a file under `attachments/`, as imports write them from an entry; a `#…`
 * after the file (`#page=3`) is no part of its path (a `#` in a file name is written `%23`).
 */
const ATTACHMENT_LINK = /\]\(\.\.\/(attachments\/[^)\s#]+)(?:#[^)\s]*)?\)/g;

/**
 * The files under `attachments/` that `body` embeds or links (paths in the knowledge base, each
 * once, in order), so that a copy elsewhere can bring them along.
 */
export function embeddedAttachments(body: string): string[] {
  const paths: string[] = [];
  for (const [, target] of body.matchAll(ATTACHMENT_LINK)) {
    let path: string;
    try {
      path = decodeURIComponent(target);
    } catch {
      continue;
    }
    if (!paths.includes(path)) paths.push(path);
  }
  return paths;
}
