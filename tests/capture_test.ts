/**
 * The capture of sessions into proposals, end to end with real processes: the SessionEnd and
 * PreCompact hook run as Claude Code runs it (`app/launch.ts hook capture` with the hook's own
 * least-privilege flags), the detached worker it starts, a fake `claude`, a real git knowledge
 * base and its proposals branch. What each test waits for is the worker's debug record.
 */
import { assert, assertEquals, assertMatch, assertStrictEquals } from "@std/assert";
import { join } from "@std/path/posix/join";
import { hookFlags } from "../app/permissions.ts";
import {
  cacheRootOf,
  git,
  makeKb,
  ROOT,
  runCli,
  runDeno,
  runHook,
  type RunResult,
  show,
  tempDir,
} from "./helpers.ts";
import { runProcess } from "../io/process.ts";
import { fakeClaude, recordedCalls } from "./judge_helpers.ts";
import { PROPOSALS_BRANCH } from "../core/proposals/branch.ts";

const LAUNCH = join(ROOT, "app", "launch.ts");
const FIXTURES = join(ROOT, "fixtures", "capture");

/** The credential planted in the fix session's transcript. */
const PLANTED_TOKEN = "npm_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8";

/** A candidate as the fake model proposes it. */
const CANDIDATE = {
  title: "Playwright on a fresh CI image: install the browsers before the tests",
  type: "howto",
  tags: ["playwright", "ci", "e2e"],
  body: "Symptom: `browserType.launch: Executable doesn't exist at …/ms-playwright/…`.\n\n" +
    "Fix: `npx playwright install --with-deps chromium`, then rerun `npx playwright test`.",
  lines: [3, 10],
};

/** The fake model's stdout: `candidates` in Claude Code's JSON envelope. */
function reply(candidates: unknown[]): string {
  return JSON.stringify({
    type: "result",
    is_error: false,
    result: JSON.stringify({ candidates }),
  });
}

/** A knowledge base, a transcript, and the environment of a capture hook run. */
async function captureKb(transcriptFixture = "fix-session.jsonl") {
  const kb = await makeKb();
  const transcript = join(kb.root, "transcript.jsonl");
  await Deno.copyFile(join(FIXTURES, transcriptFixture), transcript);
  const record = join(kb.root, "calls");
  const env: Record<string, string> = {
    ...kb.env,
    KB_HOOK_DEBUG: "1",
    KB_DENO: Deno.execPath(),
    KB_PROSE_LINT_CLAUDE: fakeClaude("scripted"),
    FAKE_CLAUDE_RECORD: record,
    FAKE_REPLY: reply([CANDIDATE]),
    GIT_KB_CAPTURE_TIMEOUT_MS: "10000",
  };
  return { kb, transcript, env, calls: () => recordedCalls(record) };
}

/** A SessionEnd (or PreCompact) payload for `transcript`. */
function payload(transcript: string, event = "SessionEnd", session = "s-fix"): string {
  return JSON.stringify({
    session_id: session,
    transcript_path: transcript,
    cwd: "/home/dev/app",
    hook_event_name: event,
    reason: "prompt_input_exit",
  });
}

/** Run the capture hook as Claude Code would; with its wall time. */
async function runCapture(
  stdin: string,
  env: Record<string, string>,
): Promise<RunResult & { ms: number }> {
  const flags = hookFlags("capture", cacheRootOf(env), { deno: env.KB_DENO });
  const started = performance.now();
  const result = await runDeno(["run", ...flags, LAUNCH, "hook", "capture"], {
    env,
    cwd: env.TMPDIR,
    stdin,
  });
  return { ...result, ms: performance.now() - started };
}

/** The capture records of the knowledge base's debug log. */
async function captureRecords(tmp: string): Promise<Record<string, unknown>[]> {
  const records: Record<string, unknown>[] = [];
  const logs = [join(tmp, "git-kb", "debug.jsonl")];
  for await (const dir of Deno.readDir(join(tmp, "git-kb"))) {
    if (dir.isDirectory) logs.push(join(tmp, "git-kb", dir.name, "debug.jsonl"));
  }
  for (const log of logs) {
    let text = "";
    try {
      text = await Deno.readTextFile(log);
    } catch { /* none here */ }
    for (const line of text.split("\n").filter(Boolean)) {
      const record = JSON.parse(line);
      if (record.event === "capture") records.push(record);
    }
  }
  return records;
}

/** The worker's records, once `count` of them are there (at most `ms` of waiting). */
async function workerRecords(tmp: string, count = 1, ms = 30_000) {
  const until = Date.now() + ms;
  for (;;) {
    const found = (await captureRecords(tmp)).filter((record) => record.stage === "worker");
    if (found.length >= count || Date.now() > until) return found;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The hook finished as a hook must: exit 0, nothing printed. */
function assertSilent(result: RunResult): void {
  assertEquals(result.code, 0, show(result));
  assertEquals(result.stdout, "", show(result));
  assertEquals(result.stderr, "", show(result));
}

/** The entry files the proposals branch adds or changes against main, with their text. */
async function proposedFiles(kbDir: string): Promise<Map<string, string>> {
  const names = (await git(kbDir, "diff", "--name-only", `main...${PROPOSALS_BRANCH}`)).trim();
  const files = new Map<string, string>();
  for (const name of names.split("\n").filter(Boolean)) {
    files.set(name, await git(kbDir, "show", `${PROPOSALS_BRANCH}:${name}`));
  }
  return files;
}

Deno.test("a session that fixed something yields a proposal; the model saw a masked excerpt", async () => {
  const { kb, transcript, env, calls } = await captureKb();
  await using _ = kb;
  const hook = await runCapture(payload(transcript), env);
  assertSilent(hook);
  const [worker] = await workerRecords(kb.tmp);
  assertStrictEquals(worker?.outcome, "proposed", JSON.stringify(worker));
  const made = await calls();
  assertEquals(made.length, 1);
  assertMatch(made[0].stdin, /L4 user Bash FAILED: Exit code 1\nError: browserType.launch/);
  assert(!made[0].stdin.includes(PLANTED_TOKEN), "the planted token left the machine");
  assertEquals(made[0].env.GIT_KB_CAPTURING, "1");
  assert(made[0].argv.includes("--no-session-persistence"));
  const files = await proposedFiles(kb.dir);
  assertEquals(files.size, 1, [...files.keys()].join(", "));
  const [text] = files.values();
  assertMatch(text, /^title: ['"]?Playwright on a fresh CI image: install the browsers/m);
  assertMatch(text, /npx playwright install --with-deps chromium/);
  // Nothing reached the checked-out branch or the work tree.
  assertEquals((await git(kb.dir, "status", "--porcelain")).trim(), "");
  const log = await git(kb.dir, "log", "-1", "--format=%B", PROPOSALS_BRANCH);
  assertMatch(log, /Git-Kb-Source: session s-fix transcript lines 3-10/);
});

Deno.test("the worker writes its proposal running no program the knowledge base's git config or hooks name", async () => {
  const { kb, transcript, env } = await captureKb();
  await using _ = kb;
  const ran = join(kb.root, "ran");
  await Deno.mkdir(ran);
  await git(kb.dir, "config", "core.fsmonitor", `touch '${join(ran, "fsmonitor")}'`);
  const hooks = join(kb.dir, ".git", "hooks");
  await Deno.mkdir(hooks, { recursive: true });
  for (const hook of ["reference-transaction", "post-index-change"]) {
    const script = `#!/bin/sh\ntouch '${join(ran, hook)}'\n`;
    await Deno.writeTextFile(join(hooks, hook), script, { mode: 0o755 });
  }
  assertSilent(await runCapture(payload(transcript), env));
  const [worker] = await workerRecords(kb.tmp);
  assertStrictEquals(worker?.outcome, "proposed", JSON.stringify(worker));
  assertEquals((await proposedFiles(kb.dir)).size, 1);
  assertEquals(await Array.fromAsync(Deno.readDir(ran), (item) => item.name), []);
});

Deno.test("an empty or chat-only session makes no model call and starts no worker", async () => {
  for (const fixture of ["chat-session.jsonl", "empty"]) {
    const { kb, transcript, env, calls } = await captureKb("chat-session.jsonl");
    await using _ = kb;
    if (fixture === "empty") await Deno.writeTextFile(transcript, "");
    assertSilent(await runCapture(payload(transcript), env));
    const records = await captureRecords(kb.tmp);
    assertEquals(records.map((record) => [record.stage, record.outcome, record.reason]), [
      ["hook", "skipped", "nothing learned: no failure that was then fixed"],
    ]);
    await new Promise((resolve) => setTimeout(resolve, 500));
    assertEquals((await calls()).length, 0);
  }
});

Deno.test("a candidate that duplicates an entry becomes a proposed edit of it", async () => {
  const { kb, transcript, env } = await captureKb();
  await using _ = kb;
  env.FAKE_REPLY = reply([{
    ...CANDIDATE,
    title: "Add an index concurrently in Postgres without locking writes",
    tags: ["postgres", "performance", "indexes", "migrations"],
    body: "`CREATE INDEX CONCURRENTLY` cannot run inside a transaction block: run it in a " +
      "migration of its own, outside the migration tool's transaction.",
  }]);
  assertSilent(await runCapture(payload(transcript), env));
  const [worker] = await workerRecords(kb.tmp);
  assertEquals(worker?.candidates, ["edit kb-m2c7v"], JSON.stringify(worker));
  const files = await proposedFiles(kb.dir);
  const path = "entries/kb-m2c7v-add-an-index-concurrently-in-postgres.md";
  assertEquals([...files.keys()], [path]);
  const before = await Deno.readTextFile(join(kb.dir, path));
  const after = files.get(path)!;
  const ownBody = before.slice(before.indexOf("\n---\n") + 5).trimEnd();
  assert(after.includes(ownBody), "the entry's own body is kept as it was");
  assertMatch(after, /## Seen again in a session \(\d{4}-\d{2}-\d{2}\)\n\n`CREATE INDEX/);
});

Deno.test("a candidate holding a credential is refused before it leaves the process", async () => {
  const { kb, transcript, env } = await captureKb();
  await using _ = kb;
  const token = "ghp_" + "Z9y8X7w6V5u4T3s2R1q0P9o8N7m6L5k4J3i2";
  env.FAKE_REPLY = reply([
    { ...CANDIDATE, body: `Export GITHUB_TOKEN=${token} before the migration.` },
    { ...CANDIDATE, title: `Use ${token} for the release` },
  ]);
  assertSilent(await runCapture(payload(transcript), env));
  const [worker] = await workerRecords(kb.tmp);
  assertStrictEquals(worker?.reason, "0 proposal(s) written");
  assertMatch(String(worker?.candidates), /holds a credential \(a GitHub token\) in body/);
  assertMatch(String(worker?.candidates), /holds a credential \(a GitHub token\) in title/);
  assert(!JSON.stringify(worker).includes(token));
  assertEquals(
    (await git(kb.dir, "branch", "--list", PROPOSALS_BRANCH)).trim(),
    "",
    "no proposals branch was written",
  );
});

Deno.test("the kill switch: GIT_KB_CAPTURE=off or the config's capture: false, no call", async () => {
  for (const how of ["env", "config"]) {
    const { kb, transcript, env, calls } = await captureKb();
    await using _ = kb;
    if (how === "env") env.GIT_KB_CAPTURE = "off";
    else {
      await Deno.mkdir(join(kb.config, "git-kb"), { recursive: true });
      await Deno.writeTextFile(join(kb.config, "git-kb", "config.json"), '{"capture": false}');
    }
    assertSilent(await runCapture(payload(transcript), env));
    const records = await captureRecords(kb.tmp);
    assertMatch(
      String(records[0]?.reason),
      /^capture is off/,
      `${how}: ${JSON.stringify(records)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    assertEquals((await calls()).length, 0, how);
  }
});

Deno.test("the budget: one call per part of a session, at most three candidates", async () => {
  const { kb, transcript, env, calls } = await captureKb();
  await using _ = kb;
  env.FAKE_REPLY = reply(Array.from({ length: 5 }, (_, index) => ({
    ...CANDIDATE,
    title: `Lesson number ${index} about Zeta widgets ${index}`,
    tags: [`zeta${index}`],
  })));
  assertSilent(await runCapture(payload(transcript, "PreCompact"), env));
  const [first] = await workerRecords(kb.tmp);
  assertStrictEquals(first?.reason, "3 proposal(s) written", JSON.stringify(first));
  assertEquals((await proposedFiles(kb.dir)).size, 3);
  // The session ends with nothing new since the compaction: no second call.
  assertSilent(await runCapture(payload(transcript, "SessionEnd"), env));
  const hookRecords = (await captureRecords(kb.tmp)).filter((record) => record.stage === "hook");
  assertStrictEquals(hookRecords.at(-1)?.reason, "nothing learned: no failure that was then fixed");
  // New work after it, with a fix of its own, is read on its own: one more call.
  await Deno.writeTextFile(
    transcript,
    await Deno.readTextFile(join(FIXTURES, "fix-session.jsonl")),
    {
      append: true,
    },
  );
  assertSilent(await runCapture(payload(transcript, "SessionEnd"), env));
  const workers = await workerRecords(kb.tmp, 2);
  assertEquals(workers.length, 2);
  assertEquals(workers[1].lines, [11, 20], JSON.stringify(workers[1]));
  assertEquals((await calls()).length, 2);
});

Deno.test("a hanging or garbage-printing model is stopped in bounded time; the hook returns at once", async () => {
  const { kb, transcript, env } = await captureKb();
  await using _ = kb;
  env.KB_PROSE_LINT_CLAUDE = fakeClaude("sleep");
  env.GIT_KB_CAPTURE_TIMEOUT_MS = "1000";
  const hook = await runCapture(payload(transcript), env);
  assertSilent(hook);
  assert(hook.ms < 5_000, `the hook took ${hook.ms} ms while the model hung`);
  const [hung] = await workerRecords(kb.tmp);
  assertStrictEquals(hung?.outcome, "error");
  assertMatch(
    String(hung?.reason),
    /did not answer within 1000 ms; raise GIT_KB_CAPTURE_TIMEOUT_MS/,
  );
  assert(Number(hung?.ms) < 6_000, `the worker took ${hung?.ms} ms`);

  const garbage = await captureKb();
  await using __ = garbage.kb;
  garbage.env.KB_PROSE_LINT_CLAUDE = fakeClaude("garbage");
  assertSilent(await runCapture(payload(garbage.transcript), garbage.env));
  const [bad] = await workerRecords(garbage.kb.tmp);
  assertMatch(String(bad?.reason), /reply holds no candidates: The text reads well/);
});

Deno.test("bad input: the hook stays silent and exits 0", async () => {
  const { kb, transcript, env, calls } = await captureKb();
  await using _ = kb;
  const fifo = join(kb.root, "fifo");
  await new Deno.Command("mkfifo", { args: [fifo] }).output();
  const inputs = [
    "",
    "{not json",
    "[1]",
    JSON.stringify({ hook_event_name: "SessionEnd" }),
    payload(join(kb.root, "missing.jsonl")),
    payload(kb.root),
    payload(fifo),
    payload(transcript, "UserPromptSubmit"),
  ];
  for (const input of inputs) {
    const result = await runCapture(input, env);
    assertSilent(result);
    assert(result.ms < 5_000, `${input}: ${result.ms} ms`);
  }
  assertEquals((await calls()).length, 0);
});

/** Whether the next prompt about the captured fix points at it. */
async function nextPromptFinds(kb: { env: Record<string, string> }): Promise<boolean> {
  const prompt = JSON.stringify({
    session_id: "s-next",
    hook_event_name: "UserPromptSubmit",
    prompt: "the playwright tests fail on the CI image, how do I install the browsers",
  });
  const result = await runHook(prompt, { env: kb.env });
  assertEquals(result.code, 0, show(result));
  return result.stdout.includes("Playwright on a fresh CI image: install the browsers");
}

Deno.test("a captured proposal reaches no prompt until accepted; accepted, the next prompt finds it", async () => {
  for (const accept of ["git-kb review accept", "a plain git merge of the branch"]) {
    const { kb, transcript, env } = await captureKb();
    await using _ = kb;
    assertSilent(await runCapture(payload(transcript), env));
    await workerRecords(kb.tmp);
    assertEquals(await nextPromptFinds(kb), false, "pending, it reaches no prompt");
    if (accept.startsWith("git-kb")) {
      const result = await runCli(["review", "accept", "--all"], { env: kb.env });
      assertEquals(result.code, 0, show(result));
    } else await git(kb.dir, "merge", "--quiet", "--no-edit", PROPOSALS_BRANCH);
    assertEquals(await nextPromptFinds(kb), true, accept);
  }
});

Deno.test("a rejected capture is not proposed again by a later session", async () => {
  const { kb, transcript, env } = await captureKb();
  await using _ = kb;
  assertSilent(await runCapture(payload(transcript), env));
  await workerRecords(kb.tmp);
  const rejected = await runCli(["review", "reject", "--all", "--why", "not worth keeping"], {
    env: kb.env,
  });
  assertEquals(rejected.code, 0, show(rejected));
  assertSilent(await runCapture(payload(transcript, "SessionEnd", "s-later"), env));
  const [, later] = await workerRecords(kb.tmp, 2);
  assertMatch(String(later?.candidates), /refused new kb-\w+: the same proposal was rejected/);
  assertStrictEquals(later?.reason, "0 proposal(s) written");
});

Deno.test("a transcript swapped for a FIFO after a look at it is not waited on", async () => {
  await using temp = await tempDir("git-kb-transcript-");
  const transcript = join(temp.path, "transcript.jsonl");
  await Deno.writeTextFile(transcript, '{"type":"user"}\n');
  // In a child, the first look at the transcript (a stat, by any of Deno's calls) swaps it for a
  // FIFO once it has looked: the race a same-machine writer would have to win, made certain. An
  // open that waits for a writer to the FIFO would never return; a read that looks at nothing
  // before its open reads the file.
  const child = [
    `import { readTranscriptTail } from ${
      JSON.stringify(join(ROOT, "io/capture/transcript_file.ts"))
    };`,
    `const file = ${JSON.stringify(transcript)};`,
    "let swapped = false;",
    "const swap = () => {",
    "  if (swapped) return;",
    "  swapped = true;",
    "  Deno.removeSync(file);",
    "  if (!new Deno.Command('mkfifo', { args: [file] }).outputSync().success) throw 'mkfifo';",
    "};",
    "for (const name of ['stat', 'lstat', 'statSync', 'lstatSync'] as const) {",
    "  const look = Deno[name] as (at: string | URL) => unknown;",
    "  Object.assign(Deno, { [name](at: string | URL) {",
    "    const seen = look(at);",
    "    if (String(at) !== file) return seen;",
    "    return seen instanceof Promise ? seen.then((info) => (swap(), info)) : (swap(), seen);",
    "  } });",
    "}",
    "try {",
    "  console.log(JSON.stringify((await readTranscriptTail(file, 1024)).text));",
    "} catch (error) {",
    "  console.log(error.message);",
    "}",
    "console.log(swapped ? 'swapped' : 'not looked at');",
  ].join("\n");
  const read = await runProcess(Deno.execPath(), ["eval", child], { timeoutMs: 20_000 });
  assertEquals(read.code, 0, show(read));
  const [outcome, swap] = read.stdout.trim().split("\n");
  if (swap === "swapped") {
    assertEquals(outcome, `the transcript ${transcript} is not a regular file`);
  } else assertEquals(outcome, JSON.stringify('{"type":"user"}\n'), show(read));
});
