/** Reading notes from other tools (core/import/note.ts) and resolving their wikilinks. */
import { assert, assertEquals, assertMatch, assertStrictEquals } from "@std/assert";
import { readNote } from "./note.ts";
import { folderKey, IMPORTED_FOLDER, IMPORTED_FROM, planImport, sourceFile } from "./plan.ts";
import { type Entry, parseEntryText, serializeEntry } from "../entry/entry.ts";
import { resolveWikilinks, wikilinkLookup } from "./wikilinks.ts";

const FOLDER = "vault-00000000";
const FILE_DATES = { created: "2023-05-01", updated: "2023-06-01" };
const note = (path: string, text: string) => readNote({ path, text, fileDates: FILE_DATES });

Deno.test("an Obsidian note: frontmatter tags as a comma string, inline and folder tags", () => {
  const read = note(
    "Ops/Cloud/Rotate keys.md",
    "---\ntags: aws, security\naliases: [key rotation]\ndate: 2022-01-02T10:00\n---\n" +
      "# Rotate keys\n\nRotate them #quarterly and `#not-a-tag`.\n```\n#nope\n```\n",
  );
  assertEquals(read.title, "Rotate keys");
  assertEquals(read.tags, ["aws", "security", "quarterly", "ops", "cloud"]);
  assertEquals(read.aliases, ["key rotation"]);
  assertEquals(read.created, "2022-01-02");
  assertEquals(read.updated, "2023-06-01");
  assertEquals(read.body.startsWith("Rotate them"), true);
  assertEquals(read.type, "note");
});

Deno.test("a folder gives its name as a tag: none for a number, as #2024 is none; no Jekyll _ or Notion id", () => {
  // A Zettelkasten of one folder per note (rwxrob/zet): its 2,631 notes each got their own tag.
  assertEquals(note("1841/README.md", "# Vim tips\n\nUse #vim.\n").tags, ["vim"]);
  assertEquals(note("journal/2024/05/Standup.md", "Done.\n").tags, ["journal"]);
  // A Jekyll site's folders of posts and of a collection: their `_` is Jekyll's mark.
  assertEquals(note("_posts/2021-01-01-hello.md", "Hi.\n").tags, ["posts"]);
  assertEquals(note("_docs/plugins/hooks.md", "Hi.\n").tags, ["docs", "plugins"]);
  // A Notion export's folders and files end with the page's id, no part of its name.
  const notion = note(
    "Team Wiki 8c14a3b7b53f4b908b0f8db1eaa2fb87/Deploy 1a2b3c4d5e6f47089abcdeffedcba987.md",
    "Run it.\n",
  );
  assertEquals([notion.tags, notion.title], [["team-wiki"], "Deploy"]);
  assertEquals(note("v2/2024-q1/x.md", "Done.\n").tags, ["v2", "2024-q1"]);
});

Deno.test("a title YAML reads as a number is kept as written", () => {
  // A Dendron journal's month note (dendronhq/dendron-site's dendron.scratch.2020.09.md).
  assertEquals(note("dendron.scratch.2020.09.md", "---\ntitle: 09\n---\nSeptember.\n").title, "09");
  assertEquals(note("v.md", "---\ntitle: 0.110 # the release\n---\nx\n").title, "0.110");
  assertEquals(note("w.md", "---\ntitle: 2024\n---\nx\n").title, "2024");
});

Deno.test("a daily note, a journal page or a post was created on the day its name states", () => {
  // A fresh checkout's dates are later than the day each note is of.
  const created = (path: string, text = "Done.\n") => {
    const read = note(path, text);
    return `${read.created} ${read.updated}`;
  };
  assertEquals(created("Daily/2021-05-03.md"), "2021-05-03 2023-06-01");
  assertEquals(created("journals/2021_05_03.md"), "2021-05-03 2023-06-01");
  assertEquals(created("_posts/2021-01-01-hello.md"), "2021-01-01 2023-06-01");
  assertEquals(created("blog/2023-07-04/index.md"), "2023-07-04 2023-07-04");
  // The frontmatter's date wins; a name that is no day (or no date at its start) states none.
  assertEquals(
    created("2021-05-03.md", "---\ndate: 2020-01-02\n---\nx\n"),
    "2020-01-02 2023-06-01",
  );
  assertEquals(created("2021-02-31 plan.md"), "2023-05-01 2023-06-01");
  assertEquals(created("notes/20210503.md"), "2023-05-01 2023-06-01");
  assertEquals(created("notes/v2021-05-03.md"), "2023-05-01 2023-06-01");
});

Deno.test("a note without frontmatter takes its title from the file name and the file's dates", () => {
  const read = note("Deploy checklist.md", "Steps:\n1. build\n");
  assertEquals(read.title, "Deploy checklist");
  assertEquals(read.created, "2023-05-01");
  assertEquals(read.tags, []);
});

Deno.test("a note saved with Windows line ends takes its title from its heading", () => {
  const read = note("notes/win.md", "# Windows note\r\n\r\nLine one.\r\nLine two.\r\n");
  assertEquals(read.title, "Windows note");
  assertEquals(read.body, "Line one.\r\nLine two.\r\n");
  const framed = note("b.md", "---\r\ntags: [x]\r\n---\r\n\r\n# Top\r\n## Part\r\nText.\r\n");
  assertEquals([framed.title, framed.tags], ["Top", ["x"]]);
});

Deno.test("types and statuses are inferred from what the note is", () => {
  assertEquals(note("a.md", "https://example.com/docs\n\nGood docs.\n").type, "bookmark");
  assertEquals(note("a.md", "https://example.com/docs\n").source, "https://example.com/docs");
  assertEquals(note("How to rotate keys.md", "Text.\n").type, "howto");
  assertEquals(note("ADR 12 use postgres.md", "Text.\n").type, "decision");
  assertEquals(note("a.md", "---\ntype: Rule\n---\nAlways x.\n").type, "rule");
  assertEquals(note("a.md", "---\nstatus: deprecated\n---\nOld.\n").status, "superseded");
  assertEquals(note("a.md", "---\nstatus: done\n---\nOld.\n").status, "archived");
});

Deno.test("frontmatter that is not YAML is left out with a warning, the body kept", () => {
  const read = note("a.md", "---\ntitle: [broken\n---\nBody.\n");
  assertEquals(read.title, "a");
  assertEquals(read.body, "Body.\n");
  assertEquals(read.warnings.length, 1);
});

Deno.test("frontmatter whose plain values hold `: ` or start with a backtick is read, and said", () => {
  const read = note(
    "decisions/ADR-019-precio.md",
    '---\ntitle: ADR-019 — precio "con IVA" en form TuFacturaIA: storage canónico\n' +
      "date: 2026-05-24\ntags: [adr, fiscal]\nsummary: `git commit -- <ruta>` no aísla\n---\nBody.\n",
  );
  assertEquals(read.title, 'ADR-019 — precio "con IVA" en form TuFacturaIA: storage canónico');
  assertEquals(read.created, "2026-05-24");
  assertEquals(read.tags, ["adr", "fiscal", "decisions"]);
  assertEquals(read.body, "Body.\n");
  assertEquals(read.warnings, [
    "its frontmatter is not valid YAML: the title, summary of it read as plain text",
  ]);
  const quoted = note(
    "q.md",
    '---\ntitle: "250 queued" no es entrega: la sonda\nrelated: [[a]] [[b]]\n---\nBody.\n',
  );
  assertEquals(quoted.title, '"250 queued" no es entrega: la sonda');
  assertEquals(quoted.warnings, [
    "its frontmatter is not valid YAML: the title, related of it read as plain text",
  ]);
  // A value that opens YAML's own syntax is not taken as text: the frontmatter is left out.
  const broken = note("b.md", "---\ntitle: [broken: x\ntags: a\n---\nBody.\n");
  assertEquals([broken.title, broken.tags], ["b", []]);
  assertMatch(
    broken.warnings[0],
    /^its frontmatter is left out: not valid YAML \(.* at line 3, column \d+\)$/,
  );
});

Deno.test("a Hugo note's TOML frontmatter gives its title, tags and date; its other fields are kept", () => {
  // As ox-hugo writes a braindump's notes.
  const read = note(
    "content/posts/shell.md",
    '+++\ntitle = "Shell"\nauthor = ["Jethro Kuan"]\ndraft = false\ntags = ["unix"]\n' +
      "date = 2019-03-04T10:00:00+08:00\n+++\n\nPipes and `$?`.\n",
  );
  assertEquals(read.title, "Shell");
  assertEquals(read.tags, ["unix", "content", "posts"]);
  assertEquals(read.created, "2019-03-04");
  assertEquals(read.body, "\nPipes and `$?`.\n");
  assertEquals(read.fields, { author: ["Jethro Kuan"], draft: false });
  assertEquals(read.warnings, []);
  // TOML that is not read stays where it is, none of its words lost, and is said.
  const table = note("a.md", '+++\ntitle = "A"\n[[links]]\nurl = "x"\n+++\nBody.\n');
  assertEquals([table.title, table.body], [
    "a",
    '+++\ntitle = "A"\n[[links]]\nurl = "x"\n+++\nBody.\n',
  ]);
  assertEquals(table.warnings, [
    "its TOML frontmatter is kept in the body as written: line 2 of it starts an array of tables",
  ]);
});

Deno.test("wikilinks resolve by path, file name, title and alias; others are reported", () => {
  const lookup = wikilinkLookup([
    { id: "kb-aaaaa", sourcePath: "Ops/Rotate keys.md", title: "Rotating API keys", aliases: [] },
    { id: "kb-bbbbb", sourcePath: "Deploy.md", title: "Deploy", aliases: ["shipping"] },
  ]);
  const { body, linked, unresolved } = resolveWikilinks(
    "See [[Rotate keys]], [[rotating api keys|the rotation]], [[Deploy#Rollback]], " +
      "[[Shipping]], [[Ops/Rotate keys]], [[Missing note]] and ![[diagram.png]].\n" +
      "`[[Deploy]]` in code\n```\n[[Deploy]]\n```\n",
    lookup,
  );
  assertEquals(
    body,
    "See Rotate keys ([[kb-aaaaa]]), the rotation ([[kb-aaaaa]]), Deploy > Rollback " +
      "([[kb-bbbbb]]), Shipping ([[kb-bbbbb]]), Ops/Rotate keys ([[kb-aaaaa]]), [[Missing note]] " +
      "and ![[diagram.png]].\n`[[Deploy]]` in code\n```\n[[Deploy]]\n```\n",
  );
  assertEquals(linked, ["kb-aaaaa", "kb-bbbbb"]);
  assertEquals(unresolved, ["Missing note"]);
});

Deno.test("no link is read in an HTML comment, on one line or over several, nor in code", () => {
  const lookup = wikilinkLookup([
    { id: "kb-bbbbb", sourcePath: "Deploy.md", title: "Deploy", aliases: [] },
  ]);
  // As CommonMark reads them: whichever of a code span and a comment starts first holds the
  // other's marks, a comment ends at its first -->, and a ``` inside one opens no fence.
  const text = "<!--> [[Deploy]] <!-- [[[end]]] --> [[Deploy]]<!---->[[Gone]]\n" +
    "`<!--` [[Deploy]] <!-- `-->` [[Deploy]] <!-- over lines\n```\n[[Hidden]] [x](Deploy.md)\n" +
    "--> [[Deploy]]\n```\n[[Fenced]] <!--\n```\n[[Deploy]] <!-- [[Never closed]]\n";
  const { body, linked, unresolved } = resolveWikilinks(text, lookup, () => "kb-bbbbb");
  assertEquals(
    body,
    "<!--> Deploy ([[kb-bbbbb]]) <!-- [[[end]]] --> Deploy ([[kb-bbbbb]])<!---->[[Gone]]\n" +
      "`<!--` Deploy ([[kb-bbbbb]]) <!-- `-->` Deploy ([[kb-bbbbb]]) <!-- over lines\n```\n" +
      "[[Hidden]] [x](Deploy.md)\n--> Deploy ([[kb-bbbbb]])\n```\n[[Fenced]] <!--\n```\n" +
      "Deploy ([[kb-bbbbb]]) <!-- [[Never closed]]\n",
  );
  assertEquals(linked, ["kb-bbbbb"]);
  assertEquals(unresolved, ["Gone"]);
});

Deno.test("no link is read in a page's <script>, <pre> or Hugo code shortcode: kept as written", () => {
  const lookup = wikilinkLookup([
    { id: "kb-bbbbb", sourcePath: "main.md", title: "main", aliases: [] },
  ]);
  const text = "<script>\n  window.MathJax = { tex: { inlineMath: [['\\\\(', '\\\\)']] } };\n" +
    "  const menus = [[main]];\n</script>\n<pre>\n[[main]]\n</pre>\n" +
    "{{< code-toggle file=hugo >}}\n[[main]]\nname = 'x'\n{{< /code-toggle >}}\nSee [[main]].\n";
  const { body, unresolved } = resolveWikilinks(text, lookup);
  assertEquals(body, text.replace("See [[main]]", "See main ([[kb-bbbbb]])"));
  assertEquals(unresolved, []);
});

Deno.test("links keep what the reader saw: relative markdown links and escaped pipes in tables resolve", () => {
  const lookup = wikilinkLookup([
    { id: "kb-aaaaa", sourcePath: "tools/quick-man-pages.md", title: "Man pages", aliases: [] },
    { id: "kb-bbbbb", sourcePath: "git/Rebase notes.md", title: "Rebase", aliases: [] },
  ]);
  const byPath = new Map([["tools/quick-man-pages.md", "kb-aaaaa"], [
    "git/Rebase notes.md",
    "kb-bbbbb",
  ]]);
  const { body, linked, unresolved } = resolveWikilinks(
    "Read [Quick Man Pages](quick-man-pages.md), [the rebase](../git/Rebase%20notes.md#squash) " +
      "and [spaced](<../git/Rebase notes.md>), [from the top](git/Rebase%20notes.md), " +
      "not [gone](gone.md), [web](https://x.org/a.md), " +
      "![img](pic.png) or `[code](quick-man-pages.md)`.\n" +
      "| tool | note |\n| --- | --- |\n| man | [[quick-man-pages\\|Man]] |\n",
    lookup,
    (href) => byPath.get(href),
    "tools/index.md",
  );
  assertEquals(
    body,
    "Read Quick Man Pages ([[kb-aaaaa]]), the rebase ([[kb-bbbbb]]) and spaced ([[kb-bbbbb]]), " +
      "from the top ([[kb-bbbbb]]), not [gone](gone.md), [web](https://x.org/a.md), ![img](pic.png) or " +
      "`[code](quick-man-pages.md)`.\n| tool | note |\n| --- | --- |\n| man | Man ([[kb-aaaaa]]) |\n",
  );
  assertEquals(linked, ["kb-aaaaa", "kb-bbbbb"]);
  assertEquals(unresolved, ["gone.md"]);
});

Deno.test("a link to a folder names its README, a link to a page its file; from the top with a /", () => {
  // As a Zettelkasten of one folder per note (rwxrob/zet) and a docs site's pages link.
  const byPath = new Map([
    ["README.md", "kb-top00"],
    ["1841/README.md", "kb-n1841"],
    ["2000/README.md", "kb-n2000"],
    ["docs/deploy.md", "kb-deplo"],
    ["docs/ops/index.md", "kb-ops00"],
  ]);
  const resolved = resolveWikilinks(
    "See [Vim](../1841), [again](/1841/?x#tips), [deploy](./deploy#roll), [ops](ops/), " +
      "[home](/), [site](/docs/intro), [code](../src), [gone](/gone.md) and [me](./).\n",
    () => undefined,
    (path) => byPath.get(path),
    "2000/README.md",
  );
  assertEquals(
    resolved.body,
    "See Vim ([[kb-n1841]]), again ([[kb-n1841]]), [deploy](./deploy#roll), [ops](ops/), " +
      "home ([[kb-top00]]), [site](/docs/intro), [code](../src), [gone](/gone.md) and " +
      "me ([[kb-n2000]]).\n",
  );
  assertEquals(resolved.unresolved, ["/gone.md"]);
  const docs = resolveWikilinks(
    "[deploy](./deploy#roll), [ops](ops/), [up](../README) and [out](../../CONTRIBUTING.md)\n",
    () => undefined,
    (path) => byPath.get(path),
    "docs/guide.md",
  );
  assertEquals(
    docs.body,
    "deploy ([[kb-deplo]]), ops ([[kb-ops00]]), up ([[kb-top00]]) and [out](../../CONTRIBUTING.md)\n",
  );
  assertEquals(docs.unresolved, []);
});

Deno.test("a link reference definition that names a note says which entry; its uses stay", () => {
  // As Foam writes one for each wikilink at a note's end, and rwxrob/zet names a note's folder.
  const byPath = new Map([["features/tags.md", "kb-tags0"], ["1841/README.md", "kb-n1841"]]);
  const body = "See [[tags]] and [zk][].\n\n[tags]: features/tags.md 'Tags'\r\n" +
    '[zk]: /1841\n[web]: <https://example.com> "Site"\n[gone]: gone.md\n' +
    "```\n[code]: features/tags.md\n```\n";
  const resolved = resolveWikilinks(body, () => undefined, (path) => byPath.get(path), "a.md");
  assertEquals(
    resolved.body,
    "See [[tags]] and [zk][].\n\n[tags]: features/tags.md 'Tags' ([[kb-tags0]])\r\n" +
      '[zk]: /1841 ([[kb-n1841]])\n[web]: <https://example.com> "Site"\n[gone]: gone.md\n' +
      "```\n[code]: features/tags.md\n```\n",
  );
  assertEquals(resolved.linked, ["kb-tags0", "kb-n1841"]);
  assertEquals(resolved.unresolved, ["tags", "gone.md"]);
});

Deno.test("a Hugo ref or relref shortcode to a note resolves as a relative link does", () => {
  const lookup = wikilinkLookup([
    { id: "kb-pgm00", sourcePath: "content/posts/pgm.md", title: "PGM", aliases: [] },
  ]);
  const byPath = new Map([["content/posts/pgm.md", "kb-pgm00"]]);
  // As ox-hugo writes a braindump's links between notes.
  const resolved = resolveWikilinks(
    'See [Graphical models]({{<relref "pgm.md#" >}}), [the same]({{< ref "pgm.md#inference" >}})' +
      ' and [gone]({{< relref "gone.md" >}}); `[code]({{<relref "pgm.md" >}})` stays.\n',
    lookup,
    (path) => byPath.get(path),
    "content/posts/shell.md",
  );
  assertEquals(
    resolved.body,
    "See Graphical models ([[kb-pgm00]]), the same ([[kb-pgm00]]) and " +
      '[gone]({{< relref "gone.md" >}}); `[code]({{<relref "pgm.md" >}})` stays.\n',
  );
  assertEquals(resolved.linked, ["kb-pgm00"]);
  assertEquals(resolved.unresolved, ["gone.md"]);
});

Deno.test("a Jekyll link tag to a note resolves from the site's top", () => {
  const lookup = wikilinkLookup([
    { id: "kb-front", sourcePath: "_docs/front-matter.md", title: "Front Matter", aliases: [] },
  ]);
  const byPath = new Map([["_docs/front-matter.md", "kb-front"]]);
  // As Jekyll's own docs link their pages.
  const resolved = resolveWikilinks(
    "Set [front matter]({% link _docs/front-matter.md %}) or [it]({%- link /_docs/front-matter.md -%}#x);" +
      " [gone]({% link _docs/gone.md %}), [page]({% link news/index.html %}) stay.\n",
    lookup,
    (path) => byPath.get(path),
    "_docs/step-by-step/03-front-matter.md",
  );
  assertEquals(
    resolved.body,
    "Set front matter ([[kb-front]]) or it ([[kb-front]]);" +
      " [gone]({% link _docs/gone.md %}), [page]({% link news/index.html %}) stay.\n",
  );
  assertEquals(resolved.unresolved, ["/_docs/gone.md"]);
});

Deno.test("a Dendron link names its note after its text; an Obsidian link's text never does", () => {
  const lookup = wikilinkLookup([
    { id: "kb-git00", sourcePath: "vault/dendron.topic.git.md", title: "Git", aliases: [] },
    { id: "kb-deplo", sourcePath: "vault/Deploy.md", title: "Deploy", aliases: [] },
  ]);
  const resolved = resolveWikilinks(
    "See [[the git docs|dendron.topic.git]], [[docs|dendron://dendron-site/dendron.topic.git#x]]," +
      " [[Git|dendron://dendron-site/dendron.topic.git]], [[Deploy|dendron://site/ops.gone]] and" +
      " [[Gone|Deploy]].\n",
    lookup,
  );
  // A text that is the note's title shows as itself, not as the target's address.
  assertEquals(
    resolved.body,
    "See the git docs ([[kb-git00]]), docs ([[kb-git00]]), Git ([[kb-git00]]), " +
      "Deploy ([[kb-deplo]]) and [[Gone|Deploy]].\n",
  );
  assertEquals(resolved.linked, ["kb-git00", "kb-deplo"]);
  assertEquals(resolved.unresolved, ["Gone"]);
});

Deno.test("in a Dendron vault a link names the note after its text, the top of a hierarchy too", () => {
  const lookup = wikilinkLookup([
    { id: "kb-tutor", sourcePath: "tutorial.md", title: "Tutorial", aliases: [] },
    { id: "kb-hirin", sourcePath: "careers.md", title: "Careers", aliases: [] },
    { id: "kb-home0", sourcePath: "home.md", title: "Home", aliases: [] },
    { id: "kb-tmplt", sourcePath: "templates.changelog.md", title: "Changelog", aliases: [] },
  ]);
  // As dendronhq/dendron-site writes them; `dev.design.engine` is no note of the vault, nor is
  // `changelog` (left out), though another note is titled so.
  const body = "[[Tutorial Home Page|tutorial]], [[hiring|careers#open]], [[Dendron engine|" +
    "dev.design.engine]], [[0.37.2|changelog#0372]], [[home]], [[Home|gone]] and [[Linking|gone]].\n";
  const byName = wikilinkLookup([
    { id: "kb-tutor", sourcePath: "tutorial.md", title: "", aliases: [] },
    { id: "kb-hirin", sourcePath: "careers.md", title: "", aliases: [] },
    { id: "kb-tmplt", sourcePath: "templates.changelog.md", title: "", aliases: [] },
  ]);
  const vault = resolveWikilinks(body, lookup, undefined, "changelog.md", byName);
  assertEquals(
    vault.body,
    "Tutorial Home Page ([[kb-tutor]]), hiring ([[kb-hirin]]), [[Dendron engine|" +
      "dev.design.engine]], [[0.37.2|changelog#0372]], home ([[kb-home0]]), Home ([[kb-home0]]) " +
      "and [[Linking|gone]].\n",
  );
  // A name no note has, renamed since, links the note its words name, as they read: Home.
  assertEquals(vault.unresolved, ["dev.design.engine", "changelog", "gone"]);
  // The same links in an Obsidian vault name the note before the `|`.
  const obsidian = resolveWikilinks(body, lookup, undefined, "changelog.md");
  assertEquals(obsidian.linked, ["kb-home0"]);
  assertEquals(obsidian.unresolved, [
    "Tutorial Home Page",
    "hiring",
    "Dendron engine",
    "0.37.2",
    "Linking",
  ]);
});

Deno.test("an Obsidian link whose shown text is dotted, as a Dendron name is, keeps its text", () => {
  const lookup = wikilinkLookup([
    {
      id: "kb-runtm",
      sourcePath: "JavaScript runtimes.md",
      title: "JavaScript runtimes",
      aliases: [],
    },
  ]);
  const resolved = resolveWikilinks(
    "Run it on [[JavaScript runtimes|Node.js]] or [[JavaScript runtimes|deno.land]].\n",
    lookup,
  );
  assertEquals(
    resolved.body,
    "Run it on Node.js ([[kb-runtm]]) or deno.land ([[kb-runtm]]).\n",
  );
  assertEquals(resolved.linked, ["kb-runtm"]);
});

Deno.test("letters that run on from a link stay with its word; in unspaced scripts they do not", () => {
  const lookup = wikilinkLookup([
    { id: "kb-uri00", sourcePath: "Obsidian URI.md", title: "Obsidian URI", aliases: [] },
    { id: "kb-link0", sourcePath: "링크.md", title: "링크", aliases: [] },
    { id: "kb-set00", sourcePath: "設定.md", title: "設定", aliases: [] },
  ]);
  const resolved = resolveWikilinks(
    "Use [[Obsidian URI]]s and [[Obsidian URI|URI]]s. [[링크]]를 만들고 [[設定]]を開きます。" +
      " [[Gone]]s stay.\n",
    lookup,
  );
  assertEquals(
    resolved.body,
    "Use Obsidian URIs ([[kb-uri00]]) and URIs ([[kb-uri00]]). 링크를 ([[kb-link0]]) 만들고 " +
      "設定 ([[kb-set00]])を開きます。 [[Gone]]s stay.\n",
  );
  assertEquals(resolved.unresolved, ["Gone"]);
});

Deno.test("a link whose words hold inline code resolves whole; a `[[` in code opens none", () => {
  const lookup = wikilinkLookup([
    { id: "kb-adr40", sourcePath: "decisions/ADR-040-batch.md", title: "ADR 40", aliases: [] },
    { id: "kb-rebas", sourcePath: "The `git rebase` trick.md", title: "Rebase", aliases: [] },
  ]);
  const byPath = new Map([["decisions/ADR-040-batch.md", "kb-adr40"]]);
  // As in a real vault's ADR index: the shown text quotes a value in backticks.
  const resolved = resolveWikilinks(
    "- 040 [[ADR-040-batch|BtchBookg `true` by default]] (billing)\n" +
      "- Type `[[` then [[The `git rebase` trick]]; see [the `true` default](ADR-040-batch.md)" +
      " and [[Gone `x`|the `y` one]].\n",
    lookup,
    (path) => byPath.get(path),
    "decisions/README.md",
  );
  assertEquals(
    resolved.body,
    "- 040 BtchBookg `true` by default ([[kb-adr40]]) (billing)\n" +
      "- Type `[[` then The `git rebase` trick ([[kb-rebas]]); see the `true` default " +
      "([[kb-adr40]]) and [[Gone `x`|the `y` one]].\n",
  );
  assertEquals(resolved.linked, ["kb-adr40", "kb-rebas"]);
  assertEquals(resolved.unresolved, ["Gone `x`"]);
});

Deno.test("a code block shown inside a longer fence stays code: no link, title or tag in it", () => {
  const lookup = wikilinkLookup([
    { id: "kb-alpha", sourcePath: "project-alpha.md", title: "Project alpha", aliases: [] },
  ]);
  // As Foam's docs show a query: four backticks around the three of the block they show.
  const body = 'Shown:\n\n````markdown\n```foam-query\nfilter: "[[project-alpha]]"\n```\n' +
    "````\n\n~~~~\n~~~\n![[diagram.png]] #inside\n~~~\n~~~~\nThen [[project-alpha]].\n";
  const resolved = resolveWikilinks(body, lookup);
  assertEquals(
    resolved.body,
    body.replace("Then [[project-alpha]]", "Then project-alpha ([[kb-alpha]])"),
  );
  assertEquals(resolved.unresolved, []);
  const read = note(
    "Shell.md",
    "````md\n```bash\n# a comment, not a heading\n#notatag\n```\n````\n\n# Shell tips\n",
  );
  // The code comes first: the heading after it is a section, and the file name titles the note.
  assertEquals(read.title, "Shell");
  assertEquals(read.tags, []);
});

Deno.test("a link in an HTML comment is left as written; one after a commented-out block resolves", () => {
  const lookup = wikilinkLookup([
    { id: "kb-troub", sourcePath: "troubleshooting.md", title: "Troubleshooting", aliases: [] },
  ]);
  // As dendronhq/dendron-site's troubleshooting note comments out a block, ``` --> closing it.
  const body = "<!--\n```sh\nrm -rf x\n``` -->\n\n- [[troubleshooting]]\n<!-- [[[end]]] -->\n";
  const resolved = resolveWikilinks(body, lookup);
  assertEquals(
    resolved.body,
    body.replace("- [[troubleshooting]]", "- troubleshooting ([[kb-troub]])"),
  );
  assertEquals(resolved.unresolved, []);
});

Deno.test("a section's source path names its file; a # in a file's own path is kept", () => {
  assertEquals(sourceFile("CLAUDE.md#setup"), "CLAUDE.md");
  assertEquals(sourceFile("docs/AGENTS.md#code-style-2"), "docs/AGENTS.md");
  assertEquals(sourceFile("C#.md"), "C#.md");
  assertEquals(sourceFile("F#/Pipes.md"), "F#/Pipes.md");
  assertEquals(sourceFile("Q#1 notes.md"), "Q#1 notes.md");
});

Deno.test("a title wins over another note's alias", () => {
  const lookup = wikilinkLookup([
    { id: "kb-aaaaa", sourcePath: "a.md", title: "A", aliases: ["Deploy"] },
    { id: "kb-bbbbb", sourcePath: "b.md", title: "Deploy", aliases: [] },
  ]);
  assertEquals(lookup("deploy"), "kb-bbbbb");
});

Deno.test("an import plans new entries, then a second import of the same notes changes nothing", () => {
  const notes = [
    note("Rotate keys.md", "# Rotate keys\n\nSee [[Deploy]] and [[Nowhere]].\n"),
    note("Deploy.md", "Ship it.\n"),
  ];
  let next = 0;
  const newId = () => `kb-0000${next++}`;
  const first = planImport(notes, [], newId, FOLDER);
  assertEquals(first.added, ["kb-00000", "kb-00001"]);
  assertEquals(first.linksResolved, 1);
  assertEquals(first.unresolved, [{ sourcePath: "Rotate keys.md", name: "Nowhere" }]);
  const rotate = first.changes[0].entry;
  assertEquals(first.changes[0].path, "entries/kb-00000-rotate-keys.md");
  assertEquals(rotate.body, "See Deploy ([[kb-00001]]) and [[Nowhere]].\n");
  assertEquals(rotate.links, [{ rel: "related", to: "kb-00001" }]);
  assertEquals(rotate.extra[IMPORTED_FROM], "Rotate keys.md");
  const existing = first.changes.map((change) => ({
    entry: change.entry,
    path: change.path,
    text: serializeEntry(change.entry),
  }));
  const again = planImport(notes, existing, newId, FOLDER);
  assertEquals(again.changes, []);
  assertEquals(again.unchanged, ["kb-00000", "kb-00001"]);
  const changed = planImport(
    [note("Rotate keys.md", "# Rotate keys\n\nNew text.\n"), notes[1]],
    existing,
    newId,
    FOLDER,
  );
  assertEquals(changed.updated, ["kb-00000"]);
  assertEquals(changed.changes[0].previousText, existing[0].text);
  assertEquals(changed.changes[0].path, existing[0].path);
});

Deno.test("a Dendron note's name in the hierarchy is an alias, where its title does not say it", () => {
  const notes = [
    note("vault/dendron.topic.commands.md", "---\ntitle: Commands\n---\nThe topic's.\n"),
    note("vault/dendron.ref.commands.md", "---\ntitle: Commands\naliases: [cmds]\n---\nRef.\n"),
    note("vault/tutorial.md", "---\ntitle: Tutorial\n---\nStart here.\n"),
    // Too long for an alias: the note comes in without it, not left out.
    note(`vault/community.events.${"x".repeat(60)}.md`, "---\ntitle: Talk\n---\nA talk.\n"),
  ];
  const ids = ["kb-aaaaa", "kb-bbbbb", "kb-ccccc", "kb-ddddd"];
  const aliases = (dendron: boolean) =>
    planImport(notes, [], () => ids.shift()!, FOLDER, dendron).changes.map(({ entry }) =>
      entry.aliases
    );
  assertEquals(aliases(true), [
    ["dendron.topic.commands"],
    ["cmds", "dendron.ref.commands"],
    [],
    [],
  ]);
  ids.push("kb-aaaaa", "kb-bbbbb", "kb-ccccc", "kb-ddddd");
  assertEquals(
    aliases(false),
    [[], ["cmds"], [], []],
    "another folder's file names are no aliases",
  );
});

Deno.test("a note's properties the entry has no field for are kept in its frontmatter", () => {
  const read = note(
    "Books/Dune.md",
    "---\ntitle: Dune\nid: 20230101120000\ntype: book\nstatus: seedling\npublish: true\n" +
      "permalink: dune\ncssclasses:\n  - wide\nrating: 4.5\nauthor:\n  name: Frank Herbert\n" +
      "tags: [scifi]\ndate: 2023-01-01\n---\nA desert planet.\n",
  );
  const [change] = planImport([read], [], () => "kb-aaaaa", FOLDER).changes;
  const { entry } = change;
  assertEquals(entry.type, "note");
  assertEquals(entry.status, "active");
  assertEquals(entry.created, "2023-01-01");
  // Read into the entry's own fields: not kept twice.
  for (const field of ["title", "tags", "date"]) assertEquals(field in entry.extra, false);
  assertEquals(entry.extra.note_id, 20230101120000);
  assertEquals(entry.extra.note_type, "book");
  assertEquals(entry.extra.note_status, "seedling");
  assertEquals(entry.extra.publish, true);
  assertEquals(entry.extra.permalink, "dune");
  assertEquals(entry.extra.cssclasses, ["wide"]);
  assertEquals(entry.extra.rating, 4.5);
  assertEquals(entry.extra.author, { name: "Frank Herbert" });
  const text = serializeEntry(entry);
  assertEquals(parseEntryText(text, change.path).fields.permalink, "dune");
  assertEquals(parseEntryText(text, change.path).fields.id, "kb-aaaaa");
  // A type or status the entry takes as it is, and a name that gave the title, are not kept.
  const plain = note("a.md", "---\nname: Deploy\ntype: howto\nstatus: archived\n---\nShip.\n");
  assertEquals(plain.fields, {});
});

Deno.test("a link in a note's properties links its entry; the property stays as written", () => {
  const child = note(
    "Child.md",
    '---\nup: "[[Parent]]"\nrelated:\n  - "[[Sibling|the other]]"\n  - "[[Missing]]"\n' +
      'banner: "[[cover.webp]]"\n---\nText.\n',
  );
  const unquoted = note("Other.md", "---\nup: [[Parent]]\n---\nMore.\n");
  const parent = note("Parent.md", "Top.\n");
  const sibling = note("Sibling.md", "Beside.\n");
  const ids = ["kb-child", "kb-other", "kb-paren", "kb-sibli"];
  const plan = planImport([child, unquoted, parent, sibling], [], () => ids.shift()!, FOLDER);
  const [entry, other] = plan.changes.map((change) => change.entry);
  assertEquals(entry.links, [
    { rel: "related", to: "kb-paren" },
    { rel: "related", to: "kb-sibli" },
  ]);
  assertEquals(entry.extra.up, "[[Parent]]");
  assertEquals(entry.extra.related, ["[[Sibling|the other]]", "[[Missing]]"]);
  assertEquals(entry.body, "Text.\n");
  assertEquals(other.links, [{ rel: "related", to: "kb-paren" }]);
  // A link that names no note is reported, as in the body; a property naming a file is none.
  assertEquals(plan.unresolved, [{ sourcePath: "Child.md", name: "Missing" }]);
  assertEquals(plan.linksResolved, 3);
});

Deno.test("a Logseq page: title, aliases and tags from its page properties, namespaces from its file name", () => {
  const page = note(
    "pages/Block Reference.md",
    "type:: [[Feature]]\nalias:: term/block reference, [[Block ref]]\ntags:: [[Core]], linking\n" +
      "description:: Clickable link to a block\n\n- ## Usage\n\t- Type `((`\n",
  );
  assertEquals(page.title, "Block Reference");
  assertEquals(page.aliases, ["term/block reference", "Block ref"]);
  assertEquals(page.tags, ["Core", "linking", "pages"]);
  // The properties stay in the body as the page has them, and are not copied to the frontmatter.
  assertEquals(page.body.startsWith("type:: [[Feature]]\nalias:: term/block reference"), true);
  assertEquals(page.fields, {});
  const titled = note("pages/x.md", "title:: Community/Query Sprint\n\n- text\n");
  assertEquals(titled.title, "Community/Query Sprint");
  const spaced = note("pages/Whiteboard___Action Bar.md", "- text\n");
  assertEquals(spaced.title, "Whiteboard/Action Bar");
  const linking = note(
    "journals/2022_10_12.md",
    "- See [[Whiteboard/Action Bar]] and [[term/block reference]].\n",
  );
  const ids = ["kb-aaaaa", "kb-bbbbb", "kb-ccccc", "kb-ddddd"];
  const plan = planImport([page, titled, spaced, linking], [], () => ids.shift()!, FOLDER);
  // Only the pages no file holds are unresolved: those the properties name.
  assertEquals(plan.unresolved.map((link) => link.name), ["Feature", "Core"]);
  assertEquals(
    plan.changes[3].entry.body,
    "- See Whiteboard/Action Bar ([[kb-ccccc]]) and term/block reference ([[kb-aaaaa]]).\n",
  );
  // A frontmatter alias with a blank is one alias, as Obsidian reads it; tags split at blanks.
  const obsidian = note("a.md", "---\naliases: key rotation\ntags: ops cloud\n---\nText.\n");
  assertEquals(obsidian.aliases, ["key rotation"]);
  assertEquals(obsidian.tags, ["ops", "cloud"]);
});

Deno.test("dates in Unix time are read; a date field the entry does not take is kept", () => {
  const dendron = note(
    "vault/dendron.topic.git.md",
    "---\nid: bw4uolri1b8xz580xpq3ely\ntitle: Git\ndesc: ''\nupdated: 1652377081645\n" +
      "created: 1652376991319\n---\nText.\n",
  );
  assertEquals([dendron.created, dendron.updated], ["2022-05-12", "2022-05-12"]);
  assertEquals(dendron.fields, { note_id: "bw4uolri1b8xz580xpq3ely", desc: "" });
  const seconds = note("a.md", "---\ncreated: 1652376991\n---\nText.\n");
  assertEquals(seconds.created, "2022-05-12");
  // Not a date the entry can take, or another than the entry's: kept, not lost.
  const unread = note(
    "a.md",
    "---\ncreated: last spring\ndate: 2020-05-05\nupdated: 2023-02-03T10:00\n" +
      "url: https://example.com/a\nsource: https://example.com/b\n---\nText.\n",
  );
  assertEquals(unread.created, "2020-05-05");
  assertEquals(unread.updated, "2023-02-03");
  assertEquals(unread.source, "https://example.com/b");
  assertEquals(unread.fields, { note_created: "last spring", url: "https://example.com/a" });
  // Updated before the file's dates say it was made (a fresh checkout): made by then, not later.
  const early = note("a.md", "---\nupdated: 2021-03-04\n---\nText.\n");
  assertEquals([early.created, early.updated], ["2021-03-04", "2021-03-04"]);
  assertEquals(early.fields, {});
  // A stated creation after the stated update still wins: the update is taken to be then.
  const odd = note("a.md", "---\ncreated: 2021-05-05\nupdated: 2021-03-04\n---\nText.\n");
  assertEquals([odd.created, odd.updated], ["2021-05-05", "2021-05-05"]);
});

Deno.test("an update keeps what the knowledge base added: links, extra fields, kernel", () => {
  const [change] = planImport([note("a.md", "A.\n")], [], () => "kb-aaaaa", FOLDER).changes;
  const edited: Entry = {
    ...change.entry,
    kernel: true,
    links: [{ rel: "refines", to: "kb-zzzzz" }],
    extra: { ...change.entry.extra, owner: "me" },
  };
  const plan = planImport(
    [note("a.md", "A changed.\n")],
    [
      { entry: edited, path: change.path, text: serializeEntry(edited) },
    ],
    () => "kb-bbbbb",
    FOLDER,
  );
  const updated = plan.changes[0].entry;
  assertEquals(updated.kernel, true);
  assertEquals(updated.links, [{ rel: "refines", to: "kb-zzzzz" }]);
  assertEquals(updated.extra.owner, "me");
  assertEquals(updated.body, "A changed.\n");
});

Deno.test("an update keeps a status the knowledge base gave (promoted, archived); the note's own wins", () => {
  const [change] = planImport([note("a.md", "A.\n")], [], () => "kb-aaaaa", FOLDER).changes;
  for (const status of ["superseded", "archived"] as const) {
    const marked: Entry = {
      ...change.entry,
      status,
      extra: { ...change.entry.extra, superseded_by: "team:kb-ccccc" },
    };
    const existing = [{ entry: marked, path: change.path, text: serializeEntry(marked) }];
    const again = planImport([note("a.md", "A.\n")], existing, () => "kb-bbbbb", FOLDER);
    assertEquals(again.changes, [], status);
    assertEquals(again.unchanged, ["kb-aaaaa"]);
    const edited = planImport([note("a.md", "A changed.\n")], existing, () => "kb-bbbbb", FOLDER);
    assertEquals(edited.changes[0].entry.status, status);
  }
  const archived = { ...change.entry, status: "superseded" as const };
  const said = planImport(
    [note("a.md", "---\nstatus: archived\n---\nA.\n")],
    [{ entry: archived, path: change.path, text: serializeEntry(archived) }],
    () => "kb-bbbbb",
    FOLDER,
  );
  assertEquals(said.changes[0].entry.status, "archived");
});

Deno.test("a note that supersedes another links to it and marks it superseded in the same import", () => {
  const notes = [
    note("Deploy v2.md", "Supersedes [[Deploy v1]].\n\nShip with the new pipeline.\n"),
    note("Deploy v1.md", "Ship by hand.\n"),
    note("Cache.md", "---\nsupersedes: [[Old cache]]\n---\nUse redis.\n"),
    note("Old cache.md", "---\nstatus: archived\n---\nUse memcached.\n"),
    note("Queue.md", "Replaces the cron jobs.\n"),
    note("Auth.md", "---\nreplaces: [Login, Nowhere]\n---\nOIDC.\n"),
    note("Login.md", "Passwords.\n"),
  ];
  let next = 0;
  const plan = planImport(notes, [], () => `kb-0000${next++}`, FOLDER);
  const byTitle = new Map(plan.changes.map((change) => [change.entry.title, change.entry]));
  assertEquals(byTitle.get("Deploy v2")!.links, [{ rel: "supersedes", to: "kb-00001" }]);
  assertEquals(byTitle.get("Deploy v1")!.status, "superseded");
  assertEquals(byTitle.get("Cache")!.links, [{ rel: "supersedes", to: "kb-00003" }]);
  assertEquals(byTitle.get("Old cache")!.status, "archived", "an archived note stays archived");
  assertEquals(byTitle.get("Login")!.status, "superseded");
  assertEquals(plan.unresolved, [
    { sourcePath: "Queue.md", name: "the cron jobs" },
    { sourcePath: "Auth.md", name: "Nowhere" },
  ]);
  assertEquals(byTitle.get("Queue")!.status, "active");
});

Deno.test("statuses of other tools read as the contract's", () => {
  for (const [written, read] of [["obsolete", "superseded"], ["Legacy", "superseded"]]) {
    assertEquals(note("a.md", `---\nstatus: ${written}\n---\nOld.\n`).status, read);
  }
  for (const written of ["archived", "inactive", "closed"]) {
    assertEquals(note("a.md", `---\nstatus: ${written}\n---\nOld.\n`).status, "archived");
  }
  assertEquals(note("a.md", "---\nstatus: draft\n---\nNew.\n").status, "active");
});

Deno.test("a bookmark: a note that is mostly one URL", () => {
  const read = note("Deno docs.md", "[Deno manual](https://docs.deno.com/runtime/) for flags.\n");
  assertEquals(read.type, "bookmark");
  assertEquals(read.source, "https://docs.deno.com/runtime/");
  assertEquals(note("a.md", "See https://a.example and https://b.example.\n").type, "note");
});

Deno.test("a heading after the note's words or a ## section does not title it: the file name does", () => {
  assertEquals(note("Deploy.md", "Ship it.\n\n## Rollback\n\nUndo it.\n").title, "Deploy");
  // As a Zettelkasten's notes read: a definition, then `# Example` and `# Todo` sections.
  const zettel = "A exploit framework.\n![[shot.webp]]\n# Installation\n1. install\n# Todo\n";
  assertEquals(note("Security/Metasploit.md", zettel).title, "Metasploit");
  assertEquals(note("a.md", "## Part\n# Real title\n").title, "a");
  // A note in `# ` sections, the first of them at its top: a daily note's, a theorem's.
  const daily = "# Todo\n- [ ] notes on [[Calculus]]\n\n# Log\nRead.\n";
  assertEquals(note("Daily/2025-11-20.md", daily).title, "2025-11-20");
  const sections = "# Definition\nA string $x$ is…\n```sh\n# not a heading\n```\n# Example\nab.\n";
  assertEquals(note("Proper Substring.md", sections).title, "Proper Substring");
  assertEquals(note("a.md", "# Only\n```sh\n# a comment\n```\n## Part\n").title, "Only");
  // Before the words: blanks, comments, HTML, badges and images, #tags and page properties.
  const decorated = '\n<!-- draft -->\n<!--\nover lines\n-->\n<p align="center">\n' +
    "[![CI](https://x/b.svg)](https://x) ![logo](l.png)\n#idea #zettel\ntype:: [[Note]]\n" +
    "# Real title\n\nText.\n";
  // An MDX page's imports and exports come before its words.
  const mdx = "import {Note} from './note.jsx'\nexport const info = {}\n\n# What is MDX?\n";
  assertEquals(note("what-is-mdx.mdx", mdx).title, "What is MDX?");
  // Its names over several lines, as Prettier writes them (TypeORM's docs).
  const lines =
    'import {\n    DatabaseTabs,\n    DatabaseTab,\n} from "@site/src/tabs"\n\n# Transactions\n';
  assertEquals(note("transactions.mdx", lines).title, "Transactions");
  assertEquals(note("b.md", decorated).title, "Real title");
});

Deno.test("a note whose only heading names a part of any note is titled by its file name", () => {
  // A Zettelkasten's note of one `# Definition` and its `## Example`: not a note titled Definition.
  const cache = note(
    "Cache.md",
    "# Definition\n\nA copy kept near its use.\n\n## Example\n\nA CDN.\n",
  );
  assertEquals(cache.title, "Cache");
  assertEquals(cache.body.startsWith("# Definition\n"), true);
  assertEquals(
    note("Deploy pipeline.md", "# Overview:\n\nRuns on merge.\n").title,
    "Deploy pipeline",
  );
  assertEquals(note("b.md", "# TL;DR\nShip.\n").title, "b");
  // A docs site's file that says no more than the heading: the heading spells it better.
  assertEquals(note("perf/1-introduction.md", "# Introduction\n\nFast.\n").title, "Introduction");
  assertEquals(note("deploy/README.md", "# Overview\n\nShip.\n").title, "Overview");
  assertEquals(note("deploy/_index.md", "# Overview\n\nShip.\n").title, "Overview");
  // A heading that only begins with such a word names the note.
  assertEquals(
    note("c.md", "# Overview of the deploy pipeline\n\nRuns.\n").title,
    "Overview of the deploy pipeline",
  );
});

Deno.test("a page's addresses in its aliases (Hugo's redirects) are kept, not made names", () => {
  const hugo = note(
    "content/posts/hello.md",
    "---\ntitle: Hello\naliases:\n  - /old/hello/\n  - /posts/hello.html\n---\nHi.\n",
  );
  assertEquals(hugo.aliases, []);
  assertEquals(hugo.fields?.note_aliases, ["/old/hello/", "/posts/hello.html"]);
  const toml = note("world.md", '+++\ntitle = "World"\naliases = ["/w", "Earth"]\n+++\nText.\n');
  assertEquals([toml.aliases, toml.fields?.note_aliases], [["Earth"], ["/w"]]);
  // Names, a path written inside one too, are the note's aliases, as Obsidian's are.
  const names = note("CI.md", "---\naliases: CI/CD, build pipeline\n---\nText.\n");
  assertEquals([names.aliases, names.fields?.note_aliases], [
    ["CI/CD", "build pipeline"],
    undefined,
  ]);
});

Deno.test("a note of another folder at the same path never updates the first folder's entry", () => {
  const [first] = planImport([note("Home.md", "Work.\n")], [], () => "kb-aaaaa", FOLDER).changes;
  const existing = [{ entry: first.entry, path: first.path, text: serializeEntry(first.entry) }];
  const other = planImport([note("Home.md", "Groceries.\n")], existing, () => "kb-bbbbb", "b-1");
  assertEquals([other.added, other.updated], [["kb-bbbbb"], []]);
  assertEquals(other.changes[0].entry.extra[IMPORTED_FOLDER], "b-1");
  // An entry of an import that kept no folder is its folder's while the note keeps its title and
  // creation date; another folder's note of the same path and title, created another day, is not.
  const { [IMPORTED_FOLDER]: _, ...older } = first.entry.extra;
  const unnamed = { ...first.entry, extra: older };
  const before = [{ entry: unnamed, path: first.path, text: serializeEntry(unnamed) }];
  const same = planImport([note("Home.md", "Work, changed.\n")], before, () => "kb-ccccc", FOLDER);
  assertEquals(same.updated, ["kb-aaaaa"]);
  const elsewhere = readNote({
    path: "Home.md",
    text: "Groceries.\n",
    fileDates: { created: "2020-01-01", updated: "2020-01-01" },
  });
  assertEquals(planImport([elsewhere], before, () => "kb-ddddd", "b-1").added, ["kb-ddddd"]);
  assertEquals(folderKey("/home/me/work/vault") === folderKey("/home/me/home/vault"), false);
  assertMatch(folderKey("/home/me/work/My Vault"), /^my-vault-[0-9a-f]{8}$/);
});

Deno.test("tags come from prose and frontmatter: never code, fences, addresses or hex colours", () => {
  const read = note(
    "a.md",
    "---\ntags: [css]\ndescription: How the theme picks its colours\n---\n" +
      "The accent is #ff0000 and the border #fff; see #theming.\n\n" +
      "> ```css\n> .a { color: #00ff00; }\n> ```\n\n" +
      "````md\n```\n#inner\n```\n#stillcode\n````\n\n" +
      "Example: ``#y1984`` and <code>#y1985</code> and <https://x.org/#y1986>.\n\n" +
      "    #indented code\n\nDone #done.\n",
  );
  assertEquals(read.tags, ["css", "theming", "done"]);
  assertEquals(read.body.split("\n")[0], "How the theme picks its colours", "description is kept");
});

Deno.test("a title past 200 characters and tags past 32 are cut, and said", () => {
  const tags = Array.from({ length: 40 }, (_, n) => `t${n}`).join(", ");
  const read = note("a.md", `---\ntitle: ${"x".repeat(250)}\ntags: [${tags}]\n---\nBody.\n`);
  assertEquals(read.title.length, 200);
  assertEquals(read.tags.length, 32);
  assertEquals(read.warnings.map((warning) => warning.slice(0, 30)), [
    `title cut at 200 characters; l`,
    "tags cut from 40 to 32; left o",
  ]);
});

Deno.test("a folder imported again from another path updates its entries; a note changed since, or another folder's, comes in new", () => {
  const notes = [
    note("Deploy.md", "# Deploy\n\nSee [[Rotate keys]].\n"),
    note("Rotate keys.md", "Rotate them.\n"),
  ];
  let next = 0;
  const newId = () => `kb-0000${next++}`;
  const before = folderKey("/home/me/Notes/vault");
  const existing = planImport(notes, [], newId, before).changes.map((change) => ({
    entry: change.entry,
    path: change.path,
    text: serializeEntry(change.entry),
  }));
  const after = folderKey("/home/me/Documents/vault");
  const moved = planImport(notes, existing, newId, after);
  assertEquals([moved.added, moved.updated], [[], ["kb-00000", "kb-00001"]]);
  assertEquals(moved.changes.map((change) => change.path), existing.map((item) => item.path));
  assertEquals(moved.changes.map((change) => change.entry.extra[IMPORTED_FOLDER]), [after, after]);
  assertEquals(
    moved.changes[0].entry.body,
    existing[0].entry.body,
    "links still lead to the same ids",
  );

  const edited = planImport([note("Deploy.md", "# Deploy\n\nNew text.\n")], existing, newId, after);
  assertEquals(edited.updated, [], "a note that reads otherwise never replaces the entry");
  assertEquals(edited.added.length, 1);
  const other = planImport(
    [note("Rotate keys.md", "Rotate them.\n")],
    existing,
    newId,
    folderKey("/home/me/Documents/archive"),
  );
  assertEquals(other.updated, [], "a folder of another name never takes the entries");
});

Deno.test("a moved folder whose first note changed: the notes linking to it keep their entries", () => {
  const day = (n: number, text: string) =>
    note(`Day ${n}.md`, `# Day ${n}\n\n${text}${n > 1 ? ` Before: [[Day ${n - 1}]].` : ""}\n`);
  const notes = Array.from({ length: 30 }, (_, n) => day(n + 1, "Worked."));
  let next = 0;
  const newId = () => `kb-${String(next++).padStart(5, "0")}`;
  const existing = planImport(notes, [], newId, folderKey("/old/daily")).changes.map((change) => ({
    entry: change.entry,
    path: change.path,
    text: serializeEntry(change.entry),
  }));
  let calls = 0;
  const counted = () => (calls++, newId());
  const moved = planImport(
    [day(1, "Worked late."), ...notes.slice(1)],
    existing,
    counted,
    folderKey("/new/daily"),
  );
  assertEquals(moved.added.length, 1, "only the changed note comes in new");
  assertEquals(moved.updated.length, 29);
  assertStrictEquals(
    moved.changes.find((change) => change.entry.title === "Day 2")?.path,
    existing[1].path,
  );
  assert(calls <= 2, `ids asked ${calls} times: the plan is made at most twice`);
});
