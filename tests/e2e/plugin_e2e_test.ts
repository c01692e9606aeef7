/**
 * The installed plugin in the real Claude Code CLI (`CLAUDE_CLI`, set by `deno task test:e2e`;
 * skipped without it): `claude plugin validate` passes, the marketplace is added from this repo
 * and the plugin installed into a temp HOME, and `claude -p` runs our UserPromptSubmit hook
 * before it stops for lack of a login. Assertions read the session transcript. No credentials;
 * every proxy variable points at a closed loopback port, so nothing can reach the network.
 */
import { assert, assertEquals, assertMatch, assertNotMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import { makeKb, ROOT } from "../helpers.ts";
import { runProcess } from "../../io/process.ts";
import { CLAUDE_CLI, OFFLINE, SKIP } from "./_mock_api.ts";

/** Where the CLI writes a session's transcript, wherever the project slug puts it. */
function transcriptOf(home: string, sessionId: string): string[] {
  for (const project of Deno.readDirSync(join(home, ".claude", "projects"))) {
    const path = join(home, ".claude", "projects", project.name, `${sessionId}.jsonl`);
    try {
      return Deno.readTextFileSync(path).split("\n").filter(Boolean);
    } catch { /* another project */ }
  }
  throw new Error(`no transcript for session ${sessionId} under ${home}/.claude/projects`);
}

/** `env` for the CLI, which cannot reach the network with it (no API: it stops unlogged). */
function offline(env: Record<string, string>): Record<string, string> {
  return { ...env, PATH: Deno.env.get("PATH") ?? "", ...OFFLINE, NO_PROXY: "", no_proxy: "" };
}

/** The text our hook injected into a session, one string per injection. */
function injected(lines: string[]): string[] {
  return lines.map((line) => JSON.parse(line)).filter((record) =>
    record.attachment?.type === "hook_additional_context"
  ).flatMap((record) => record.attachment.content as string[]);
}

Deno.test({
  name: "claude plugin validate passes, plain and --strict, for the plugin and the marketplace",
  ignore: SKIP !== false,
  async fn() {
    for (const target of [join(ROOT, "plugin"), ROOT]) {
      for (const extra of [[], ["--strict"]]) {
        const result = await runProcess(CLAUDE_CLI!, ["plugin", "validate", target, ...extra], {
          timeoutMs: 60_000,
        });
        assertEquals(result.code, 0, `${target} ${extra}: ${result.stdout}${result.stderr}`);
      }
    }
  },
});

Deno.test({
  name: "the installed plugin's prompt hook injects pointers in the real client",
  ignore: SKIP !== false,
  async fn() {
    await using kb = await makeKb();
    const project = join(kb.root, "project");
    await Deno.mkdir(project);
    const env = offline(kb.env);
    const claude = (args: string[]) =>
      runProcess(CLAUDE_CLI!, args, { cwd: project, env, clearEnv: true, timeoutMs: 120_000 });
    const added = await claude(["plugin", "marketplace", "add", ROOT]);
    assertEquals(added.code, 0, added.stdout + added.stderr);
    const installed = await claude(["plugin", "install", "git-kb@git-kb"]);
    assertEquals(installed.code, 0, installed.stdout + installed.stderr);

    const matching = crypto.randomUUID();
    await claude([
      "-p",
      "How do I rotate a leaked Cloudflare token used by our CI?",
      "--session-id",
      matching,
    ]);
    const context = injected(transcriptOf(kb.home, matching));
    assertEquals(context.length, 1, `one injection: ${JSON.stringify(context)}`);
    assertMatch(context[0], /kb-7q2mx Rotate a leaked npm or Cloudflare token/);
    assertMatch(context[0], /### kb-c0mw8 /, "kernel rules go in verbatim");
    assertNotMatch(context[0], /kb-3hd8w/, "a superseded entry never surfaces");

    const fetch = context[0].match(/^Fetch full text: (.+)$/m)?.[1];
    assert(fetch, context[0]);
    assert(fetch.includes(join(ROOT, "plugin", "bin", "git-kb")), fetch);
    const fetched = await runProcess("sh", ["-c", fetch], { env, clearEnv: true });
    assertEquals(fetched.code, 0, fetched.stderr);
    assertMatch(fetched.stdout, /^id: kb-7q2mx$/m, "the printed command runs as printed");

    const mechanical = crypto.randomUUID();
    await claude(["-p", "run the tests again", "--session-id", mechanical]);
    const lines = transcriptOf(kb.home, mechanical);
    assert(lines.some((line) => line.includes("run the tests again")), "the prompt ran");
    assertEquals(injected(lines), [], "a mechanical prompt injects nothing");
  },
});

/** Install git-kb into a temp HOME without the plugin system. */
const installs: Record<string, (home: string, env: Record<string, string>) => Promise<void>> = {
  "a symlink in ~/.claude/skills": async (home) => {
    await Deno.mkdir(join(home, ".claude", "skills"), { recursive: true });
    await Deno.symlink(join(ROOT, "plugin"), join(home, ".claude", "skills", "git-kb"));
  },
  "git-kb setup --agent claude": async (_home, env) => {
    const setup = await runProcess(join(ROOT, "plugin", "bin", "git-kb"), [
      "setup",
      "--agent",
      "claude",
    ], { env, clearEnv: true });
    assertEquals(setup.code, 0, setup.stdout + setup.stderr);
  },
};

for (const [install, apply] of Object.entries(installs)) {
  Deno.test({
    name: `installed without the plugin system, by ${install}: the prompt hook fires`,
    ignore: SKIP !== false,
    async fn() {
      await using kb = await makeKb();
      const project = join(kb.root, "project");
      await Deno.mkdir(project);
      await apply(kb.home, { ...kb.env, PATH: Deno.env.get("PATH") ?? "" });
      const session = crypto.randomUUID();
      await runProcess(CLAUDE_CLI!, [
        "-p",
        "How do I rotate a leaked Cloudflare token used by our CI?",
        "--session-id",
        session,
      ], {
        cwd: project,
        env: offline(kb.env),
        clearEnv: true,
        timeoutMs: 120_000,
      });
      const context = injected(transcriptOf(kb.home, session));
      assertEquals(context.length, 1, JSON.stringify(context));
      assertMatch(context[0], /kb-7q2mx /);
    },
  });
}
