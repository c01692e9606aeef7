/**
 * Search hits of several knowledge bases in one ranking. BM25F scores are not on one scale
 * across knowledge bases: a term's rarity (idf) and the average field lengths come from each
 * index alone (core/search/rank.ts), so a small knowledge base scores every hit low (in one of a
 * single entry, every term is in all of it). Ranks compare where scores do not, so the hits are
 * merged by rank: active entries first, then each knowledge base's best before anyone's second,
 * the knowledge base listed first (the default) first at each rank.
 *
 * @module
 */
import type { Hit } from "../search/rank.ts";

/** A hit and the knowledge base it came from. */
export interface KbHit extends Hit {
  /** The knowledge base's name. */
  kb: string;
}

/** The best `limit` hits of every knowledge base's ranking (given in config order), merged. */
export function mergeHits(
  rankings: readonly { kb: string; hits: readonly Hit[] }[],
  limit: number,
): KbHit[] {
  const all = rankings.flatMap(({ kb, hits }, order) =>
    hits.map((hit, rank) => ({ hit: { ...hit, kb }, rank, order }))
  );
  const active = (item: { hit: Hit }) => Number(item.hit.doc.status === "active");
  all.sort((a, b) => active(b) - active(a) || a.rank - b.rank || a.order - b.order);
  return all.slice(0, limit).map(({ hit }) => hit);
}
