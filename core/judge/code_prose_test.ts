import { assertEquals } from "@std/assert";
import { type CodeText, codeTexts, fileKind, PYTHON_SYNTAX } from "./code_prose.ts";

function texts(path: string, source: string): CodeText[] {
  const kind = fileKind(path, source);
  if (typeof kind === "string") throw new Error(`${path} is ${kind}, not code`);
  return codeTexts(source, kind);
}

Deno.test("fileKind: prose, data and code files by name", () => {
  for (const path of ["a.md", "README", "notes.txt", "page.html", "/x/y/CHANGELOG.rst"]) {
    assertEquals(fileKind(path), "prose", path);
  }
  for (const path of ["a.csv", "deno.lock", "go.sum", "x.min.js", "logo.svg"]) {
    assertEquals(fileKind(path), "none", path);
  }
  for (const path of ["a.ts", "b.PY", "Dockerfile", "Makefile", "c.rs", "q.sql", "conf.yaml"]) {
    assertEquals(typeof fileKind(path), "object", path);
  }
  assertEquals(typeof fileKind("bin/tool", "#!/bin/sh\necho hi\n"), "object");
  assertEquals(fileKind("bin/tool", "plain words\n"), "prose");
});

Deno.test("codeTexts: C-like comments and strings, code left out", () => {
  const source = [
    "/**",
    " * Opens the index.",
    " *",
    " * Reads the manifest first.",
    " */",
    'const a = "double \\"quoted\\"\\n" + \'single\' + `tem',
    "plate`; // trailing",
    "// first line",
    "   // second line",
    "call(); // separate",
    'const broken = "no closing quote',
    "/* unclosed block",
  ].join("\n");
  assertEquals(texts("a.ts", source), [
    { kind: "comment", text: "Opens the index.\n\nReads the manifest first." },
    { kind: "string", text: 'double "quoted"\n' },
    { kind: "string", text: "single" },
    { kind: "string", text: "tem\nplate" },
    { kind: "comment", text: "trailing\nfirst line\nsecond line" },
    { kind: "comment", text: "separate" },
    { kind: "comment", text: "unclosed block" },
  ]);
});

Deno.test("codeTexts: Python docstrings, hash comments, f-strings", () => {
  const source = [
    "#!/usr/bin/env python3",
    "def f(x):  # why x",
    '    """Return x.',
    "",
    "    Longer text.",
    '    """',
    "    return f\"{x}'s value\"  # it's fine",
    "count = len(items)#not a comment marker",
  ].join("\n");
  assertEquals(codeTexts(source, PYTHON_SYNTAX), [
    { kind: "comment", text: "why x" },
    { kind: "string", text: "Return x.\n\n    Longer text.\n    " },
    { kind: "string", text: "{x}'s value" },
    { kind: "comment", text: "it's fine" },
  ]);
});

Deno.test("codeTexts: Rust lifetimes, SQL, shell and YAML apostrophes do not derail it", () => {
  assertEquals(
    texts("a.rs", "fn f<'a>(x: &'a str) -> &'a str { x } // keeps 'a\nlet s = \"done\";"),
    [
      { kind: "comment", text: "keeps 'a" },
      { kind: "string", text: "done" },
    ],
  );
  assertEquals(texts("q.sql", "SELECT 'it''s' -- note\nFROM t /* block */"), [
    { kind: "string", text: "it" },
    { kind: "string", text: "s" },
    { kind: "comment", text: "note" },
    { kind: "comment", text: "block" },
  ]);
  assertEquals(texts("run.sh", 'echo $# "${#arr[@]}" # count\necho don\'t'), [
    { kind: "string", text: "${#arr[@]}" },
    { kind: "comment", text: "count" },
  ]);
  assertEquals(texts("c.yaml", "description: Don't use it # why not\nname: 'x'"), [
    { kind: "comment", text: "why not" },
    { kind: "string", text: "x" },
  ]);
});
