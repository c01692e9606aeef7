/**
 * The closest of some known words to a mistyped one, for "did you mean" hints on unknown
 * commands and options.
 *
 * @module
 */

/**
 * The edit distance between `a` and `b`: how many characters must be inserted, deleted,
 * replaced or swapped with their neighbour to turn one into the other.
 */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = [];
  for (let i = 0; i <= a.length; i++) {
    rows[i] = [i];
    for (let j = 1; j <= b.length; j++) {
      if (i === 0) {
        rows[i][j] = j;
        continue;
      }
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, rows[i - 2][j - 2] + 1);
      }
      rows[i][j] = best;
    }
  }
  return rows[a.length][b.length];
}

/**
 * The word of `known` nearest to `word`, when it is near enough to be what was meant: at most
 * two edits, and fewer edits than half of `word`'s length (so "foo" suggests nothing).
 *
 * @example
 * ```ts
 * closestWord("serch", ["search", "get"]); // "search"
 * ```
 */
export function closestWord(word: string, known: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.min(2, Math.ceil(word.length / 2) - 1) + 1;
  for (const candidate of known) {
    const distance = editDistance(word, candidate);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best;
}
