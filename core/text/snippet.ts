/**
 * A one-line excerpt of an entry's body around the words a query matched.
 *
 * @module
 */
import { foldAccents, tokenize } from "./tokenize.ts";

/**
 * The body line that holds the most distinct query terms (the first non-empty line when none
 * does), stripped of markdown markers and cut to `width` characters around the first match.
 */
export function makeSnippet(body: string, terms: readonly string[], width = 160): string {
  const wanted = new Set(terms);
  // A stem is a prefix of its words, but for a final y turned i ("poni" for "pony"): lines
  // without any such prefix cannot score, so they skip the tokenizer. Lines are compared folded
  // and without the ties of compounds, as the terms were made ("gross" for "Größe", "forcepush"
  // for "force-push").
  const prefixes = terms.map((term) => term.endsWith("i") ? term.slice(0, -1) : term);
  let best = "";
  let bestScore = -1;
  for (const raw of body.split("\n")) {
    if (raw.trim().startsWith("```")) continue;
    if (bestScore >= 0) {
      const lower = foldAccents(raw).toLowerCase().replace(/[-_]/g, "");
      if (!prefixes.some((prefix) => lower.includes(prefix))) continue;
    }
    const line = raw.replace(/^\s*(?:[-*+>]|#{1,6}|\d+\.)\s+/, "").replace(/[`*]/g, "")
      .replace(/(^|[^\p{L}\p{N}])_([^_]+)_(?![\p{L}\p{N}])/gu, "$1$2").trim();
    if (!line) continue;
    const score = new Set(tokenize(line).filter((term) => wanted.has(term))).size;
    if (score > bestScore) [best, bestScore] = [line, score];
  }
  return best.length <= width ? best : cutAround(best, wanted, width);
}

/** `width` characters of `line` (ellipses included) around the first word that matches. */
function cutAround(line: string, wanted: ReadonlySet<string>, width: number): string {
  const lower = line.toLowerCase();
  const match = lower.split(/[^\p{L}\p{N}]+/u)
    .find((word) => word && tokenize(word).some((term) => wanted.has(term)));
  const start = match ? Math.max(0, lower.indexOf(match) - Math.floor(width / 4)) : 0;
  if (start === 0) return `${line.slice(0, width - 1)}…`;
  if (start + width - 1 >= line.length) return `…${line.slice(line.length - (width - 1))}`;
  return `…${line.slice(start, start + width - 2)}…`;
}
