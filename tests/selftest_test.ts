/**
 * `git-kb selftest` as users run it: the real command with its own permission flags, against a
 * sandboxed HOME, TMPDIR and config with a real knowledge base of the user's in it. A clean run
 * passes every step and leaves the user's setup and the cache as they were; faults injected from
 * outside (a git on PATH that refuses one commit, a TMPDIR that is a file) are reported as the
 * failing step with its reason, and the scratch folder is still removed.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import type { StepResult } from "../io/selftest/run.ts";
import { snapshotChanges, type UserSnapshot } from "../io/selftest/scratch.ts";
import { exists, git, type Kb, makeKb, parseJson, runCli, show } from "./helpers.ts";

interface SelftestJson {
  ok: boolean;
  scratch: string | null;
  steps: StepResult[];
}

function stepOf(report: SelftestJson, name: string): StepResult {
  const found = report.steps.find((item) => item.name === name);
  assert(found, `no step "${name}" in ${report.steps.map((item) => item.name).join(", ")}`);
  return found;
}

/** A user with a knowledge base and a config file naming it, in a sandbox `await using` removes. */
async function user(): Promise<
  { kb: Kb; env: Record<string, string>; config: string } & AsyncDisposable
> {
  const kb = await makeKb();
  const config = join(kb.config, "git-kb", "config.json");
  await Deno.mkdir(join(kb.config, "git-kb"), { recursive: true });
  await Deno.writeTextFile(config, JSON.stringify({ kbDir: kb.dir }) + "\n");
  const { KB_DIR: _unset, ...env } = kb.env;
  return { kb, env, config, [Symbol.asyncDispose]: kb.cleanup };
}

Deno.test("selftest passes every step and leaves the user's setup alone", async () => {
  await using sandbox = await user();
  const { kb, env, config } = sandbox;
  const head = await git(kb.dir, "rev-parse", "HEAD");
  const configText = await Deno.readTextFile(config);
  const result = await runCli(["selftest", "--json"], { env });
  const report = parseJson<SelftestJson>(result);
  assertEquals(result.code, 0, show(result));
  assert(report.ok, show(result));
  assertEquals(
    [...new Set(report.steps.map((item) => item.group))],
    ["setup", "writer", "reader", "verify", "teardown", "isolation"],
  );
  assertEquals(report.steps.filter((item) => item.group === "writer").length, 3);
  assertEquals(report.steps.filter((item) => item.group === "reader").length, 6);
  assertMatch(stepOf(report, "add a bookmark").detail, /NO_REMOTE/);
  assertMatch(stepOf(report, "your setup untouched").detail, new RegExp(kb.dir));
  assert(report.scratch?.startsWith(join(kb.tmp, "git-kb")), report.scratch ?? "");
  assertEquals(await exists(report.scratch!), false, "the scratch folder is removed");
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head);
  assertEquals(await git(kb.dir, "status", "--porcelain", "--untracked-files=all"), "");
  assertEquals(await Deno.readTextFile(config), configText);

  const text = await runCli(["selftest"], { env });
  assertEquals(text.code, 0, show(text));
  assertMatch(text.stdout, /^writer +ok +add a decision +kb-[0-9a-z]{5} committed/m);
  assertMatch(text.stdout, /17 of 17 steps passed\./);
});

Deno.test("a git refusing one commit: that step fails with git's reason, teardown still runs", async () => {
  await using sandbox = await user();
  const { kb, env } = sandbox;
  const fakes = join(kb.root, "fakes");
  await Deno.mkdir(fakes);
  const realGit = (await new Deno.Command("sh", { args: ["-c", "command -v git"] }).output())
    .stdout;
  await Deno.writeTextFile(
    join(fakes, "git"),
    `#!/bin/sh
for arg in "$@"; do
  case "$arg" in *"Deno permissions manual"*)
    echo "fatal: cannot write the commit object (sabotaged by the test)" >&2; exit 128 ;;
  esac
done
exec ${new TextDecoder().decode(realGit).trim()} "$@"
`,
    { mode: 0o755 },
  );
  const result = await runCli(["selftest", "--json"], {
    env: { ...env, PATH: `${fakes}:${Deno.env.get("PATH")}` },
  });
  assertEquals(result.code, 1, show(result));
  const report = parseJson<SelftestJson>(result);
  assertEquals(report.ok, false);
  const bookmark = stepOf(report, "add a bookmark");
  assertEquals(bookmark.ok, false);
  assertMatch(bookmark.detail, /^exit 1: .*sabotaged by the test/);
  assert(stepOf(report, "add a decision").ok, "the step before still passed");
  assert(stepOf(report, "edit kb-st003").ok, "the writer went on");
  const history = stepOf(report, "git log: seed, add, add, edit");
  assertEquals(history.ok, false);
  assertMatch(history.detail, /Deno permissions manual/);
  assertEquals(stepOf(report, "entry files as asked").ok, false);
  assert(stepOf(report, "remove scratch folder").ok);
  assertEquals(await exists(report.scratch!), false);
  assert(stepOf(report, "your setup untouched").ok);
});

Deno.test("a TMPDIR that is a file: setup fails saying what to do, nothing else runs", async () => {
  await using sandbox = await user();
  const { kb, env } = sandbox;
  const file = join(kb.root, "not-a-folder");
  await Deno.writeTextFile(file, "");
  const result = await runCli(["selftest", "--json"], { env: { ...env, TMPDIR: file } });
  assertEquals(result.code, 1, show(result));
  const report = parseJson<SelftestJson>(result);
  assertEquals(report.steps.map((item) => [item.group, item.ok]), [
    ["setup", false],
    ["isolation", true],
  ]);
  assertMatch(report.steps[0].detail, /point XDG_CACHE_HOME at a writable folder/);
  assertEquals(report.scratch, null);
});

Deno.test("--setup-only, then the writer's tasks by hand, --verify and --teardown", async () => {
  await using sandbox = await user();
  const { kb, env } = sandbox;
  const setup = await runCli(["selftest", "--setup-only", "--json"], { env });
  assertEquals(setup.code, 0, show(setup));
  const { scratch, kbDir, tasks } = parseJson<
    { scratch: string; kbDir: string; tasks: { role: string; task: string }[] }
  >(setup);
  assertEquals(tasks.map((task) => task.role), [
    "writer",
    "writer",
    "writer",
    "reader",
    "reader",
    "reader",
    "reader",
    "reader",
  ]);
  assertMatch(tasks[0].task, /^Save a decision titled "Use Deno for command line tools"/);

  const early = await runCli(["selftest", "--verify", scratch, "--json"], { env });
  assertEquals(early.code, 1, "nothing done yet");
  const history = stepOf(parseJson<SelftestJson>(early), "git log: seed, add, add, edit");
  assertMatch(history.detail, /found: nothing/);

  // What an agent following the skill's docs would run, naming the scratch knowledge base.
  const steps = [
    [
      "add",
      "--title",
      "Use Deno for command line tools",
      "--type",
      "decision",
      "--tag",
      "deno,cli",
    ],
    ["add", "--title", "Deno permissions manual", "--type", "bookmark", "--tag", "deno,security"],
    ["edit", "kb-st003", "--add-tag", "merge-queue"],
  ];
  const bodies = [
    "Deno runs TypeScript as it is and grants each permission by a flag.",
    "Every --allow flag and what it grants, with examples.",
    "One commit per pull request keeps main bisectable. The merge queue squashes as well.",
  ];
  const source = ["--source", "https://docs.deno.com/runtime/fundamentals/security/"];
  for (const [index, args] of steps.entries()) {
    const extra = index === 1 ? source : [];
    const saved = await runCli([...args, ...extra, "--body", bodies[index], "--kb", kbDir], {
      env,
    });
    assertEquals(saved.code, 0, show(saved));
  }
  const verified = await runCli(["selftest", "--verify", scratch], { env });
  assertEquals(verified.code, 0, show(verified));
  assertMatch(verified.stdout, /5 of 5 steps passed\./);

  const teardown = await runCli(["selftest", "--teardown", scratch, "--json"], { env });
  assertEquals(teardown.code, 0, show(teardown));
  assertEquals(await exists(scratch), false);
  const again = await runCli(["selftest", "--teardown", scratch], { env });
  assertEquals(again.code, 1, show(again));
  assertMatch(again.stderr, /is not a selftest scratch folder \(there is no such folder: /);
  const notOurs = await runCli(["selftest", "--teardown", kb.dir], { env });
  assertEquals(notOurs.code, 1, show(notOurs));
  assert(await exists(join(kb.dir, "entries")), "a folder that is not a scratch stays");
});

Deno.test("usage errors exit 2", async () => {
  await using sandbox = await user();
  const { env } = sandbox;
  for (
    const args of [
      ["selftest", "--setup-only", "--verify", "x"],
      ["selftest", "--keep", "--teardown", "x"],
      ["selftest", "extra"],
    ]
  ) {
    const result = await runCli(args, { env });
    assertEquals(result.code, 2, `${args.join(" ")}\n${show(result)}`);
  }
});

Deno.test("snapshotChanges names each difference in the user's setup", () => {
  const before: UserSnapshot = {
    configs: [{ file: "/c/config.json", text: "{}" }, { file: "/d/config.json", text: null }],
    kb: { dir: "/kb", head: "abc", status: "" },
  };
  assertEquals(snapshotChanges(before, before), []);
  assertEquals(
    snapshotChanges(before, {
      configs: [{ file: "/c/config.json", text: "{}" }, { file: "/d/config.json", text: "{}" }],
      kb: { dir: "/kb", head: "def", status: " M entries/x.md\n" },
    }),
    [
      "config file /d/config.json changed",
      "/kb HEAD moved from abc to def",
      "/kb: git status changed",
    ],
  );
  assertEquals(snapshotChanges(before, { configs: before.configs }), [
    "the knowledge base in use changed from /kb to none",
  ]);
});
