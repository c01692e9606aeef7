/**
 * The session's freshness watch (`git-kb hook watch`, hooks/watch.ts) run as Claude Code runs
 * it: through the plugin launcher with its permissions, under a stand-in client, in a knowledge
 * base of more than 100 files (where the hooks trust a check for ten minutes), with a period of a
 * few hundred milliseconds (`KB_TEST_WATCH_PERIOD_MS`).
 */
import { assert, assertEquals, assertMatch, assertNotMatch, assertStrictEquals } from "@std/assert";
import { join } from "@std/path/posix/join";
import { STALE_PERIODS } from "../io/index/watch.ts";
import { cacheRootOf, childEnv, denoDir, type Kb, ROOT, runHook, show } from "./helpers.ts";
import { alive } from "./slow_git.ts";
import { makeBigKb, makeCold, retitleInPlace } from "./big_kb.ts";

const LAUNCHER = join(ROOT, "plugin", "bin", "git-kb");

/** The tests' period, in ms. */
const PERIOD_MS = 300;

/** The environment of a watch in `kb`: the one its prompt hook runs with, and a short period. */
async function watchEnv(
  kb: Kb,
  extra: Record<string, string> = {},
): Promise<Record<string, string>> {
  return childEnv({
    ...kb.env,
    ...extra,
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    DENO_DIR: await denoDir(),
    KB_HOOK_DEBUG: "1",
    KB_TEST_WATCH_PERIOD_MS: String(PERIOD_MS),
  });
}

/** A watch started under a stand-in client. */
interface Session extends AsyncDisposable {
  /** The stand-in client's process. */
  client: Deno.ChildProcess;
  /** The watch's pid, once it runs. */
  watchPid(): Promise<number>;
}

/** The heartbeat file of `kb`'s watch, found in its cache folder. */
async function heartbeatOf(kb: Kb): Promise<string> {
  const root = cacheRootOf(kb.env);
  for await (const folder of Deno.readDir(root)) {
    if (folder.name.startsWith("kb-")) return join(root, folder.name, "watch.json");
  }
  throw new Error(`no cache folder of the knowledge base under ${root}`);
}

/** The pid the heartbeat names, or undefined when there is no heartbeat. */
async function heartbeatPid(kb: Kb): Promise<number | undefined> {
  try {
    return JSON.parse(await Deno.readTextFile(await heartbeatOf(kb))).pid;
  } catch {
    return undefined;
  }
}

/** Wait (at most 10 s) until `ready` holds; fails the test otherwise. */
async function until(what: string, ready: () => boolean | Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 10_000; !(await ready());) {
    assert(Date.now() < deadline, `waited 10 s for ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

/** A stand-in client: `sh -c script args…` with the watch's environment, its output dropped. */
async function startClient(
  kb: Kb,
  script: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<Deno.ChildProcess> {
  return new Deno.Command("sh", {
    args: ["-c", script, ...args],
    env: await watchEnv(kb, env),
    clearEnv: true,
    cwd: kb.root,
    stdin: "null",
    stdout: "null",
    stderr: "null",
  }).spawn();
}

/**
 * The watch started as `git-kb hook watch` under a stand-in client, a shell that passes the
 * launcher on by exec (as bash's `sh -c` does): client → launcher → deno, the watch a child of
 * the client.
 */
async function startSession(
  kb: Kb,
  fields: Record<string, string> = {},
  env: Record<string, string> = {},
): Promise<Session> {
  const payload = join(kb.root, `payload-${crypto.randomUUID()}.json`);
  await Deno.writeTextFile(
    payload,
    JSON.stringify({
      session_id: crypto.randomUUID(),
      hook_event_name: "SessionStart",
      source: "startup",
      ...fields,
    }),
  );
  const client = await startClient(kb, `"$0" hook watch < "$1" & wait`, [LAUNCHER, payload], env);
  let pid: number | undefined;
  const watchPid = async () => {
    await until(
      "the watch to start",
      async () => (pid ??= await childOf(client.pid)) !== undefined,
    );
    return pid!;
  };
  return {
    client,
    watchPid,
    async [Symbol.asyncDispose]() {
      if (pid !== undefined && alive(pid)) Deno.kill(pid, "SIGKILL");
      try {
        client.kill("SIGKILL");
      } catch { /* ended already */ }
      await client.status;
    },
  };
}

/** The one child process of `pid` that runs deno, from /proc. */
async function childOf(pid: number): Promise<number | undefined> {
  const text = await Deno.readTextFile(`/proc/${pid}/task/${pid}/children`).catch(() => "");
  for (const child of text.trim().split(/\s+/).filter(Boolean).map(Number)) {
    const command = await Deno.readTextFile(`/proc/${child}/cmdline`).catch(() => "");
    if (command.split("\0")[0].endsWith("deno")) return child;
  }
  return undefined;
}

/** The watch's debug records. */
async function watchRecords(kb: Kb): Promise<Record<string, unknown>[]> {
  const log = join(await heartbeatOf(kb), "..", "debug.jsonl");
  const text = await Deno.readTextFile(log).catch(() => "");
  return text.split("\n").filter(Boolean).map((line) => JSON.parse(line))
    .filter((record) => record.event === "watch");
}

/** What the prompt hook adds for `prompt`. */
async function promptContext(kb: Kb, prompt: string): Promise<string> {
  const result = await runHook(JSON.stringify({ prompt, session_id: "later-prompt" }), {
    env: kb.env,
  });
  assertEquals(result.code, 0, show(result));
  return result.stdout;
}

/** Make `id`'s file old and index it, then rewrite its title in place. */
async function editOldEntryInPlace(kb: Kb, id: string, title: string): Promise<void> {
  await retitleInPlace(await makeCold(kb, id), title);
}

const PROMPT = "how does the ocelot lantern work";

Deno.test("an in-place edit of an old entry reaches the prompt hook within the watch's period", async () => {
  await using kb = await makeBigKb();
  await editOldEntryInPlace(kb, "kb-b3m7o", "Ocelot lantern");
  assertNotMatch(await promptContext(kb, PROMPT), /kb-b3m7o/, "the hooks trust the check");
  await using session = await startSession(kb);
  await session.watchPid();
  await until(
    "the prompt hook to see the edit",
    async () => /kb-b3m7o Ocelot lantern/.test(await promptContext(kb, PROMPT)),
  );
  const [check] = (await watchRecords(kb)).filter((record) => record.outcome === "incremental");
  assertEquals([check?.changed, check?.added, check?.removed], [1, 0, 0], JSON.stringify(check));
});

Deno.test("the watch ends at SIGTERM (the session's end) and removes its heartbeat", async () => {
  await using kb = await makeBigKb();
  await using session = await startSession(kb);
  const pid = await session.watchPid();
  await until("the heartbeat", async () => (await heartbeatPid(kb)) === pid);
  Deno.kill(pid, "SIGTERM");
  await until("the watch to exit", () => !alive(pid));
  assertEquals(await heartbeatPid(kb), undefined);
  const ended = (await watchRecords(kb)).filter((record) => record.outcome === "ended");
  assertEquals(ended.map((record) => record.end), ["stopped"]);
});

/** Whether the proposals branch of `kb` exists: the capture worker wrote a proposal. */
async function proposed(kb: Kb): Promise<boolean> {
  const branch = await new Deno.Command("git", {
    args: ["-C", kb.dir, "rev-parse", "--verify", "--quiet", "refs/heads/git-kb/proposals"],
    stdout: "null",
    stderr: "null",
  }).output();
  return branch.success;
}

Deno.test("at the session's end the watch hands a session that fixed something to the capture", async () => {
  await using kb = await makeBigKb();
  const transcript = join(kb.root, "transcript.jsonl");
  await Deno.copyFile(join(ROOT, "fixtures", "capture", "fix-session.jsonl"), transcript);
  const candidate = {
    title: "Playwright on a fresh CI image: install the browsers first",
    type: "howto",
    tags: ["playwright", "ci"],
    body: "Run `npx playwright install --with-deps chromium` before `npx playwright test`.",
    lines: [3, 10],
  };
  await using session = await startSession(kb, { transcript_path: transcript }, {
    KB_PROSE_LINT_CLAUDE: join(ROOT, "fixtures", "judge", "claude-scripted"),
    FAKE_REPLY: JSON.stringify({
      type: "result",
      result: JSON.stringify({ candidates: [candidate] }),
    }),
  });
  const pid = await session.watchPid();
  await until("the heartbeat", async () => (await heartbeatPid(kb)) === pid);
  Deno.kill(pid, "SIGTERM");
  await until("the watch to exit", () => !alive(pid));
  // The worker outlives the watch (a session of its own) and writes the proposal.
  await until("the proposal", () => proposed(kb));
});

Deno.test("the watch's decision at the session's end waits for the client's last lines, the fix among them", async () => {
  await using kb = await makeBigKb();
  const transcript = join(kb.root, "transcript.jsonl");
  const lines = (await Deno.readTextFile(join(ROOT, "fixtures", "capture", "fix-session.jsonl")))
    .split("\n").filter(Boolean);
  // Up to the fix's call; its result, which makes the lesson, is written as the session ends.
  await Deno.writeTextFile(transcript, lines.slice(0, 6).join("\n") + "\n");
  await using session = await startSession(kb, { transcript_path: transcript }, {
    KB_PROSE_LINT_CLAUDE: join(ROOT, "fixtures", "judge", "claude-scripted"),
    FAKE_REPLY: JSON.stringify({
      type: "result",
      result: JSON.stringify({
        candidates: [{
          title: "Playwright on a fresh CI image: install the browsers first",
          type: "howto",
          tags: ["playwright", "ci"],
          body: "Run `npx playwright install --with-deps chromium` before the tests.",
          lines: [3, 10],
        }],
      }),
    }),
  });
  const pid = await session.watchPid();
  await until("the heartbeat", async () => (await heartbeatPid(kb)) === pid);
  Deno.kill(pid, "SIGTERM");
  await new Promise((done) => setTimeout(done, 150));
  await Deno.writeTextFile(transcript, lines.slice(6).join("\n") + "\n", { append: true });
  await until("the watch to exit", () => !alive(pid));
  await until("the proposal", () => proposed(kb));
});

Deno.test("the watch ends when its client is killed without a word", async () => {
  await using kb = await makeBigKb();
  await using session = await startSession(kb);
  const pid = await session.watchPid();
  await until("the heartbeat", async () => (await heartbeatPid(kb)) === pid);
  session.client.kill("SIGKILL"); // the watch is handed to another parent
  await session.client.status;
  await until("the orphaned watch to exit", () => !alive(pid));
  const ended = (await watchRecords(kb)).filter((record) => record.outcome === "ended");
  assertEquals(ended.map((record) => record.end), ["session-gone"]);
});

Deno.test("two sessions, one watch checking: the other stands by, then takes over", async () => {
  await using kb = await makeBigKb();
  await using first = await startSession(kb);
  const firstPid = await first.watchPid();
  await until("the first heartbeat", async () => (await heartbeatPid(kb)) === firstPid);
  await using second = await startSession(kb);
  const secondPid = await second.watchPid();
  await new Promise((done) => setTimeout(done, (STALE_PERIODS + 1) * PERIOD_MS));
  assertEquals(await heartbeatPid(kb), firstPid, "the second watch stood by");
  assert(alive(secondPid), "standing by, for when the first session ends");
  Deno.kill(firstPid, "SIGTERM");
  await until("the second watch to take over", async () => (await heartbeatPid(kb)) === secondPid);
  await editOldEntryInPlace(kb, "kb-b3m7o", "Ocelot lantern");
  await until(
    "the prompt hook to see the edit",
    async () => /kb-b3m7o Ocelot lantern/.test(await promptContext(kb, PROMPT)),
  );
});

Deno.test("a heartbeat planted as a symlink is neither followed nor replaced: the watch ends", async () => {
  await using kb = await makeBigKb();
  const heartbeat = await heartbeatOf(kb);
  const victim = join(kb.root, "victim.txt");
  await Deno.writeTextFile(victim, "keep me");
  await Deno.symlink(victim, heartbeat);
  await using session = await startSession(kb);
  const pid = await session.watchPid();
  await until("the watch to give up", () => !alive(pid));
  assertEquals(await Deno.readTextFile(victim), "keep me");
  assertEquals((await Deno.lstat(heartbeat)).isSymlink, true);
  const records = await watchRecords(kb);
  assertMatch(
    String(records.find((record) => record.outcome === "error")?.error),
    /symbolic link/,
  );
  assertEquals(records.filter((r) => r.outcome === "ended").map((r) => r.end), ["refused"]);
});

Deno.test("a watch killed outright: the one standing by takes over once its heartbeat is stale", async () => {
  await using kb = await makeBigKb();
  await using first = await startSession(kb);
  const firstPid = await first.watchPid();
  await until("the first heartbeat", async () => (await heartbeatPid(kb)) === firstPid);
  await using second = await startSession(kb);
  const secondPid = await second.watchPid();
  Deno.kill(firstPid, "SIGKILL"); // no chance to remove its heartbeat
  const killed = Date.now();
  await until("the second watch to take over", async () => (await heartbeatPid(kb)) === secondPid);
  assert(
    Date.now() - killed >= (STALE_PERIODS - 1) * PERIOD_MS,
    "it waited for the heartbeat to go stale",
  );
});

/** The live watches under process `pid` (deno running `hook watch`), from /proc. */
async function watchesUnder(pid: number): Promise<number[]> {
  const found: number[] = [];
  const children = await Deno.readTextFile(`/proc/${pid}/task/${pid}/children`).catch(() => "");
  for (const child of children.trim().split(/\s+/).filter(Boolean).map(Number)) {
    const argv = (await Deno.readTextFile(`/proc/${child}/cmdline`).catch(() => "")).split("\0");
    if (argv[0].endsWith("deno") && argv.includes("hook") && argv.includes("watch")) {
      if (alive(child)) found.push(child);
    } else found.push(...await watchesUnder(child));
  }
  return found;
}

Deno.test("twenty starts in one client (a /clear each): one watch runs, and it ends with its client", async () => {
  await using kb = await makeBigKb();
  const payloads = join(kb.root, "payloads");
  await Deno.mkdir(payloads);
  for (let index = 0; index < 20; index++) {
    await Deno.writeTextFile(
      join(payloads, `${index}.json`),
      JSON.stringify({ session_id: crypto.randomUUID(), hook_event_name: "SessionStart" }),
    );
  }
  // The client runs each start's command line from hooks.json through `/bin/sh -c` (dash here,
  // which runs a lone command as a child and waits for it, unless it is told to exec).
  const hooks = JSON.parse(await Deno.readTextFile(join(ROOT, "plugin", "hooks", "hooks.json")));
  const command = hooks.hooks.SessionStart.flatMap((group: { hooks: { command: string }[] }) =>
    group.hooks.map((hook) => hook.command)
  ).find((line: string) => line.endsWith(" hook watch"))
    .replace("${CLAUDE_PLUGIN_ROOT}", join(ROOT, "plugin"));
  const client = await startClient(
    kb,
    `for p in "$1"/*.json; do /bin/sh -c "$0" < "$p" & done; wait`,
    [command, payloads],
  );
  let survivors: number[] = [];
  try {
    await until("twenty watches to start", async () => {
      const ended = (await watchRecords(kb)).filter((record) => record.outcome === "ended");
      return ended.length + (await watchesUnder(client.pid)).length >= 20;
    });
    await until("one watch to be left", async () => (await watchesUnder(client.pid)).length === 1);
    survivors = await watchesUnder(client.pid);
    await new Promise((done) => setTimeout(done, 3 * PERIOD_MS));
    assertEquals(await watchesUnder(client.pid), survivors, "the one left stays");
    const ended = (await watchRecords(kb)).filter((record) => record.outcome === "ended");
    assertEquals(new Set(ended.map((record) => record.end)), new Set(["superseded"]));
    assertEquals(ended.length, 19);

    client.kill("SIGKILL"); // the client gone without a word; the shells between stay
    await client.status;
    await until("the last watch to exit", () => !alive(survivors[0]));
    const last = (await watchRecords(kb)).filter((record) => record.outcome === "ended").at(-1);
    assertStrictEquals(last?.end, "session-gone");
  } finally {
    for (const pid of [...survivors, ...await watchesUnder(client.pid)]) {
      if (alive(pid)) Deno.kill(pid, "SIGKILL");
    }
    try {
      client.kill("SIGKILL");
    } catch { /* ended already */ }
    await client.status;
  }
});
