/** Lines that are no prose: fenced code blocks and HTML comments (core/text/fences.ts). */
import { assertEquals } from "@std/assert";
import { FencedBlocks, nonProseLines } from "./fences.ts";

/** Which of `lines` are no prose. */
function code(lines: string[]): boolean[] {
  const notProse = nonProseLines();
  return lines.map(notProse);
}

Deno.test("a fence ends at one of its own character, as long or longer, with nothing after it", () => {
  assertEquals(
    code(["a", "````md", "```js", "x", "```", "````", "b"]),
    [false, true, true, true, true, true, false],
  );
  assertEquals(code(["~~~", "```", "~~~~", "c"]), [true, true, true, false]);
  assertEquals(code(["```", "```js", "```  \r", "d"]), [true, true, true, false]);
  assertEquals(code(["> ```", "> x", "> ```", "e"]), [true, true, true, false]);
});

Deno.test("three backticks with a backtick after them are prose, not a fence", () => {
  assertEquals(code(["```a` b", "c"]), [false, false]);
});

Deno.test("an HTML comment is no prose to its end, and a fence in it is none", () => {
  // As a Dendron note comments out a code block: its last fence has ` -->` after it.
  assertEquals(
    code(["<!--", "```sh", "x", "``` -->", "- [[link]]", "```", "y", "```", "z"]),
    [true, true, true, true, false, true, true, true, false],
  );
  assertEquals(code(["<!-- [[[end]]] -->", "a", "  <!-- x", "-->", "b"]), [
    true,
    false,
    true,
    true,
    false,
  ]);
  assertEquals(code(["```", "<!--", "```", "c"]), [true, true, true, false]);
  // Right after a block closes, a comment opens as anywhere else.
  assertEquals(
    code(["```", "x", "```", "<!-- a", "```", "-->", "b"]),
    [true, true, true, true, true, true, false],
  );
});

Deno.test("FencedBlocks reads fences alone and says whether a block is open", () => {
  const fences = new FencedBlocks();
  const read = ["<!--", "````", "```", "````", "-->"].map((
    line,
  ) => [fences.read(line), fences.open]);
  assertEquals(read, [[false, false], [true, true], [true, true], [true, false], [false, false]]);
});

Deno.test("a fence opened on a list item's marker is one: Logseq opens every code block so", () => {
  // A Logseq page: each block is a `- ` item, its code block's fence on the item's own line.
  assertEquals(
    code(["\t- ```markdown", "\t  - ![](Link-To-File)", "\t  ```", "\t- ![](x.png)"]),
    [true, true, true, false],
  );
  assertEquals(code(["* ~~~", "x", "~~~", "1. ```sh", "y", "```", "z"]), [
    true,
    true,
    true,
    true,
    true,
    true,
    false,
  ]);
  // A list marker before a fence inside a block starts another block, never closes one.
  assertEquals(code(["- ```", "a", "- ```", "b", "  ```", "c"]), [
    true,
    true,
    true,
    true,
    true,
    false,
  ]);
  // Markers and blanks in any number are read in one pass.
  assertEquals(code([`${"- ".repeat(50_000)}x`]), [false]);
});

Deno.test("a raw HTML block, <script> or <pre> to its closing tag, is no prose", () => {
  // As a MkDocs page sets MathJax up: its JavaScript holds what reads as a wikilink.
  assertEquals(
    code(["<script>", '  inlineMath: [["\\(", "\\)"]],', "</script>", "[[a]]"]),
    [true, true, true, false],
  );
  assertEquals(code(['<script src="x.js" async></script>', "b"]), [true, false]);
  assertEquals(code(["<PRE class=x>", "[[c]]", "text</pre> after", "d"]), [
    true,
    true,
    true,
    false,
  ]);
  // Another tag, or one in a fenced block, opens none.
  assertEquals(code(["<prefix>", "<presto> e"]), [false, false]);
  assertEquals(code(["```", "<pre>", "```", "f"]), [true, true, true, false]);
});

Deno.test("a Hugo shortcode that shows code, to its closing one, is no prose", () => {
  // As Hugo's docs show a site's configuration: TOML's arrays of tables read as wikilinks.
  assertEquals(
    code(["{{< code-toggle file=hugo >}}", "[[menus.main]]", "{{< /code-toggle >}}", "[[a]]"]),
    [true, true, true, false],
  );
  assertEquals(code(["  {{% highlight go %}}", "x", "{{% / highlight %}}", "b"]), [
    true,
    true,
    true,
    false,
  ]);
  // A shortcode that holds markdown, or one that shows no code, is prose.
  assertEquals(code(["{{< note >}}", "[[c]]", "{{< /note >}}", "{{< codepen x >}}"]), [
    false,
    false,
    false,
    false,
  ]);
});
