import { assertEquals } from "@std/assert";
import { attachmentLookup, noteNameLookup, resolveAttachments } from "./attachments.ts";

const FILES = attachmentLookup(["en/Attachments/bases.png", "en/Bases/local.png"]);
const bringAll = () => undefined;

Deno.test("a markdown embed with a #fragment is found without it, by name when it has no folder", () => {
  const body = "![A table of books](bases.png#interface)\n![Here](local.png#x)\n";
  const resolved = resolveAttachments(body, "en/Bases/Intro.md", "help-1", FILES, bringAll);
  assertEquals(resolved.missing, []);
  assertEquals(resolved.brought, ["en/Attachments/bases.png", "en/Bases/local.png"]);
  // The fragment is part of the embed as written: kept after the copy's address.
  assertEquals(
    resolved.body,
    "![A table of books](../attachments/help-1/en/Attachments/bases.png#interface)\n" +
      "![Here](../attachments/help-1/en/Bases/local.png#x)\n",
  );
});

Deno.test("a wikilink embed keeps its #fragment on the address and its |size in the alt text", () => {
  const body = "![[bases.png|400]] ![[bases.png#outline|100x145]] ![[local.png#icon]]\n";
  const resolved = resolveAttachments(body, "en/Bases/Intro.md", "help-1", FILES, bringAll);
  assertEquals(resolved.missing, []);
  assertEquals(
    resolved.body,
    "![bases.png|400](../attachments/help-1/en/Attachments/bases.png) " +
      "![bases.png|100x145](../attachments/help-1/en/Attachments/bases.png#outline) " +
      "![local.png](../attachments/help-1/en/Bases/local.png#icon)\n",
  );
});

Deno.test("a markdown embed with a folder is never looked up by its name alone", () => {
  const body = "![x](img/bases.png)";
  const resolved = resolveAttachments(body, "en/Bases/Intro.md", "help-1", FILES, bringAll);
  assertEquals(resolved.brought, []);
  assertEquals(resolved.missing, [{
    path: "en/Bases/Intro.md",
    target: "img/bases.png",
    reason: "not found in the folder",
  }]);
  // The alt text and the file: the note still says which file it embedded.
  assertEquals(resolved.body, "[x (img/bases.png): not imported, not found in the folder]");
});

Deno.test("an embed of a Dendron note is left as written, though its name ends as a file's", () => {
  const isNote = noteNameLookup(["vault/dendron.topic.git.md", "vault/tags.scope.edit.md"]);
  const body = "![[dendron.topic.git#prerequisites,1:#*]]\n" +
    "![[dendron://dendron.dendron-site/tags.scope.edit#summary,1:#*]]\n" +
    "![[dendron://other-vault/notes.unknown]]\n![[diagram.svg]]\n" +
    "![[dendron.topic.gone#summary,1:#*]] ![x](img/gone.png#interface)\n";
  const resolved = resolveAttachments(body, "vault/a.md", "site-1", FILES, bringAll, isNote);
  assertEquals(
    resolved.body,
    "![[dendron.topic.git#prerequisites,1:#*]]\n" +
      "![[dendron://dendron.dendron-site/tags.scope.edit#summary,1:#*]]\n" +
      "![[dendron://other-vault/notes.unknown]]\n" +
      "[diagram.svg: not imported, not found in the folder]\n" +
      // Neither a file nor a note: named as missing, with what followed its name.
      "[dendron.topic.gone#summary,1:#*: not imported, not found in the folder] " +
      "[x (img/gone.png#interface): not imported, not found in the folder]\n",
  );
  // Only what the folder lacks is named as missing.
  assertEquals(resolved.missing.map((item) => item.target), [
    "diagram.svg",
    "dendron.topic.gone",
    "img/gone.png",
  ]);
});

Deno.test("a Dendron embed of a note written with its text first is left as written", () => {
  // dendronhq/dendron-site's dendron._ref.install-node.md: the text ends as a file's name would.
  const isNote = noteNameLookup(["dendron.ref.cli.md"]);
  const body = "![[Install Node.js|dendron.ref.cli#install-nodejs,1:#installation]]\n" +
    "![[setup.js|300]]\n";
  const resolved = resolveAttachments(
    body,
    "dendron._ref.install-node.md",
    "v-1",
    FILES,
    bringAll,
    isNote,
  );
  assertEquals(
    resolved.body,
    "![[Install Node.js|dendron.ref.cli#install-nodejs,1:#installation]]\n" +
      "[setup.js|300 (setup.js): not imported, not found in the folder]\n",
  );
  assertEquals(resolved.missing.map((item) => item.target), ["setup.js"]);
});

Deno.test("an embed whose alt text holds inline code is copied and named whole", () => {
  const body = "See ![the `local` setting](local.png) and ![`jq` output](gone.png); " +
    "`![code](bases.png)` stays.\n";
  const resolved = resolveAttachments(body, "en/Bases/Intro.md", "help-1", FILES, bringAll);
  assertEquals(resolved.brought, ["en/Bases/local.png"]);
  assertEquals(resolved.missing.map((item) => item.target), ["gone.png"]);
  assertEquals(
    resolved.body,
    "See ![the `local` setting](../attachments/help-1/en/Bases/local.png) and " +
      "[`jq` output (gone.png): not imported, not found in the folder]; " +
      "`![code](bases.png)` stays.\n",
  );
});

Deno.test("an embed from a Hugo site's root is found in its static folder", () => {
  // As ox-hugo writes a braindump's images: `/ox-hugo/x.png` is served from `static/ox-hugo/`.
  const files = attachmentLookup(["static/ox-hugo/shot.png", "assets/logo.png"]);
  const body = "![](/ox-hugo/shot.png) ![logo](/assets/logo.png) ![gone](/ox-hugo/gone.png)\n";
  const resolved = resolveAttachments(body, "content/posts/a.md", "site-1", files, bringAll);
  assertEquals(resolved.brought, ["static/ox-hugo/shot.png", "assets/logo.png"]);
  assertEquals(resolved.missing.map((item) => item.target), ["/ox-hugo/gone.png"]);
  assertEquals(
    resolved.body,
    "![](../attachments/site-1/static/ox-hugo/shot.png) " +
      "![logo](../attachments/site-1/assets/logo.png) " +
      "[gone (/ox-hugo/gone.png): not imported, not found in the folder]\n",
  );
});

Deno.test("an embed in a Logseq code block, its fence on the block's `- `, stays as written", () => {
  // As Logseq's docs show how to embed: the example is code, the embed after it is real.
  const body = "- Markdown:\n\t- ```markdown\n\t  - ![](Link-To-File)\n\t  ```\n" +
    "\t- ![](../Attachments/bases.png)\n";
  const resolved = resolveAttachments(body, "en/pages/Embed.md", "help-1", FILES, bringAll);
  assertEquals(resolved.missing, []);
  assertEquals(resolved.brought, ["en/Attachments/bases.png"]);
  assertEquals(
    resolved.body,
    body.replace(
      "](../Attachments/bases.png)",
      "](../attachments/help-1/en/Attachments/bases.png)",
    ),
  );
});

Deno.test("a link to a file of the folder brings it along and points at the copy; others stay", () => {
  // As the Obsidian help vault links its screenshot, and a note links a PDF beside it.
  const body = "Allow it, [[bases.png|see screenshot]]; [[local.png#x]], [the scan](local.png).\n" +
    "[[Gone.png]], [[Bases]], [a note](Intro.md#top), [site](https://x.io/a.png), [up](#top).\n";
  const resolved = resolveAttachments(body, "en/Bases/Intro.md", "help-1", FILES, bringAll);
  assertEquals(resolved.missing, []);
  assertEquals(resolved.brought, ["en/Attachments/bases.png", "en/Bases/local.png"]);
  assertEquals(
    resolved.body,
    "Allow it, [see screenshot](../attachments/help-1/en/Attachments/bases.png); " +
      "[local.png](../attachments/help-1/en/Bases/local.png#x), " +
      "[the scan](../attachments/help-1/en/Bases/local.png).\n" +
      "[[Gone.png]], [[Bases]], [a note](Intro.md#top), [site](https://x.io/a.png), [up](#top).\n",
  );
  // A file not brought (too large) is linked as written, and named with why; a badge's image is
  // an embed, not a link.
  const refused = resolveAttachments(body, "en/Bases/Intro.md", "help-1", FILES, () => "too large");
  assertEquals(refused.brought, []);
  assertEquals(refused.body, body);
  const why = { path: "en/Bases/Intro.md", reason: "too large", linked: true as const };
  assertEquals(refused.missing, [
    { ...why, target: "bases.png" },
    { ...why, target: "local.png" },
    { ...why, target: "local.png" },
  ]);
  const badge = resolveAttachments(
    "[![ok](bases.png)](https://ci)\n",
    "a.md",
    "k",
    FILES,
    bringAll,
  );
  assertEquals(badge.body, "[![ok](../attachments/k/en/Attachments/bases.png)](https://ci)\n");
});
