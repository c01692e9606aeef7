/**
 * The prose judge hook as Claude Code runs it: a subprocess with the judge profile's flags
 * (`judgeFlags`), a cleared environment, a temp copy of the sample knowledge base, and fake
 * `claude` scripts from fixtures/judge that record every call they get.
 */
import { assert, assertEquals, assertMatch, assertNotMatch, assertRejects } from "@std/assert";
import { join } from "@std/path/posix/join";
import { judgeFlags } from "../app/permissions.ts";
import { acceptKernel, kernelRulesOf, ROOT } from "./helpers.ts";
import {
  assertAllowed,
  assertDenied,
  fakeClaude,
  judgeKb,
  kbCache,
  payload,
  type RecordedCall,
  runJudge,
  toolPayload,
} from "./judge_helpers.ts";

function argAfter(call: RecordedCall, flag: string): string | undefined {
  const index = call.argv.indexOf(flag);
  return index === -1 ? undefined : call.argv[index + 1];
}

Deno.test("the judge profile: cache-only writes, no net, runs only the judge binary and kill", async () => {
  const flags = judgeFlags("/some/tmp", "/opt/bin/claude");
  assert(flags.includes("--no-prompt"));
  assert(flags.includes("--allow-run=/opt/bin/claude,kill"), flags.join(" "));
  assert(judgeFlags("/some/tmp").includes("--allow-run=claude,kill"));
  for (const flag of flags) {
    assertNotMatch(
      flag,
      /^--allow-(net|ffi|all)\b|^--allow-sys(?!=uid$)|^-A$|^--allow-run$/,
      flag,
    );
  }
  const writes = flags.filter((flag) => flag.startsWith("--allow-write"));
  assertEquals(writes, ["--allow-write=/some/tmp"]);
  const envFlag = flags.find((flag) => flag.startsWith("--allow-env="))!;
  for (const name of ["KB_PROSE_LINT", "KB_PROSE_LINT_MODEL", "KB_PROSE_LINT_TIMEOUT_MS"]) {
    assert(envFlag.split(/[=,]/).includes(name), name);
  }
  const tasks = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json"))).tasks;
  // The flags profile:judge comes to: tests/permissions_test.ts, for every task.
  assertEquals(tasks["hook:judge"], "deno task --quiet profile:judge hooks/judge.ts");
});

Deno.test("calls with no prose are allowed without a model call", async () => {
  await using kb = await judgeKb();
  const inputs = [
    await payload("bash-plain"),
    await payload("read"),
    toolPayload("Write", { file_path: "/w/a.md", content: "Blazing fast." }),
    toolPayload("Write", { file_path: "/w/data.csv", content: "robust,seamless\n".repeat(20) }),
    toolPayload("Bash", { command: "git commit -m 'Add blazing fast search'" }),
    toolPayload("mcp__tracker__update_ticket", { id: "x".repeat(80), state: "DONE" }),
  ];
  for (const input of inputs) {
    assertAllowed(await runJudge(input, { env: kb.env, claude: fakeClaude("fail") }));
  }
  assertEquals(await kb.calls(), [], "no model call");
  const records = await kb.records();
  assertEquals(records.length, inputs.length);
  for (const record of records) {
    assertEquals(record.outcome, "skipped");
    assertEquals(record.reason, "no prose");
  }
});

Deno.test("prose that breaks a kernel rule is denied with each violation", async () => {
  await using kb = await judgeKb();
  const reason = assertDenied(
    await runJudge(await payload("write-fail"), { env: kb.env, claude: fakeClaude("fail") }),
  );
  assertEquals(
    reason,
    "git-kb: this text breaks 2 rules from your knowledge base. Revise it and try again.\n" +
      "- kb-k1rn0 (No marketing adjectives in commit messages and PR text): " +
      '"blazing fast" → "search over 2k entries: 180 ms to 35 ms"\n' +
      "- kb-c0mw8 (Say what changed and why in commit messages): " +
      '"misc fixes" → "Skip superseded entries in search results"',
  );
  const [record] = await kb.records();
  assertEquals(record.outcome, "deny");
  assertEquals(record.reason, "fail: kb-k1rn0, kb-c0mw8");
  assertEquals(record.rules, ["kb-c0mw8", "kb-k1rn0"]);
});

Deno.test("with several knowledge bases, the rules of each are judged, named by their knowledge base", async () => {
  await using kb = await judgeKb();
  const team = join(kb.root, "team");
  await Deno.mkdir(join(team, "entries"), { recursive: true });
  const rule = {
    id: "kb-t3am1",
    title: "Name the ticket in every commit message",
    body: "Start the subject with the ticket, like OPS-12.",
  };
  await Deno.writeTextFile(
    join(team, "entries", "kb-t3am1-name-the-ticket.md"),
    `---\nid: ${rule.id}\ntitle: ${rule.title}\ntype: rule\nkernel: true\n` +
      `created: 2026-01-01\nupdated: 2026-01-01\n---\n${rule.body}\n`,
  );
  await acceptKernel(kb.config, await kernelRulesOf(team));
  await Deno.mkdir(join(kb.config, "git-kb"), { recursive: true });
  await Deno.writeTextFile(
    join(kb.config, "git-kb", "config.json"),
    JSON.stringify({
      kbs: [{ name: "personal", dir: kb.kbDir }, { name: "team", dir: team }],
      default: "personal",
    }),
  );
  const env = { ...kb.env };
  delete env.KB_DIR;
  assertAllowed(await runJudge(await payload("write-fail"), { env, claude: fakeClaude("pass") }));
  const [call] = await kb.calls();
  assert(call.stdin.includes(`team:${rule.id}`), call.stdin);
  assert(call.stdin.includes(rule.title), call.stdin);
  assert(call.stdin.includes("personal:kb-k1rn0"), call.stdin);
});

Deno.test("each tool shape sends its prose, and only its prose, to the model", async () => {
  await using kb = await judgeKb();
  const cases: [string, string[], string[]][] = [
    ["write-fail", ["This release brings blazing fast, seamless search"], []],
    ["bash-heredoc-commit", [
      '<text source="commit message">\nAdd blazing fast search\n\nThis seamless change',
    ], ["git add", "cat <<", "EOF"]],
    ["bash-gh-pr", [
      '<text source="gh pr create title">\nSkip superseded entries in search\n</text>',
      '<text source="gh pr create body">\nUsers kept landing on the old token note',
    ], ["--title", "--body"]],
    ["edit-code", [
      '<text source="comment in search.ts">\nRank hits with a blazing fast, robust',
    ], ["const hits", "rank(postings)"]],
    ["mcp-comment", [
      '<text source="mcp__github__add_issue_comment tool_input.body">\nThis powerful fix',
    ], ["octo", "issue_number"]],
  ];
  for (const [name] of cases) {
    assertDenied(
      await runJudge(await payload(name), { env: kb.env, claude: fakeClaude("fail") }),
    );
  }
  const calls = await kb.calls();
  assertEquals(calls.length, cases.length);
  for (const [index, [name, present, absent]] of cases.entries()) {
    const prompt = calls[index].stdin;
    for (const text of present) assert(prompt.includes(text), `${name}: ${text}\n${prompt}`);
    const prose = prompt.slice(prompt.indexOf("</rules>"));
    for (const text of absent) assert(!prose.includes(text), `${name}: not ${text}`);
  }
});

Deno.test("compliant prose is allowed silently after one model call", async () => {
  await using kb = await judgeKb();
  assertAllowed(
    await runJudge(await payload("write-pass"), { env: kb.env, claude: fakeClaude("rules") }),
  );
  assertEquals((await kb.calls()).length, 1);
  const [record] = await kb.records();
  assertEquals(record.outcome, "allow");
  assertEquals(record.reason, "pass");
});

Deno.test("the model call: rules and prose on stdin, our hooks off, no session kept", async () => {
  await using kb = await judgeKb();
  const env = { ...kb.env, KB_PROSE_LINT_MODEL: "haiku" };
  assertDenied(await runJudge(await payload("write-fail"), { env, claude: fakeClaude("rules") }));
  const [call] = await kb.calls();
  assertEquals(call.argv[0], "-p", call.argv.join(" "));
  assertEquals(argAfter(call, "--model"), "haiku");
  assertEquals(argAfter(call, "--output-format"), "json");
  assertEquals(JSON.parse(argAfter(call, "--settings") ?? "{}"), { disableAllHooks: true });
  assertEquals(argAfter(call, "--tools"), "", "no tools: a single turn, no PreToolUse inside");
  assert(call.argv.includes("--no-session-persistence"), "nothing in the session history");
  assert(call.argv.includes("--strict-mcp-config"), "no MCP servers");
  assertMatch(argAfter(call, "--system-prompt") ?? "", /JSON object/);
  assertEquals(call.env.GIT_KB_JUDGE, "1", "the recursion marker");
  assertEquals(call.env.CLAUDE_CODE_SAFE_MODE, "1");
  assertEquals(call.env.CLAUDE_CODE_DISABLE_CLAUDE_MDS, "1");
  assertEquals(call.env.HOME, kb.home, "the user's HOME, so the CLI finds its login");
  assertEquals(call.cwd, await kbCache(kb.tmp), "run away from the project's settings");
  const kernel = await Deno.readTextFile(
    join(kb.kbDir, "entries", "kb-k1rn0-no-marketing-adjectives-in-commit-messages-and-pr.md"),
  );
  const body = kernel.slice(kernel.indexOf("\n---\n") + 5).trim();
  assert(call.stdin.includes(`<rule id="kb-k1rn0" title="No marketing adjectives`));
  assert(call.stdin.includes(body), "the kernel body, verbatim from the entry file");
  assert(call.stdin.includes('<rule id="kb-c0mw8"'));
  assert(call.stdin.includes("This release brings blazing fast, seamless search"));
  assert(!call.argv.some((arg) => arg.includes("blazing fast")), "prose goes to stdin only");
});

Deno.test("inside a judge call (GIT_KB_JUDGE=1) the hook does nothing at all", async () => {
  await using kb = await judgeKb();
  const env = { ...kb.env, GIT_KB_JUDGE: "1" };
  assertAllowed(await runJudge(await payload("write-fail"), { env, claude: fakeClaude("fail") }));
  assertEquals(await kb.calls(), []);
  await assertRejects(() => kbCache(kb.tmp), "not even the index is opened");
});

Deno.test("KB_PROSE_LINT=0/false/no/off (any case) turns the judge off", async () => {
  await using kb = await judgeKb();
  const input = await payload("write-fail");
  for (const value of ["0", "false", "No", "OFF"]) {
    const env = { ...kb.env, KB_PROSE_LINT: value };
    assertAllowed(await runJudge(input, { env, claude: fakeClaude("fail") }));
  }
  assertEquals(await kb.calls(), []);
  const env = { ...kb.env, KB_PROSE_LINT: "1" };
  assertDenied(await runJudge(input, { env, claude: fakeClaude("fail") }));
  assertEquals((await kb.calls()).length, 1);
});

Deno.test("verdict cache: a retry is not judged again; revised text, rules or model are", async () => {
  await using kb = await judgeKb();
  const options = { env: kb.env, claude: fakeClaude("rules") };
  const failing = await payload("write-fail");
  const first = assertDenied(await runJudge(failing, options));
  const retry = assertDenied(await runJudge(failing, options));
  assertEquals(retry, first);
  assertEquals((await kb.calls()).length, 1, "the retry was answered from the cache");
  assertEquals((await kb.records()).map((record) => record.cache), ["miss", "hit"]);

  const revised = failing.replace("blazing fast, seamless", "faster (180 ms to 35 ms)");
  assertAllowed(await runJudge(revised, options));
  assertAllowed(await runJudge(revised, options));
  assertEquals((await kb.calls()).length, 2, "revised text judged once, then cached");

  assertDenied(
    await runJudge(failing, { ...options, env: { ...kb.env, KB_PROSE_LINT_MODEL: "opus" } }),
  );
  assertEquals((await kb.calls()).length, 3, "another model judges afresh");

  // A rule edited in the knowledge base (saved by rename, as editors and git do) and accepted
  // as it now reads is read at the next call and invalidates the verdicts made under the old
  // text.
  const entry = join(
    kb.kbDir,
    "entries",
    "kb-c0mw8-say-what-changed-and-why-in-commit-messages.md",
  );
  const text = await Deno.readTextFile(entry);
  await new Promise((resolve) => setTimeout(resolve, 20));
  await Deno.writeTextFile(`${entry}.tmp`, text.replace('No "misc fixes"', 'Never "misc fixes"'));
  await Deno.rename(`${entry}.tmp`, entry);
  assertDenied(await runJudge(failing, options));
  let calls = await kb.calls();
  assertEquals(calls.length, 4, "changed rules judge afresh");
  assert(!calls[3].stdin.includes("misc fixes"), "a hand edit waits for acceptance");
  await acceptKernel(kb.config, await kernelRulesOf(kb.kbDir));
  assertDenied(await runJudge(failing, options));
  calls = await kb.calls();
  assertEquals(calls.length, 5, "the rule accepted as it reads judges afresh");
  assert(calls[4].stdin.includes('Never "misc fixes"'), calls[4].stdin);
});

Deno.test("a call with no prose loads no knowledge-base, index or model code", async () => {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", join(ROOT, "hooks", "judge.ts")],
    stdout: "piped",
    stderr: "null",
  }).output();
  const graph = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    modules: {
      specifier: string;
      dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
    }[];
  };
  const byUrl = new Map(graph.modules.map((module) => [module.specifier, module]));
  const root = new URL("../", import.meta.url).href;
  const loaded = new Set<string>();
  const visit = (url: string) => {
    if (loaded.has(url)) return;
    loaded.add(url);
    for (const dependency of byUrl.get(url)?.dependencies ?? []) {
      if (!dependency.isDynamic && dependency.code) visit(dependency.code.specifier);
    }
  };
  visit(new URL("hooks/judge.ts", root).href);
  assertEquals([...loaded].map((url) => url.slice(root.length)).sort(), [
    "core/entry/schema.ts",
    "core/hash.ts",
    "core/hook/payload.ts",
    "core/judge/code_prose.ts",
    "core/judge/prose.ts",
    "core/judge/verdict.ts",
    "core/model/reply.ts",
    "core/shell/words.ts",
    "core/text/display.ts",
    "core/text/secrets.ts",
    "hooks/judge.ts",
    "io/env.ts",
    "io/hook/stdin.ts",
  ]);
});
