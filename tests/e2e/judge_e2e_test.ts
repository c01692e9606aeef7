/**
 * The prose judge in the real Claude Code CLI (`CLAUDE_CLI`, set by `deno task test:e2e`;
 * skipped without it). A loopback mock of the Anthropic Messages API (`ANTHROPIC_BASE_URL`, a
 * dummy key) answers the first turn with a Write tool call; the plugin, installed into a temp
 * HOME from this repo's marketplace, runs the judge and must deny prose that breaks kernel rule kb-k1rn0 (the
 * file is not written, the mock gets an error tool_result carrying our reason) and allow
 * compliant prose (the file is written). Then the same with the real CLI as the judge model,
 * answered by the mock, which shows that the judge's own run fires no hook and keeps no
 * session. Every proxy variable points at a closed loopback port, and only 127.0.0.1 bypasses
 * it: nothing can reach the network.
 */
import { assert, assertEquals, assertMatch, assertNotStrictEquals } from "@std/assert";
import { join } from "@std/path/posix/join";
import { JUDGE_SYSTEM_PROMPT } from "../../core/judge/verdict.ts";
import { runProcess } from "../../io/process.ts";
import { acceptKernel, copySampleKb, exists, kernelRulesOf, makeSandbox } from "../helpers.ts";
import { fakeClaude, judgeRecords, kbCache } from "../judge_helpers.ts";
import {
  CLAUDE_CLI,
  clientEnv,
  installPlugin,
  type MockApi,
  type Reply,
  say,
  SKIP,
  startMockApi,
  textOf,
  toolResults,
  toolUse,
} from "./_mock_api.ts";

if (SKIP) console.log(`judge_e2e_test.ts skipped: ${SKIP}`);

const BAD = "This release brings blazing fast, seamless search to every knowledge base, " +
  "and robust sync between machines.\n";
const GOOD = "Search over 2,000 entries now takes 35 ms instead of 180 ms, because the index " +
  "keeps postings per term.\n";

/**
 * A loopback Messages API: the judge model's requests (our system prompt) get a verdict (fail
 * when the texts after the rules say "blazing fast"); an agent's first turn gets a Write of
 * `scenario.content` to `scenario.path`; a turn carrying a tool result gets "Done."
 */
function startMock(scenario: { path: string; content: string }): MockApi {
  return startMockApi((body): Reply => {
    if (textOf(body.system).includes(JUDGE_SYSTEM_PROMPT)) {
      const prompt = textOf(body.messages);
      const texts = prompt.slice(prompt.lastIndexOf("</rules>"));
      return say(
        texts.includes("blazing fast")
          ? JSON.stringify({
            verdict: "fail",
            violations: [{ rule: "kb-k1rn0", phrase: "blazing fast", rewrite: "35 ms" }],
          })
          : '{"verdict":"pass"}',
      );
    }
    if (toolResults(body).length) return say("Done.");
    return { blocks: [toolUse("Write", { file_path: scenario.path, content: scenario.content })] };
  });
}

function shellQuote(word: string): string {
  return /^[A-Za-z0-9_./:=@%+,-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * A temp HOME with the plugin installed from this repo's marketplace (its PreToolUse hook is
 * the judge, through the launcher and the bundle) and a settings hook that counts prompts.
 */
async function setUp(judgeBinary: string) {
  const sandbox = await makeSandbox("git-kb-judge-e2e-");
  const kbDir = join(sandbox.root, "kb");
  const project = join(sandbox.root, "project");
  await Promise.all([copySampleKb(kbDir), Deno.mkdir(project)]);
  // The client's environment has HOME alone: its config folder is HOME's .config.
  await acceptKernel(join(sandbox.home, ".config"), await kernelRulesOf(kbDir));
  const hookCount = join(sandbox.root, "prompt-hooks.log");
  await Deno.mkdir(join(sandbox.home, ".claude"), { recursive: true });
  await Deno.writeTextFile(
    join(sandbox.home, ".claude", "settings.json"),
    JSON.stringify({
      hooks: {
        UserPromptSubmit: [{
          hooks: [{ type: "command", command: `echo fired >> ${shellQuote(hookCount)}` }],
        }],
      },
    }),
  );
  const env = (port: number): Promise<Record<string, string>> =>
    clientEnv(sandbox, port, {
      KB_DIR: kbDir,
      KB_HOOK_DEBUG: "1",
      KB_PROSE_LINT_CLAUDE: judgeBinary,
      KB_PROSE_LINT_TIMEOUT_MS: "60000",
    });
  await installPlugin(CLAUDE_CLI!, project, await env(9));
  return { ...sandbox, kbDir, project, hookCount, env };
}

/** Run one `claude -p` turn in `project` against the mock; the Write goes to `target`. */
async function writeWith(
  setup: Awaited<ReturnType<typeof setUp>>,
  content: string,
  target: string,
) {
  await using mock = startMock({ path: target, content });
  const env = await setup.env(mock.port);
  const result = await runProcess(CLAUDE_CLI!, [
    "-p",
    "Write the release notes for 0.6.",
    "--output-format",
    "json",
    "--permission-mode",
    "acceptEdits",
  ], { cwd: setup.project, env, clearEnv: true, timeoutMs: 180_000 });
  assertEquals(result.code, 0, `${result.stdout}\n${result.stderr}`);
  const results = mock.received.flatMap((request) => toolResults(request.body));
  assertEquals(results.length, 1, JSON.stringify(mock.received.map((r) => r.path)));
  return { result, toolResult: results[0], received: mock.received };
}

Deno.test({
  name: "the real client: a Write breaking a kernel rule is denied, a compliant one is written",
  ignore: SKIP !== false,
  async fn() {
    await using setup = await setUp(fakeClaude("rules"));
    const denied = join(setup.project, "release-notes-bad.md");
    const bad = await writeWith(setup, BAD, denied);
    assertEquals(await exists(denied), false, "the denied Write left no file");
    assertEquals(bad.toolResult.is_error, true, JSON.stringify(bad.toolResult));
    const reason = textOf(bad.toolResult.content);
    assertMatch(reason, /git-kb: this text breaks a rule from your knowledge base/);
    assertMatch(reason, /kb-k1rn0 \(No marketing adjectives[^)]*\): "blazing fast" → "search/);

    const written = join(setup.project, "release-notes-good.md");
    const good = await writeWith(setup, GOOD, written);
    assertEquals(await Deno.readTextFile(written), GOOD, "the allowed Write went through");
    assertNotStrictEquals(good.toolResult.is_error, true, JSON.stringify(good.toolResult));

    const records = await judgeRecords(
      join(await kbCache(join(setup.home, ".cache")), "debug.jsonl"),
    );
    assertEquals(records.map((record) => record.outcome), ["deny", "allow"]);
  },
});

Deno.test({
  name: "the real client as the judge model: no hook fires inside it, no session is kept",
  ignore: SKIP !== false,
  async fn() {
    await using setup = await setUp(CLAUDE_CLI!);
    const denied = join(setup.project, "release-notes-bad.md");
    const bad = await writeWith(setup, BAD, denied);
    assertEquals(await exists(denied), false);
    assertMatch(textOf(bad.toolResult.content), /kb-k1rn0 .*"blazing fast" → "35 ms"/);

    const judged = bad.received.filter((request) =>
      textOf(request.body.system).includes(JUDGE_SYSTEM_PROMPT)
    );
    assertEquals(judged.length, 1, "one judge request");
    const request = judged[0].body;
    assert(!(request.tools as unknown[] | undefined)?.length, "the judge has no tools");
    const prompt = textOf(request.messages);
    assert(prompt.includes('<rule id="kb-k1rn0"') && prompt.includes(BAD.trim()));
    assertMatch(String(request.model), /sonnet/, "KB_PROSE_LINT_MODEL's default");

    const fired = (await Deno.readTextFile(setup.hookCount)).trim().split("\n");
    assertEquals(fired.length, 1, "the prompt hook fired for the agent, not inside the judge");
    const sessions: string[] = [];
    for await (const project of Deno.readDir(join(setup.home, ".claude", "projects"))) {
      for await (
        const file of Deno.readDir(join(setup.home, ".claude", "projects", project.name))
      ) {
        if (file.name.endsWith(".jsonl")) sessions.push(file.name);
      }
    }
    assertEquals(sessions.length, 1, `only the agent's session is kept: ${sessions}`);
  },
});
