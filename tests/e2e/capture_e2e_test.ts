/**
 * The capture in the real Claude Code CLI (`CLAUDE_CLI`, set by `deno task test:e2e`; skipped
 * without it), against a loopback mock of the Messages API, with the plugin installed into a temp
 * HOME from this repo's marketplace. The mock's session runs a command that fails, then the same
 * command again, which works; when `claude -p` exits, the capture is handed to the detached
 * worker, whose fake `claude` proposes one entry, written to the proposals branch. (Claude Code
 * 2.1.197 runs no SessionEnd hook when `-p` exits while a background hook runs, as the plugin's
 * freshness watch does: it is the watch, stopped at the session's end, that hands off here;
 * 2.1.332 runs it, and the two hand-offs make one capture.)
 * And `/compact` runs the capture hook on PreCompact.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import { shellQuote } from "../../core/shell/quote.ts";
import { PROPOSALS_BRANCH } from "../../core/proposals/branch.ts";
import { runProcess } from "../../io/process.ts";
import { git, makeKb } from "../helpers.ts";
import { fakeClaude, recordedCalls } from "../judge_helpers.ts";
import {
  CLAUDE_CLI,
  clientEnv,
  compactedSession,
  pluginProject,
  say,
  SKIP,
  startMockApi,
  toolUse,
} from "./_mock_api.ts";

if (SKIP) console.log(`capture_e2e_test.ts skipped: ${SKIP}`);

/** The tool results in a request's whole conversation. */
function resultsSoFar(body: Record<string, unknown>): number {
  const messages = (body.messages ?? []) as { content?: unknown }[];
  return messages.flatMap((message) => Array.isArray(message.content) ? message.content : [])
    .filter((block) => block?.type === "tool_result").length;
}

Deno.test({
  name: "the end of a session in the real client starts the capture, which writes a proposal",
  ignore: !!SKIP,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using kb = await makeKb();
    const project = await pluginProject(kb);
    const marker = join(kb.root, "built");
    // Fails the first time (the marker is missing), works the second.
    const command = `test -f ${shellQuote(marker)} || { touch ${
      shellQuote(marker)
    }; echo "error: the build cache is cold" >&2; exit 1; }`;
    await using mock = startMockApi((body) =>
      resultsSoFar(body) < 2
        ? { blocks: [toolUse("Bash", { command, description: "build" })] }
        : say("The build works now.")
    );
    const record = join(kb.root, "calls");
    const candidate = {
      title: "A cold build cache fails the first build: run it again",
      type: "howto",
      tags: ["build", "cache"],
      body:
        "The first build after a clean checkout fails with `the build cache is cold`; a second run works.",
      lines: [7, 10],
    };
    const env = await clientEnv(kb, mock.port, {
      ...kb.env,
      XDG_CACHE_HOME: kb.tmp,
      KB_HOOK_DEBUG: "1",
      KB_PROSE_LINT_CLAUDE: fakeClaude("scripted"),
      FAKE_CLAUDE_RECORD: record,
      FAKE_REPLY: JSON.stringify({
        type: "result",
        is_error: false,
        result: JSON.stringify({ candidates: [candidate] }),
      }),
    });
    const result = await runProcess(CLAUDE_CLI!, [
      "-p",
      "Build the project.",
      "--session-id",
      crypto.randomUUID(),
      "--allowedTools",
      "Bash",
    ], { cwd: project, env, clearEnv: true, timeoutMs: 120_000 });
    assertEquals(result.code, 0, `${result.stdout}\n${result.stderr}`);
    const until = Date.now() + 60_000;
    let branch = "";
    while (!branch && Date.now() < until) {
      branch = (await git(kb.dir, "branch", "--list", PROPOSALS_BRANCH)).trim();
      if (!branch) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const log = await runProcess("sh", [
      "-c",
      'cat "$1"/git-kb/*/debug.jsonl "$1"/git-kb/debug.jsonl 2>/dev/null; true',
      "sh",
      kb.tmp,
    ]);
    const records = log.stdout.split("\n").filter((line) => line.includes('"capture"'));
    assert(
      branch,
      `no proposals branch after the session ended:\n${records.join("\n")}\n${result.stdout}`,
    );
    const files = (await git(kb.dir, "diff", "--name-only", `main...${PROPOSALS_BRANCH}`)).trim();
    const text = await git(kb.dir, "show", `${PROPOSALS_BRANCH}:${files}`);
    assertMatch(text, /A cold build cache fails the first build/);
    const calls = await recordedCalls(record);
    assertEquals(calls.length, 1);
    assertMatch(calls[0].stdin, /Bash FAILED: Exit code 1\nerror: the build cache is cold/);
  },
});

Deno.test({
  name: "/compact in the real client runs the capture hook on PreCompact",
  ignore: !!SKIP,
  sanitizeResources: false,
  sanitizeOps: false,
  fn: async () => {
    await using kb = await makeKb();
    const project = await pluginProject(kb);
    await using mock = startMockApi(() => say("Summary: the user said hello."));
    const env = await clientEnv(kb, mock.port, {
      ...kb.env,
      XDG_CACHE_HOME: kb.tmp,
      KB_HOOK_DEBUG: "1",
    });
    const id = await compactedSession(project, env);
    const log = await runProcess("sh", [
      "-c",
      'cat "$1"/git-kb/*/debug.jsonl 2>/dev/null; true',
      "sh",
      kb.tmp,
    ]);
    const records = log.stdout.split("\n").filter(Boolean).map((line) => JSON.parse(line))
      .filter((record) => record.event === "capture" && record.hook_event === "PreCompact");
    assertEquals(
      records.map((record) => [record.session, record.outcome, record.reason]),
      [[id, "skipped", "nothing learned: no failure that was then fixed"]],
    );
  },
});
