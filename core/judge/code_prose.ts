/**
 * The prose inside source code: comments and string literals, found by a lexer that knows only
 * each language family's comment markers and quotes. It is a heuristic, not a parser: a
 * fragment that starts inside a string (an Edit's `new_string`) may be read the wrong way round,
 * and a string or comment the scanner cannot close is dropped rather than guessed at.
 *
 * @module
 */

/** How one language family writes comments and strings. */
export interface CodeSyntax {
  /** Line comment markers. */
  line: string[];
  /** Block comment markers: [open, close]. */
  block: [string, string][];
  /** Quote characters of string literals; `"` and `'` strings end at a newline. */
  quotes: string[];
  /** Python's `"""…"""` and `'''…'''`. */
  tripleQuotes?: boolean;
}

const C_LIKE: CodeSyntax = { line: ["//"], block: [["/*", "*/"]], quotes: ['"', "'", "`"] };
const HASH: CodeSyntax = { line: ["#"], block: [], quotes: ['"', "'"] };

/** Comment and string syntax by file extension (lowercase, without the dot). */
const SYNTAX_BY_EXTENSION: Record<string, CodeSyntax> = {};

function register(syntax: CodeSyntax, extensions: string): void {
  for (const extension of extensions.split(" ")) SYNTAX_BY_EXTENSION[extension] = syntax;
}

register(
  C_LIKE,
  "ts tsx mts cts js jsx mjs cjs java kt kts scala groovy gradle swift c h cc cpp cxx hpp hh " +
    "cs go dart php css scss less json jsonc json5 proto vue svelte zig sol",
);
register({ line: ["//"], block: [["/*", "*/"]], quotes: ['"'] }, "rs");
register({ ...HASH, tripleQuotes: true }, "py pyi pyw");
register(
  HASH,
  "rb sh bash zsh fish ps1 psm1 pl pm r yaml yml toml ini cfg conf properties mk cmake tf hcl " +
    "dockerfile makefile gemfile rakefile nim cr ex exs jl",
);
register({ line: ["#"], block: [["/*", "*/"]], quotes: ['"', "'"] }, "nix");
register({ line: ["--"], block: [["/*", "*/"]], quotes: ["'"] }, "sql");
register({ line: ["--"], block: [["--[[", "]]"]], quotes: ['"', "'"] }, "lua");
register({ line: ["--"], block: [["{-", "-}"]], quotes: ['"'] }, "hs elm");
register({ line: [";"], block: [], quotes: ['"'] }, "clj cljs edn el lisp scm rkt");
register({ line: ["%"], block: [], quotes: ['"'] }, "erl hrl");
register({ line: [], block: [["<!--", "-->"]], quotes: ['"'] }, "xml xsd xsl xslt plist csproj");

/** File types with no prose worth judging: data, lock files, images as text. */
const NO_PROSE_EXTENSIONS = new Set(["csv", "tsv", "svg", "lock", "map", "sum", "snap"]);

/** File names whose type their extension does not say. */
const SYNTAX_BY_NAME: Record<string, string> = {
  dockerfile: "dockerfile",
  makefile: "makefile",
  gnumakefile: "makefile",
  gemfile: "gemfile",
  rakefile: "rakefile",
  justfile: "makefile",
  "go.sum": "sum",
};

/**
 * How to read a file by its path: `"prose"` (markdown, text, HTML and anything unknown: judged
 * whole), `"none"` (data files: nothing to judge), or the comment and string syntax of code. A
 * file without an extension whose `content` starts with `#!` is a script.
 */
export function fileKind(path: string, content = ""): CodeSyntax | "prose" | "none" {
  const name = path.split(/[\\/]/).pop()?.toLowerCase() ?? "";
  const dot = name.lastIndexOf(".");
  const extension = SYNTAX_BY_NAME[name] ?? (dot > 0 ? name.slice(dot + 1) : "");
  if (name.endsWith(".min.js") || name.endsWith(".min.css")) return "none";
  if (NO_PROSE_EXTENSIONS.has(extension)) return "none";
  if (!extension && content.startsWith("#!")) return HASH;
  return SYNTAX_BY_EXTENSION[extension] ?? "prose";
}

/** The Python syntax, for notebook code cells. */
export const PYTHON_SYNTAX: CodeSyntax = SYNTAX_BY_EXTENSION.py;

/** A comment or string literal, markers removed. */
export interface CodeText {
  /** A comment (consecutive line comments joined) or a string literal. */
  kind: "comment" | "string";
  /** The text without comment markers, quotes or escapes. */
  text: string;
}

const STRING_ESCAPES: Record<string, string> = { n: "\n", t: "\t", r: "\r" };

/**
 * The comments and string literals of `source`, in order. Consecutive line comments are joined
 * into one; block comments lose their `*` gutters.
 */
export function codeTexts(source: string, syntax: CodeSyntax): CodeText[] {
  const found: CodeText[] = [];
  let pendingLines: string[] = [];
  let pendingEnd = -1;
  const flushLines = () => {
    if (pendingLines.length) found.push({ kind: "comment", text: pendingLines.join("\n") });
    pendingLines = [];
  };
  // A shebang line is neither comment nor prose.
  const firstLineEnd = source.indexOf("\n");
  let pos = source.startsWith("#!") ? (firstLineEnd === -1 ? source.length : firstLineEnd) : 0;
  while (pos < source.length) {
    const block = syntax.block.find(([open]) => source.startsWith(open, pos));
    if (block) {
      flushLines();
      const end = source.indexOf(block[1], pos + block[0].length);
      const stop = end === -1 ? source.length : end;
      found.push({ kind: "comment", text: ungutter(source.slice(pos + block[0].length, stop)) });
      pos = end === -1 ? source.length : end + block[1].length;
      continue;
    }
    const line = syntax.line.find((marker) =>
      source.startsWith(marker, pos) && (marker !== "#" || pos === 0 || /\s/.test(source[pos - 1]))
    );
    if (line) {
      const end = source.indexOf("\n", pos);
      const stop = end === -1 ? source.length : end;
      // A line comment continues the previous one when only blanks and one newline separate them.
      if (pendingEnd === -1 || !/^[ \t]*\n[ \t]*$/.test(source.slice(pendingEnd, pos))) {
        flushLines();
      }
      pendingLines.push(source.slice(pos + line.length, stop).replace(/^[\/#;%!-]*\s?/, ""));
      pendingEnd = stop;
      pos = stop;
      continue;
    }
    const char = source[pos];
    if (syntax.quotes.includes(char)) {
      flushLines();
      pendingEnd = -1;
      const triple = syntax.tripleQuotes && source.startsWith(char.repeat(3), pos);
      const literal = triple
        ? readTriple(source, pos, char.repeat(3))
        : readQuoted(source, pos, char, char === "`");
      if (literal) {
        found.push({ kind: "string", text: literal.text });
        pos = literal.end;
      } else {
        pos++;
      }
      continue;
    }
    if (!/\s/.test(char)) pendingEnd = -1;
    pos++;
  }
  flushLines();
  return found;
}

/** Block comment text without its leading `*` gutter and doc markers. */
function ungutter(text: string): string {
  return text.replace(/^[*!]+/, "").split("\n").map((line) => line.replace(/^\s*\*(?!\/) ?/, ""))
    .join("\n").trim();
}

/** A `"` or `'` string (ends at a newline unless `multiline`), with escapes applied. */
function readQuoted(
  source: string,
  start: number,
  quote: string,
  multiline: boolean,
): { text: string; end: number } | undefined {
  let text = "";
  let pos = start + 1;
  while (pos < source.length) {
    const char = source[pos];
    if (char === quote) return { text, end: pos + 1 };
    if (char === "\n" && !multiline) return undefined;
    if (char === "\\" && pos + 1 < source.length) {
      const next = source[pos + 1];
      text += STRING_ESCAPES[next] ?? next;
      pos += 2;
      continue;
    }
    text += char;
    pos++;
  }
  return undefined;
}

function readTriple(
  source: string,
  start: number,
  quotes: string,
): { text: string; end: number } | undefined {
  const end = source.indexOf(quotes, start + 3);
  return end === -1 ? undefined : { text: source.slice(start + 3, end), end: end + 3 };
}
