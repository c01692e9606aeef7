/**
 * Search hits of several knowledge bases in one ranking. Each knowledge base's BM25F scores come
 * from one formula, with that knowledge base's own term rarity and lengths (core/search/rank.ts);
 * a fused score (several queries) is a sum of reciprocal ranks, the same scale everywhere. So the
 * hits are merged by score as they are: active entries first, then the higher score, then the
 * knowledge base listed first (the default).
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
    hits.map((hit) => ({ hit: { ...hit, kb }, order }))
  );
  all.sort((a, b) =>
    Number(b.hit.doc.status === "active") - Number(a.hit.doc.status === "active") ||
    b.hit.score - a.hit.score || a.order - b.order
  );
  return all.slice(0, limit).map(({ hit }) => hit);
}
