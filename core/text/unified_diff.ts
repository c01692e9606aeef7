/**
 * A unified diff of two texts, to show a change to a file before it is written (`git-kb setup
 * --dry-run`). The diff is the `diff` package's; this module sets how it reads: the `---` and
 * `+++` labels as given, nothing at all when the texts are the same, and a missing newline at the
 * end of a text not counted as a change (setup always writes one, so the marker would only say
 * that a hand-edited file lacked it). Only commands load it: no hook reaches the npm package
 * (tests/hot_path_test.ts).
 *
 * @module
 */
import { formatPatch, structuredPatch } from "diff";

/** Options for {@link unifiedDiff}. */
export interface DiffOptions {
  /** The label of the old text (`--- label`). */
  from: string;
  /** The label of the new text (`+++ label`). */
  to: string;
  /** Unchanged lines shown around each change (default 3). */
  context?: number;
}

/** What the package prints of a patch: its hunks, without the headers this module writes. */
const HUNKS_ONLY = { includeIndex: false, includeUnderline: false, includeFileHeaders: false };

/** `text` ending in a newline unless it is empty. */
function withFinalNewline(text: string): string {
  return text && !text.endsWith("\n") ? `${text}\n` : text;
}

/**
 * A unified diff of two texts, line by line, with `context` unchanged lines around each change;
 * empty when they are equal.
 *
 * @example
 * ```ts
 * unifiedDiff("a\nb\n", "a\nc\n", { from: "old", to: "new" });
 * // "--- old\n+++ new\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"
 * ```
 */
export function unifiedDiff(before: string, after: string, options: DiffOptions): string {
  const patch = structuredPatch(
    options.from,
    options.to,
    withFinalNewline(before),
    withFinalNewline(after),
    undefined,
    undefined,
    { context: options.context ?? 3 },
  );
  if (!patch.hunks.length) return "";
  // The labels as given: the package would C-quote a path with a non-ASCII letter in it.
  const hunks = formatPatch(patch, HUNKS_ONLY);
  return `--- ${options.from}\n+++ ${options.to}\n${hunks}`;
}
