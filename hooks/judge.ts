/**
 * Claude Code PreToolUse hook: the prose judge. Hook JSON on stdin; when the call would
 * publish prose that breaks a kernel rule of a configured knowledge base, a deny decision on stdout
 * naming each violation; nothing otherwise. Exit 0 always, and every failure allows: a broken
 * judge never blocks a publish. With `KB_HOOK_DEBUG=1` each run leaves a record (`event:
 * "judge"`) in the knowledge base's debug log.
 *
 * A call with no prose (most calls) is decided from the payload alone: the knowledge base, the
 * index and the model runner are loaded only when there is prose to judge.
 *
 * @module
 */
import {
  compactVerdict,
  denyReason,
  JUDGE_MARKER,
  judgeConfig,
  judgedRules,
  judgePrompt,
  type JudgeRule,
  lintDisabled,
  parseVerdict,
  verdictCacheKey,
} from "../core/judge/verdict.ts";
import { extractProse, type ProsePiece } from "../core/judge/prose.ts";
import { outputExcerpt } from "../core/model/reply.ts";
import { errorSummary, type HookPayload, textField } from "../core/hook/payload.ts";
import { runHookOnStdio } from "../io/hook/stdin.ts";
import { envVar } from "../io/env.ts";

/** The largest stdin accepted (a Write of a big file); a bigger payload is allowed unread. */
const MAX_INPUT_BYTES = 16 * 1024 * 1024;

/** What one run decided and why: the debug record. */
export interface JudgeTrace {
  /** `skipped`: no model needed; `allow`/`deny`: judged; `error`: failed open. */
  outcome: "skipped" | "allow" | "deny" | "error";
  /** Why, in words: "no prose", "pass", "fail: kb-…", or the error that made it allow. */
  reason: string;
  /** The payload's tool_name. */
  tool?: string;
  /** Characters of prose found. */
  proseChars?: number;
  /** The kernel rule ids judged against. */
  rules?: string[];
  /** Whether the verdict came from the cache. */
  cache?: "hit" | "miss";
  /** The judge model asked (or whose verdict was cached). */
  model?: string;
  /** The knowledge base, once located. */
  kbDir?: string;
}

/**
 * The hook's stdout for a payload, or "" to allow; fills in `trace`. Throws on a failure (the
 * caller allows and records it).
 */
export async function judgeHookOutput(payload: HookPayload, trace: JudgeTrace): Promise<string> {
  if (lintDisabled(envVar("KB_PROSE_LINT"))) {
    trace.reason = "KB_PROSE_LINT turns the judge off";
    return "";
  }
  const tool = textField(payload, "tool_name");
  if (tool === undefined) throw new Error("the hook payload has no tool_name");
  trace.tool = tool;
  const pieces = extractProse(tool, payload.tool_input);
  if (!pieces.length) {
    trace.reason = "no prose";
    return "";
  }
  trace.proseChars = pieces.reduce((sum, piece) => sum + piece.text.length, 0);
  return await judgeProse(pieces, trace);
}

/** The modules only a call with prose needs, loaded then so the no-prose path stays light. */
function loadJudgeModules() {
  return Promise.all([
    import("../io/config.ts"),
    import("../io/index/store.ts"),
    import("../io/paths.ts"),
    import("../io/judge/model.ts"),
    import("../io/judge/verdict_cache.ts"),
    import("../io/kernel/acceptance.ts"),
    import("../core/kbs/qualified.ts"),
  ]);
}

/** Read the kernel rules, consult the cache or the model, and decide. */
async function judgeProse(pieces: ProsePiece[], trace: JudgeTrace): Promise<string> {
  const [
    { resolveKbs },
    { HOOK_TRUST_MS, openIndex },
    { kbCacheDir },
    { askJudgeModel },
    cache,
    { kernelInForce },
    { qualifyId },
  ] = await loadJudgeModules();
  // Every configured knowledge base's rules apply, as the prompt hook injects them all; with
  // several, each id names its knowledge base. Verdicts are kept in the default one's cache.
  const { kbs } = resolveKbs();
  const kbDir = kbs[0].kbDir;
  trace.kbDir = kbDir;
  const inForce: JudgeRule[] = [];
  for (const kb of kbs) {
    const { reader } = await openIndex(kb.kbDir, { trustStampMs: HOOK_TRUST_MS, hook: true });
    for (const { id, title, body } of kernelInForce(reader.manifest.kernel)) {
      inForce.push({ id: kbs.length > 1 ? qualifyId(kb.name, id) : id, title, body });
    }
  }
  const rules = judgedRules(inForce);
  trace.rules = rules.map((rule) => rule.id);
  if (!rules.length) {
    trace.outcome = "skipped";
    trace.reason = "no kernel rules";
    return "";
  }
  const config = judgeConfig(envVar);
  trace.model = config.model;
  const prompt = judgePrompt(rules, pieces);
  const key = verdictCacheKey(prompt, config.model);
  const cacheDir = kbCacheDir(kbDir);
  let verdict = cache.readCachedVerdict(cacheDir, key);
  trace.cache = verdict ? "hit" : "miss";
  if (!verdict) {
    const output = await askJudgeModel(prompt, config, cacheDir);
    const parsed = parseVerdict(output, new Set(trace.rules));
    if (!parsed) {
      throw new Error(`the judge's reply holds no clear verdict: ${outputExcerpt(output)}`);
    }
    verdict = compactVerdict(parsed);
    try {
      cache.writeCachedVerdict(cacheDir, key, verdict);
    } catch (error) {
      trace.reason = `verdict not cached: ${errorSummary(error)}; `;
    }
  }
  trace.outcome = verdict.verdict === "pass" ? "allow" : "deny";
  trace.reason += verdict.verdict === "pass"
    ? "pass"
    : `fail: ${verdict.violations.map((violation) => violation.rule).join(", ")}`;
  if (verdict.verdict === "pass") return "";
  return JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason: denyReason(verdict, rules),
    },
  });
}

/** Append the run's record to the debug log when `KB_HOOK_DEBUG=1`; never throws. */
async function recordTrace(trace: JudgeTrace, ms: number): Promise<void> {
  if (envVar("KB_HOOK_DEBUG") !== "1") return;
  try {
    const [{ appendDebugRecord }, { resolveKb }] = await Promise.all([
      import("../io/hook/debug_log.ts"),
      import("../io/config.ts"),
    ]);
    let kbDir = trace.kbDir;
    try {
      kbDir ??= resolveKb().kbDir;
    } catch { /* no knowledge base: the record goes to the cache root */ }
    appendDebugRecord(kbDir, {
      event: "judge",
      outcome: trace.outcome,
      reason: trace.reason,
      tool: trace.tool ?? null,
      prose_chars: trace.proseChars ?? 0,
      rules: trace.rules ?? [],
      cache: trace.cache ?? null,
      model: trace.model ?? null,
      ms: Number(ms.toFixed(2)),
    });
  } catch { /* the debug log is best effort */ }
}

/**
 * Run the hook on this process's stdin and stdout. Never throws: any failure allows (no output)
 * and leaves a debug record when `KB_HOOK_DEBUG=1`. Inside a judge call (`GIT_KB_JUDGE=1`) it
 * returns at once without reading anything.
 */
export async function runJudgeHook(): Promise<void> {
  if (envVar(JUDGE_MARKER) === "1") return;
  const started = performance.now();
  const trace: JudgeTrace = { outcome: "skipped", reason: "" };
  await runHookOnStdio(MAX_INPUT_BYTES, (payload) => judgeHookOutput(payload, trace), (error) => {
    trace.outcome = "error";
    trace.reason += errorSummary(error);
  });
  await recordTrace(trace, performance.now() - started);
}

if (import.meta.main) {
  await runJudgeHook();
  Deno.exit(0);
}
