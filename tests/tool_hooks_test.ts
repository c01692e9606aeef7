/**
 * The tool-time hooks as Claude Code runs them: the search augment (PreToolUse on Grep, Glob,
 * Bash), subagent memory (PreToolUse on Agent/Task) and delivery receipts (PostToolUse on Bash),
 * each a subprocess with its launcher profile's permissions, payloads from fixtures/hooks on
 * stdin, a cleared environment, a temp TMPDIR and a temp copy of the sample knowledge base. Also:
 * the ledger they share with the prompt hook, the updatedInput contract, a recorded session
 * through every hook and then `git-kb stats`, and the fail-open matrix.
 */
import { assert, assertEquals, assertMatch, assertNotMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import { hookFlags } from "../app/permissions.ts";
import { contentHash } from "../core/hash.ts";
import { PROMPT_WORDING } from "../core/prompt/decision.ts";
import { readSessions } from "../io/hook/receipts.ts";
import { sessionFile } from "../io/hook/session.ts";
import {
  cacheRootOf,
  copySampleKb,
  makeSandbox,
  parseJson,
  ROOT,
  runCli,
  runDeno,
  type RunResult,
  show,
  STACK_FRAME,
} from "./helpers.ts";

const PAYLOADS = join(ROOT, "fixtures", "hooks");

/** The entry point of each hook, by its launcher name. */
const SCRIPTS: Record<string, string> = {
  prompt: "prompt.ts",
  search: "search_augment.ts",
  subagent: "subagent.ts",
  receipts: "receipts.ts",
};

function payload(name: string): Record<string, unknown> {
  return JSON.parse(Deno.readTextFileSync(join(PAYLOADS, `${name}.json`)));
}

/** A fixture payload as stdin, with `fields` replaced. */
function stdinOf(name: string, fields: Record<string, unknown> = {}): string {
  return JSON.stringify({ ...payload(name), ...fields });
}

/** A sandbox with a plain copy of the sample knowledge base and a runner for each hook. */
async function sandboxKb() {
  const sandbox = await makeSandbox("git-kb-tool-hooks-");
  const kb = join(sandbox.root, "kb");
  await copySampleKb(kb);
  const env: Record<string, string> = {
    TMPDIR: sandbox.tmp,
    HOME: sandbox.home,
    XDG_CONFIG_HOME: sandbox.config,
    KB_DIR: kb,
    KB_HOOK_DEBUG: "1",
  };
  const cacheDir = join(sandbox.tmp, "git-kb", `kb-${contentHash(kb).slice(0, 10)}`);
  /** Run hook `name` with its profile's flags (env replaced by `environment` when given). */
  const hook = (name: string, stdin: string | Uint8Array, environment = env) => {
    const flags = hookFlags(name, cacheRootOf(environment));
    return runDeno(["run", ...flags, join(ROOT, "hooks", SCRIPTS[name])], {
      env: environment,
      cwd: sandbox.root,
      stdin,
    });
  };
  const debug = () => {
    try {
      return Deno.readTextFileSync(join(cacheDir, "debug.jsonl")).trim().split("\n").map((line) =>
        JSON.parse(line)
      );
    } catch {
      return [];
    }
  };
  const ledger = (session: string): Record<string, string> => {
    try {
      return JSON.parse(Deno.readTextFileSync(sessionFile(cacheDir, session)));
    } catch {
      return {};
    }
  };
  return { ...sandbox, kb, env, cacheDir, hook, debug, ledger };
}

/** Every debug record under a cache root: its own log and each knowledge base's. */
function allDebugRecords(root: string): Record<string, unknown>[] {
  const logs = [join(root, "debug.jsonl")];
  try {
    for (const item of Deno.readDirSync(root)) logs.push(join(root, item.name, "debug.jsonl"));
  } catch { /* no cache yet */ }
  return logs.flatMap((log) => {
    try {
      return Deno.readTextFileSync(log).trim().split("\n").map((line) => JSON.parse(line));
    } catch {
      return [];
    }
  });
}

/** A run that printed nothing at all and exited 0. */
function silent(result: RunResult): void {
  assertEquals(result.code, 0, show(result));
  assertEquals(result.stdout, "", show(result));
  assertEquals(result.stderr, "", show(result));
}

/** The hookSpecificOutput of a PreToolUse run that printed one, checked for shape. */
function preToolOutput(result: RunResult, field: "additionalContext" | "updatedInput") {
  assertEquals(result.code, 0, show(result));
  assertEquals(result.stderr, "", show(result));
  assertNotMatch(result.stdout, STACK_FRAME);
  const output = JSON.parse(result.stdout);
  assertEquals(Object.keys(output), ["hookSpecificOutput"]);
  assertEquals(
    Object.keys(output.hookSpecificOutput),
    ["hookEventName", field],
    "never a permissionDecision: the user's permission flow is left alone",
  );
  assertEquals(output.hookSpecificOutput.hookEventName, "PreToolUse");
  return output.hookSpecificOutput;
}

function pointerIds(text: string): string[] {
  return [...text.matchAll(/^- (kb-[0-9a-z]{5}) /gm)].map((match) => match[1]);
}

// ---------------------------------------------------------------------------------------------
// Search augment

/**
 * [fixture, the pointers it must show first]; an empty list means no output at all. The `rg`
 * fixture searches `rotate.*token`: the phrase `rotate token` holds two of the five words of
 * "Rotate a leaked npm or Cloudflare token" and none of its tags and aliases whole, so it matches
 * the entry without naming it.
 */
const SEARCHES: [string, string[]][] = [
  ["pretool-grep", ["kb-r4b9t"]],
  ["pretool-bash-rg", []],
  ["pretool-bash-find", ["kb-h6y1s"]],
  ["pretool-glob", ["kb-4fr7e", "kb-h2o8x", "kb-p8k2c"]],
  ["pretooluse-bash-plain", []],
  ["pretooluse-read", []],
  ["pretool-write", []],
];

Deno.test("search: each tool shape's payload, additionalContext only, pointers that run", async () => {
  await using box = await sandboxKb();
  for (const [fixture, expected] of SEARCHES) {
    const result = await box.hook("search", stdinOf(fixture, { session_id: `s-${fixture}` }));
    if (!expected.length) {
      silent(result);
      continue;
    }
    const { additionalContext: text } = preToolOutput(result, "additionalContext");
    const ids = pointerIds(text);
    assertEquals(ids.slice(0, expected.length), expected, `${fixture}\n${text}`);
    assert(ids.length <= 3, text);
    assertMatch(text, /^git-kb: the user's knowledge base has entries on what this search/);
    assert(text.includes(`Fetch full text: git-kb get ${ids.join(" ")} --kb ${box.kb}`));
    assert(!text.includes("kb-3hd8w"), "a superseded entry never surfaces");
    assert(!text.includes("Rules that always apply"), "kernel rules are the prompt's");
  }
  const records = box.debug().filter((record) => record.event === "search");
  assertEquals(records.map((record) => record.outcome), [
    "surfaced",
    "unnamed",
    "surfaced",
    "surfaced",
  ], "calls that search for nothing leave no record");
  assertEquals(records[0].phrases, { rebase: 1 });
  assertEquals(records[1].phrases, { "rotate token": 1 });
});

/** The `rg` fixture searching for `tokenLeak`, an alias of kb-7q2mx (rotate a leaked token). */
function tokenLeakSearch(session: string): string {
  const input = { command: "rg -n 'tokenLeak' --type ts src/", description: "Find token leaks" };
  return stdinOf("pretool-bash-rg", { session_id: session, tool_input: input });
}

Deno.test("search: the ledger is the prompt hook's, both ways", async () => {
  await using box = await sandboxKb();
  const prompt = await box.hook("prompt", stdinOf("prompt-match", { session_id: "first" }));
  assert(
    pointerIds(JSON.parse(prompt.stdout).hookSpecificOutput.additionalContext)
      .includes("kb-7q2mx"),
  );
  silent(await box.hook("search", tokenLeakSearch("first")));
  assertEquals(box.debug().at(-1).outcome, "all_deduped");
  assertEquals(box.debug().at(-1).deduped, ["kb-7q2mx"]);

  const search = await box.hook("search", tokenLeakSearch("second"));
  assertEquals(pointerIds(preToolOutput(search, "additionalContext").additionalContext), [
    "kb-7q2mx",
  ]);
  assertEquals(box.ledger("second")["kb-7q2mx"] !== undefined, true, "recorded in the ledger");
  const after = await box.hook("prompt", stdinOf("prompt-match", { session_id: "second" }));
  const context = JSON.parse(after.stdout).hookSpecificOutput.additionalContext;
  assert(!pointerIds(context).includes("kb-7q2mx"), context);
  assertMatch(context, /Rules that always apply/, "kernel rules are never deduplicated");
});

// ---------------------------------------------------------------------------------------------
// Subagent memory

Deno.test("subagent: updatedInput is the input with the block appended to prompt, nothing else", async () => {
  await using box = await sandboxKb();
  for (const fixture of ["pretool-agent", "pretool-task"]) {
    const original = payload(fixture).tool_input as Record<string, unknown>;
    const result = await box.hook("subagent", stdinOf(fixture, { session_id: `s-${fixture}` }));
    const { updatedInput } = preToolOutput(result, "updatedInput");
    assertEquals(Object.keys(updatedInput), Object.keys(original), "same fields, same order");
    const { prompt, ...rest } = updatedInput;
    const { prompt: before, ...unchanged } = original;
    assertEquals(rest, unchanged, "every other field is exactly as it was");
    assert(prompt.startsWith(`${before}\n\n`), "only appended to");
    const block = prompt.slice(String(before).length + 2);
    assert(block.startsWith(PROMPT_WORDING.header), block);
    assertMatch(block, /Rules that always apply:\n\n### kb-c0mw8 /, "kernel rules included");
    assert(block.length <= 9_000, "the prompt hook's budget");
  }
  const agent = preToolOutput(
    await box.hook("subagent", stdinOf("pretool-agent", { session_id: "again" })),
    "updatedInput",
  );
  assert(pointerIds(agent.updatedInput.prompt).includes("kb-7q2mx"));
  const records = box.debug().filter((record) => record.event === "subagent");
  assertEquals(records.map((record) => record.outcome), ["surfaced", "surfaced", "surfaced"]);
});

Deno.test("subagent: shown what the session already saw, and recorded in its ledger", async () => {
  await using box = await sandboxKb();
  await box.hook("prompt", stdinOf("prompt-match", { session_id: "s" }));
  assert(box.ledger("s")["kb-7q2mx"]);
  const { updatedInput } = preToolOutput(
    await box.hook("subagent", stdinOf("pretool-agent", { session_id: "s" })),
    "updatedInput",
  );
  assert(pointerIds(updatedInput.prompt).includes("kb-7q2mx"), "a subagent starts empty");
  const task = preToolOutput(
    await box.hook("subagent", stdinOf("pretool-task", { session_id: "s" })),
    "updatedInput",
  );
  for (const id of pointerIds(task.updatedInput.prompt)) assert(box.ledger("s")[id], id);
});

Deno.test("subagent: nothing odd is rewritten", async () => {
  await using box = await sandboxKb();
  const input = payload("pretool-agent").tool_input as Record<string, unknown>;
  const cases: Record<string, unknown>[] = [
    { tool_input: { ...input, subagent_type: "fork" } },
    { tool_input: { ...input, prompt: "run the tests again" } },
    { tool_input: { ...input, prompt: "" } },
    { tool_input: { ...input, prompt: 42 } },
    { tool_input: { ...input, prompt: `${input.prompt}\n\n${PROMPT_WORDING.header}\n…` } },
    { tool_input: "Rotate the leaked Cloudflare token" },
    { tool_input: null },
    { tool_name: "Bash" },
    { tool_name: 7 },
  ];
  for (const fields of cases) {
    silent(await box.hook("subagent", stdinOf("pretool-agent", fields)));
  }
});

// ---------------------------------------------------------------------------------------------
// Receipts and the miss report

Deno.test("receipts: a recorded session through the real hooks, then git-kb stats", async () => {
  await using box = await sandboxKb();
  const session = crypto.randomUUID();
  const run = (hook: string, fixture: string, fields: Record<string, unknown> = {}) =>
    box.hook(hook, stdinOf(fixture, { session_id: session, ...fields }));
  const prompt = await run("prompt", "prompt-match");
  const shown = pointerIds(JSON.parse(prompt.stdout).hookSpecificOutput.additionalContext);
  await run("search", "pretool-grep");
  await run("subagent", "pretool-task");
  silent(await run("receipts", "posttool-bash-get"));
  silent(
    await run("receipts", "posttool-bash-get", {
      tool_input: { command: "ls -la && git status", description: "look" },
    }),
  );
  await run("prompt", "prompt-nomatch");
  await run("prompt", "prompt-mechanical");

  const ledger = box.ledger(session);
  assert(shown.every((id) => ledger[id]), "the prompt's pointers are in the ledger");
  assert(ledger["kb-r4b9t"], "so is the search's");
  const [record, ...others] = readSessions(box.cacheDir);
  assertEquals(others.length, 0);
  const receipts = record.receipts;
  assertEquals(receipts.fetched, ["kb-7q2mx"]);
  assertEquals(receipts.unmatched.prompts, 1, "a skipped prompt is not a miss");
  assertEquals(Object.keys(receipts.unmatched.words), [
    "sourdough",
    "bread",
    "bakes",
    "dense",
    "gummy",
    "although",
    "starter",
    "rises",
  ]);
  for (const item of Deno.readDirSync(join(box.cacheDir, "sessions"))) {
    const text = Deno.readTextFileSync(join(box.cacheDir, "sessions", item.name));
    assert(!text.includes("sourdough bread"), `no prompt text in ${item.name}`);
  }

  const stats = parseJson<{ delivery: Record<string, unknown> }>(
    await runCli(["stats", "--json"], { env: box.env }),
  );
  const injected = Object.keys(ledger).length;
  assertEquals(stats.delivery, {
    sessions: 1,
    injected,
    fetched: 1,
    shareFetched: 1 / injected,
    fetchedUnprompted: 0,
    noiseCandidates: [],
    unmatchedPrompts: 1,
    unmatchedWords: Object.keys(receipts.unmatched.words).sort().map((word) => ({
      word,
      count: 1,
    })),
  });
  const text = await runCli(["stats"], { env: box.env });
  assertEquals(text.code, 0, show(text));
  assertMatch(text.stdout, new RegExp(`Pointers injected: ${injected} in 1 session`));
  assertMatch(text.stdout, /fetched 1 \(\d+%\)/);
  assertMatch(text.stdout, /Prompts with no match: 1/);
});

Deno.test("receipts: noise candidates across sessions", async () => {
  await using box = await sandboxKb();
  for (const session of ["a", "b", "c"]) {
    await box.hook("search", stdinOf("pretool-grep", { session_id: session }));
  }
  await box.hook("search", stdinOf("pretool-bash-find", { session_id: "a" }));
  await box.hook(
    "receipts",
    stdinOf("posttool-bash-get", {
      session_id: "a",
      tool_input: { command: "git-kb get kb-h6y1s" },
    }),
  );
  const stats = parseJson<{ delivery: { noiseCandidates: unknown; fetched: number } }>(
    await runCli(["stats", "--json"], { env: box.env }),
  );
  assertEquals(stats.delivery.noiseCandidates, [{ id: "kb-r4b9t", sessions: 3 }]);
  assertEquals(stats.delivery.fetched, 1);
});

// ---------------------------------------------------------------------------------------------
// Fail-open matrix

Deno.test("fail-open: every failure leaves the call alone, silently, exit 0", async () => {
  await using box = await sandboxKb();
  const notKb = join(box.root, "not-a-kb");
  await Deno.mkdir(notKb);
  const blocked = join(box.root, "blocked-tmp");
  await Deno.mkdir(blocked);
  await Deno.writeTextFile(join(blocked, "git-kb"), "a file where the cache folder goes");
  const { KB_DIR: _kb, ...unconfigured } = box.env;
  /** [what, stdin, environment]. */
  const failures: [string, (fixture: string) => string | Uint8Array, Record<string, string>][] = [
    ["empty stdin", () => "", box.env],
    ["not JSON", () => "{not json", box.env],
    ["a JSON array", () => "[]", box.env],
    ["JSON null", () => "null", box.env],
    ["stdin over the limit", () => new Uint8Array(16 * 1024 * 1024 + 1).fill(32), box.env],
    ["no knowledge base configured", (fixture) => stdinOf(fixture), unconfigured],
    ["not a knowledge base", (fixture) => stdinOf(fixture), { ...box.env, KB_DIR: notKb }],
    ["cache folder unwritable", (fixture) => stdinOf(fixture), {
      ...box.env,
      TMPDIR: blocked,
    }],
  ];
  const fixtures = {
    search: "pretool-grep",
    subagent: "pretool-agent",
    receipts: "posttool-bash-get",
  };
  for (const [hook, fixture] of Object.entries(fixtures)) {
    for (const [what, stdin, environment] of failures) {
      const result = await box.hook(hook, stdin(fixture), environment);
      assertEquals(result.code, 0, `${hook}, ${what}: ${show(result)}`);
      assertEquals(result.stdout, "", `${hook}, ${what}: ${show(result)}`);
      assertEquals(result.stderr, "", `${hook}, ${what}: ${show(result)}`);
    }
  }
  const errors = allDebugRecords(join(box.tmp, "git-kb")).filter((record) =>
    record.outcome === "error"
  );
  assert(errors.length >= 12, JSON.stringify(errors));
  assert(
    errors.every((record) => ["search", "subagent", "receipt"].includes(String(record.event))),
    "no failure is counted as a prompt's",
  );
});
