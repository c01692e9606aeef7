/**
 * `git-kb rm` through the real CLI on real git with a bare remote: an unlinked entry is deleted
 * in one commit, pushed and dropped from the index; a linked one is refused with the links named
 * (nothing changed) unless `--force`, which reports the links it leaves dangling.
 */
import assert from "node:assert/strict";
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
  push: string;
  index: { docCount: number };
  dangling: { from: string; rel: string; to: string; path: string }[];
}

Deno.test("rm: deletes, refuses while linked, --force reports the dangling links", async (t) => {
  await using kb = await makeKb({ remote: true });
  await t.step("an entry nothing links to: one commit, pushed, gone from the index", async () => {
    const path = await entryPath(kb.dir, "kb-2yb6n");
    const head = await git(kb.dir, "rev-parse", "HEAD");
    const result = await runCli(["rm", "kb-2yb6n", "--json"], { env: kb.env });
    assert.equal(result.code, 0, show(result));
    const removed = parseJson<RmJson>(result);
    assert.deepEqual(removed.paths, [path]);
    assert.equal(removed.push, "pushed");
    assert.deepEqual(removed.dangling, []);
    assert.equal(removed.index.docCount, 44);
    assert.equal(await git(kb.dir, "rev-parse", "HEAD~1"), head);
    assert.match(await git(kb.dir, "log", "-1", "--format=%s"), /^kb: rm kb-2yb6n: /);
    assert.equal(await exists(join(kb.dir, path)), false);
    assert.equal(await git(kb.remote!, "rev-parse", "main"), removed.commit);
    assert.equal(await git(kb.remote!, "ls-tree", "--name-only", "main", path), "");
    const get = await runCli(["get", "kb-2yb6n"], { env: kb.env });
    assert.equal(get.code, 1, show(get));
  });

  const linked = await entryPath(kb.dir, "kb-p8k2c");
  await t.step("a linked entry: refused, the links named, nothing changed", async () => {
    const head = await git(kb.dir, "rev-parse", "HEAD");
    const result = await runCli(["rm", "kb-p8k2c"], { env: kb.env });
    assert.equal(result.code, 1, show(result));
    assert.match(result.stderr, /not removed: 4 links point at kb-p8k2c/, show(result));
    assert.match(
      result.stderr,
      /^ {2}kb-\w{5} \(entries\/kb-\w{5}-[\w-]+\.md\) related kb-p8k2c$/m,
    );
    assert.match(result.stderr, /^ {2}git-kb rm kb-p8k2c --force$/m);
    // Named with --kb, the printed commands name it too: pasted, they reach the same one.
    const pinned = await runCli(["rm", "kb-p8k2c", "--kb", kb.dir], { env: kb.env });
    assert.equal(pinned.code, 1, show(pinned));
    const kbFlag = `--kb ${shellQuote(kb.dir)}`;
    assert.ok(pinned.stderr.includes(`\n  git-kb rm kb-p8k2c --force ${kbFlag}\n`), show(pinned));
    assert.match(pinned.stderr, /^ {2}git-kb edit kb-\w{5} --remove-link kb-p8k2c --kb /m);
    assert.ok(pinned.stderr.includes(`\n  git-kb rm kb-p8k2c ${kbFlag}\n`), show(pinned));
    const missing = await runCli(["get", "kb-zzzzz", "--kb", kb.dir], { env: kb.env });
    assert.ok(missing.stderr.includes(`search <words> ${kbFlag}\n`), show(missing));
    assert.equal(await git(kb.dir, "rev-parse", "HEAD"), head);
    assert.ok(await exists(join(kb.dir, linked)));
  });

  await t.step("--force deletes it and lists every link left dangling", async () => {
    const text = await runCli(["rm", "kb-p8k2c", "--force"], { env: kb.env });
    assert.equal(text.code, 0, show(text));
    assert.match(text.stdout, /^Removed kb-p8k2c \(commit \w{7}, pushed; index /);
    assert.match(text.stderr, /warning: left 4 dangling links:/);
    for (const from of ["kb-4fr7e", "kb-h2o8x", "kb-j0l5u", "kb-m2c7v"]) {
      assert.match(
        text.stderr,
        new RegExp(`^  ${from} \\(entries/${from}-.*\\) \\w+ kb-p8k2c$`, "m"),
      );
    }
    assert.equal(await exists(join(kb.dir, linked)), false);
    assert.equal(await git(kb.dir, "status", "--porcelain"), "");
  });

  await t.step("usage and unknown ids", async () => {
    const [none, unknown] = await Promise.all([
      runCli(["rm"], { env: kb.env }),
      runCli(["rm", "kb-zzzzz"], { env: kb.env }),
    ]);
    assert.equal(none.code, 2, show(none));
    assert.equal(unknown.code, 1, show(unknown));
    assert.match(unknown.stderr, /no entry kb-zzzzz/);
  });
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
    assert.equal(result.code, 1, show(result));
    assert.ok(result.stderr.includes(real) && result.stderr.includes(shadow), show(result));
    assert.match(result.stderr, /so neither is changed/);
  }
  assert.deepEqual([
    await Deno.readTextFile(join(kb.dir, real)),
    await Deno.readTextFile(join(kb.dir, shadow)),
  ], before);
});

Deno.test("rm of a linked entry: the lines it prints to take the links out, pasted, delete it", async () => {
  await using kb = await makeKb({ remote: true });
  const env = { ...kb.env, KB_CLI: `deno run -A ${shellQuote(MAIN)}` };
  const refused = await runCli(["rm", "kb-p8k2c"], { env });
  assert.equal(refused.code, 1, show(refused));
  const steps = refused.stderr.split("then delete:\n")[1]?.split("\nor delete anyway")[0] ?? "";
  const lines = steps.split("\n").map((line) => line.trim());
  assert.equal(lines.length, 5, show(refused));
  const path = await entryPath(kb.dir, "kb-p8k2c");
  const pasted = await runProcess("/bin/sh", ["-c", lines.join(" && ")], { env: childEnv(env) });
  assert.equal(pasted.code, 0, `${lines.join("\n")}\n${pasted.stderr}`);
  assert.equal(await exists(join(kb.dir, path)), false);
  const get = await runCli(["get", "kb-p8k2c"], { env: kb.env });
  assert.equal(get.code, 1, "deleted, with no link left dangling");
  const dangling = await runCli(["doctor", "--offline"], { env: kb.env });
  assert.doesNotMatch(dangling.stdout, /kb-p8k2c/);
});
