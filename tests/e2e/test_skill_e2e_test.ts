/**
 * `/git-kb:test-skill` in the real Claude Code CLI (`CLAUDE_CLI`, set by `deno task test:e2e`;
 * skipped without it), against a loopback mock of the Messages API: the command expands with
 * the plugin root filled in, its `!` line runs `selftest --setup-only` through the launcher
 * before the model sees anything, and the launcher commands it prints run under the command's
 * allowed-tools without a permission prompt: the mocked model's teardown removes the scratch
 * folder that setup made.
 */
import {
  assert,
  assertEquals,
  assertMatch,
  assertNotStrictEquals,
  assertRejects,
} from "@std/assert";
import { join } from "@std/path/posix/join";
import { runProcess } from "../../io/process.ts";
import { makeSandbox } from "../helpers.ts";
import {
  CLAUDE_CLI,
  clientEnv,
  installPlugin,
  type Reply,
  say,
  SKIP,
  startMockApi,
  textOf,
  toolResults,
  toolUse,
} from "./_mock_api.ts";

Deno.test({
  name: "/git-kb:test-skill runs selftest's setup, and its printed teardown runs as allowed",
  ignore: SKIP !== false,
  async fn() {
    await using sandbox = await makeSandbox("git-kb-test-skill-e2e-");
    const seen: { prompt?: string; launcher?: string; scratch?: string } = {};
    await using mock = startMockApi((body): Reply => {
      if (toolResults(body).length) return say("Done.");
      const prompt = textOf(body.messages);
      if (!prompt.includes("Test the git-kb skill from its docs alone")) return say("ok");
      seen.prompt = prompt;
      seen.launcher = /The launcher to run, exactly as written here: `"([^"]+)"`/.exec(prompt)?.[1];
      seen.scratch = /^Scratch folder: (.+)$/m.exec(prompt)?.[1];
      return {
        blocks: [
          toolUse("Bash", {
            command: `"${seen.launcher}" selftest --teardown ${seen.scratch}`,
            description: "Tear down the scratch knowledge base",
          }),
        ],
      };
    });
    const project = join(sandbox.root, "project");
    await Deno.mkdir(project);
    const env = await clientEnv(sandbox, mock.port);
    await installPlugin(CLAUDE_CLI!, project, env);
    const result = await runProcess(
      CLAUDE_CLI!,
      ["-p", "/git-kb:test-skill", "--output-format", "json"],
      { cwd: project, env, clearEnv: true, timeoutMs: 180_000 },
    );
    assertEquals(result.code, 0, `${result.stdout}\n${result.stderr}`);
    assert(seen.prompt, "the model got the command's text");
    assertMatch(seen.launcher ?? "", /\/bin\/git-kb$/, "the plugin root is filled in");
    assert(
      seen.scratch?.startsWith(join(sandbox.home, ".cache", "git-kb", "selftest-")),
      seen.prompt,
    );
    assertMatch(seen.prompt, /^Writer, in this order:$/m, "the setup output is in the prompt");
    assertMatch(seen.prompt, /^ {2}3\. Change entry kb-st003/m);
    const results = mock.received.flatMap((request) => toolResults(request.body));
    assertEquals(results.length, 1);
    const output = textOf(results[0].content);
    assertNotStrictEquals(results[0].is_error, true, output);
    assertMatch(output, /2 of 2 steps passed\./, output);
    await assertRejects(() => Deno.stat(seen.scratch!), Deno.errors.NotFound);
  },
});
