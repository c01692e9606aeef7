/**
 * A file this clone's ignore rules keep out of git, where a teammate pushed a file of the same
 * name: git would overwrite it without a word when the branch moves, so `git-kb sync` refuses
 * (exit 1) and a save keeps its commit unpushed (exit 3), each naming the file, its rule and the
 * commands that move it aside and sync; pasted in sh, those finish, and both versions are there.
 * Real git, a bare remote and two clones; the knowledge base's folder holds a space and a quote,
 * one teammate's file name a space and a non-ASCII letter, and one file sits in a folder that
 * the rule ignores as a whole.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import { shellCommand, shellQuote } from "../core/shell/quote.ts";
import { runProcess } from "../io/process.ts";
import {
  childEnv,
  cloneRemote,
  entryText,
  git,
  type Kb,
  MAIN,
  makeKb,
  runCli,
  type RunResult,
  show,
} from "./helpers.ts";

/** What this clone has at the ignored path: bytes a merge or a reset must not touch. */
const MINE = new TextEncoder().encode("My own draft, kept out of git: café\r\nno final newline");

/** The rule in `.git/info/exclude` that keeps the entries of {@link NAMES} out of git. */
const ENTRY_RULE = "entries/kb-*gn0r-*";

/**
 * The teammate's files: a plain name, one with a space and a non-ASCII letter, and a file in a
 * folder the ignore rule names as a whole.
 */
const NAMES = ["entries/kb-1gn0r-plain.md", "entries/kb-2gn0r-a note é.md", "drafts/plan.md"];

/** The rule that ignores `path` here. */
function ruleFor(path: string): string {
  return path.startsWith("drafts/") ? "drafts/" : ENTRY_RULE;
}

/**
 * A knowledge base (in a folder named `o'brien's kb`, its pasted commands spelled with
 * `KB_CLI`) whose `.git/info/exclude` keeps `path` out of git ({@link ruleFor}) and which holds
 * {@link MINE} there, while a teammate's clone has pushed a file at that same path.
 */
async function ignoredWhereTheyPushed(path: string): Promise<{ kb: Kb; other: string }> {
  const made = await makeKb({ remote: true });
  const dir = join(made.root, "o'brien's kb");
  await Deno.rename(made.dir, dir);
  const kb = {
    ...made,
    dir,
    env: { ...made.env, KB_DIR: dir, KB_CLI: `deno run -A ${shellQuote(MAIN)}` },
  };
  const other = await cloneRemote(kb);
  const id = path.slice("entries/".length, "entries/kb-xxxxx".length);
  await Deno.mkdir(join(other, path, ".."), { recursive: true });
  await Deno.writeTextFile(
    join(other, path),
    entryText({ id, title: "Their entry", body: "Pushed by a teammate.\n" }),
  );
  await git(other, "add", "--", path);
  await git(other, "commit", "--quiet", "-m", `a teammate adds ${path}`);
  await git(other, "push", "--quiet", "origin", "HEAD:main");
  await Deno.writeTextFile(join(dir, ".git", "info", "exclude"), `${ruleFor(path)}\n`);
  await Deno.mkdir(join(dir, path, ".."), { recursive: true });
  await Deno.writeFile(join(dir, path), MINE);
  return { kb, other };
}

/** The indented command lines of a message (a warning may follow them). */
function commandsOf(stderr: string): string[] {
  return stderr.split("\n").filter((line) => line.startsWith("  ")).map((line) => line.trim());
}

/** Run each printed command through sh, as a person pasting them would; returns the last run. */
async function pasteAll(commands: string[], kb: Kb): Promise<RunResult> {
  let last: RunResult = { code: 0, stdout: "", stderr: "" };
  for (const command of commands) {
    last = await runProcess("/bin/sh", ["-c", command], { cwd: kb.root, env: childEnv(kb.env) });
    assertEquals(last.code, 0, `${command}\n${show(last)}`);
  }
  return last;
}

/**
 * The message names `path`, why it is in the way and the rule; the commands move it aside to
 * `<path>.mine` and sync.
 */
function assertNamed(result: RunResult, kb: Kb, path: string): string[] {
  assert(result.stderr.includes(`origin has a file at ${path} (ignored by `), show(result));
  assert(result.stderr.includes(`.git/info/exclude:1:${ruleFor(path)})`), show(result));
  assertMatch(result.stderr, /keeps one of its own out of git by its ignore rules/);
  const commands = commandsOf(result.stderr);
  assertEquals(commands, [
    shellCommand(["mv", "--", join(kb.dir, path), join(kb.dir, `${path}.mine`)]),
    `${kb.env.KB_CLI} sync --kb ${shellQuote(kb.dir)}`,
  ]);
  return commands;
}

/** After the pasted commands: the teammate's file in place, this clone's moved aside intact. */
async function assertBothKept(kb: Kb, other: string, path: string): Promise<void> {
  assertEquals(await Deno.readFile(join(kb.dir, `${path}.mine`)), MINE);
  assertEquals(await Deno.readFile(join(kb.dir, path)), await Deno.readFile(join(other, path)));
  assertEquals(
    await git(kb.dir, "rev-parse", "HEAD"),
    await git(kb.remote!, "rev-parse", "main"),
    "in step with the remote",
  );
}

for (const path of NAMES) {
  Deno.test(`sync: an ignored file where the remote has ${path} stops it, kept byte for byte; the pasted steps finish`, async () => {
    const { kb, other } = await ignoredWhereTheyPushed(path);
    await using _kb = kb;
    const head = await git(kb.dir, "rev-parse", "HEAD");

    const refused = await runCli(["sync"], { env: kb.env });
    assertEquals(refused.code, 1, show(refused));
    assertMatch(refused.stderr, /nothing was changed\./);
    assertEquals(await Deno.readFile(join(kb.dir, path)), MINE, "this clone's file is untouched");
    assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head, "the branch did not move");

    await pasteAll(assertNamed(refused, kb, path), kb);
    await assertBothKept(kb, other, path);
  });

  Deno.test(`save: an ignored file where the remote has ${path} keeps the commit unpushed, the file byte for byte; the pasted steps push`, async () => {
    const { kb, other } = await ignoredWhereTheyPushed(path);
    await using _kb = kb;
    const remoteTip = await git(kb.remote!, "rev-parse", "main");

    const saved = await runCli(
      ["add", "--title", "Saved while they pushed", "--type", "note", "--body", "Mine."],
      { env: kb.env },
    );
    assertEquals(saved.code, 3, show(saved));
    assertMatch(
      saved.stderr,
      /^git-kb add: Committed .* locally in [0-9a-f]{7}, but it is not pushed: /,
    );
    assertMatch(saved.stderr, /The commit is kept; to finish, run:/);
    assertEquals(await Deno.readFile(join(kb.dir, path)), MINE, "this clone's file is untouched");
    assertMatch(await git(kb.dir, "log", "-1", "--format=%s"), /Saved while they pushed/);
    assertEquals(await git(kb.remote!, "rev-parse", "main"), remoteTip, "nothing pushed");

    await pasteAll(assertNamed(saved, kb, path), kb);
    await assertBothKept(kb, other, path);
    assertMatch(await git(kb.remote!, "log", "-1", "--format=%s", "main"), /Saved while/);
  });
}

Deno.test("sync: when the remote also changed an entry this clone changed, an ignored file where it has one is named before the conflict, whose printed merge would overwrite it", async () => {
  const path = NAMES[1];
  const { kb, other } = await ignoredWhereTheyPushed(path);
  await using _kb = kb;
  const entry = (await git(kb.dir, "ls-files", "--", "entries/kb-7q2mx*")).split("\n")[0];
  for (const [dir, words] of [[other, "Their words."], [kb.dir, "My words."]]) {
    const text = await Deno.readTextFile(join(dir, entry));
    await Deno.writeTextFile(join(dir, entry), `${text}\n${words}\n`);
    await git(dir, "commit", "--quiet", "-am", `kb: edit kb-7q2mx: ${words}`);
  }
  await git(other, "push", "--quiet", "origin", "HEAD:main");
  const head = await git(kb.dir, "rev-parse", "HEAD");

  const refused = await runCli(["sync"], { env: kb.env });
  assertEquals(refused.code, 1, show(refused));
  assertEquals(await Deno.readFile(join(kb.dir, path)), MINE, "this clone's file is untouched");
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head, "the branch did not move");
  const [move, sync] = assertNamed(refused, kb, path);

  await pasteAll([move], kb);
  const conflict = await runProcess("/bin/sh", ["-c", sync], { env: childEnv(kb.env) });
  assertEquals(conflict.code, 4, show(conflict));
  assert(conflict.stderr.includes(`merge --no-overwrite-ignore -m 'kb: sync with origin/main'`));
  assertEquals(await Deno.readFile(join(kb.dir, `${path}.mine`)), MINE);
});
