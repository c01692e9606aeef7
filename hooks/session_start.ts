/**
 * Claude Code SessionStart hook. On `startup` and `resume` (an `async: true` handler: the session
 * never waits for it) it brings the knowledge base up to date: a fast-forward-only pull with a
 * short fetch timeout (io/hook/session_pull.ts), then the index, so the prompt hook sees what
 * came in as soon as it lands; it prints nothing. On `compact` it prints the kernel rules again
 * as additionalContext (the same kernel text and budget as the prompt hook), since a compaction
 * summarises away what hooks injected. Every case it leaves alone, and every failure, is a debug
 * record (`KB_HOOK_DEBUG=1`). Exit 0 always.
 *
 * When Claude Code ends the session it stops its hooks with SIGTERM: the fetch under way is then
 * stopped with its transport (git runs in a process group of its own, out of reach of the
 * signal Claude Code sends to the hook's group).
 *
 * @module
 */
import { type HookPayload, textField } from "../core/hook/payload.ts";
import {
  COMPACT_WORDING,
  foregroundWork,
  sessionSource,
  type SessionWork,
  sessionWork,
  waitingContext,
  welcomeOutput,
} from "../core/hook/session_start.ts";
import { type PendingMention, pendingNotice } from "../core/kernel/acceptance.ts";
import { scrubSecrets } from "../core/text/secrets.ts";
import { assemble, type Assembly, DEFAULT_SURFACE_CONFIG } from "../core/prompt/decision.ts";
import type { KernelRule } from "../core/index/format.ts";
import { NotConfiguredError, resolveKbs } from "../io/config.ts";
import { pathExists } from "../io/disk.ts";
import { writePrivateFile } from "../io/fs.ts";
import { cacheRoot } from "../io/paths.ts";
import { kbCommand } from "../io/self_command.ts";
import { join } from "../core/path.ts";
import { appendDebugRecord, recordFailure } from "../io/hook/debug_log.ts";
import { runContextPipeline } from "../io/hook/pipeline.ts";
import { fastForwardPull, type PullReport } from "../io/hook/session_pull.ts";
import { withoutRepoHooks } from "../io/git.ts";
import { terminationSignal } from "../io/process.ts";
import { runHookOnStdio } from "../io/hook/stdin.ts";
import { openIndex } from "../io/index/store.ts";
import { pendingMentions } from "../io/kernel/acceptance.ts";

/** The largest stdin accepted; a SessionStart payload is a few hundred bytes. */
const MAX_INPUT_BYTES = 1024 * 1024;

/** The debug record's `event`. */
const EVENT = "session-start";

/**
 * The longest the hook runs, in ms, whatever git does: past it, the hook records that and exits.
 * The fetch and each git call have bounds of their own, well inside it.
 */
const SESSION_START_BOUND_MS = 20_000;

/**
 * Bring the knowledge base up to date, then its index; returns what the pull did and the kernel
 * rules waiting for acceptance (ids qualified with `name` when given).
 */
async function pullAndReindex(
  kbDir: string,
  name: string | undefined,
  signal?: AbortSignal,
): Promise<{ pull: PullReport; index?: string; waiting: PendingMention[] }> {
  const pull = await fastForwardPull(kbDir, { signal });
  if (signal?.aborted) return { pull, waiting: [] };
  const { report, reader } = await openIndex(kbDir, { hook: true });
  return { pull, index: report.mode, waiting: pendingMentions(reader.manifest.kernel, name) };
}

/** The kernel rules, if there are any, assembled for re-injection after a compaction. */
function kernelDecision(
  kernel: KernelRule[],
  fetch: (ids: string[]) => string,
  wording = COMPACT_WORDING,
): { assembly?: Assembly } {
  if (!kernel.length) return {};
  return { assembly: assemble(kernel, [], fetch, DEFAULT_SURFACE_CONFIG, wording) };
}

/** The kernel rules as SessionStart additionalContext, or "" when the knowledge base has none. */
async function kernelOutput(payload: HookPayload): Promise<string> {
  const { decision } = await runContextPipeline({
    sessionId: textField(payload, "session_id"),
    event: EVENT,
    decide: ({ reader, fetch }) => kernelDecision(reader.manifest.kernel, fetch),
    decideAcross: async (parts, fetch) => {
      const { qualifiedKernel, wordingAcross } = await import("../core/kbs/across.ts");
      return kernelDecision(
        qualifiedKernel(parts),
        fetch,
        wordingAcross(COMPACT_WORDING, parts),
      );
    },
    debugFields: ({ assembly }, { index, ms }) => ({
      event: EVENT,
      source: "compact",
      outcome: assembly ? "kernel" : "no_kernel",
      kernel: assembly?.kernel ?? [],
      kernel_degraded: assembly?.kernelDegraded ?? [],
      index,
      ms: Number(ms.toFixed(2)),
    }),
  });
  const text = decision.assembly?.text;
  if (!text) return "";
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: text },
  });
}

/**
 * Pull every configured knowledge base for a new or resumed session, one after another, and
 * leave a debug record of each. Prints nothing, unless kernel rules wait for the user's
 * acceptance: then a message for the user naming them, and for the model their ids (not their
 * words, which apply to nothing yet) and the command that reviews them.
 */
async function pullOutput(payload: HookPayload, signal: AbortSignal): Promise<string> {
  const { kbs } = resolveKbs();
  const waiting: PendingMention[] = [];
  for (const { kbDir, name } of kbs) {
    if (signal.aborted) break;
    waiting.push(...await pullOne(kbDir, kbs.length > 1 ? name : undefined, payload, signal));
  }
  if (!waiting.length) return "";
  const review = kbCommand("kernel");
  return JSON.stringify({
    systemMessage: `git-kb: ${pendingNotice(waiting, review)}`,
    hookSpecificOutput: {
      hookEventName: "SessionStart",
      additionalContext: waitingContext(waiting.map((rule) => rule.id), review),
    },
  });
}

/**
 * Pull one knowledge base and record what happened; returns its kernel rules waiting for
 * acceptance (none when the pull or the index failed).
 */
async function pullOne(
  kbDir: string,
  name: string | undefined,
  payload: HookPayload,
  signal: AbortSignal,
): Promise<PendingMention[]> {
  const started = performance.now();
  try {
    const { pull, index, waiting } = await pullAndReindex(kbDir, name, signal);
    appendDebugRecord(kbDir, {
      event: EVENT,
      session: textField(payload, "session_id") ?? null,
      source: payload.source,
      ...pull,
      ...("detail" in pull && pull.detail ? { detail: scrubSecrets(pull.detail) } : {}),
      ...index ? { index } : {},
      ...waiting.length ? { kernel_waiting: waiting.map((rule) => rule.id) } : {},
      ms: Number((performance.now() - started).toFixed(2)),
    });
    return waiting;
  } catch (error) {
    recordFailure(error, kbDir, EVENT);
    return [];
  }
}

/** The file in the cache root whose presence says the welcome was given on this machine. */
const WELCOMED_FILE = "welcomed";

/**
 * How to connect a knowledge base, at most once per machine: a file in the private cache root
 * remembers that the question was settled (the welcome given, or a knowledge base found), so
 * later startups cost one stat. "" when a knowledge base is configured.
 */
function welcome(): string {
  const marker = join(cacheRoot(), WELCOMED_FILE);
  if (pathExists(marker)) return "";
  let configured = true;
  try {
    resolveKbs();
  } catch (error) {
    if (!(error instanceof NotConfiguredError)) throw error;
    configured = false;
  }
  writePrivateFile(marker, `${new Date().toISOString()}\n`);
  if (configured) return "";
  appendDebugRecord(undefined, { event: EVENT, source: "startup", outcome: "welcome" });
  return welcomeOutput(kbCommand("init"));
}

/**
 * The hook's stdout for a payload: the kernel rules after a compaction, how to connect a
 * knowledge base at the first startup with none, else "". With `only`, the hook does that
 * handler's work alone (the registry runs each with its own permissions): `pull` in the
 * background, `kernel` in the foreground (which also gives the welcome).
 */
export function sessionStartOutput(
  payload: HookPayload,
  only?: SessionWork,
  signal: AbortSignal = new AbortController().signal,
): Promise<string> {
  const source = sessionSource(payload);
  const work = only === "kernel" || only === "welcome"
    ? foregroundWork(source)
    : sessionWork(source);
  if (only === "pull" && work !== "pull") return Promise.resolve("");
  if (work === "pull") return pullOutput(payload, signal);
  if (work === "kernel") return kernelOutput(payload);
  if (work === "welcome") return Promise.resolve(welcome());
  return Promise.resolve("");
}

/**
 * What `work` resolves to, or "" once `ms` have passed without it (with a debug record saying
 * the hook stopped waiting).
 */
async function withinBound(work: Promise<string>, ms: number): Promise<string> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const bound = new Promise<string>((resolve) => {
    timer = setTimeout(() => {
      recordFailure(new Error(`the hook did not finish within ${ms / 1000} s`), undefined, EVENT);
      resolve("");
    }, ms);
  });
  try {
    return await Promise.race([work, bound]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Run the hook on this process's stdin and stdout, doing `only` that work when given (see
 * {@link sessionStartOutput}). Never throws: a failure means no output (and a debug record when
 * `KB_HOOK_DEBUG=1`). SIGTERM stops a fetch under way. No git hook of the knowledge base runs.
 */
export async function runSessionStartHook(only?: SessionWork): Promise<void> {
  withoutRepoHooks();
  using stop = terminationSignal();
  await runHookOnStdio(
    MAX_INPUT_BYTES,
    (payload) => withinBound(sessionStartOutput(payload, only, stop), SESSION_START_BOUND_MS),
    (error) => recordFailure(error, undefined, EVENT),
  );
}

if (import.meta.main) {
  await runSessionStartHook();
  Deno.exit(0);
}
