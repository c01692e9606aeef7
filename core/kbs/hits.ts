/**
 * Search hits of several knowledge bases in one ranking. BM25F scores are not on one scale
 * across knowledge bases: a term's rarity (idf) and the average field lengths come from each
 * index alone (core/search/rank.ts), so a small knowledge base scores every hit low (in one of a
 * single entry, every term is in all of it). What does compare is how many of the query's terms
 * a hit holds. So the rankings are merged as they stand, each knowledge base's order kept (an
 * inactive entry stays where its own search put it): at each step the next hit is the head that
 * holds the most query terms; on a tie an active entry before a superseded or archived one, as one
 * knowledge base ranks them (the original `promote` superseded after its copy), then the knowledge
 * base listed first (the default).
 *
 * @module
 */
import type { Hit } from "../search/rank.ts";

/** A hit and the knowledge base it came from. */
export interface KbHit extends Hit {
  /** The knowledge base's name. */
  kb: string;
}

/** Whether hit `a` goes before `b`: more query terms, else active where `b` is not. */
function ahead(a: Hit, b: Hit): boolean {
  if (a.terms.length !== b.terms.length) return a.terms.length > b.terms.length;
  return a.doc.status === "active" && b.doc.status !== "active";
}

/** The best `limit` hits of every knowledge base's ranking (given in config order), merged. */
export function mergeHits(
  rankings: readonly { kb: string; hits: readonly Hit[] }[],
  limit: number,
): KbHit[] {
  const queues = rankings.map(({ kb, hits }) => hits.map((hit): KbHit => ({ ...hit, kb })));
  const merged: KbHit[] = [];
  while (merged.length < limit) {
    let next: KbHit[] | undefined;
    for (const queue of queues) {
      if (queue.length && (!next || ahead(queue[0], next[0]))) next = queue;
    }
    if (!next) break;
    merged.push(next.shift()!);
  }
  return merged;
}
