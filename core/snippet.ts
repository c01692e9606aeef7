/**
 * A one-line excerpt of an entry's body around the words a query matched.
 *
 * @module
 */
import { tokenize } from "./tokenize.ts";

/**
 * The body line that holds the most distinct query terms (the first non-empty line when none
 * does), stripped of markdown markers and cut to `width` characters around the first match.
 */
export function makeSnippet(body: string, terms: readonly string[], width = 160): string {
  const wanted = new Set(terms);
  let best = "";
  let bestScore = -1;
  for (const raw of body.split("\n")) {
    const line = raw.replace(/^\s*(?:[-*+>]|#{1,6}|\d+\.)\s+/, "").replace(/[`*_]/g, "").trim();
    if (!line || line.startsWith("```")) continue;
    const score = new Set(tokenize(line).filter((term) => wanted.has(term))).size;
    if (score > bestScore) [best, bestScore] = [line, score];
  }
  if (best.length <= width) return best;
  const firstMatch = best.toLowerCase().split(/[^\p{L}\p{N}]+/u)
    .find((word) => word && tokenize(word).some((term) => wanted.has(term)));
  const at = firstMatch ? Math.max(0, best.toLowerCase().indexOf(firstMatch) - width / 4) : 0;
  const start = Math.min(at, best.length - width);
  return `${start > 0 ? "…" : ""}${best.slice(start, start + width - 1).trim()}…`;
}
