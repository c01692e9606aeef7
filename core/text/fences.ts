/**
 * The lines of markdown that are no prose, pure: fenced code blocks, raw HTML blocks (`<script>`,
 * `<pre>`, `<style>`, `<textarea>`, to their closing tag), Hugo's code shortcodes
 * (`{{< highlight >}}` to `{{< /highlight >}}`) and HTML comments. A fence is a
 * line of three or more backticks or tildes (after blanks, a quote's `>` or a list item's marker:
 * a Logseq page opens every code block on its block's `- `), and its block ends at a line of the
 * same character, at least as many, after nothing but blanks or `>` and before nothing but blanks
 * (a `- ```` in a block keeps it open: CommonMark ends the block there and opens another, so the
 * lines after it are code either way). So a longer fence holds a shorter one as text: a note that
 * shows how to write a code block wraps it in four backticks, and the three inside it neither end
 * the block nor open another. A line that starts with `<!--` is a comment through the line that
 * holds `-->`, and a fence in it is none (a note that comments a code block out, ```` ``` --> ````
 * on its last line).
 *
 * @module
 */

/**
 * The fence a line opens or closes a block with, what comes before it (blanks, `>`, list markers:
 * `- `, `* `, `+ `, `1. `, `2) `) and what follows it on the line. Each character before the fence
 * is read one way only, so a line of many blanks costs one pass.
 */
const FENCE = /^((?:[ \t>]|[-*+][ \t]|\d{1,9}[.)][ \t])*)(`{3,}|~{3,})([^\n]*)$/;

/**
 * A line that opens a raw block, one no markdown is read in, the tag's name captured: an HTML
 * block of CommonMark's type 1 (`<script>`, `<pre>`, `<style>`, `<textarea>` at the line's start,
 * group 1), or a Hugo shortcode that shows code (`{{< highlight go >}}`, `{{< code-toggle >}}`,
 * group 2).
 */
const RAW_BLOCK =
  /^[ \t]*(?:<(script|pre|style|textarea)(?=[\s>]|$)|\{\{[<%][ \t]*(highlight|code-toggle|code)(?![\w-]))/i;

/** What closes the raw block `RAW_BLOCK` matched: its closing tag, `</pre>`, `{{< /highlight >}}`. */
function rawBlockEnd(opened: RegExpExecArray): RegExp {
  return opened[1]
    ? new RegExp(`</${opened[1]}>`, "i")
    : new RegExp(`\\{\\{[<%][ \\t]*/[ \\t]*${opened[2]}[ \\t]*[>%]\\}\\}`, "i");
}

/**
 * The code blocks of a text, read a line at a time in order: fenced ones, and raw HTML blocks (a
 * page's `<script>` setting MathJax's `inlineMath: [["\\(", "\\)"]]`, a `<pre>`), each through
 * the line that closes its tag. A caller that tracks HTML comments itself (inline ones too) passes
 * it no line inside a comment.
 */
export class FencedBlocks {
  #open = "";
  /** What closes the raw block open (`</script>`); undefined when none is. */
  #raw: RegExp | undefined;

  /** Whether a block is open after the lines read so far. */
  get open(): boolean {
    return this.#open !== "" || this.#raw !== undefined;
  }

  /** Whether `line`, the next line, is part of a block, its fence or tag lines included. */
  read(line: string): boolean {
    if (this.#raw) {
      if (this.#raw.test(line)) this.#raw = undefined;
      return true;
    }
    const raw = this.#open ? null : RAW_BLOCK.exec(line);
    if (raw) {
      const end = rawBlockEnd(raw);
      if (!end.test(line.slice(raw[0].length))) this.#raw = end;
      return true;
    }
    const fence = FENCE.exec(line);
    if (this.#open) {
      if (
        fence && /^[ \t>]*$/.test(fence[1]) && fence[2][0] === this.#open[0] &&
        fence[2].length >= this.#open.length && !fence[3].trim()
      ) {
        this.#open = "";
      }
      return true;
    }
    // A backtick fence's words after it (its language) hold no backtick.
    if (fence && !(fence[2][0] === "`" && fence[3].includes("`"))) {
      this.#open = fence[2];
      return true;
    }
    return false;
  }
}

/**
 * A reader of a text's lines in order: each call says whether its line is no prose, part of a
 * fenced block (the fence lines included), of a raw HTML block or of an HTML comment that starts
 * its line.
 */
export function nonProseLines(): (line: string) => boolean {
  const fences = new FencedBlocks();
  let comment = false;
  return (line) => {
    if (comment) {
      comment = !line.includes("-->");
      return true;
    }
    const opened = fences.open ? null : /^ {0,3}<!--/.exec(line);
    if (opened) {
      comment = !line.includes("-->", opened[0].length);
      return true;
    }
    return fences.read(line);
  };
}
