/**
 * The SessionStart hook in the real Claude Code CLI (`CLAUDE_CLI`, set by `deno task test:e2e`;
 * skipped without it), against a loopback mock of the Messages API, with the plugin installed
 * into a temp HOME from this repo's marketplace and a knowledge base one commit behind its bare
 * remote. The mock's one turn runs a Bash command that waits for what the test needs to have
 * happened in the background (the fetch started, or the branch moved), then the session ends.
 *
 * - With a fast remote, the startup hook fast-forwards the knowledge base during the session.
 * - After `/compact` (a resumed session of three turns), the compact hook's kernel rules are
 *   injected again.
 * - With a remote whose fetch never ends (a fake `git` first on PATH), the session ends well
 *   before the hook's own fetch bound: Claude Code does not wait for the hook (`async: true`),
 *   and stopping it at the session's end leaves no git or transport process behind.
 */
import { assert, assertEquals, assertMatch, assertStrictEquals } from "@std/assert";
import { join } from "@std/path/posix/join";
import { shellQuote } from "../../core/shell/quote.ts";
import { PULL_FETCH_TIMEOUT_MS } from "../../io/hook/session_pull.ts";
import { runProcess } from "../../io/process.ts";
import { cacheRootOf, cloneRemote, git, type Kb, makeKb, pushEntryFrom } from "../helpers.ts";
import { assertGone, slowGit } from "../slow_git.ts";
import {
  CLAUDE_CLI,
  clientEnv,
  compactedSession,
  pluginProject,
  say,
  scriptedClient,
  SKIP,
  startMockApi,
  waitScript,
} from "./_mock_api.ts";

if (SKIP) console.log(`session_start_e2e_test.ts skipped: ${SKIP}`);

/** A knowledge base one entry behind its remote, a project, and the plugin installed. */
async function setUp(): Promise<{ kb: Kb; project: string; ahead: string }> {
  const kb = await makeKb({ remote: true });
  const other = await cloneRemote(kb);
  await pushEntryFrom(other, "kb-syn7q", "Quokka feeding schedule for the zoo team");
  return { kb, project: await pluginProject(kb), ahead: await git(other, "rev-parse", "HEAD") };
}

/**
 * One `claude -p` session whose single turn runs a script that waits (at most 20
 * s) until `ready` (a shell test) holds; returns when the client exited.
 */
async function session(
  kb: Kb,
  project: string,
  ready: string,
  extra: Record<string, string> = {},
) {
  await using client = await scriptedClient(kb, waitScript(ready, 20), extra);
  const { env } = client;
  const result = await runProcess(CLAUDE_CLI!, [
    "-p",
    "Wait for the background work, then stop.",
    "--session-id",
    crypto.randomUUID(),
    "--allowedTools",
    "Bash",
  ], { cwd: project, env, clearEnv: true, timeoutMs: 120_000 });
  assertEquals(result.code, 0, `${result.stdout}\n${result.stderr}`);
  return { ended: Date.now(), requests: client.turns() };
}

/** The session hook's debug records. */
async function sessionRecords(kb: Kb): Promise<Record<string, unknown>[]> {
  const found = await runProcess("sh", [
    "-c",
    `cat "$1"/*/debug.jsonl 2>/dev/null || true`,
    "sh",
    cacheRootOf(kb.env),
  ]);
  return found.stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line))
    .filter((record) => record.event === "session-start");
}

Deno.test({
  name: "the real client's startup hook fast-forwards the knowledge base in the background",
  ignore: SKIP !== false,
  async fn() {
    const { kb, project, ahead } = await setUp();
    await using _kb = kb;
    const head = `git -C ${shellQuote(kb.dir)} rev-parse HEAD`;
    const { requests } = await session(kb, project, `[ "$(${head})" = ${ahead} ]`);
    assertEquals(requests, 2, "the turn ran the waiting command and finished");
    assertEquals(await git(kb.dir, "rev-parse", "HEAD"), ahead);
    const [record] = await sessionRecords(kb);
    assertStrictEquals(record?.outcome, "fast-forwarded", JSON.stringify(record));
    assertEquals(record.source, "startup");
  },
});

Deno.test({
  name: "a fetch that never ends does not delay the real client's session, and leaves no process",
  ignore: SKIP !== false,
  async fn() {
    const { kb, project } = await setUp();
    await using _kb = kb;
    const pids = join(kb.root, "pids");
    const PATH = await slowGit(kb.root, pids);
    const before = await git(kb.dir, "rev-parse", "HEAD");
    const { ended } = await session(kb, project, `[ -s ${shellQuote(pids)} ]`, { PATH });
    const fetchStarted = (await Deno.stat(pids)).mtime!.getTime();
    assert(
      ended - fetchStarted < PULL_FETCH_TIMEOUT_MS,
      `the session ended ${ended - fetchStarted} ms after the fetch began: it waited for the hook`,
    );
    await assertGone(pids);
    assertEquals(await git(kb.dir, "rev-parse", "HEAD"), before, "nothing changed");
  },
});

/** The text hooks injected into a session's transcript, wherever the project slug puts it. */
async function injected(home: string, sessionId: string): Promise<string[]> {
  const projects = join(home, ".claude", "projects");
  for await (const project of Deno.readDir(projects)) {
    const path = join(projects, project.name, `${sessionId}.jsonl`);
    let text: string;
    try {
      text = await Deno.readTextFile(path);
    } catch {
      continue;
    }
    return text.split("\n").filter(Boolean).map((line) => JSON.parse(line))
      .filter((record) => record.attachment?.type === "hook_additional_context")
      .flatMap((record) => record.attachment.content as string[]);
  }
  throw new Error(`no transcript for session ${sessionId} under ${projects}`);
}

Deno.test({
  name: "after /compact in the real client, the kernel rules are injected again",
  ignore: SKIP !== false,
  async fn() {
    await using kb = await makeKb();
    const project = await pluginProject(kb);
    await using mock = startMockApi(() => say("Summary: the user said hello."));
    const env = await clientEnv(kb, mock.port, { ...kb.env, XDG_CACHE_HOME: kb.tmp });
    const id = await compactedSession(project, env);
    const context = await injected(kb.home, id);
    const restored = context.filter((text) => text.includes("restored after the conversation"));
    assertEquals(restored.length, 1, JSON.stringify(context).slice(0, 2000));
    assertMatch(restored[0], /### kb-c0mw8 /);
  },
});
