/**
 * The freshness watch (`git-kb hook watch`, an `async: true` SessionStart hook) in the real
 * Claude Code CLI (`CLAUDE_CLI`, set by `deno task test:e2e`; skipped without it), against a
 * loopback mock of the Messages API, with the plugin installed into a temp HOME from this repo's
 * marketplace and a knowledge base of more than 100 files (where the prompt hook trusts a check
 * for ten minutes). The mock's first turn runs a Bash command that waits for what the test needs
 * (the watch running, an edit taken in), then the session ends.
 *
 * - The session ends without waiting for the watch, and the watch is gone when it has.
 * - An old entry rewritten in place during a session is taken in by that session's watch within
 *   its real period (30 s), and a later prompt surfaces it.
 * - A client killed outright (no SIGTERM) leaves no watch behind either.
 */
import { assert, assertEquals, assertStrictEquals } from "@std/assert";
import { join } from "@std/path/posix/join";
import { shellQuote } from "../../core/shell/quote.ts";
import { WATCH_PERIOD_MS } from "../../io/index/watch.ts";
import { runProcess } from "../../io/process.ts";
import { makeBigKb, makeCold } from "../big_kb.ts";
import { cacheRootOf, type Kb } from "../helpers.ts";
import { alive } from "../slow_git.ts";
import { CLAUDE_CLI, pluginProject, scriptedClient, SKIP, waitScript } from "./_mock_api.ts";

if (SKIP) console.log(`watch_e2e_test.ts skipped: ${SKIP}`);

/** A knowledge base of more than 100 files, a project, and the plugin installed. */
async function setUp(): Promise<{ kb: Kb; project: string }> {
  const kb = await makeBigKb();
  return { kb, project: await pluginProject(kb) };
}

/** The cache folder of the knowledge base (the one `kb-…` folder under the cache root). */
async function cacheOf(kb: Kb): Promise<string> {
  const root = cacheRootOf({ ...kb.env, XDG_CACHE_HOME: kb.tmp });
  for await (const folder of Deno.readDir(root)) {
    if (folder.name.startsWith("kb-")) return join(root, folder.name);
  }
  throw new Error(`no cache folder of the knowledge base under ${root}`);
}

/** The watch's debug records. */
async function watchRecords(kb: Kb): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(join(await cacheOf(kb), "debug.jsonl")).catch(() => "");
  return text.split("\n").filter(Boolean).map((line) => JSON.parse(line))
    .filter((record) => record.event === "watch");
}

/** Run one `claude -p` turn; its exit code must be 0. */
async function runClaude(project: string, env: Record<string, string>, args: string[]) {
  const result = await runProcess(CLAUDE_CLI!, [...args, "--allowedTools", "Bash"], {
    cwd: project,
    env,
    clearEnv: true,
    timeoutMs: 180_000,
  });
  assertEquals(result.code, 0, `${result.stdout}\n${result.stderr}`);
}

/** The watch's pid, from its heartbeat, or undefined when there is none. */
async function heartbeatPid(kb: Kb): Promise<number | undefined> {
  const text = await Deno.readTextFile(join(await cacheOf(kb), "watch.json")).catch(() => "");
  return text ? JSON.parse(text).pid : undefined;
}

/** Wait (at most 5 s) for process `pid` to be gone; fails the test otherwise. */
async function assertEnds(pid: number, what: string): Promise<void> {
  for (let tries = 0; tries < 100 && alive(pid); tries++) {
    await new Promise((done) => setTimeout(done, 50));
  }
  assertEquals(alive(pid), false, `${what}: the watch ${pid} still runs`);
}

Deno.test({
  name: "the real client does not wait for the watch, and ends it with the session",
  ignore: SKIP !== false,
  async fn() {
    const { kb, project } = await setUp();
    await using _kb = kb;
    const heartbeat = join(await cacheOf(kb), "watch.json");
    const seen = join(kb.root, "heartbeat-seen.json");
    const { mock, env } = await scriptedClient(
      kb,
      waitScript(`[ -s ${shellQuote(heartbeat)} ]`, 20) +
        `cp ${shellQuote(heartbeat)} ${shellQuote(seen)}\n`,
    );
    await using _mock = mock;
    const started = Date.now();
    await runClaude(project, env, [
      "-p",
      "Wait for the watch.",
      "--session-id",
      crypto.randomUUID(),
    ]);
    const seconds = (Date.now() - started) / 1000;
    const records = await watchRecords(kb);
    const ended = records.find((record) => record.outcome === "ended");
    assertStrictEquals(ended?.end, "stopped", JSON.stringify(records));
    assert(
      Number(ended.ms) < WATCH_PERIOD_MS,
      `the watch ran ${ended.ms} ms of a ${seconds} s session`,
    );
    assertEquals(await heartbeatPid(kb), undefined, "its heartbeat is removed");
    await assertEnds(JSON.parse(await Deno.readTextFile(seen)).pid, "after the session");
  },
});

Deno.test({
  name: "an old entry rewritten in place during a session reaches a later prompt within 60 s",
  ignore: SKIP !== false,
  async fn() {
    const { kb, project } = await setUp();
    await using _kb = kb;
    const entry = await makeCold(kb, "kb-b3m7o");
    const cache = await cacheOf(kb);
    const debug = shellQuote(join(cache, "debug.jsonl"));
    // Rewrite in place (the same file, truncated and written), then wait for the watch's check.
    const script = waitScript(`[ -s ${shellQuote(join(cache, "watch.json"))} ]`, 20) +
      `sed 's/^title: .*/title: Ocelot lantern/' ${shellQuote(entry)} > ${
        shellQuote(`${entry}.new`)
      }\n` +
      `cat ${shellQuote(`${entry}.new`)} > ${shellQuote(entry)}\n` +
      `date +%s%3N > ${shellQuote(join(kb.root, "edited"))}\n` +
      waitScript(`grep -q '"outcome":"incremental"' ${debug}`, 60);
    const { mock, env } = await scriptedClient(kb, script);
    await using _mock = mock;
    const id = crypto.randomUUID();
    await runClaude(project, env, ["-p", "Edit the entry and wait.", "--session-id", id]);
    const edited = Number(await Deno.readTextFile(join(kb.root, "edited")));
    const check = (await watchRecords(kb)).find((record) => record.outcome === "incremental");
    assertStrictEquals(check?.session, id, "the session's own watch took the edit in");
    const lag = Date.parse(String(check.ts)) - edited;
    assert(lag < 60_000, `the edit was taken in ${lag} ms after it was saved`);
    await runClaude(project, env, ["-p", "how does the ocelot lantern work", "--resume", id]);
    assert(
      mock.received.some((request) =>
        JSON.stringify(request.body).includes("kb-b3m7o Ocelot lantern")
      ),
      "the later prompt surfaced the rewritten entry",
    );
  },
});

Deno.test({
  name: "a real client killed outright leaves no watch behind",
  ignore: SKIP !== false,
  async fn() {
    const { kb, project } = await setUp();
    await using _kb = kb;
    const cache = await cacheOf(kb);
    const release = join(kb.root, "release");
    const { mock, env } = await scriptedClient(
      kb,
      waitScript(`[ -e ${shellQuote(release)} ]`, 30),
      {
        KB_TEST_WATCH_PERIOD_MS: "500",
      },
    );
    await using _mock = mock;
    const claude = new Deno.Command(CLAUDE_CLI!, {
      args: ["-p", "Wait.", "--session-id", crypto.randomUUID(), "--allowedTools", "Bash"],
      cwd: project,
      env,
      clearEnv: true,
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).spawn();
    try {
      let pid: number | undefined;
      for (let tries = 0; tries < 400 && pid === undefined; tries++) {
        await new Promise((done) => setTimeout(done, 50));
        pid = await heartbeatPid(kb);
      }
      assert(pid, `no heartbeat in ${cache}`);
      claude.kill("SIGKILL");
      await claude.status;
      await assertEnds(pid, "after the client was killed");
      const ended = (await watchRecords(kb)).find((record) => record.outcome === "ended");
      assertStrictEquals(ended?.end, "session-gone", JSON.stringify(ended));
    } finally {
      await Deno.writeTextFile(release, ""); // the Bash command the killed client left running
      try {
        claude.kill("SIGKILL");
      } catch { /* ended */ }
      await claude.status;
    }
  },
});
