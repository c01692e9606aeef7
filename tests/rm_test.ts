/**
 * `git-kb rm` through the real CLI on real git with a bare remote: an unlinked entry is deleted
 * in one commit, pushed and dropped from the index; a linked one is refused with the links named
 * (nothing changed) unless `--force`, which reports the links it leaves dangling.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import { shellQuote } from "../core/shell/quote.ts";
import { runProcess } from "../io/process.ts";
import {
  childEnv,
  entryPath,
  entryText,
  exists,
  git,
  MAIN,
  makeKb,
  parseJson,
  runCli,
  show,
} from "./helpers.ts";

interface RmJson {
  ids: string[];
  paths: string[];
  commit: string;
  push: string | null;
  index: { docCount: number };
  dangling: { from: string; rel: string; to: string; path: string }[];
  mentions: { from: string; to: string; path: string }[];
}

Deno.test("rm: deletes, refuses while linked, --force reports the dangling links", async (t) => {
  await using kb = await makeKb({ remote: true });
  await t.step("an entry nothing links to: one commit, pushed, gone from the index", async () => {
    const path = await entryPath(kb.dir, "kb-2yb6n");
    const head = await git(kb.dir, "rev-parse", "HEAD");
    const result = await runCli(["rm", "kb-2yb6n", "--json"], { env: kb.env });
    assertEquals(result.code, 0, show(result));
    const removed = parseJson<RmJson>(result);
    assertEquals(removed.paths, [path]);
    assertEquals(removed.push, "pushed");
    assertEquals(removed.dangling, []);
    assertEquals(removed.index.docCount, 44);
    assertEquals(await git(kb.dir, "rev-parse", "HEAD~1"), head);
    assertMatch(await git(kb.dir, "log", "-1", "--format=%s"), /^kb: rm kb-2yb6n: /);
    assertEquals(await exists(join(kb.dir, path)), false);
    assertEquals(await git(kb.remote!, "rev-parse", "main"), removed.commit);
    assertEquals(await git(kb.remote!, "ls-tree", "--name-only", "main", path), "");
    const get = await runCli(["get", "kb-2yb6n"], { env: kb.env });
    assertEquals(get.code, 1, show(get));
  });

  const linked = await entryPath(kb.dir, "kb-p8k2c");
  await t.step("a linked entry: refused, the links named, nothing changed", async () => {
    const head = await git(kb.dir, "rev-parse", "HEAD");
    const result = await runCli(["rm", "kb-p8k2c"], { env: kb.env });
    assertEquals(result.code, 1, show(result));
    assertMatch(result.stderr, /not removed: 4 links point at kb-p8k2c/, show(result));
    assertMatch(
      result.stderr,
      /^ {2}kb-\w{5} \(entries\/kb-\w{5}-[\w-]+\.md\) related kb-p8k2c$/m,
    );
    assertMatch(result.stderr, /^ {2}git-kb rm kb-p8k2c --force$/m);
    // Named with --kb, the printed commands name it too: pasted, they reach the same one.
    const pinned = await runCli(["rm", "kb-p8k2c", "--kb", kb.dir], { env: kb.env });
    assertEquals(pinned.code, 1, show(pinned));
    const kbFlag = `--kb ${shellQuote(kb.dir)}`;
    assert(pinned.stderr.includes(`\n  git-kb rm kb-p8k2c --force ${kbFlag}\n`), show(pinned));
    assertMatch(pinned.stderr, /^ {2}git-kb edit kb-\w{5} --remove-link kb-p8k2c --kb /m);
    assert(pinned.stderr.includes(`\n  git-kb rm kb-p8k2c ${kbFlag}\n`), show(pinned));
    const missing = await runCli(["get", "kb-zzzzz", "--kb", kb.dir], { env: kb.env });
    assert(missing.stderr.includes(`search <words> ${kbFlag}\n`), show(missing));
    assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head);
    assert(await exists(join(kb.dir, linked)));
  });

  await t.step("--force deletes it and lists every link left dangling", async () => {
    const text = await runCli(["rm", "kb-p8k2c", "--force"], { env: kb.env });
    assertEquals(text.code, 0, show(text));
    assertMatch(text.stdout, /^Removed kb-p8k2c \(commit \w{7}, pushed; index /);
    assertMatch(text.stderr, /warning: left 4 dangling links:/);
    for (const from of ["kb-4fr7e", "kb-h2o8x", "kb-j0l5u", "kb-m2c7v"]) {
      assertMatch(
        text.stderr,
        new RegExp(`^  ${from} \\(entries/${from}-.*\\) \\w+ kb-p8k2c$`, "m"),
      );
    }
    assertEquals(await exists(join(kb.dir, linked)), false);
    assertEquals(await git(kb.dir, "status", "--porcelain"), "");
    // Each of them is refused its next edit until it loses the link: the lines that take them out.
    const edits = text.stderr.split("\n").filter((line) => line.startsWith("  git-kb edit "));
    assertEquals(edits.length, 4, show(text));
    for (const line of edits) {
      assertMatch(line, /^ {2}git-kb edit kb-\w{5} --remove-link kb-p8k2c$/);
      const edited = await runCli(line.trim().split(" ").slice(1), { env: kb.env });
      assertEquals(edited.code, 0, show(edited));
    }
    const doctor = await runCli(["doctor", "--offline"], { env: { ...kb.env, NO_COLOR: "1" } });
    assert(!/^FAIL .*kb-p8k2c does not exist/m.test(doctor.stdout), show(doctor));
  });

  await t.step("usage and unknown ids", async () => {
    const [none, unknown] = await Promise.all([
      runCli(["rm"], { env: kb.env }),
      runCli(["rm", "kb-zzzzz"], { env: kb.env }),
    ]);
    assertEquals(none.code, 2, show(none));
    assertEquals(unknown.code, 1, show(unknown));
    assertMatch(unknown.stderr, /no entry kb-zzzzz/);
  });
});

Deno.test("rm of an entry file never committed says so: no commit, nothing pushed, no claim of no remote", async () => {
  await using kb = await makeKb({ remote: true });
  const path = "entries/kb-h4nd0-by-hand.md";
  await Deno.writeTextFile(
    join(kb.dir, path),
    entryText({ id: "kb-h4nd0", title: "By hand", body: "Mine.\n" }),
  );
  const head = await git(kb.dir, "rev-parse", "HEAD");
  const text = await runCli(["rm", "kb-h4nd0"], { env: kb.env });
  assertEquals(text.code, 0, show(text));
  assertMatch(
    text.stdout,
    /^Removed kb-h4nd0 \(its file was never committed, so git keeps no copy/,
  );
  assert(!text.stdout.includes("NO_REMOTE"), show(text));
  assertEquals(await exists(join(kb.dir, path)), false);
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head);

  await Deno.writeTextFile(
    join(kb.dir, path),
    entryText({ id: "kb-h4nd0", title: "By hand", body: "Mine.\n" }),
  );
  const json = await runCli(["rm", "kb-h4nd0", "--json"], { env: kb.env });
  assertEquals(json.code, 0, show(json));
  const removed = parseJson<RmJson>(json);
  assertEquals([removed.commit, removed.push], ["", null]);
});

Deno.test("rm --json committed but not pushed (exit 3) still prints what it committed", async () => {
  await using kb = await makeKb({ remote: true });
  const path = await entryPath(kb.dir, "kb-2yb6n");
  await git(kb.dir, "remote", "set-url", "origin", join(kb.root, "gone.git"));
  const result = await runCli(["rm", "kb-2yb6n", "--json"], { env: kb.env });
  assertEquals(result.code, 3, show(result));
  const removed = parseJson<RmJson>(result);
  assertEquals(removed.ids, ["kb-2yb6n"]);
  assertEquals(removed.paths, [path]);
  assertEquals(removed.push, "not-pushed");
  assertEquals(removed.commit, await git(kb.dir, "rev-parse", "HEAD"));
  assert(result.stderr.includes("it is not pushed"), show(result));
});

Deno.test("edit and rm refuse an id two files carry, naming both, and change neither", async () => {
  await using kb = await makeKb();
  const real = await entryPath(kb.dir, "kb-7q2mx");
  const shadow = "entries/kb-7q2mx-a-shadow.md";
  await Deno.writeTextFile(
    join(kb.dir, shadow),
    entryText({ id: "kb-7q2mx", title: "A shadow", body: "Not the real one.\n" }),
  );
  const before = [
    await Deno.readTextFile(join(kb.dir, real)),
    await Deno.readTextFile(join(kb.dir, shadow)),
  ];
  for (const args of [["edit", "kb-7q2mx", "--add-tag", "x"], ["rm", "kb-7q2mx"]]) {
    const result = await runCli(args, { env: kb.env });
    assertEquals(result.code, 1, show(result));
    assert(result.stderr.includes(real) && result.stderr.includes(shadow), show(result));
    assertMatch(result.stderr, /so neither is changed/);
  }
  assertEquals([
    await Deno.readTextFile(join(kb.dir, real)),
    await Deno.readTextFile(join(kb.dir, shadow)),
  ], before);
});

Deno.test("rm of a linked entry: the lines it prints to take the links out, pasted, delete it", async () => {
  await using kb = await makeKb({ remote: true });
  const env = { ...kb.env, KB_CLI: `deno run -A ${shellQuote(MAIN)}` };
  const refused = await runCli(["rm", "kb-p8k2c"], { env });
  assertEquals(refused.code, 1, show(refused));
  const steps = refused.stderr.split("then delete:\n")[1]?.split("\nor delete anyway")[0] ?? "";
  const lines = steps.split("\n").map((line) => line.trim());
  assertEquals(lines.length, 5, show(refused));
  const path = await entryPath(kb.dir, "kb-p8k2c");
  const pasted = await runProcess("/bin/sh", ["-c", lines.join(" && ")], { env: childEnv(env) });
  assertEquals(pasted.code, 0, `${lines.join("\n")}\n${pasted.stderr}`);
  assertEquals(await exists(join(kb.dir, path)), false);
  const get = await runCli(["get", "kb-p8k2c"], { env: kb.env });
  assertEquals(get.code, 1, "deleted, with no link left dangling");
  const dangling = await runCli(["doctor", "--offline"], { env: { ...kb.env, NO_COLOR: "1" } });
  const named = dangling.stdout.split("\n").filter((line) => line.includes("kb-p8k2c"));
  // No link is left to it; the [[mentions]] in other entries' text are named, as warnings.
  assert(named.length > 0, show(dangling));
  for (const line of named) {
    assertMatch(line, /^warn entries: .*its body mentions \[\[kb-p8k2c\]\]/);
  }
});

Deno.test("rm: a [[mention]] of the entry in another's text does not stop it, and is named", async () => {
  await using kb = await makeKb();
  const added = await runCli(
    [
      "add",
      "--title",
      "Mentions the token note",
      "--type",
      "note",
      "--body",
      "See [[kb-2yb6n]].",
      "--json",
    ],
    { env: kb.env },
  );
  assertEquals(added.code, 0, show(added));
  const { id } = parseJson<{ id: string }>(added);
  const text = await runCli(["rm", "kb-2yb6n"], { env: kb.env });
  assertEquals(text.code, 0, show(text));
  // The sample's own notes mention it three times; each is named.
  assertMatch(text.stderr, /4 mentions in the text of other entries now name no entry:/);
  assertMatch(
    text.stderr,
    new RegExp(`${id} \\(entries/${id}-[^)]+\\) mentions \\[\\[kb-2yb6n\\]\\]`),
  );

  const quiet = await runCli(["rm", "kb-4fr7e", "--json"], { env: kb.env });
  assertEquals(quiet.code, 0, show(quiet));
  assertEquals(parseJson<RmJson>(quiet).mentions, []);
});

Deno.test("edit of an entry left linking to one rm --force deleted: the line printed, pasted, lets the edit through", async () => {
  await using kb = await makeKb();
  const env = { ...kb.env, KB_CLI: `deno run -A ${shellQuote(MAIN)}` };
  const removed = await runCli(["rm", "kb-p8k2c", "--force", "--json"], { env });
  assertEquals(removed.code, 0, show(removed));
  const from = parseJson<RmJson>(removed).dangling[0].from;
  const tag = ["edit", from, "--tag", "after-rm", "--kb", kb.dir];
  const refused = await runCli(tag, { env });
  assertEquals(refused.code, 1, show(refused));
  assertMatch(
    refused.stderr,
    /links\[\d\]\.to: kb-p8k2c does not exist \(deleted since kb-\w{5} linked to it\?\); an edit that keeps the link is refused\nTake the link out, then edit again:\n {2}deno run /,
  );
  assert(!refused.stderr.includes("link only to existing entries"), show(refused));
  const lines = refused.stderr.split("\n").filter((line) => line.startsWith("  deno run "));
  assertEquals(lines.length, 1, show(refused));
  assertMatch(lines[0], new RegExp(` edit ${from} --remove-link kb-p8k2c --kb `));
  // In the editor, the same problem: the draft is kept with it.
  const editor = `sed -i "s/^title: .*/title: Retitled after rm/"`;
  const drafted = await runCli(["edit", from, "--kb", kb.dir], { env: { ...env, EDITOR: editor } });
  assertEquals(drafted.code, 1, show(drafted));
  assertMatch(
    drafted.stderr,
    /kb-p8k2c does not exist \(deleted since .*keeps the link is refused/,
  );
  assert(!drafted.stderr.includes("link only to existing entries"), show(drafted));
  // A body piped on stdin: its draft leaves the link out (its author never saw it), so carrying on
  // with it goes through, before or after the link is taken out.
  const piped = await runCli(["edit", from, "--body-file", "-", "--kb", kb.dir], {
    env,
    stdin: "Piped after the rm.\n",
  });
  assertEquals(piped.code, 1, show(piped));
  assertMatch(piped.stderr, /Take the link out, then edit again:/);
  const resume = piped.stderr.split("\n").find((line) => / --from-draft /.test(line))?.trim();
  assert(resume, show(piped));
  const pasted = await runProcess("/bin/sh", ["-c", lines[0]], { env: childEnv(env) });
  assertEquals(pasted.code, 0, `${lines[0]}\n${pasted.stderr}`);
  const resumed = await runProcess("/bin/sh", ["-c", resume], { env: childEnv(env) });
  assertEquals(resumed.code, 0, `${resume}\n${resumed.stderr}`);
  assertMatch(
    await Deno.readTextFile(join(kb.dir, await entryPath(kb.dir, from))),
    /Piped after the rm\./,
  );
  const retried = await runCli(tag, { env });
  assertEquals(retried.code, 0, show(retried));
  assertMatch(await Deno.readTextFile(join(kb.dir, await entryPath(kb.dir, from))), /after-rm/);

  // An edit that itself links to the deleted entry is told to link only to existing ones.
  const linking = await runCli(["edit", from, "--link", "related:kb-p8k2c"], { env });
  assertEquals(linking.code, 1, show(linking));
  assertMatch(linking.stderr, /kb-p8k2c does not exist; link only to existing entries/);
  assert(!linking.stderr.includes("--remove-link"), show(linking));
});

Deno.test("rm --kb with a blank value (a variable not set) deletes nothing from the knowledge base configured", async () => {
  await using kb = await makeKb({ remote: true });
  const head = await git(kb.dir, "rev-parse", "HEAD");
  const result = await runCli(["rm", "kb-2yb6n", "--kb", ""], { env: kb.env });
  assertEquals(result.code, 2, show(result));
  assert(result.stderr.includes("--kb needs a folder, and the value given is blank"), show(result));
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head);
});

Deno.test("rm of an id a copy made by hand under another name holds too: refused, both named, neither removed", async () => {
  await using kb = await makeKb();
  const path = await entryPath(kb.dir, "kb-2yb6n");
  // The copy's name carries no id, its frontmatter the same one: the index serves neither.
  await Deno.copyFile(join(kb.dir, path), join(kb.dir, "entries", "my-copy.md"));
  const head = await git(kb.dir, "rev-parse", "HEAD");

  for (const args of [["rm", "kb-2yb6n"], ["rm", "kb-2yb6n", "--force"]]) {
    const refused = await runCli(args, { env: kb.env });
    assertEquals(refused.code, 1, show(refused));
    assertEquals(refused.stdout, "");
    assertMatch(
      refused.stderr,
      /id kb-2yb6n is used by .*kb-2yb6n-.*\.md and entries\/my-copy\.md/,
    );
    assertMatch(refused.stderr, /so neither is changed/);
  }
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head);
  assert(await exists(join(kb.dir, path)));
  assert(await exists(join(kb.dir, "entries", "my-copy.md")));
});
