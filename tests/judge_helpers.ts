/**
 * Shared by the judge hook's tests: run `hooks/judge.ts` as Claude Code would (a subprocess with
 * the judge profile's flags and a cleared environment), the fake `claude` scripts under
 * `fixtures/judge/`, and what a recording fake saw.
 *
 * @module
 */
import { join } from "@std/path/posix/join";
import { judgeFlags } from "../app/permissions.ts";
import { assert, assertEquals, assertNotMatch } from "@std/assert";
import {
  cacheRootOf,
  copySampleKb,
  makeSandbox,
  ROOT,
  runDeno,
  type RunResult,
  show,
  STACK_FRAME,
} from "./helpers.ts";

/** The judge hook's entry point. */
export const JUDGE_HOOK: string = join(ROOT, "hooks", "judge.ts");

/** A fake judge model: `pass`, `fail`, `rules`, `garbage`, `ambiguous`, `exit` or `sleep`. */
export function fakeClaude(name: string): string {
  return join(ROOT, "fixtures", "judge", `claude-${name}`);
}

/** A PreToolUse payload from `fixtures/hooks/pretooluse-<name>.json`. */
export function payload(name: string): Promise<string> {
  return Deno.readTextFile(join(ROOT, "fixtures", "hooks", `pretooluse-${name}.json`));
}

/** A PreToolUse payload for `tool` with `input`. */
export function toolPayload(tool: string, input: Record<string, unknown>): string {
  return JSON.stringify({
    session_id: "s-1",
    hook_event_name: "PreToolUse",
    tool_name: tool,
    tool_input: input,
    tool_use_id: "toolu_1",
  });
}

/** How {@link runJudge} runs the hook. */
export interface JudgeRunOptions {
  /** The child's environment besides PATH and DENO_DIR; must have TMPDIR. */
  env: Record<string, string>;
  /** The judge binary: `KB_PROSE_LINT_CLAUDE`, and what `--allow-run` names unless `flags`. */
  claude?: string;
  /** Replaces `judgeFlags(cacheRootOf(env), claude)`. */
  flags?: string[];
}

/** A finished hook run and its wall time, spawn to exit. */
export interface JudgeRun extends RunResult {
  ms: number;
}

/** Run the judge hook with `stdin`, as Claude Code would. */
export async function runJudge(
  stdin: string | Uint8Array,
  options: JudgeRunOptions,
): Promise<JudgeRun> {
  const tmp = options.env.TMPDIR;
  if (!tmp) throw new Error("every judge run gets its own TMPDIR");
  const env = { ...options.env };
  if (options.claude) env.KB_PROSE_LINT_CLAUDE = options.claude;
  const flags = options.flags ?? judgeFlags(cacheRootOf(env), options.claude);
  const started = performance.now();
  const result = await runDeno(["run", ...flags, JUDGE_HOOK], { env, cwd: tmp, stdin });
  return { ...result, ms: performance.now() - started };
}

/** What a recording fake saw in one call. */
export interface RecordedCall {
  argv: string[];
  env: Record<string, string>;
  stdin: string;
  cwd: string;
}

/** The calls a fake recorded into `dir` (FAKE_CLAUDE_RECORD), in order. */
export async function recordedCalls(dir: string): Promise<RecordedCall[]> {
  const calls: RecordedCall[] = [];
  for (let n = 1;; n++) {
    const base = join(dir, `call-${n}`);
    let argv: string;
    try {
      argv = await Deno.readTextFile(`${base}.argv`);
    } catch {
      return calls;
    }
    const env = Object.fromEntries(
      (await Deno.readTextFile(`${base}.env`)).split("\0").filter(Boolean).map((line) => {
        const equals = line.indexOf("=");
        return [line.slice(0, equals), line.slice(equals + 1)];
      }),
    );
    calls.push({
      argv: argv.split("\0").slice(0, -1),
      env,
      stdin: await Deno.readTextFile(`${base}.stdin`),
      cwd: (await Deno.readTextFile(`${base}.cwd`)).trim(),
    });
  }
}

/** The judge records in a debug log (`event: "judge"`), parsed. */
export async function judgeRecords(debugLog: string): Promise<Record<string, unknown>[]> {
  let text = "";
  try {
    text = await Deno.readTextFile(debugLog);
  } catch { /* no log yet */ }
  return text.split("\n").filter(Boolean).map((line) => JSON.parse(line)).filter((record) =>
    record.event === "judge"
  );
}

/** The cache folder of the one knowledge base used under `tmp` (TMPDIR), once it exists. */
export async function kbCache(tmp: string): Promise<string> {
  for await (const item of Deno.readDir(join(tmp, "git-kb"))) {
    if (item.isDirectory) return join(tmp, "git-kb", item.name);
  }
  throw new Error(`no knowledge base cache under ${tmp}/git-kb`);
}

/** A sample knowledge base (kernel rules kb-c0mw8 and kb-k1rn0) and the env to judge with. */
export async function judgeKb() {
  const sandbox = await makeSandbox("git-kb-judge-");
  const kbDir = join(sandbox.root, "kb");
  await copySampleKb(kbDir);
  const record = join(sandbox.root, "calls");
  const env: Record<string, string> = {
    TMPDIR: sandbox.tmp,
    HOME: sandbox.home,
    XDG_CONFIG_HOME: sandbox.config,
    KB_DIR: kbDir,
    KB_HOOK_DEBUG: "1",
    KB_PROSE_LINT_TIMEOUT_MS: "10000",
    FAKE_CLAUDE_RECORD: record,
  };
  return {
    ...sandbox,
    kbDir,
    env,
    calls: () => recordedCalls(record),
    records: async () => judgeRecords(join(await kbCache(sandbox.tmp), "debug.jsonl")),
  };
}

/** Exit 0, nothing on stdout, no stack trace: the call is allowed. */
export function assertAllowed(result: RunResult): void {
  assertEquals(result.code, 0, show(result));
  assertEquals(result.stdout, "", show(result));
  assertNotMatch(result.stderr, STACK_FRAME, show(result));
}

/** Exit 0 and exactly the PreToolUse deny JSON on stdout; returns the reason. */
export function assertDenied(result: RunResult): string {
  assertEquals(result.code, 0, show(result));
  assertEquals(result.stderr, "", show(result));
  assert(result.stdout.endsWith("\n") && !result.stdout.trim().includes("\n"), show(result));
  const output = JSON.parse(result.stdout);
  const reason = output?.hookSpecificOutput?.permissionDecisionReason;
  assertEquals(typeof reason, "string", show(result));
  assertEquals(output, {
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: reason,
    },
  });
  return reason;
}
