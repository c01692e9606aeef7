/**
 * Splitting an entry file into frontmatter and body, without parsing the YAML, so readers that
 * only need the body (search snippets) never load the YAML library.
 *
 * @module
 */

/** Raised when a file is not an entry at all (no frontmatter, or YAML that does not parse). */
export class EntryParseError extends SyntaxError {
  /**
   * The error for text from `source` that is not an entry, and why (`detail`).
   *
   * @param source The file or input the text came from, for the message.
   */
  constructor(source: string, detail: string) {
    super(`Cannot parse entry "${source}": ${detail}`);
    this.name = "EntryParseError";
  }
}

const OPENING = /^---\r?\n/;
const CLOSING = /^---[ \t]*(?:\r?\n|$)/m;

/**
 * Split an entry file into its YAML frontmatter text and its body. A byte-order mark before the
 * opening `---` is dropped: some editors write one, and the file is an entry all the same.
 *
 * @example
 * ```ts
 * const { frontmatter, body } = splitFrontmatter("---\nid: kb-00000\n---\nHello\n", "a.md");
 * // frontmatter === "id: kb-00000\n", body === "Hello\n"
 * ```
 */
export function splitFrontmatter(
  text: string,
  source: string,
): { frontmatter: string; body: string } {
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const opening = OPENING.exec(text);
  if (!opening) throw new EntryParseError(source, 'missing opening "---" on the first line');
  const rest = text.slice(opening[0].length);
  const closing = CLOSING.exec(rest);
  if (!closing) throw new EntryParseError(source, 'missing closing "---" after the frontmatter');
  return {
    frontmatter: rest.slice(0, closing.index),
    body: rest.slice(closing.index + closing[0].length),
  };
}
