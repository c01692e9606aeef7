import { assert, assertEquals } from "@std/assert";
import {
  commandWords,
  literalCommand,
  MAX_SHELL_LENGTH,
  MAX_SHELL_NESTING,
  MAX_SHELL_WORDS,
  parseShell,
  type ShellCommand,
} from "./words.ts";

function words(source: string): string[][] {
  return parseShell(source).map((command) => command.words);
}

Deno.test("parseShell: quotes, escapes and continuations are removed as the shell would", () => {
  const cases: [string, string[][]][] = [
    [`git commit -m 'it''s "fine"'`, [["git", "commit", "-m", `its "fine"`]]],
    [`echo "a \\"b\\" \\$HOME \\n"`, [["echo", `a "b" $HOME \\n`]]],
    [`echo a\\ b c\\\nd`, [["echo", "a b", "cd"]]],
    [`echo "two\nlines"`, [["echo", "two\nlines"]]],
    [`echo $'tab\\there\\nnext \\'q\\''`, [["echo", "tab\there\nnext 'q'"]]],
    [`echo $"dq"`, [["echo", "dq"]]],
    [`echo "$HOME" \${X:-y} \`date\` $((1+2))`, [[
      "echo",
      "$HOME",
      "${X:-y}",
      "`date`",
      "$((1+2))",
    ]]],
    [`echo "unterminated`, [["echo", "unterminated"]]],
    [`echo 'unterminated`, [["echo", "unterminated"]]],
  ];
  for (const [source, expected] of cases) assertEquals(words(source), expected, source);
});

Deno.test("parseShell: separators, comments and redirections", () => {
  const cases: [string, string[][]][] = [
    [`a 1 && b 2 || c; d | e & f`, [["a", "1"], ["b", "2"], ["c"], ["d"], ["e"], ["f"]]],
    [`(cd x && make)\nls # a comment; not a command`, [["cd", "x"], ["make"], ["ls"]]],
    [`git commit -m msg 2>&1 >/dev/null < in.txt &> all.log`, [["git", "commit", "-m", "msg"]]],
    [`echo a#b "#c"`, [["echo", "a#b", "#c"]]],
    [`echo ";" '&&' x\\;y`, [["echo", ";", "&&", "x;y"]]],
    [``, []],
    [`   ;; && `, []],
  ];
  for (const [source, expected] of cases) assertEquals(words(source), expected, source);
});

Deno.test("parseShell: here-documents and here-strings belong to their command", () => {
  const source = "git commit -F - <<'EOF'\nFirst line $NOT_EXPANDED\n\nBody (with parens)\nEOF\n" +
    'cat <<-END && echo next\n\t\tindented\n\tEND\ngh pr comment 3 --body-file - <<< "short"';
  const commands = parseShell(source);
  const expected: ShellCommand[] = [
    {
      words: ["git", "commit", "-F", "-"],
      heredocs: ["First line $NOT_EXPANDED\n\nBody (with parens)\n"],
    },
    { words: ["cat"], heredocs: ["indented\n"] },
    { words: ["echo", "next"], heredocs: [] },
    { words: ["gh", "pr", "comment", "3", "--body-file", "-"], heredocs: ["short\n"] },
  ];
  assertEquals(commands, expected);
});

Deno.test("parseShell: $(cat <<'EOF' … EOF) becomes the here-document's text", () => {
  const source = `git add -A && git commit -m "$(cat <<'EOF'
Fix the crash when a title has a colon (issue 12)

It's the "quoted" form agents use; a ) or "quote" inside is fine.
EOF
)" && git push`;
  assertEquals(words(source), [
    ["git", "add", "-A"],
    [
      "git",
      "commit",
      "-m",
      `Fix the crash when a title has a colon (issue 12)\n\nIt's the "quoted" form agents use; a ) or "quote" inside is fine.`,
    ],
    ["git", "push"],
  ]);
  assertEquals(words(`echo "$(date +%s) and $(cat file.txt)"`), [
    ["echo", "$(date +%s) and $(cat file.txt)"],
  ]);
  assertEquals(words(`git commit -m "$(cat <<EOF\nunquoted delimiter\nEOF\n)"`), [
    ["git", "commit", "-m", "unquoted delimiter"],
  ]);
});

Deno.test("commandWords drops leading assignments and wrappers, and nothing else", () => {
  const cases: [string, string[]][] = [
    ["GIT_DIR=x _A1=2 git status", ["git", "status"]],
    ["env -i HOME=/tmp nohup rg token", ["rg", "token"]],
    ["1X=2 git status", ["1X=2", "git", "status"]],
    ["A-B=1 git status", ["A-B=1", "git", "status"]],
    ["=x git", ["=x", "git"]],
    ["rg A=1", ["rg", "A=1"]],
  ];
  for (const [source, expected] of cases) {
    assertEquals(commandWords(words(source)[0]), expected, source);
  }
});

Deno.test("parseShell: a word ends at any whitespace and at operators, as \\s did", () => {
  assertEquals(words("rg\u00a0token\u2003src|wc"), [["rg", "token", "src"], ["wc"]]);
  assertEquals(words("echo 2>/dev/null a"), [["echo", "a"]]);
  assertEquals(words("echo 12>x b"), [["echo", "b"]], "a descriptor of two digits");
});

Deno.test("parseShell reads the first MAX_SHELL_LENGTH characters and MAX_SHELL_WORDS words", () => {
  const padding = "#".repeat(MAX_SHELL_LENGTH - 4);
  assertEquals(words(`${padding}\nls\nrg token`), [["ls"]]);
  const many = words("echo a; ".repeat(MAX_SHELL_WORDS));
  assertEquals(many.flat().length, MAX_SHELL_WORDS);
  assertEquals(many.at(-1), ["echo", "a"]);
  assertEquals(words(`${"xargs ".repeat(MAX_SHELL_WORDS)} grep token`)[0].length, MAX_SHELL_WORDS);
});

Deno.test("parseShell: a $(…) nested deeper than MAX_SHELL_NESTING stays as written", () => {
  const nest = (depth: number, inner: string) => "$(".repeat(depth) + inner + ")".repeat(depth);
  for (const depth of [MAX_SHELL_NESTING, MAX_SHELL_NESTING + 2, 50_000]) {
    const deep = nest(depth, "ls -l");
    assertEquals(words(`echo ${deep}; rg token`), [["echo", deep], ["rg", "token"]]);
  }
});

Deno.test("parseShell finishes at once on hostile lines: 600 KB of xargs, 1 MB of $( and of quotes", () => {
  const hostile = [
    "xargs ".repeat(100_000) + "grep token",
    "$(".repeat(500_000),
    '"$('.repeat(300_000),
    "find . -exec ".repeat(50_000) + "grep token",
    "<<a ".repeat(100_000) + "\n",
    "${".repeat(500_000),
  ];
  for (const source of hostile) {
    const started = performance.now();
    parseShell(source);
    const ms = performance.now() - started;
    assert(ms < 1000, `${source.slice(0, 12)}…: ${ms.toFixed(0)} ms`);
  }
});

Deno.test("literalCommand: plain, quoted and escaped words as sh passes them, nothing noted", () => {
  const cases: [string, string[]][] = [
    [`emacsclient -t -a ""`, ["emacsclient", "-t", "-a", ""]],
    [`"/opt/my ed/bin/ed" -w`, ["/opt/my ed/bin/ed", "-w"]],
    [`/opt/my\\ ed/ed 'a b'"c"`, ["/opt/my ed/ed", "a bc"]],
    [`sed -i "s/, publish//"`, ["sed", "-i", "s/, publish//"]],
    [`ed "\\$HOME" '$(x)' \\; a~b 'x*' ed # a comment; $(x)`, [
      "ed",
      "$HOME",
      "$(x)",
      ";",
      "a~b",
      "x*",
      "ed",
    ]],
  ];
  for (const [source, words] of cases) assertEquals(literalCommand(source), { words }, source);
});

Deno.test("literalCommand names the first thing sh would evaluate rather than pass as written", () => {
  const cases: [string, string][] = [
    [`sed -i "s/x/$(date)/"`, "a $ (an expansion)"],
    [`ed $HOME`, "a $ (an expansion)"],
    [`ed $'a'`, "a $ (an expansion)"],
    ["ed `date`", "a ` (a command substitution)"],
    [`ed; rm x`, "a ; (a second command)"],
    [`ed && rm x`, "a & (a second command)"],
    [`ed | tee`, "a | (a pipe)"],
    [`(ed)`, "a ( (a subshell)"],
    [`ed 2>/dev/null`, "a > (a redirection)"],
    [`ed &>x`, "a > (a redirection)"],
    [`ed <x`, "a < (a redirection)"],
    ["ed\nrm x", "a line break (a second command)"],
    [`ed *.md`, "an unquoted * (a file name pattern)"],
    [`ed ?`, "an unquoted ? (a file name pattern)"],
    [`ed [ab]`, "an unquoted [ (a file name pattern)"],
    [`~/bin/ed`, "a ~ starting a word (the home folder)"],
    [`ed 'open`, "a ' with no ' to close it"],
    [`ed "open`, 'a " with no " to close it'],
  ];
  for (const [source, evaluated] of cases) {
    assertEquals(literalCommand(source).evaluated, evaluated, source);
  }
});
