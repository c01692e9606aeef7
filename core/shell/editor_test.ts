import { assert, assertEquals } from "@std/assert";
import { editorBlank, editorWords, MAX_EDITOR_BYTES } from "./editor.ts";

Deno.test("editorWords: the program and its arguments as sh would pass them", () => {
  assertEquals(editorWords(`emacsclient -t -a ""`), {
    program: "emacsclient",
    args: ["-t", "-a", ""],
  });
  assertEquals(editorWords(`"/opt/my ed/bin/ed" -w`), {
    program: "/opt/my ed/bin/ed",
    args: ["-w"],
  });
  assertEquals(editorWords("vim\t-n"), { program: "vim", args: ["-n"] });
  assertEquals(editorWords("vi -n a\\\\"), { program: "vi", args: ["-n", "a\\"] });
});

Deno.test("editorWords refuses what sh would evaluate, and a value that names no program", () => {
  const cases: [string, string][] = [
    [`sed -i "s/x/$(date)/"`, "it has a $ (an expansion)"],
    [`ed; rm x`, "it has a ; (a second command)"],
    [`"" -w`, "its program is an empty word"],
    [`# vim`, "it names no program"],
    [`LANG=C vim`, "it starts with LANG=…, an assignment"],
    ["vim\r-n", "it has a blank other than a space or a tab (U+000D)"],
    ["vim\u00a0-n", "it has a blank other than a space or a tab (U+00A0)"],
    ["vi\\", "it ends with a lone \\"],
    ["vi -n \\\\\\", "it ends with a lone \\"],
    ["vi\\ ", "it ends with a lone \\"],
  ];
  for (const [command, refused] of cases) assertEquals(editorWords(command), { refused }, command);
});

Deno.test("editorWords reads a value of at most MAX_EDITOR_BYTES, its ends' blanks as sh's", () => {
  const longest = "é".repeat(MAX_EDITOR_BYTES / 2);
  assertEquals(editorWords(longest), { program: longest, args: [] });
  assertEquals(editorWords(`${longest} `), {
    refused: `it is ${MAX_EDITOR_BYTES + 1} bytes long, more than the ${MAX_EDITOR_BYTES} read`,
  });
  assertEquals(editorWords(" \t\r\v\fvim -n\n"), { program: "vim", args: ["-n"] });
  // A no-break space is no blank to sh: it would run a program named "\u00a0vim".
  assertEquals(editorWords("\u00a0vim"), {
    refused: "it has a blank other than a space or a tab (U+00A0)",
  });
  assert(editorBlank(undefined) && editorBlank("") && editorBlank(" \t\n\r\v\f"));
  assert(!editorBlank("\u00a0") && !editorBlank("\u3000"));
});
