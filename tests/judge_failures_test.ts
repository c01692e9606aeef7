/**
 * The judge's failure matrix: every way it can break allows the call (exit 0, nothing on
 * stdout) within the model timeout plus one second, and leaves a debug record saying why.
 */
import { assert, assertEquals, assertMatch, assertNotMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import { judgeFlags } from "../app/permissions.ts";
import { copySampleKb, makeSandbox, type RunResult, STACK_FRAME } from "./helpers.ts";
import { fakeClaude, judgeRecords, payload, recordedCalls, runJudge } from "./judge_helpers.ts";

/** The model timeout of these runs, in ms. */
const TIMEOUT_MS = 1_000;

function show(result: RunResult): string {
  return `exit ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
}

/** One way to break the judge, and the debug reason it must leave. */
interface FailureCase {
  name: string;
  stdin?: string | Uint8Array;
  claude?: string;
  flags?: (tmp: string) => string[];
  /** Changes to the environment; undefined deletes a variable. */
  env?: Record<string, string | undefined>;
  kb?: "none" | "no-kernel" | "missing";
  reason: RegExp;
  /** The debug record's outcome; `error` unless said. */
  outcome?: "skipped" | "error";
  /** The fake must (true) or must not (false) have been called. */
  called: boolean;
}

const CASES: FailureCase[] = [
  { name: "no payload", stdin: "", reason: /SyntaxError/, called: false },
  { name: "unparseable payload", stdin: "{not json", reason: /SyntaxError/, called: false },
  { name: "payload not an object", stdin: "[1, 2]", reason: /not a JSON object/, called: false },
  { name: "no tool name", stdin: '{"tool_input":{}}', reason: /no tool_name/, called: false },
  {
    name: "payload over 16 MiB",
    stdin: new Uint8Array(16 * 1024 * 1024 + 1).fill(32),
    reason: /InputTooLargeError/,
    called: false,
  },
  { name: "no knowledge base configured", kb: "none", reason: /NotConfiguredError/, called: false },
  {
    name: "knowledge base folder missing",
    kb: "missing",
    reason: /NotAKbError: .*gone is not a git-kb knowledge base/,
    called: false,
  },
  {
    name: "no kernel rules",
    kb: "no-kernel",
    outcome: "skipped",
    reason: /^no kernel rules$/,
    called: false,
  },
  {
    name: "binary missing",
    claude: "/nonexistent/claude",
    reason: /was not found: install Claude Code or set KB_PROSE_LINT_CLAUDE/,
    called: false,
  },
  {
    name: "binary not allowed to run",
    flags: (tmp) => judgeFlags(tmp, "/usr/bin/true"),
    reason: /not allowed to run .*claude-fail: run the hook with --allow-run=/,
    called: false,
  },
  {
    name: "non-zero exit",
    claude: fakeClaude("exit"),
    reason: /exited with code 1: Invalid API key/,
    called: true,
  },
  {
    name: "timeout",
    claude: fakeClaude("sleep"),
    reason: /did not answer within 1000 ms; raise KB_PROSE_LINT_TIMEOUT_MS/,
    called: true,
  },
  {
    name: "unparseable verdict",
    claude: fakeClaude("garbage"),
    reason: /no clear verdict: .*reads well/,
    called: true,
  },
  {
    name: "ambiguous verdict",
    claude: fakeClaude("ambiguous"),
    reason: /no clear verdict/,
    called: true,
  },
];

/** Every judge record in every debug log under `tmp`'s cache root. */
async function allJudgeRecords(tmp: string): Promise<Record<string, unknown>[]> {
  const root = join(tmp, "git-kb");
  const records = await judgeRecords(join(root, "debug.jsonl"));
  for await (const item of Deno.readDir(root)) {
    if (item.isDirectory) records.push(...await judgeRecords(join(root, item.name, "debug.jsonl")));
  }
  return records;
}

Deno.test("every judge failure allows the call, within the timeout plus one second", async (t) => {
  await using sandbox = await makeSandbox("git-kb-judge-fail-");
  const kbDir = join(sandbox.root, "kb");
  const bare = join(sandbox.root, "bare");
  await Promise.all([copySampleKb(kbDir), copySampleKb(bare, { noKernel: true })]);
  const fail = await payload("write-fail");
  // Build each index first, so the timings below are the judge's, not a first index build.
  for (const dir of [kbDir, bare]) {
    await runJudge(await payload("write-pass"), {
      env: { TMPDIR: sandbox.tmp, HOME: sandbox.home, KB_DIR: dir },
      claude: "/nonexistent/claude",
    });
  }
  for (const [index, failure] of CASES.entries()) {
    await t.step(failure.name, async () => {
      const record = join(sandbox.root, `calls-${index}`);
      const env: Record<string, string> = {
        TMPDIR: sandbox.tmp,
        HOME: sandbox.home,
        XDG_CONFIG_HOME: sandbox.config,
        KB_DIR: failure.kb === "no-kernel"
          ? bare
          : failure.kb === "missing"
          ? join(sandbox.root, "gone")
          : kbDir,
        KB_HOOK_DEBUG: "1",
        KB_PROSE_LINT_TIMEOUT_MS: String(TIMEOUT_MS),
        FAKE_CLAUDE_RECORD: record,
      };
      if (failure.kb === "none") delete env.KB_DIR;
      const before = new Set((await allJudgeRecords(sandbox.tmp)).map((r) => JSON.stringify(r)));
      const result = await runJudge(failure.stdin ?? fail, {
        env,
        claude: failure.claude ?? fakeClaude("fail"),
        flags: failure.flags?.(sandbox.tmp),
      });
      assertEquals(result.code, 0, show(result));
      assertEquals(result.stdout, "", show(result));
      assertNotMatch(result.stderr, STACK_FRAME, show(result));
      assert(result.ms < TIMEOUT_MS + 1_000, `${Math.round(result.ms)} ms`);
      assertEquals((await recordedCalls(record)).length, failure.called ? 1 : 0, "calls");
      const added = (await allJudgeRecords(sandbox.tmp)).filter((r) =>
        !before.has(JSON.stringify(r))
      );
      assertEquals(added.length, 1, JSON.stringify(added));
      assertEquals(added[0].outcome, failure.outcome ?? "error", JSON.stringify(added[0]));
      assertMatch(String(added[0].reason), failure.reason, JSON.stringify(added[0]));
    });
  }
});
