/**
 * Fetching is free, in the real Claude Code CLI (`CLAUDE_CLI`, set by `deno task test:e2e`;
 * skipped without it) against a loopback mock of the Messages API: the plugin installed as the
 * README says (marketplace, install, `init` from a shell; or `git-kb setup --agent claude`), then
 * `claude -p` in its default permission mode, no allowed tools, or the interactive client on a
 * terminal. A mock model that runs the "Fetch full text:" line the prompt hook gave it gets the
 * entry back; the same line with anything chained or redirected, or `get` on a folder that is not
 * a configured knowledge base, is not run.
 */
import { assert, assertEquals, assertMatch, assertNotMatch, fail } from "@std/assert";
import { join } from "@std/path/posix/join";
import { shellCommand } from "../../core/shell/quote.ts";
import { ProcessTimeoutError, runProcess } from "../../io/process.ts";
import { makeKb, ROOT } from "../helpers.ts";
import {
  CLAUDE_CLI,
  clientEnv,
  installPlugin,
  say,
  SKIP,
  startMockApi,
  textOf,
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

/** The tool_result blocks of every message of a request, first first. */
function resultsOf(body: Record<string, unknown>): Record<string, unknown>[] {
  const messages = (body.messages ?? []) as { content: unknown }[];
  return messages.flatMap((message) => Array.isArray(message.content) ? message.content : [])
    .filter((block) => block?.type === "tool_result");
}

/** The prompt of every session: the fixture's entry kb-7q2mx answers it. */
const PROMPT = "How do I rotate a leaked Cloudflare token used by our CI?";

/** How the client runs: `claude -p`, or interactively on a terminal (through `script`). */
type Mode = "print" | "interactive";

/**
 * How git-kb is installed: the plugin from this repo's marketplace, or its hooks written into
 * `~/.claude/settings.json` by `git-kb setup --agent claude`.
 */
type Install = "plugin" | "setup";

/**
 * Let the interactive client start in `project` with no dialog: onboarding done, the project
 * trusted, the test key accepted (what a user answers once, on the first start).
 */
async function skipFirstStartDialogs(home: string, project: string, key: string): Promise<void> {
  const path = join(home, ".claude.json");
  const config = JSON.parse(await Deno.readTextFile(path).catch(() => "{}"));
  config.hasCompletedOnboarding = true;
  config.customApiKeyResponses = { approved: [key.slice(-20)], rejected: [] };
  config.projects = { ...config.projects, [project]: { hasTrustDialogAccepted: true } };
  await Deno.writeTextFile(path, JSON.stringify(config));
}

/**
 * Run the client in `mode` until `finished` is aborted (interactive: it never exits by itself)
 * or it exits (print). An interactive client left waiting, on an approval prompt say, fails here.
 */
async function runClient(
  mode: Mode,
  project: string,
  env: Record<string, string>,
  finished: AbortSignal,
): Promise<void> {
  const options = { cwd: project, env, clearEnv: true };
  if (mode === "print") {
    const result = await runProcess(CLAUDE_CLI!, ["-p", PROMPT, "--output-format", "json"], {
      ...options,
      timeoutMs: 180_000,
    });
    assertEquals(result.code, 0, `${result.stdout}\n${result.stderr}`);
    return;
  }
  await skipFirstStartDialogs(env.HOME, project, env.ANTHROPIC_API_KEY);
  const terminal = ["-qec", shellCommand([CLAUDE_CLI!, PROMPT]), "/dev/null"];
  try {
    await runProcess("script", terminal, { ...options, signal: finished, timeoutMs: 60_000 });
    fail("the interactive client exited by itself");
  } catch (error) {
    if (finished.aborted) return;
    if (!(error instanceof ProcessTimeoutError)) throw error;
    fail("the interactive client still waited after 60 s: for an approval, most likely");
  }
}

/**
 * One session in `mode`, git-kb installed by `install`, whose mock model runs, one per turn, the
 * Bash commands `commands` makes of the fetch line the prompt hook printed; what each call came
 * back with.
 */
async function fetchSession(
  commands: (fetch: string) => string[],
  mode: Mode = "print",
  install: Install = "plugin",
): Promise<{
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
  const shell = { ...base, PATH: Deno.env.get("PATH") ?? "" };
  if (install === "plugin") await installPlugin(CLAUDE_CLI!, project, await env(9));
  else {
    const setup = await runProcess(LAUNCHER, ["setup", "--agent", "claude"], {
      env: shell,
      clearEnv: true,
    });
    assertEquals(setup.code, 0, setup.stdout + setup.stderr);
  }
  const init = await runProcess(LAUNCHER, ["init", kb.dir], { env: shell, clearEnv: true });
  assertEquals(init.code, 0, init.stdout + init.stderr);

  let fetch = "";
  let planned: string[] = [];
  const finished = new AbortController();
  await using mock = startMockApi((body) => {
    // The client's side requests (a title, say) carry no fetch line: they get a plain answer.
    const line = textOf(body.messages).match(/^Fetch full text: (.+)$/m)?.[1];
    if (!line) return say("Nothing to fetch.");
    if (!fetch) [fetch, planned] = [line, commands(line)];
    const next = planned[resultsOf(body).length];
    if (next === undefined) {
      finished.abort();
      return say("Done.");
    }
    return { blocks: [toolUse("Bash", { command: next, description: "fetch" })] };
  });
  await runClient(mode, project, await env(mock.port), finished.signal);
  assert(fetch, "the prompt hook printed a fetch line");
  const results = mock.received.map((request) => resultsOf(request.body))
    .reduce((most, some) => some.length > most.length ? some : most, []);
  const outcomes = results.map((block, index) => ({
    command: planned[index],
    error: block.is_error === true,
    text: textOf(block.content),
  }));
  assertEquals(outcomes.length, planned.length, JSON.stringify(outcomes));
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
    assert(fetch.startsWith(`${LAUNCHER} get kb-7q2mx`), fetch);
    assertEquals(outcomes.length, 3);
    for (const outcome of outcomes) {
      assertEquals(outcome.error, false, `${outcome.command}: ${outcome.text}`);
      assertMatch(outcome.text, /^id: kb-7q2mx$/m, "the entry's text comes back");
      assertMatch(outcome.text, /Rotate a leaked npm or Cloudflare token/);
    }
  },
});

/** The printed line, run once more: in the interactive client, and installed by setup. */
const ALSO_FREE: [string, Mode, Install][] = [
  [
    "the real client, interactive on a terminal, runs the printed fetch line without asking",
    "interactive",
    "plugin",
  ],
  [
    "installed by git-kb setup --agent claude, the printed fetch line runs without asking",
    "print",
    "setup",
  ],
];

for (const [name, mode, install] of ALSO_FREE) {
  Deno.test({
    name,
    ignore: SKIP !== false,
    async fn() {
      const { outcomes } = await fetchSession((fetch) => [fetch], mode, install);
      assertEquals(outcomes.length, 1);
      assertEquals(outcomes[0].error, false, outcomes[0].text);
      assertMatch(outcomes[0].text, /^id: kb-7q2mx$/m, "the entry's text comes back");
    },
  });
}

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
      assertEquals(outcome.error, true, `${outcome.command}: ${outcome.text}`);
      // 2.1.197 says "requires approval" or "was blocked"; 2.1.332 a redirection "needs approval".
      assertMatch(outcome.text, /(requires?|needs) approval|was blocked/, outcome.command);
      assertNotMatch(outcome.text, /^id: /m, outcome.command);
    }
    assertEquals(files.filter((name) => name === "PWNED" || name === "stolen.txt"), []);
  },
});
