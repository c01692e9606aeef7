/**
 * The tool-time hooks in the real Claude Code CLI (`CLAUDE_CLI`, set by `deno task test:e2e`;
 * skipped without it), against a loopback mock of the Messages API, with the plugin installed
 * into a temp HOME from this repo's marketplace:
 *
 * - a Grep call and a Bash `grep` get the search augment's additionalContext (the judge does not
 *   start for that Bash call: its `if` rules name commits and publishes only);
 * - which Bash calls start a git-kb process at all, counted by a wrapper around the installed
 *   launcher: none for `ls`, the judge for `git commit`, the search augment for `grep`;
 * - an Agent call's prompt is rewritten through updatedInput (the subagent's first request
 *   carries the block, the parent's transcript keeps the original), and the subagent's fetch
 *   of a pointer is receipted by the PostToolUse hook, whose `if` keeps it from starting for
 *   other commands;
 * - what `permissionDecision` does to `updatedInput` in this version (spec/hooks.md), with a
 *   stand-in hook that rewrites a Bash command.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import { PROMPT_WORDING } from "../../core/prompt/decision.ts";
import { shellQuote } from "../../core/shell/quote.ts";
import { runProcess } from "../../io/process.ts";
import { sessionFile } from "../../io/hook/session.ts";
import { acceptKernel, copySampleKb, kernelRulesOf, makeSandbox, ROOT } from "../helpers.ts";
import { kbCache } from "../judge_helpers.ts";
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

if (SKIP) console.log(`tool_hooks_e2e_test.ts skipped: ${SKIP}`);

/**
 * A temp HOME with the plugin installed (from this repo, or from the marketplace `marketplace`
 * makes under the sandbox root), a copy of the sample knowledge base, a project.
 */
async function setUp(marketplace?: (root: string) => Promise<string>) {
  const sandbox = await makeSandbox("git-kb-tool-e2e-");
  const kbDir = join(sandbox.root, "kb");
  const project = join(sandbox.root, "project");
  await Promise.all([copySampleKb(kbDir), Deno.mkdir(project)]);
  // The client's environment has HOME alone: its config folder is HOME's .config.
  await acceptKernel(join(sandbox.home, ".config"), await kernelRulesOf(kbDir));
  await Deno.writeTextFile(join(project, "notes.md"), "rebase and bisect notes\n");
  const env = (port: number) => clientEnv(sandbox, port, { KB_DIR: kbDir, KB_HOOK_DEBUG: "1" });
  await installPlugin(CLAUDE_CLI!, project, await env(9), await marketplace?.(sandbox.root));
  return { ...sandbox, kbDir, project, env };
}

/** One `claude -p` run in `project` against a mock answering with `respond`. */
async function runClaude(
  setup: Awaited<ReturnType<typeof setUp>>,
  prompt: string,
  respond: (body: Record<string, unknown>) => Reply,
  extra: string[] = [],
) {
  await using mock = startMockApi(respond);
  const session = crypto.randomUUID();
  const result = await runProcess(
    CLAUDE_CLI!,
    ["-p", prompt, "--output-format", "json", "--session-id", session, ...extra],
    { cwd: setup.project, env: await setup.env(mock.port), clearEnv: true, timeoutMs: 180_000 },
  );
  assertEquals(result.code, 0, `${result.stdout}\n${result.stderr}`);
  return { session, received: mock.received.filter((r) => r.path.endsWith("/v1/messages")) };
}

/** Tool results across all messages of a request. */
function resultCount(body: Record<string, unknown>): number {
  const messages = (body.messages ?? []) as { content: unknown }[];
  return messages.flatMap((message) => Array.isArray(message.content) ? message.content : [])
    .filter((block) => block?.type === "tool_result").length;
}

/** The debug log of the sample knowledge base, in the cache under the temp HOME. */
async function debugRecords(home: string): Promise<Record<string, unknown>[]> {
  const text = await Deno.readTextFile(join(await kbCache(join(home, ".cache")), "debug.jsonl"));
  return text.trim().split("\n").map((line) => JSON.parse(line));
}

Deno.test({
  name: "the real client: Grep and Bash grep get the search augment's additionalContext",
  ignore: SKIP !== false,
  async fn() {
    await using setup = await setUp();
    const { received } = await runClaude(setup, "Where do we explain rebasing?", (body) => {
      const done = resultCount(body);
      if (done === 0) return { blocks: [toolUse("Grep", { pattern: "rebase", path: "." })] };
      if (done === 1) {
        return { blocks: [toolUse("Bash", { command: "grep -rn bisect .", description: "s" })] };
      }
      return say("Done.");
    }, ["--allowedTools", "Grep"]); // 2.1.197's native build offers Grep only when named
    assertEquals(received.length, 3, "the Grep turn, the Bash turn, the last turn");
    const afterGrep = textOf(received[1].body.messages);
    assertMatch(afterGrep, /PreToolUse:Grep hook additional context: git-kb: /);
    assertMatch(afterGrep, /- kb-r4b9t Rebase a feature branch onto main safely \[howto\]/);
    const afterBash = textOf(received[2].body.messages);
    assertMatch(afterBash, /PreToolUse:Bash hook additional context: git-kb: /);
    assertMatch(afterBash, /- kb-h6y1s Find a regression with git bisect run/);
    const records = await debugRecords(setup.home);
    assertEquals(
      records.filter((record) => record.event === "search").map((record) => record.tool),
      ["Grep", "Bash"],
    );
    assertEquals(
      records.filter((record) => record.event === "judge").map((record) => record.tool),
      [],
      "the judge's if rules keep it from starting for a grep",
    );
  },
});

/**
 * A copy of this repo's marketplace under `root` whose launcher is a wrapper that leaves, for
 * each start, a pair of files in `log`: the launcher's arguments and the hook payload it was
 * given. Its folder, to install from.
 */
async function wrappedMarketplace(root: string, log: string): Promise<string> {
  const market = join(root, "market");
  await Deno.mkdir(market);
  const copy = await runProcess("cp", [
    "-R",
    join(ROOT, ".claude-plugin"),
    join(ROOT, "plugin"),
    market,
  ]);
  assertEquals(copy.code, 0, copy.stderr);
  const launcher = join(market, "plugin", "bin", "git-kb");
  await Deno.rename(launcher, `${launcher}.real`);
  await Deno.writeTextFile(
    launcher,
    `#!/bin/sh
start=$(mktemp ${shellQuote(join(log, "start.XXXXXX"))})
cat > "$start.json"
printf '%s\\n' "$*" > "$start"
exec "\${0%/*}/git-kb.real" "$@" < "$start.json"
`,
  );
  await Deno.chmod(launcher, 0o755);
  await Deno.mkdir(log);
  return market;
}

/** The hook verbs the wrapped launcher was started with, by the Bash command of the payload. */
async function startsByCommand(log: string): Promise<Record<string, string[]>> {
  const starts: Record<string, string[]> = {};
  for await (const entry of Deno.readDir(log)) {
    if (entry.name.endsWith(".json")) continue;
    const args = (await Deno.readTextFile(join(log, entry.name))).trim();
    const payload = JSON.parse(await Deno.readTextFile(join(log, `${entry.name}.json`)));
    const key = payload.tool_input?.command ?? payload.hook_event_name;
    (starts[key] ??= []).push(`${payload.hook_event_name} ${args}`);
  }
  for (const list of Object.values(starts)) list.sort();
  return starts;
}

const BASH_CALLS = [
  "ls",
  "git commit -m 'Explain why the retry loop backs off before the third attempt, not after it'",
  "grep -rn bisect .",
  "git commit -m 'Record the release notes' && gh pr create --title 'Release' --body 'Notes'",
  "for name in a b; do echo $name; done",
];

Deno.test({
  name: "the real client: a Bash call starts git-kb only when it commits, publishes or searches",
  ignore: SKIP !== false,
  async fn() {
    let log = "";
    await using setup = await setUp((root) => wrappedMarketplace(root, log = join(root, "starts")));
    await runClaude(setup, "Tidy up.", (body) => {
      const command = BASH_CALLS[resultCount(body)];
      return command
        ? { blocks: [toolUse("Bash", { command, description: "run" })] }
        : say("Done.");
    }, ["--allowedTools", "Bash"]);
    const starts = await startsByCommand(log);
    // Claude Code 2.1.197 runs no SessionEnd hook when `-p` exits while a background hook (the
    // watch) runs; 2.1.332 does. Either way it starts only the capture, and nothing else differs.
    const { SessionEnd: ended = ["SessionEnd hook capture"], ...rest } = starts;
    assertEquals(ended, ["SessionEnd hook capture"]);
    assertEquals(rest, {
      // Three start a session: the fast-forward pull and the freshness watch in the background,
      // and the compact handler, which on startup says once how to connect a knowledge base
      // when none is (here one is: it prints nothing).
      SessionStart: [
        "SessionStart hook compact",
        "SessionStart hook session",
        "SessionStart hook watch",
      ],
      UserPromptSubmit: ["UserPromptSubmit hook prompt"],
      [BASH_CALLS[1]]: ["PreToolUse hook judge"],
      [BASH_CALLS[2]]: ["PreToolUse hook search"],
      // Claude Code de-duplicates handlers by command and `if` together: a call that matches
      // two of the judge's rules starts it twice.
      [BASH_CALLS[3]]: ["PreToolUse hook judge", "PreToolUse hook judge"],
      // A command the client cannot parse starts every handler: each Bash rule, receipts too.
      [BASH_CALLS[4]]: [
        "PostToolUse hook receipts",
        "PreToolUse hook fetch",
        ...Array(3).fill("PreToolUse hook judge"),
        ...Array(3).fill("PreToolUse hook search"),
      ],
    });
  },
});

const TASK = "Rotate the leaked Cloudflare token used by our CI and list the workflows to update.";

Deno.test({
  name:
    "the real client: an Agent prompt gets the block through updatedInput; fetches are receipted",
  ignore: SKIP !== false,
  async fn() {
    await using setup = await setUp();
    const user = "Delegate the token rotation.";
    const { session, received } = await runClaude(setup, user, (body) => {
      const text = textOf(body.messages);
      if (!text.includes(user)) {
        // The subagent: fetch what its prompt points at, exactly as printed, then finish.
        if (resultCount(body) === 0) {
          const fetch = text.match(/^Fetch full text: (.+)$/m)?.[1] ?? "echo no fetch line";
          return {
            blocks: [
              toolUse("Bash", { command: "ls", description: "look" }),
              toolUse("Bash", { command: fetch, description: "fetch" }),
            ],
          };
        }
        return say("Sub done.");
      }
      if (resultCount(body) === 0) {
        return {
          blocks: [toolUse("Agent", {
            description: "Rotate the CI token",
            prompt: TASK,
            subagent_type: "general-purpose",
          })],
        };
      }
      return say("Done.");
    }, ["--allowedTools", "Bash"]);

    const first = received.find((request) =>
      !textOf(request.body.messages).includes(user) && resultCount(request.body) === 0
    );
    assert(first, "the subagent made a request");
    const prompt = textOf(first.body.messages);
    assert(prompt.includes(`${TASK}\n\n${PROMPT_WORDING.header}`), prompt.slice(0, 2000));
    assertMatch(prompt, /### kb-c0mw8 Say what changed and why/, "kernel rules included");
    assertMatch(prompt, /- kb-7q2mx Rotate a leaked npm or Cloudflare token/);
    const parent = received.filter((request) => textOf(request.body.messages).includes(user));
    assert(
      parent.every((request) =>
        !textOf(request.body.messages).includes(`${TASK}\n\n${PROMPT_WORDING.header}`)
      ),
      "the parent's transcript keeps the prompt it wrote",
    );

    const receipts = JSON.parse(
      await Deno.readTextFile(
        sessionFile(await kbCache(join(setup.home, ".cache")), session, ".receipts.json"),
      ),
    );
    assert(receipts.fetched.includes("kb-7q2mx"), JSON.stringify(receipts));
    const records = await debugRecords(setup.home);
    assertEquals(
      records.filter((record) => record.event === "receipt").length,
      1,
      "the receipts hook started for the fetch only (its if: Bash(*git-kb*))",
    );
    assertEquals(
      records.filter((record) => record.event === "subagent").map((record) => record.outcome),
      ["surfaced"],
    );
  },
});

/**
 * A stand-in PreToolUse hook that rewrites a Bash `touch first` into `touch second` through
 * updatedInput, with the permissionDecision given (none when empty).
 */
const REWRITER = `const input = JSON.parse(await new Response(Deno.stdin.readable).text());
const decision = Deno.args[0];
const tool_input = { ...input.tool_input, command: input.tool_input.command.replace("first", "second") };
console.log(JSON.stringify({ hookSpecificOutput: {
  hookEventName: "PreToolUse", updatedInput: tool_input, ...decision ? { permissionDecision: decision } : {},
} }));
`;

Deno.test({
  name: "Claude Code 2.1.197: updatedInput without permissionDecision keeps the permission flow",
  ignore: SKIP !== false,
  async fn() {
    await using setup = await setUp();
    const script = join(setup.root, "rewrite.ts");
    await Deno.writeTextFile(script, REWRITER);
    const outcomes: Record<string, { result: string; files: string[]; turns: number }> = {};
    for (const decision of ["", "allow", "ask", "defer"]) {
      for (const name of ["first", "second"]) {
        await Deno.remove(join(setup.project, name)).catch(() => {});
      }
      await Deno.writeTextFile(
        join(setup.home, ".claude", "settings.json"),
        JSON.stringify({
          hooks: {
            PreToolUse: [{
              matcher: "Bash",
              hooks: [{ type: "command", command: `deno run -A ${script} ${decision}` }],
            }],
          },
        }),
      );
      const { received } = await runClaude(
        setup,
        "Touch the file.",
        (body) =>
          resultCount(body)
            ? say("Done.")
            : { blocks: [toolUse("Bash", { command: "touch first", description: "touch" })] },
      );
      const result = received.flatMap((request) => toolResults(request.body))[0];
      outcomes[decision || "none"] = {
        result: result ? `${result.is_error ? "error" : "ok"}` : "no tool result",
        files: [...Deno.readDirSync(setup.project)].map((item) => item.name)
          .filter((name) => name === "first" || name === "second"),
        turns: received.length,
      };
    }
    assertEquals(outcomes, {
      // Rewritten, then the default permission flow refused the write in print mode.
      none: { result: "error", files: [], turns: 2 },
      // Rewritten and run without asking: the permission flow was bypassed.
      allow: { result: "ok", files: ["second"], turns: 2 },
      // Asking in print mode refuses the call.
      ask: { result: "error", files: [], turns: 2 },
      // The turn stops (stop_reason tool_deferred): nothing runs, no second request.
      defer: { result: "no tool result", files: [], turns: 1 },
    });
  },
});
