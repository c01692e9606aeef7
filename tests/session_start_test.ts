/**
 * The SessionStart hooks as Claude Code runs them: `git-kb hook session` (startup, resume) and
 * `git-kb hook compact`, each a subprocess through the launcher's entry point with its own
 * permission profile, on a real knowledge base with a bare remote and a second clone pushing to
 * it. The pull fast-forwards a clean branch that is behind and leaves every other state alone
 * (with a debug record saying why); a slow remote is a fake `git` on PATH whose fetch never ends
 * and leaves a transport-like child behind, which the hook's bound and SIGTERM both stop.
 */
import { assert, assertEquals, assertMatch, assertNotMatch, assertStrictEquals } from "@std/assert";
import { join } from "@std/path/posix/join";
import { hookFlags } from "../app/permissions.ts";
import { shellCommand, shellQuote } from "../core/shell/quote.ts";
import { PULL_FETCH_TIMEOUT_MS } from "../io/hook/session_pull.ts";
import { runProcess } from "../io/process.ts";
import { withLock } from "../io/save/lock.ts";
import { saveLockPath } from "../io/save/repo_state.ts";
import { assertGone, cramped, slowGit } from "./slow_git.ts";
import {
  cacheRootOf,
  childEnv,
  cloneRemote,
  denoDir,
  entryText,
  git,
  type Kb,
  MAIN,
  makeKb,
  pushAttributes,
  pushEntryFrom,
  ROOT,
  runDeno,
  runHook,
  type RunResult,
  snapshot,
  STACK_FRAME,
} from "./helpers.ts";

const LAUNCH = join(ROOT, "app", "launch.ts");

/** A SessionStart payload as Claude Code 2.1.197 sends it. */
function payload(source: string, session = "s-1"): string {
  return JSON.stringify({
    session_id: session,
    transcript_path: "/dev/null",
    cwd: "/tmp",
    hook_event_name: "SessionStart",
    source,
  });
}

/** Run `git-kb hook <verb>` with its profile's permissions and the debug log on. */
function runSessionHook(
  kb: Kb,
  verb: "session" | "compact",
  stdin: string | Uint8Array,
  env: Record<string, string> = {},
): Promise<RunResult> {
  const all = { ...kb.env, KB_HOOK_DEBUG: "1", ...env };
  return runDeno(["run", ...hookFlags(verb, cacheRootOf(all)), LAUNCH, "hook", verb], {
    env: all,
    stdin,
    cwd: kb.tmp,
  });
}

/** The debug records of the session hooks, from the knowledge base's cache. */
async function sessionRecords(kb: Kb): Promise<Record<string, unknown>[]> {
  const found: Record<string, unknown>[] = [];
  for await (const path of walk(cacheRootOf(kb.env))) {
    if (!path.endsWith("debug.jsonl")) continue;
    const lines = (await Deno.readTextFile(path)).split("\n").filter(Boolean);
    found.push(...lines.map((line) => JSON.parse(line)));
  }
  return found.filter((record) => record.event === "session-start");
}

async function* walk(dir: string): AsyncGenerator<string> {
  try {
    for await (const item of Deno.readDir(dir)) {
      const path = join(dir, item.name);
      if (item.isDirectory) yield* walk(path);
      else yield path;
    }
  } catch { /* no cache yet */ }
}

/** Exit 0, nothing on stdout or stderr: what every pull run must give. */
function assertSilent(result: RunResult): void {
  const shown = `exit ${result.code}\n${result.stdout}\n${result.stderr}`;
  assertEquals(result.code, 0, shown);
  assertEquals(result.stdout, "", shown);
  assertEquals(result.stderr, "", shown);
}

/** A knowledge base with a remote, and a second clone one new entry ahead of it on the remote. */
async function behindByOne(): Promise<{ kb: Kb; other: string }> {
  const kb = await makeKb({ remote: true });
  const other = await cloneRemote(kb);
  await pushEntryFrom(other, "kb-syn7q", "Quokka feeding schedule for the zoo team");
  return { kb, other };
}

Deno.test("startup, behind and clean: fast-forwarded, and the next prompt surfaces the new entry", async () => {
  const { kb, other } = await behindByOne();
  await using _kb = kb;
  const before = await git(kb.dir, "rev-parse", "HEAD");
  assertSilent(await runSessionHook(kb, "session", payload("startup")));
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), await git(other, "rev-parse", "HEAD"));
  assertEquals(await git(kb.dir, "rev-list", "--merges", "--count", `${before}..HEAD`), "0");
  const [record] = await sessionRecords(kb);
  assertEquals(record.outcome, "fast-forwarded");
  assertEquals(record.behind, 1);
  assertEquals(record.from, before);
  assertEquals(record.source, "startup");

  const prompt = await runHook(
    JSON.stringify({ session_id: "s-1", prompt: "what is the quokka feeding schedule?" }),
    { env: kb.env },
  );
  assertEquals(prompt.code, 0, prompt.stderr);
  assertMatch(prompt.stdout, /kb-syn7q Quokka feeding schedule/);
});

Deno.test("startup fast-forwards an entry a teammate's .gitattributes asks for as UTF-16 as committed, and the next prompt surfaces it", async () => {
  await using kb = await makeKb({ remote: true });
  const other = await cloneRemote(kb);
  const path = "entries/kb-syn7q-quokka-feeding-schedule-for-the-zoo-team.md";
  const text = entryText({
    id: "kb-syn7q",
    title: "Quokka feeding schedule",
    body: "Twice a day.\n",
  });
  await Deno.writeTextFile(join(other, path), text);
  await git(other, "add", "--", path);
  await pushAttributes(other, "entries/** working-tree-encoding=UTF-16\n");

  assertSilent(await runSessionHook(kb, "session", payload("startup")));
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), await git(other, "rev-parse", "HEAD"));
  assertEquals(await Deno.readTextFile(join(kb.dir, path)), text);
  const prompt = await runHook(
    JSON.stringify({ session_id: "s-1", prompt: "what is the quokka feeding schedule?" }),
    { env: kb.env },
  );
  assertEquals(prompt.code, 0, prompt.stderr);
  assertMatch(prompt.stdout, /kb-syn7q Quokka feeding schedule/);
});

Deno.test("startup's pull runs no program the knowledge base's git config or hooks name", async () => {
  const { kb, other } = await behindByOne();
  await using _kb = kb;
  // What anyone who can write the clone's .git (an agent editing the folder it works in) could
  // leave there: core.fsmonitor runs for status, hooks for a merge and for every ref it moves.
  const ran = join(kb.tmp, "ran");
  await Deno.mkdir(ran);
  await git(kb.dir, "config", "core.fsmonitor", `touch ${shellQuote(join(ran, "fsmonitor"))}`);
  const hooks = join(kb.dir, ".git", "hooks");
  await Deno.mkdir(hooks, { recursive: true });
  for (
    const hook of ["post-merge", "post-checkout", "reference-transaction", "post-index-change"]
  ) {
    const script = `#!/bin/sh\ntouch ${shellQuote(join(ran, hook))}\n`;
    await Deno.writeTextFile(join(hooks, hook), script, { mode: 0o755 });
  }
  assertSilent(await runSessionHook(kb, "session", payload("startup")));
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), await git(other, "rev-parse", "HEAD"));
  assertEquals((await sessionRecords(kb))[0].outcome, "fast-forwarded");
  assertEquals(await Array.fromAsync(Deno.readDir(ran), (item) => item.name), []);
});

Deno.test("resume pulls too; a clear does nothing", async () => {
  const { kb, other } = await behindByOne();
  await using _kb = kb;
  const before = await git(kb.dir, "rev-parse", "HEAD");
  assertSilent(await runSessionHook(kb, "session", payload("clear")));
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), before);
  assertSilent(await runSessionHook(kb, "session", payload("resume")));
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), await git(other, "rev-parse", "HEAD"));
});

/** Run the pull on `kb` in `state`; assert it changed nothing and left a record; return it. */
async function assertLeftAlone(kb: Kb, env: Record<string, string> = {}) {
  const head = await git(kb.dir, "rev-parse", "HEAD");
  const files = await snapshot(kb.dir, [".git"]);
  assertSilent(await runSessionHook(kb, "session", payload("startup"), env));
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head);
  assertEquals(await snapshot(kb.dir, [".git"]), files);
  const records = await sessionRecords(kb);
  assertEquals(records.length, 1, JSON.stringify(records));
  return records[0];
}

Deno.test("a dirty tree is left alone, even with the remote ahead", async () => {
  const { kb } = await behindByOne();
  await using _kb = kb;
  const path = join(kb.dir, "entries", [...Deno.readDirSync(join(kb.dir, "entries"))][0].name);
  await Deno.writeTextFile(path, "\nunsaved words\n", { append: true });
  const record = await assertLeftAlone(kb);
  assertEquals(record.outcome, "skipped");
  assertEquals(record.reason, "dirty");
});

for (const path of ["entries/kb-1gn0r-plain.md", "entries/kb-2gn0r-a note é.md"]) {
  Deno.test(`an ignored file where the upstream has ${path} is left alone, byte for byte, and named; the recorded commands finish`, async () => {
    await using kb = await makeKb({ remote: true });
    const other = await cloneRemote(kb);
    const id = path.slice("entries/".length, "entries/kb-xxxxx".length);
    await Deno.writeTextFile(join(other, path), entryText({ id, title: "Theirs", body: "x\n" }));
    await git(other, "add", "--", path);
    await git(other, "commit", "--quiet", "-m", `kb: add ${id}`);
    await git(other, "push", "--quiet", "origin", "HEAD:main");
    await Deno.writeTextFile(join(kb.dir, ".git", "info", "exclude"), "entries/kb-*gn0r-*\n");
    const mine = new TextEncoder().encode("My own draft: café\r\nno final newline");
    await Deno.writeFile(join(kb.dir, path), mine);
    const env = { KB_CLI: `deno run -A ${shellQuote(MAIN)}` };

    const record = await assertLeftAlone(kb, env);
    assertEquals(await Deno.readFile(join(kb.dir, path)), mine);
    assertEquals(record.outcome, "skipped");
    assertEquals(record.reason, "ignored-in-the-way");
    assertMatch(String(record.detail), /^origin has a file at entries\/kb-[12]gn0r-/);
    assert(String(record.detail).includes(`${path} (ignored by .git/info/exclude:1:`));
    const commands = record.commands as string[];
    assertEquals(
      commands[0],
      shellCommand(["mv", "--", join(kb.dir, path), join(kb.dir, `${path}.mine`)]),
    );
    for (const command of commands) {
      const pasted = await runProcess("/bin/sh", ["-c", command], {
        cwd: kb.root,
        env: childEnv({ ...kb.env, ...env }),
      });
      assertEquals(pasted.code, 0, `${command}\n${pasted.stdout}\n${pasted.stderr}`);
    }
    assertEquals(await Deno.readFile(join(kb.dir, `${path}.mine`)), mine);
    assertEquals(await Deno.readFile(join(kb.dir, path)), await Deno.readFile(join(other, path)));
    assertEquals(await git(kb.dir, "rev-parse", "HEAD"), await git(other, "rev-parse", "HEAD"));
  });
}

Deno.test("a diverged branch is left alone: no merge, no rebase", async () => {
  const { kb } = await behindByOne();
  await using _kb = kb;
  const path = "entries/kb-loc4l-a-local-note.md";
  await Deno.writeTextFile(
    join(kb.dir, path),
    entryText({ id: "kb-loc4l", title: "A local note", body: "Not pushed yet.\n" }),
  );
  await git(kb.dir, "add", "--", path);
  await git(kb.dir, "commit", "--quiet", "-m", "kb: add kb-loc4l");
  const record = await assertLeftAlone(kb);
  assertEquals(record.outcome, "diverged");
  assertEquals(record.divergence, { ahead: 1, behind: 1 });
});

Deno.test("a rebase in progress, no remote, a held save lock: each left alone and named", async (t) => {
  await t.step("rebase in progress", async () => {
    const { kb } = await behindByOne();
    await using _kb = kb;
    await Deno.mkdir(join(kb.dir, ".git", "rebase-merge"));
    const record = await assertLeftAlone(kb);
    assertEquals(record.outcome, "skipped");
    assertEquals(record.reason, "rebase");
  });
  await t.step("no remote", async () => {
    await using kb = await makeKb();
    const record = await assertLeftAlone(kb);
    assertEquals(record.reason, "no-remote");
  });
  await t.step("save lock held by a save under way", async () => {
    const { kb } = await behindByOne();
    await using _kb = kb;
    const record = await withLock(await saveLockPath(kb.dir), () => assertLeftAlone(kb));
    assertEquals(record.reason, "save-lock-held");
  });
});

Deno.test("a fast-forward git cannot finish writing (a full disk) leaves no file half-written", async () => {
  const kb = await makeKb({ remote: true });
  await using _kb = kb;
  const other = await cloneRemote(kb);
  const long = "A line of the quokka feeding schedule, kept long on purpose.\n".repeat(200);
  await pushEntryFrom(other, "kb-syn7q", "Quokka feeding schedule for the zoo team", long);
  await pushEntryFrom(other, "kb-syn8q", "Quokka weighing schedule for the zoo team", long);
  const before = await git(kb.dir, "rev-parse", "HEAD");
  const PATH = await cramped(kb.root, "merge");
  assertSilent(await runSessionHook(kb, "session", payload("startup"), { PATH }));
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), before);
  assertEquals(await git(kb.dir, "status", "--porcelain"), "", "nothing half-written is left");
  const [record] = await sessionRecords(kb);
  assertEquals([record.outcome, record.reason], ["failed", "merge-failed"]);
  // With room again, the next session's pull brings it all.
  assertSilent(await runSessionHook(kb, "session", payload("startup", "s-2")));
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), await git(other, "rev-parse", "HEAD"));
});

Deno.test("an unreachable remote: nothing changes, the failure is recorded with git's words", async () => {
  const { kb } = await behindByOne();
  await using _kb = kb;
  await git(kb.dir, "remote", "set-url", "origin", "http://user:hunter2pass@127.0.0.1:9/kb.git");
  const record = await assertLeftAlone(kb);
  assertEquals(record.outcome, "failed");
  assertEquals(record.reason, "fetch-failed");
  assert(typeof record.detail === "string" && record.detail.length > 0);
  assertNotMatch(JSON.stringify(record), /hunter2pass/, "no password reaches the log");
});

Deno.test({
  name: "a slow remote: the hook returns within its fetch bound and leaves no process behind",
  ignore: Deno.build.os === "windows",
  async fn() {
    const { kb } = await behindByOne();
    await using _kb = kb;
    const pids = join(kb.root, "pids");
    const PATH = await slowGit(kb.root, pids);
    const started = Date.now();
    const record = await assertLeftAlone(kb, { PATH });
    const took = Date.now() - started;
    assert(took < PULL_FETCH_TIMEOUT_MS + 5_000, `took ${took} ms`);
    assertEquals(record.outcome, "failed");
    assertEquals(record.reason, "fetch-timeout");
    await assertGone(pids);
  },
});

Deno.test({
  name: "SIGTERM (the session ending) stops a fetch under way with its transport",
  ignore: Deno.build.os === "windows",
  async fn() {
    const { kb } = await behindByOne();
    await using _kb = kb;
    const pids = join(kb.root, "pids");
    const env = childEnv({ ...kb.env, KB_HOOK_DEBUG: "1", PATH: await slowGit(kb.root, pids) });
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", ...hookFlags("session", cacheRootOf(env)), LAUNCH, "hook", "session"],
      cwd: kb.tmp,
      clearEnv: true,
      env: { ...env, DENO_DIR: await denoDir(), DENO_NO_UPDATE_CHECK: "1" },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    const writer = child.stdin.getWriter();
    await writer.write(new TextEncoder().encode(payload("startup")));
    await writer.close();
    for (let tries = 0; tries < 200; tries++) {
      try {
        if ((await Deno.readTextFile(pids)).trim()) break;
      } catch { /* the fetch has not started yet */ }
      await new Promise((done) => setTimeout(done, 50));
    }
    const signalled = Date.now();
    child.kill("SIGTERM");
    const { code, stdout } = await child.output();
    assert(Date.now() - signalled < 2_000, "the hook ends soon after SIGTERM");
    assertEquals(code, 0);
    assertEquals(new TextDecoder().decode(stdout), "");
    await assertGone(pids);
    const [record] = await sessionRecords(kb);
    assertEquals(record.reason, "stopped");
  },
});

Deno.test("compact: the kernel rules come back as SessionStart additionalContext", async () => {
  await using kb = await makeKb();
  const result = await runSessionHook(kb, "compact", payload("compact"));
  assertEquals(result.code, 0, result.stderr);
  const output = JSON.parse(result.stdout);
  assertEquals(Object.keys(output), ["hookSpecificOutput"]);
  assertEquals(output.hookSpecificOutput.hookEventName, "SessionStart");
  const context: string = output.hookSpecificOutput.additionalContext;
  assertMatch(context, /restored after the conversation was compacted/);
  assertMatch(context, /### kb-c0mw8 /);
  assertMatch(context, /### kb-k1rn0 /);
  assert(context.length <= 9_000, `${context.length} characters`);
  const [record] = await sessionRecords(kb);
  assertEquals(record.outcome, "kernel");
});

Deno.test("each verb does its own work only: compact never pulls, session never prints", async () => {
  const { kb } = await behindByOne();
  await using _kb = kb;
  const head = await git(kb.dir, "rev-parse", "HEAD");
  assertSilent(await runSessionHook(kb, "compact", payload("startup")));
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head);
  assertSilent(await runSessionHook(kb, "session", payload("compact")));
});

Deno.test("bad stdin fails open: exit 0, no output, for both verbs", async () => {
  await using kb = await makeKb({ remote: true });
  const inputs = [
    "",
    "not json",
    "[]",
    "null",
    JSON.stringify({ source: 42 }),
    JSON.stringify({ source: "startup", session_id: { nested: true } }),
    new Uint8Array(2 * 1024 * 1024).fill(0x7b),
  ];
  for (const verb of ["session", "compact"] as const) {
    for (const input of inputs) {
      const result = await runSessionHook(kb, verb, input);
      assertEquals(result.code, 0, result.stderr);
      assertEquals(result.stdout, "", `${verb}: ${String(input).slice(0, 40)}`);
      assertNotMatch(result.stderr, STACK_FRAME);
    }
  }
});

Deno.test("no knowledge base configured: nothing printed, a record at the cache root", async () => {
  await using kb = await makeKb();
  const { KB_DIR: _, ...env } = kb.env;
  const result = await runDeno(
    ["run", ...hookFlags("session", cacheRootOf(env)), LAUNCH, "hook", "session"],
    { env: { ...env, KB_HOOK_DEBUG: "1" }, stdin: payload("startup"), cwd: kb.tmp },
  );
  assertSilent(result);
  const records = await sessionRecords(kb);
  assertStrictEquals(records[0]?.outcome, "error", JSON.stringify(records));
});

Deno.test("the first startup with no knowledge base says once how to connect one; later ones, and a configured machine, stay silent", async () => {
  await using kb = await makeKb();
  const { KB_DIR: _, ...env } = kb.env;
  const root = join(kb.root, "plugin root");
  const startup = (more: Record<string, string> = {}) =>
    runDeno(
      ["run", ...hookFlags("compact", cacheRootOf(env)), LAUNCH, "hook", "compact"],
      {
        env: { ...env, CLAUDE_PLUGIN_ROOT: root, ...more },
        stdin: payload("startup"),
        cwd: kb.tmp,
      },
    );
  const first = await startup();
  assertEquals(first.code, 0, first.stderr);
  const said = JSON.parse(first.stdout);
  const init = `'${root}/bin/git-kb' init`;
  assert(said.systemMessage.includes(`\`${init} <clone-url>\``), first.stdout);
  assert(said.systemMessage.includes(`\`${init}\` to start a new one`), first.stdout);
  assertEquals(said.hookSpecificOutput.hookEventName, "SessionStart");
  assertMatch(said.hookSpecificOutput.additionalContext, /no knowledge base is connected/);
  const marker = join(cacheRootOf(env), "welcomed");
  assertEquals((await Deno.stat(marker)).mode! & 0o777, 0o600);
  assertSilent(await startup());

  await using configured = await makeKb();
  assertSilent(
    await runDeno(
      ["run", ...hookFlags("compact", cacheRootOf(configured.env)), LAUNCH, "hook", "compact"],
      { env: configured.env, stdin: payload("startup"), cwd: configured.tmp },
    ),
  );
  await Deno.remove(marker);
  for (const source of ["resume", "clear"]) {
    const other = await runDeno(
      ["run", ...hookFlags("compact", cacheRootOf(env)), LAUNCH, "hook", "compact"],
      { env, stdin: payload(source), cwd: kb.tmp },
    );
    assertSilent(other);
  }
});
