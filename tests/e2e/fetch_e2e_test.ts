/**
 * Fetching is free, in the real Claude Code CLI (`CLAUDE_CLI`, set by `deno task test:e2e`;
 * skipped without it) against a loopback mock of the Messages API: the plugin installed as the
 * README says (marketplace, install, `init` from a shell), then `claude -p` in its default
 * permission mode, no allowed tools. A mock model that runs the "Fetch full text:" line the
 * prompt hook gave it gets the entry back; the same line with anything chained or redirected, or
 * `get` on a folder that is not a configured knowledge base, is not run.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runProcess } from "../../io/process.ts";
import { makeKb, ROOT } from "../helpers.ts";
import {
  CLAUDE_CLI,
  clientEnv,
  installPlugin,
  say,
  SKIP,
  startMockApi,
  textOf,
  toolResults,
  toolUse,
} from "./_mock_api.ts";

if (SKIP) console.log(`fetch_e2e_test.ts skipped: ${SKIP}`);

/** The launcher of the plugin as installed from this repo's marketplace (it runs in place). */
const LAUNCHER = join(ROOT, "plugin", "bin", "git-kb");

/** What became of one Bash call: its tool result's text and whether it was an error. */
interface Outcome {
  command: string;
  error: boolean;
  text: string;
}

/**
 * One `claude -p` session whose mock model runs, one per turn, the Bash commands `commands`
 * makes of the fetch line the prompt hook printed; what each call came back with.
 */
async function fetchSession(commands: (fetch: string) => string[]): Promise<{
  fetch: string;
  outcomes: Outcome[];
  /** What the project folder holds afterwards. */
  files: string[];
}> {
  await using kb = await makeKb({ remote: true });
  const project = join(kb.root, "project");
  await Deno.mkdir(project);
  const { KB_DIR: _configured, ...base } = kb.env;
  const env = (port: number) => clientEnv(kb, port, base);
  await installPlugin(CLAUDE_CLI!, project, await env(9));
  const init = await runProcess(LAUNCHER, ["init", kb.dir], {
    env: { ...base, PATH: Deno.env.get("PATH") ?? "" },
    clearEnv: true,
  });
  assert.equal(init.code, 0, init.stdout + init.stderr);

  let fetch = "";
  let planned: string[] = [];
  const issued: string[] = [];
  await using mock = startMockApi((body) => {
    if (!fetch) {
      fetch = textOf(body.messages).match(/^Fetch full text: (.+)$/m)?.[1] ?? "";
      planned = fetch ? commands(fetch) : [];
    }
    const next = planned[issued.length];
    if (next === undefined) return say("Done.");
    issued.push(next);
    return { blocks: [toolUse("Bash", { command: next, description: "fetch" })] };
  });
  const result = await runProcess(
    CLAUDE_CLI!,
    ["-p", "How do I rotate a leaked Cloudflare token used by our CI?", "--output-format", "json"],
    { cwd: project, env: await env(mock.port), clearEnv: true, timeoutMs: 180_000 },
  );
  assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
  assert.ok(fetch, "the prompt hook printed a fetch line");
  const outcomes = mock.received.filter((request) => request.path.endsWith("/v1/messages"))
    .flatMap((request) => toolResults(request.body))
    .map((block, index) => ({
      command: issued[index],
      error: block.is_error === true,
      text: textOf(block.content),
    }));
  assert.equal(outcomes.length, issued.length, JSON.stringify(outcomes));
  const files = [...Deno.readDirSync(project)].map((item) => item.name);
  return { fetch, outcomes, files };
}

Deno.test({
  name: "the real client runs the printed fetch line without asking, in its default mode",
  ignore: SKIP !== false,
  async fn() {
    const { fetch, outcomes } = await fetchSession((fetch) => [
      fetch,
      // As the skill shows get: the launcher in double quotes, no --kb (the config has it).
      `"${LAUNCHER}" get kb-7q2mx --links`,
      // As the hook joins the fetches of several knowledge bases.
      `${fetch} ; ${fetch}`,
    ]);
    assert.ok(fetch.startsWith(`${LAUNCHER} get kb-7q2mx`), fetch);
    assert.equal(outcomes.length, 3);
    for (const outcome of outcomes) {
      assert.equal(outcome.error, false, `${outcome.command}: ${outcome.text}`);
      assert.match(outcome.text, /^id: kb-7q2mx$/m, "the entry's text comes back");
      assert.match(outcome.text, /Rotate a leaked npm or Cloudflare token/);
    }
  },
});

Deno.test({
  name: "the real client asks before anything chained to, or redirected from, a fetch line",
  ignore: SKIP !== false,
  async fn() {
    const { outcomes, files } = await fetchSession((fetch) => [
      `${fetch}; touch PWNED`,
      `${fetch} && touch PWNED`,
      `${fetch} > stolen.txt`,
      `${fetch}\ntouch PWNED`,
      `${fetch.replace(/ --kb .*$/, "")} --kb /etc`,
    ]);
    for (const outcome of outcomes) {
      assert.equal(outcome.error, true, `${outcome.command}: ${outcome.text}`);
      assert.match(outcome.text, /requires? approval|was blocked/, outcome.command);
      assert.doesNotMatch(outcome.text, /^id: /m, outcome.command);
    }
    assert.deepEqual(files.filter((name) => name === "PWNED" || name === "stolen.txt"), []);
  },
});
