/**
 * Links between notes resolved to entry ids, pure. `[[Title]]`, `[[Title|shown text]]` (in a
 * table `[[Title\\|shown text]]`) and `[[Title#heading]]` name a note by its file name, its title
 * or one of its aliases (in any case); a relative markdown link (`[text](other.md)`,
 * `[text](../folder/note.md#anchor)`, Hugo's `[text]({{< relref "other.md" >}})`, Jekyll's
 * `[text]({% link _docs/other.md %})`, a definition
 * `[label]: other.md "Title"`) names it by its path from the note, else from the folder's top (a
 * link to a page or a folder without a file's ending, `../deploy` or `../1841/`, by the page's
 * file or the folder's README); a Dendron link, `[[text|dendron.topic.git]]`, by the name after
 * its text. Each becomes the words the reader saw followed by a `[[kb-id]]` mention (a definition
 * keeps its words and gains the mention after them), and its id a `related` link. A link that names no imported
 * note is left as written and reported (one without a file's ending only left). Embeds
 * (`![[image.png]]`, `![alt](x.png)`) and links inside code or an HTML comment are left alone.
 *
 * @module
 */

import { dirname, join } from "../path.ts";
import { FencedBlocks } from "../text/fences.ts";

/** An imported note a wikilink may name. */
export interface LinkTarget {
  /** The entry id the note was given. */
  id: string;
  /** The note's path inside the imported folder, e.g. `Ops/Rotate keys.md`. */
  sourcePath: string;
  title: string;
  aliases: readonly string[];
}

/** A body with its wikilinks resolved. */
export interface ResolvedBody {
  body: string;
  /** The ids the body now links to, once each, in order. */
  linked: string[];
  /** The links that named no note, once each: a wikilink's name, a markdown link's target. */
  unresolved: string[];
  /** Those of `unresolved` that markdown links gave (their targets, `gone.md#part`). */
  markdown: string[];
}

/** The key a name is looked up by: trimmed, lower case, without a `.md` ending or folders. */
function keyOf(name: string): string {
  return name.trim().replace(NOTE_FILE, "").toLowerCase();
}

/**
 * A lookup from a wikilink's name to an id: by path (`Ops/Rotate keys`), file name, title, then
 * alias. A name two notes share resolves to the first note that has it in the earliest of
 * these, so a title never loses to another note's alias.
 */
export function wikilinkLookup(
  targets: readonly LinkTarget[],
): (name: string) => string | undefined {
  const byKey = new Map<string, string>();
  const claim = (name: string, id: string) => {
    const key = keyOf(name);
    if (key && !byKey.has(key)) byKey.set(key, id);
  };
  for (const target of targets) claim(target.sourcePath, target.id);
  for (const target of targets) {
    claim(target.sourcePath.slice(target.sourcePath.lastIndexOf("/") + 1), target.id);
  }
  for (const target of targets) claim(target.title, target.id);
  for (const target of targets) for (const alias of target.aliases) claim(alias, target.id);
  return (name) =>
    byKey.get(keyOf(name)) ?? byKey.get(keyOf(name.slice(name.lastIndexOf("/") + 1)));
}

/**
 * A wikilink; in a table its `|` is escaped (`[[X\\|Y]]`), which the name does not keep. Then the
 * letters that run on from it, part of the same word (`[[API]]s`, `[[링크]]를`).
 */
const WIKILINK =
  /(!?)\[\[([^\]|#\n]+?)\\?(?:#([^\]|\n]*?)\\?)?(?:\|([^\]\n]*))?\]\]([\p{L}\p{M}\p{N}]*)/gu;

/** Scripts written without blanks between words, where letters after a link start another word. */
const UNSPACED =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;

/**
 * A markdown link, `[text](target)` or `[text](<target with spaces>)`, with an optional title; or
 * one whose target is Hugo's shortcode for another page, `[text]({{< relref "other.md#x" >}})`
 * (or `ref`, or `{{% … %}}`), as ox-hugo writes links between notes; or Jekyll's tag for one,
 * `[text]({% link _docs/other.md %})` (an anchor may follow it), its path from the site's top.
 */
const MARKDOWN_LINK =
  /(!?)\[([^\]\n]*)\]\((?:<([^>\n]+)>|\{\{[<%]\s*(?:rel)?ref\s+"([^"\n]+)"\s*[>%]\}\}|\{%-?\s*link\s+([^\s%|]+)\s*-?%\}(?:#[^)\s]*)?|([^)\s]+))(?:\s+"[^"\n]*")?\)/g;

/**
 * A link reference definition, `[label]: target "title"` alone on its line (as Foam writes one for
 * each wikilink, and as a note keeps its links at its end), the target captured.
 */
const LINK_DEFINITION =
  /^( {0,3}\[[^\]\n]+\]:[ \t]*(?:<([^>\n]+)>|(\S+))(?:[ \t]+(?:"[^"\n]*"|'[^'\n]*'|\([^)\n]*\)))?)([ \t]*\r?)$/;

/** A link target that is an address elsewhere (`https:`, `mailto:`, `data:`), not a file. */
export const ADDRESS = /^[a-z][a-z0-9+.-]*:/i;

/** A markdown note's file name: `.md`, `.markdown`, or MDX's `.mdx` (markdown with JSX in it). */
export const NOTE_FILE = /\.(?:md|markdown|mdx)$/i;

/** A link target with its escapes decoded (`Rebase%20notes.md`); as written when malformed. */
export function decodedTarget(target: string): string {
  try {
    return decodeURIComponent(target);
  } catch {
    return target;
  }
}

/** The notes a folder is shown by, in the order a link to it (`../1841/`) is tried. */
const FOLDER_NOTES = ["README.md", "readme.md", "index.md", "_index.md"];

/**
 * The paths inside the imported folder that a link of the note at `notePath` may name, in the
 * order they are tried, from the note and then from the folder's top (a link from the site's
 * root, `/git/rebase.md`, from the top only): a markdown file's (`../git/Rebase%20notes.md#squash`
 * → `git/Rebase notes.md`), `file` true; or, for a link without a file's ending, as a site's pages
 * and a Zettelkasten's folders link (`../deploy`, `/1841/`), the page's file or the folder's
 * `README.md` or `index.md`, as a site builder and GitHub show them, `file` false. None for an
 * address elsewhere, an anchor or a file of another kind.
 */
function linkedPaths(notePath: string, target: string): { paths: string[]; file: boolean } {
  const written = target.replace(/[?#].*$/, "");
  if (ADDRESS.test(target) || !written) return { paths: [], file: false };
  const name = decodedTarget(written);
  const file = NOTE_FILE.test(name);
  const page = !file &&
    (name.endsWith("/") || !name.slice(name.lastIndexOf("/") + 1).includes("."));
  if (!file && !page) return { paths: [], file };
  const fromTop = join(name.replace(/^\/+/, ""));
  const bases = name.startsWith("/") ? [fromTop] : [join(dirname(notePath), name), fromTop];
  const paths = bases.filter((base) => base !== ".." && !base.startsWith("../"))
    .flatMap((base) => {
      if (file) return [base];
      const folder = base.replace(/\/$/, "");
      const pages = name.endsWith("/") || folder === "." ? [] : [`${folder}.md`, `${folder}.mdx`];
      return [...pages, ...FOLDER_NOTES.map((note) => join(folder, note))];
    });
  return { paths: [...new Set(paths)], file };
}

/**
 * Resolve the links of `body`, the note at `notePath` (see the module doc): each wikilink with
 * `lookup`, each relative markdown link to another note with `byPath` (a path inside the imported
 * folder to an id). In a Dendron vault, `dendronNote` finds a note by its Dendron name (its file
 * name), and a `[[text|name]]` names the note `name`. Each resolved link keeps the words the
 * reader saw, followed by the mention: `[[Deploy]]` → `Deploy ([[kb-id]])`, `[[Deploy#Rollback]]` → `Deploy > Rollback ([[kb-id]])`,
 * `[[Deploy|the notes]]` and `[the notes](deploy.md)` → `the notes ([[kb-id]])`.
 */
export function resolveWikilinks(
  body: string,
  lookup: (name: string) => string | undefined,
  byPath: (path: string) => string | undefined = () => undefined,
  notePath = "",
  dendronNote?: (name: string) => string | undefined,
): ResolvedBody {
  const linked: string[] = [];
  const unresolved: string[] = [];
  const markdown: string[] = [];
  // `runOn`: letters after the link that finish its word, which the mention must not split off.
  const mention = (shown: string, id: string, runOn = "") => {
    if (!linked.includes(id)) linked.push(id);
    if (!shown) return `[[${id}]]${runOn}`;
    return runOn && !UNSPACED.test(runOn)
      ? `${shown}${runOn} ([[${id}]])`
      : `${shown} ([[${id}]])${runOn}`;
  };
  const missing = (name: string) => {
    if (!unresolved.includes(name)) unresolved.push(name);
  };
  // The id of the note a markdown link's target names, relative to the note, else from the
  // folder's top, as embeds are found (a link written from the repository's root, which only its
  // README reads right); one to a markdown file that names none is reported.
  const linkedNote = (target: string) => {
    const { paths, file } = linkedPaths(notePath, target);
    for (const path of paths) {
      const id = byPath(path);
      if (id) return id;
    }
    // A link without a file's ending that names no note may be any page of a site, and one to a
    // file outside the folder names none of its notes: left so.
    if (file && paths.length) {
      missing(target);
      if (!markdown.includes(target)) markdown.push(target);
    }
    return undefined;
  };
  // The line comes with its code spans held out; a name is looked up and reported as written.
  const resolveLine = (line: string, restore: (text: string) => string) =>
    line.replace(WIKILINK, (whole, embed, heldName, heldHeading, heldShown, runOn) => {
      if (embed) return whole;
      const [name, heading, shown] = [heldName, heldHeading ?? "", heldShown ?? ""].map(restore);
      // Dendron's text comes before its target: the words the reader saw are the name's, which
      // may be the title of the note the target names (or, for a `dendron://` address that names
      // none, of another). A dotted name that names no note is an Obsidian link's shown text as
      // well (`[[JavaScript runtimes|Node.js]]`): read so, it keeps the words the reader saw.
      const target = dendronTarget(shown, dendronNote !== undefined);
      // In a Dendron vault the name after the text is the link's, a note's file name (never a
      // title: `changelog` is not the note titled Changelog); when no note has it (renamed
      // since), the note its words name. Else it is the name reported.
      if (target && dendronNote) {
        const named = dendronNote(target.name) ?? lookup(name);
        if (named) return mention(name.trim(), named, runOn);
        missing(target.name);
        return whole;
      }
      const named = target &&
        (lookup(target.name) ?? (target.address ? lookup(name) : undefined));
      if (named) return mention(name.trim(), named, runOn);
      const id = lookup(name);
      if (!id) {
        missing(name.trim());
        return whole;
      }
      const seen = shown.trim() ||
        (heading.trim() ? `${name.trim()} > ${heading.trim()}` : name.trim());
      return mention(seen, id, runOn);
    }).replace(MARKDOWN_LINK, (whole, embed, heldText, angled, hugo, jekyll, plain) => {
      // Jekyll's path is from the site's top, whatever the note's folder.
      const fromTop = jekyll === undefined ? undefined : `/${jekyll.replace(/^\/+/, "")}`;
      const [text, target] = [heldText, angled ?? hugo ?? fromTop ?? plain].map(restore);
      if (embed) return whole;
      const id = linkedNote(target);
      return id ? mention(text.trim(), id) : whole;
    }).replace(LINK_DEFINITION, (whole, definition, angled, plain, end) => {
      // Its uses (`[text][label]`) stay as written; the line says which entry it names.
      const id = linkedNote(restore(angled ?? plain));
      return id ? `${definition} (${mention("", id)})${end}` : whole;
    });
  const resolved = replaceOutsideCode(body, /\[\[|\]\(|^ {0,3}\[[^\]]+\]:/, resolveLine);
  return { body: resolved, linked, unresolved, markdown };
}

/**
 * The name of the note a Dendron link names after its text, `[[the text|dendron.topic.git]]` or
 * `[[the text|dendron://vault/dendron.topic.git#anchor]]` (Dendron writes the text first), and
 * whether it was given as a `dendron://` address: only a hierarchy's dotted name or such an
 * address, so that an Obsidian link to a note that is not there never links to the note its shown
 * text happens to name. In a Dendron vault (`vault`), a name of the top of a hierarchy too,
 * `[[the text|tutorial]]`.
 */
function dendronTarget(
  after: string | undefined,
  vault: boolean,
): { name: string; address: boolean } | undefined {
  const target = after?.trim().replace(/#.*$/, "") ?? "";
  const addressed = /^dendron:\/\/[^/\s]+\/(\S+)$/.exec(target)?.[1];
  if (addressed !== undefined) return { name: addressed, address: true };
  const name = vault ? /^[\w-]+(?:\.[\w-]+)*$/ : /^[\w-]+(?:\.[\w-]+)+$/;
  return name.test(target) ? { name: target, address: false } : undefined;
}

/**
 * Characters Unicode keeps for a program's own use, never text: one the line lacks marks where
 * an inline code span was taken out of it.
 */
const NONCHARACTERS = [...Array(32)].map((_, index) => String.fromCharCode(0xfdd0 + index));

/**
 * `body` with `replace` applied to each line outside fenced blocks that matches `worth`, its
 * inline code spans and HTML comments (`<!-- … -->`, which may run over lines) held out:
 * `replace` sees each as a mark, so that a `[[` in code or in a comment, which no reader sees as
 * a link, opens none, and a link whose words hold code (`[[ADR-040|`true` by default]]`) is read
 * whole, not cut in two and lost. `restore` puts the spans back into a part of the line `replace`
 * looks up or reports; the line it returns gets them back too.
 */
export function replaceOutsideCode(
  body: string,
  worth: RegExp,
  replace: (line: string, restore: (text: string) => string) => string,
): string {
  const fences = new FencedBlocks();
  let commented = false;
  return body.split("\n").map((line) => {
    // A fence inside a comment is none: the fence reader does not see the comment's lines.
    if (!commented && fences.read(line)) return line;
    const within = commented;
    const { parts, open } = heldParts(line, within);
    commented = open;
    if (!worth.test(line)) return line;
    // A line holding every mark is no note's prose: it is read with its code as text, and left
    // as it is when a comment may be in it.
    const mark = NONCHARACTERS.find((character) => !line.includes(character)) ?? "";
    if (!mark) return within || line.includes("<!--") ? line : replace(line, (text) => text);
    const spans: string[] = [];
    const held = parts.map((part, index) =>
      index % 2 ? `${mark}${spans.push(part) - 1}${mark}` : part
    ).join("");
    const markAt = new RegExp(`${mark}(\\d+)${mark}`, "g");
    const restore = (text: string) => text.replace(markAt, (_, index) => spans[Number(index)]);
    return restore(replace(held, restore));
  }).join("\n");
}

/**
 * `line` cut into text and what is held out of it, alternately (text first, maybe empty): inline
 * code spans and HTML comments, whichever starts first (a `<!--` in code opens no comment; a
 * comment ends at its first `-->`, in backticks or not, and `<!-->` is one, as CommonMark reads
 * them), read from inside a comment when `within`; and whether a comment is open where it ends.
 */
function heldParts(line: string, within: boolean): { parts: string[]; open: boolean } {
  const parts: string[] = [];
  let from = 0;
  if (within) {
    const end = line.indexOf("-->");
    if (end < 0) return { parts: ["", line], open: true };
    parts.push("", line.slice(0, end + 3));
    from = end + 3;
  }
  const held = /`[^`]*`|<!--/g;
  held.lastIndex = from;
  for (let found; (found = held.exec(line));) {
    parts.push(line.slice(from, found.index));
    if (found[0] === "<!--") {
      const end = line.indexOf("-->", found.index + 2);
      if (end < 0) return { parts: [...parts, line.slice(found.index)], open: true };
      held.lastIndex = end + 3;
    }
    parts.push(line.slice(found.index, held.lastIndex));
    from = held.lastIndex;
  }
  parts.push(line.slice(from));
  return { parts, open: false };
}

/**
 * Each of `unresolved` with the note it names among `leftOut`, the notes of the folder that were
 * not brought in (named by path, and by title and aliases when they were read), found as the link
 * finds a note (a relative markdown link by its path from the note `sourcePath`, anchor and all:
 * `../huge.md#intro`), else as a wikilink does: the link names a note that exists, not none.
 */
export function namingLeftOut<Link extends { sourcePath: string; name: string }>(
  unresolved: readonly Link[],
  leftOut: readonly Omit<LinkTarget, "id">[],
): (Link & { leftOut?: string })[] {
  if (!leftOut.length) return [...unresolved];
  const lookup = wikilinkLookup(leftOut.map((note) => ({ ...note, id: note.sourcePath })));
  const paths = new Set(leftOut.map((note) => note.sourcePath));
  return unresolved.map((link) => {
    const path = linkedPaths(link.sourcePath, link.name).paths.find((path) => paths.has(path)) ??
      lookup(link.name);
    return path === undefined ? link : { ...link, leftOut: path };
  });
}
