/**
 * A long prompt read sentence by sentence: a pasted error, a question between paragraphs of
 * background, one line of a log can each be about an entry that the whole prompt, saying much
 * else, is not about enough to point at.
 *
 * @module
 */

/** Where a prompt breaks into sentences: line breaks, and spaces after `.`, `!` or `?`. */
const SENTENCE_BREAK = /\n+|(?<=[.!?])\s+/;

/**
 * The sentences of `text`, in order, trimmed, blank ones left out: split at line breaks (a line
 * of a pasted log or traceback is a sentence) and at the spaces after `.`, `!` and `?`.
 *
 * @example
 * ```ts
 * sentencesOf("The deploy broke. Why?\nModuleNotFoundError: No module named 'yaml'");
 * // ["The deploy broke.", "Why?", "ModuleNotFoundError: No module named 'yaml'"]
 * ```
 */
export function sentencesOf(text: string): string[] {
  return text.split(SENTENCE_BREAK).map((sentence) => sentence.trim()).filter(Boolean);
}
