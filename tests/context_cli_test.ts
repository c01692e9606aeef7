/**
 * `git-kb context` and `git-kb stats` through the real CLI (least-privilege flags), against the
 * prompt hook run as a subprocess on the same knowledge base.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import type { HookStats } from "../core/delivery/hook_log.ts";
import { join } from "@std/path/posix/join";
import { dirname } from "@std/path/posix/dirname";
import { copySampleKb, makeSandbox, parseJson, ROOT, runCli, runHook, show } from "./helpers.ts";

const PAYLOADS = join(ROOT, "fixtures", "hooks");

async function payload(name: string): Promise<string> {
  return await Deno.readTextFile(join(PAYLOADS, `${name}.json`));
}

function promptOf(text: string): string {
  return JSON.parse(text).prompt;
}

/** The additionalContext the hook printed, or undefined when it printed nothing. */
function hookContext(result: { code: number; stdout: string; stderr: string }) {
  assertEquals(result.code, 0, result.stderr);
  if (!result.stdout) return undefined;
  return JSON.parse(result.stdout).hookSpecificOutput.additionalContext as string;
}

/** A sandbox with a plain copy of the sample knowledge base (optionally without kernel rules). */
async function sandboxKb(options: { noKernel?: boolean } = {}) {
  const sandbox = await makeSandbox("git-kb-context-");
  const kb = join(sandbox.root, "kb");
  await copySampleKb(kb, options);
  const env = { TMPDIR: sandbox.tmp, HOME: sandbox.home, XDG_CONFIG_HOME: sandbox.config };
  const cli = (...args: string[]) =>
    runCli([...args, "--kb", kb], { env: { ...env, NO_COLOR: "1" } });
  return { ...sandbox, kb, env, cli, hookEnv: { ...env, KB_DIR: kb } };
}

interface ContextJson {
  outcome: string;
  skipReason: string | null;
  reference: { kind: string; text: string } | null;
  activities: string[];
  kernel: string[];
  kernelDegraded: string[];
  pointers: { id: string; title: string; type: string; signal: string; why: string[] }[];
  nearMisses: { id: string; hits: string[] }[];
  heldBack: { id: string; reason: string } | null;
  deduped: string[];
  text: string;
}

Deno.test("context prints the same text as the hook's additionalContext for the same prompt", async () => {
  await using box = await sandboxKb();
  for (const name of ["prompt-match", "prompt-review", "prompt-nomatch"]) {
    const text = await payload(name);
    const hook = hookContext(await runHook(text, { env: box.hookEnv }));
    assert(hook, name);
    const cli = await box.cli("context", promptOf(text));
    assertEquals(cli.code, 0, show(cli));
    assertEquals(cli.stdout, hook + "\n", `${name}\n${show(cli)}`);
  }
  // Skipped prompts: neither prints anything.
  const short = await box.cli("context", promptOf(await payload("prompt-mechanical")));
  assertEquals(short.code, 0, show(short));
  assertEquals(short.stdout, "");
  assertEquals(
    hookContext(await runHook(await payload("prompt-mechanical"), { env: box.hookEnv })),
    undefined,
  );
});

/**
 * What prompt-match surfaces: the rotation howto, then the CI hardening guide, whose body is
 * about rotating leaked tokens (a body word counts half a title word).
 */
const MATCH_IDS = ["kb-7q2mx"];

Deno.test("context --json: outcome, pointers, near misses and what held a prompt back", async () => {
  await using box = await sandboxKb();
  const match = await box.cli("context", promptOf(await payload("prompt-match")), "--json");
  const decision = parseJson<ContextJson>(match);
  assertEquals(decision.outcome, "surfaced");
  assertEquals(decision.kernel, ["kb-c0mw8", "kb-k1rn0"]);
  assertEquals(decision.pointers.map((pointer) => pointer.id), MATCH_IDS);
  assertEquals(decision.pointers[0].signal, "keyword");
  assertEquals(decision.pointers[0].type, "howto");
  assert(decision.pointers[0].why.includes("cloudflare"));
  assert(decision.nearMisses.length > 0);
  assert(decision.nearMisses.every((miss) => !MATCH_IDS.includes(miss.id)));
  assert(decision.text.includes("- kb-7q2mx "));
  assertEquals(decision.reference, null);
  assertEquals(decision.heldBack, null);

  // A prompt whose words reach an entry it is not about says which entry held it back, and why.
  const near = parseJson<ContextJson>(
    await box.cli(
      "context",
      "why does the deploy to cloudflare keep failing on the worker route",
      "--json",
    ),
  );
  assertEquals(near.pointers, []);
  assertEquals(near.heldBack, { id: "kb-7q2mx", reason: "not_about" });

  // An instruction about a file of the project needs one more word, and the JSON says why.
  const told = parseJson<ContextJson>(
    await box.cli("context", "rotate the token in models.py", "--json"),
  );
  assertEquals(told.pointers, []);
  assertEquals(told.reference, { kind: "file", text: "models.py" });

  const review = parseJson<ContextJson>(
    await box.cli("context", promptOf(await payload("prompt-review")), "--json"),
  );
  assertEquals(review.activities, ["reviewing"]);
  assert(review.pointers.some((pointer) => pointer.id === "kb-r7v1d"));

  const skipped = parseJson<ContextJson>(await box.cli("context", "thanks!", "--json"));
  assertEquals(skipped.outcome, "skipped");
  assertEquals(skipped.skipReason, "short");
  assertEquals(skipped.pointers, []);
  assertEquals(skipped.text, "");
});

Deno.test("context --session: the ledger omits the pointer on the second call", async () => {
  await using box = await sandboxKb({ noKernel: true });
  const prompt = promptOf(await payload("prompt-match"));
  const first = parseJson<ContextJson>(
    await box.cli("context", prompt, "--session", "agent-1", "--json"),
  );
  assertEquals(first.pointers.map((pointer) => pointer.id), MATCH_IDS);
  const second = parseJson<ContextJson>(
    await box.cli("context", prompt, "--session", "agent-1", "--json"),
  );
  assertEquals(second.outcome, "all_deduped");
  assertEquals(second.pointers, []);
  assertEquals(second.deduped, MATCH_IDS);
  const plain = await box.cli("context", prompt, "--session", "agent-1");
  assertEquals(plain.code, 0, show(plain));
  assertEquals(plain.stdout, "", "nothing to print when all is deduplicated");
  assert(
    plain.stderr.includes(
      "git-kb context: the hook would add nothing: every entry it matches was shown in this " +
        "session already; ",
    ),
    show(plain),
  );
  // Another session and no session both list it again.
  const other = parseJson<ContextJson>(
    await box.cli("context", prompt, "--session", "agent-2", "--json"),
  );
  assertEquals(other.pointers.map((pointer) => pointer.id), MATCH_IDS);
  const none = parseJson<ContextJson>(await box.cli("context", prompt, "--json"));
  assertEquals(none.pointers.map((pointer) => pointer.id), MATCH_IDS);
  // The CLI and the hook share the ledger: the hook's session sees what context recorded.
  const session = JSON.parse(await payload("prompt-match")).session_id;
  await box.cli("context", prompt, "--session", session);
  assertEquals(
    hookContext(await runHook(await payload("prompt-match"), { env: box.hookEnv })),
    undefined,
  );
});

Deno.test("context that adds nothing says why on stderr, with the call that says more; stdout stays empty", async () => {
  await using box = await sandboxKb({ noKernel: true });
  const short = await box.cli("context", "thanks");
  assertEquals([short.code, short.stdout], [0, ""], show(short));
  assertEquals(
    short.stderr,
    "git-kb context: the hook would add nothing: it skips a prompt this short; give the task in " +
      "a few more words\n",
  );
  const unmatched = await box.cli("context", "zebras cross the savanna plains each year");
  assertEquals([unmatched.code, unmatched.stdout], [0, ""], show(unmatched));
  assertMatch(
    unmatched.stderr,
    /^git-kb context: the hook would add nothing: no entry matches this prompt well enough; the entries it nearly matched: git-kb context 'zebras cross the savanna plains each year' --kb \S+ --json\n$/,
  );
});

Deno.test("context: usage error without a prompt", async () => {
  await using box = await sandboxKb();
  const result = await box.cli("context");
  assertEquals(result.code, 2, show(result));
  assertEquals(result.stdout, "");
});

Deno.test("stats --json after KB_HOOK_DEBUG=1 hook runs: prompt count and fire rate", async () => {
  await using box = await sandboxKb({ noKernel: true });
  const env = { ...box.hookEnv, KB_HOOK_DEBUG: "1" };
  // Sequential: the second prompt-match depends on the first one's ledger.
  const runs: [string, boolean][] = [
    ["prompt-match", true], // surfaced
    ["prompt-match", false], // all_deduped
    ["prompt-nomatch", false], // no_signal
    ["prompt-short", false], // skipped
    ["prompt-slash", false], // skipped
    ["prompt-mechanical", false], // skipped
    ["prompt-review", true], // surfaced
    ["prompt-second-session", true], // surfaced
  ];
  for (const [name, fires] of runs) {
    const context = hookContext(await runHook(await payload(name), { env }));
    assertEquals(context !== undefined, fires, name);
  }
  const result = await box.cli("stats", "--json");
  const stats = parseJson<HookStats & { log: string }>(result);
  assertEquals(stats.prompts, 8);
  assertEquals(stats.skipped, 3);
  assertEquals(stats.errors, 0);
  assertEquals(stats.outcomes, { surfaced: 3, all_deduped: 1, no_signal: 1, skipped: 3 });
  assertEquals(stats.fireRate, 3 / 5);
  assert(stats.medianBytes > 0);
  assert(stats.nearMissLeaders.length > 0);
  assert(!stats.neverSurfaced.includes("kb-7q2mx"));
  assert(stats.neverSurfaced.includes("kb-p8k2c"));
  assert(!stats.neverSurfaced.includes("kb-3hd8w"), "superseded entries are not counted");
  assert(stats.log.endsWith("debug.jsonl"));
  const text = await box.cli("stats");
  assertEquals(text.code, 0, show(text));
  assertMatch(text.stdout, /Prompts: 8 \(3 skipped, 0 errors\)/);
  assertMatch(text.stdout, /Fire rate: 60% of prompts not skipped got pointers\n/);
});

Deno.test("stats: a prompt that gets only the kernel rules is not counted as a fire", async () => {
  await using box = await sandboxKb();
  const env = { ...box.hookEnv, KB_HOOK_DEBUG: "1" };
  for (const name of ["prompt-match", "prompt-nomatch"]) {
    assert(
      hookContext(await runHook(await payload(name), { env })),
      `${name} injects something`,
    );
  }
  const stats = parseJson<HookStats>(await box.cli("stats", "--json"));
  assertEquals(stats.outcomes.surfaced, 2);
  assertEquals(stats.fireRate, 1 / 2);
  assertEquals(stats.kernelOnly, 1);
  const text = await box.cli("stats");
  assertMatch(
    text.stdout,
    /Fire rate: 50% of prompts not skipped got pointers; 1 more got the kernel rules only\n/,
  );
  // The log calls both `surfaced`; the line tells them apart as the fire rate does.
  assertMatch(text.stdout, /Outcomes: surfaced with pointers 1, kernel rules only 1\n/);
});

Deno.test("stats with no debug log yet says how to turn it on in Claude Code", async () => {
  await using box = await sandboxKb();
  const text = await box.cli("stats");
  assertEquals(text.code, 0, show(text));
  assertMatch(
    text.stdout,
    /No debug records yet in .*debug\.jsonl, so nothing on the prompt hook's/,
  );
  assertMatch(text.stdout, /"env": \{"KB_HOOK_DEBUG": "1"\} to ~\/\.claude\/settings\.json/);
});

Deno.test("stats with only other hooks' records says no prompt reached the prompt hook", async () => {
  await using box = await sandboxKb();
  const { log } = parseJson<{ log: string }>(await box.cli("stats", "--json"));
  await Deno.mkdir(dirname(log), { recursive: true, mode: 0o700 });
  const judged = { event: "judge", at: "2026-12-05T06:00:00.000Z", outcome: "allow" };
  await Deno.writeTextFile(log, `${JSON.stringify(judged)}\n`, { mode: 0o600 });
  const text = await box.cli("stats");
  assertEquals(text.code, 0, show(text));
  assertStringIncludes(
    text.stdout,
    `No prompt-hook records yet in ${log}, only other hooks' records: one comes with each ` +
      "prompt the prompt hook sees while KB_HOOK_DEBUG=1 is set.",
  );
});

Deno.test("stats --json with no debug log yet", async () => {
  await using box = await sandboxKb();
  const stats = parseJson<{ prompts: number; fireRate: number }>(
    await box.cli("stats", "--json"),
  );
  assertEquals(stats.prompts, 0);
  assertEquals(stats.fireRate, 0);
});
