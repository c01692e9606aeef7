import { assertEquals } from "@std/assert";
import { editorWords } from "./editor.ts";

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
  ];
  for (const [command, refused] of cases) assertEquals(editorWords(command), { refused }, command);
});
