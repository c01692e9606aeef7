import { assertEquals } from "@std/assert";
import { runProcess } from "../io/process.ts";
import { shellCommand, shellGlob, shellQuote } from "../core/shell/quote.ts";

Deno.test("shellQuote leaves plain words alone and quotes the rest", () => {
  assertEquals(shellQuote("/home/me/kb"), "/home/me/kb");
  assertEquals(shellQuote("kb-7q2mx"), "kb-7q2mx");
  assertEquals(shellQuote(""), "''");
  assertEquals(shellQuote("a b"), "'a b'");
  assertEquals(shellQuote("o'brien"), `'o'\\''brien'`);
});

Deno.test("a quoted word is read back by sh as exactly the text it came from", async () => {
  const words = [
    "/home/o'brien/kb",
    "with space",
    "$(touch PWNED)",
    "`id`",
    "line\nbreak",
    "'",
    "\\back\\slash",
    "semi;colon&amp|pipe",
    "*glob?",
    "~user",
    "",
  ];
  const script = `for word in ${shellCommand(words)}; do printf '%s\\0' "$word"; done`;
  const { code, stdout } = await runProcess("sh", ["-c", script], { cwd: Deno.makeTempDirSync() });
  assertEquals(code, 0);
  assertEquals(stdout, words.map((word) => `${word}\0`).join(""));
});

Deno.test("a word with terminal controls is printed without them, and read back by sh exactly", async () => {
  const words = [
    "entries/kb-aaaaa-\x1b]52;c;ZWNobyBwd25lZA==\x07.md",
    "\x1b[2Jclear",
    "right\u202eto-left %s \\n 'q' $(x)",
    "cr\rline\nand tab\t\n\n",
    "日本\x07語",
  ];
  for (const word of words) {
    assertEquals(
      // deno-lint-ignore no-control-regex -- what a terminal would act on must not be printed
      /[\x00-\x09\x0b-\x1f\x7f-\x9f\u202e]/u.test(shellQuote(word)),
      false,
      shellQuote(word),
    );
  }
  const script = `for word in ${shellCommand(words)}; do printf '%s\\0' "$word"; done`;
  const { code, stdout } = await runProcess("sh", ["-c", script], { cwd: Deno.makeTempDirSync() });
  assertEquals(code, 0);
  assertEquals(stdout, words.map((word) => `${word}\0`).join(""));
});

Deno.test("shellGlob quotes all but each wildcard, which sh then matches as *", async () => {
  const dir = Deno.makeTempDirSync();
  // A name sh holds as bytes that are not UTF-8 (Latin-1 é), with a space and a quote around it.
  const made = await runProcess("sh", ["-c", `touch "$(printf "it's caf\\351 now.md")"`], {
    cwd: dir,
  });
  assertEquals(made.code, 0);
  const pattern = shellGlob("it's caf\uFFFD now.md", "\uFFFD");
  assertEquals(pattern, `'it'\\''s caf'*' now.md'`);
  const moved = await runProcess("sh", ["-c", `mv -- ${pattern} renamed.md`], { cwd: dir });
  assertEquals(moved.code, 0, moved.stderr);
  assertEquals([...Deno.readDirSync(dir)].map((item) => item.name), ["renamed.md"]);
  Deno.removeSync(dir, { recursive: true });
});
