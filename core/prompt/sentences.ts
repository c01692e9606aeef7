/**
 * A long prompt read sentence by sentence: a pasted error, a question between paragraphs of
 * background, one line of a log can each be about an entry that the whole prompt, saying much
 * else, is not about enough to point at.
 *
 * @module
 */
import { MAX_SPLIT_CHARS, MAX_SPLIT_WORDS } from "../text/tokenize.ts";

/**
 * Where a prompt breaks into sentences: line breaks (a line feed, a carriage return alone as old
 * editors and some terminals paste it, Unicode's line and paragraph separators), and spaces after
 * `.`, `!` or `?`.
 */
const SENTENCE_BREAK = /[\n\r\u2028\u2029]+|(?<=[.!?])\s+/;

/**
 * The sentences of `text`, in order, trimmed, blank ones left out: split at line breaks (a line
 * of a pasted log or traceback is a sentence) and at the spaces after `.`, `!` and `?`. Only the
 * part of `text` whose words a prompt is read by is split (its first `MAX_SPLIT_CHARS`
 * characters), into `MAX_SPLIT_WORDS` pieces at most, so a prompt of millions of lines costs no
 * more than its words do.
 *
 * @example
 * ```ts
 * sentencesOf("The deploy broke. Why?\nModuleNotFoundError: No module named 'yaml'");
 * // ["The deploy broke.", "Why?", "ModuleNotFoundError: No module named 'yaml'"]
 * ```
 */
export function sentencesOf(text: string): string[] {
  return text.slice(0, MAX_SPLIT_CHARS).split(SENTENCE_BREAK, MAX_SPLIT_WORDS)
    .map((sentence) => sentence.trim()).filter(Boolean);
}
