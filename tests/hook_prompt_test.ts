/**
 * The UserPromptSubmit hook as Claude Code runs it: a subprocess with real payloads from
 * fixtures/hooks on stdin, least privilege (no --allow-run: git cannot be spawned), a cleared
 * environment, a temp TMPDIR and a temp copy of the sample knowledge base (no git repo).
 */
import {
  assert,
  assertEquals,
  assertMatch,
  assertNotMatch,
  assertNotStrictEquals,
  fail,
} from "@std/assert";
import { join } from "@std/path/posix/join";
import { contentHash } from "../core/hash.ts";
import { sessionFile } from "../io/hook/session.ts";
import {
  copySampleKb,
  denoDir,
  entryText,
  type HookOptions,
  makeSandbox,
  ROOT,
  runHook,
  type RunResult,
  STACK_FRAME,
} from "./helpers.ts";

const PAYLOADS = join(ROOT, "fixtures", "hooks");
const CAP = 10_000;
const BUDGET = 9_000;
const decoder = new TextDecoder();

function show(result: RunResult): string {
  return `exit ${result.code}\n--- stdout\n${result.stdout}\n--- stderr\n${result.stderr}`;
}

/**
 * Check what every hook run must satisfy (exit 0, no stack trace, stdout empty or exactly the
 * UserPromptSubmit JSON, context under the cap); returns the additionalContext or undefined.
 */
function checkHook(result: RunResult): string | undefined {
  assertEquals(result.code, 0, show(result));
  assertNotMatch(result.stdout, STACK_FRAME, show(result));
  assertNotMatch(result.stderr, STACK_FRAME, show(result));
  if (result.stdout === "") return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(result.stdout);
  } catch {
    fail(`stdout is neither empty nor JSON\n${show(result)}`);
  }
  const output = parsed as {
    hookSpecificOutput: { hookEventName: string; additionalContext: string };
  };
  assertEquals(Object.keys(output), ["hookSpecificOutput"], show(result));
  assertEquals(
    Object.keys(output.hookSpecificOutput),
    ["hookEventName", "additionalContext"],
    show(result),
  );
  assertEquals(output, {
    hookSpecificOutput: {
      hookEventName: "UserPromptSubmit",
      additionalContext: output.hookSpecificOutput.additionalContext,
    },
  });
  const context = output.hookSpecificOutput.additionalContext;
  assertEquals(typeof context, "string");
  assert(context.length > 0);
  assert(context.length <= CAP, `${context.length} characters`);
  assert(context.length <= BUDGET, `${context.length} characters`);
  return context;
}

/** A fired hook's additionalContext, with stderr empty. */
function fired(result: RunResult): string {
  const context = checkHook(result);
  assertEquals(result.stderr, "", show(result));
  assert(context, `expected output\n${show(result)}`);
  return context;
}

/** A silent hook run: exit 0, nothing on stdout or stderr. */
function silent(result: RunResult): void {
  assertEquals(checkHook(result), undefined, show(result));
  assertEquals(result.stdout, "");
  assertEquals(result.stderr, "", show(result));
}

async function payload(name: string): Promise<string> {
  return await Deno.readTextFile(join(PAYLOADS, `${name}.json`));
}

/** A payload like prompt-match.json with another prompt and/or session. */
async function payloadWith(fields: Record<string, unknown>): Promise<string> {
  return JSON.stringify({ ...JSON.parse(await payload("prompt-match")), ...fields });
}

/** A sandbox with a plain (non-git) copy of the sample knowledge base. */
async function sandboxKb(options: { noKernel?: boolean } = {}) {
  const sandbox = await makeSandbox("git-kb-hook-");
  const kb = join(sandbox.root, "kb");
  await copySampleKb(kb, options);
  const project = join(sandbox.root, "project");
  await Deno.mkdir(project);
  const env = {
    TMPDIR: sandbox.tmp,
    HOME: sandbox.home,
    XDG_CONFIG_HOME: sandbox.config,
    KB_DIR: kb,
  };
  /** The cache folder of this knowledge base: $TMPDIR/git-kb/<folder>-<hash of its path>. */
  const cacheDir = join(sandbox.tmp, "git-kb", `kb-${contentHash(kb).slice(0, 10)}`);
  const hook = (stdin: string | Uint8Array, extra: Partial<HookOptions> = {}) =>
    runHook(stdin, { cwd: project, ...extra, env: { ...env, ...extra.env } });
  return { ...sandbox, kb, env, project, cacheDir, hook };
}

function pointerIds(context: string | undefined): string[] {
  return [...(context ?? "").matchAll(/^- (kb-[0-9a-z]{5}) /gm)].map((match) => match[1]);
}

/**
 * What prompt-match surfaces: the rotation howto alone. The CI hardening guide, whose body is
 * about rotating leaked tokens, holds under ¾ of its evidence (a body word counts half a title
 * word) and is a near miss.
 */
const MATCH_IDS = ["kb-7q2mx"];
const KERNEL_IDS = ["kb-c0mw8", "kb-k1rn0"];
const KERNEL_TITLES = [
  "Say what changed and why in commit messages",
  "No marketing adjectives in commit messages and PR text",
];

function hasKernel(context: string): boolean {
  return KERNEL_IDS.every((id, index) => context.includes(`### ${id} ${KERNEL_TITLES[index]}`));
}

function readDebug(path: string): Record<string, unknown>[] {
  let text = "";
  try {
    text = Deno.readTextFileSync(path);
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return text.split("\n").filter((line) => line.trim()).map((line) => JSON.parse(line));
}

// ---------------------------------------------------------------------------------------------

Deno.test("prompt-match: exact JSON shape, exit 0, empty stderr, the kb-7q2mx pointer", async () => {
  await using box = await sandboxKb();
  const result = await box.hook(await payload("prompt-match"));
  const context = fired(result);
  assert(
    result.stdout.startsWith('{"hookSpecificOutput":{"hookEventName":"UserPromptSubmit"'),
  );
  assert(result.stdout.endsWith("}\n") || result.stdout.endsWith("}"));
  assertEquals(pointerIds(context), MATCH_IDS);
  const line = context.split("\n").find((item) => item.startsWith("- kb-7q2mx "))!;
  assertMatch(line, /Rotate a leaked npm or Cloudflare token/);
  assertMatch(line, /\[howto\]/);
  for (const word of ["rotate", "leaked", "cloudflare", "token"]) assert(line.includes(word));
  assert(hasKernel(context), "kernel rules inlined");
  assert(context.indexOf("### kb-k1rn0") < context.indexOf("- kb-7q2mx"), "kernel first");
  const fetch = context.split("\n").find((item) => item.startsWith("Fetch full text: "));
  assertEquals(fetch, `Fetch full text: git-kb get ${MATCH_IDS.join(" ")} --kb ${box.kb}`);
  for (const id of ["kb-3hd8w", "kb-5qe0h", "kb-e6p1z"]) {
    assert(!context.includes(id), `${id} is superseded/archived`);
  }
});

Deno.test("entries whose bodies hold runs of 20,000 y's are indexed, and a prompt finds them", async () => {
  await using box = await sandboxKb();
  // Three runs keep each body under the 64 KiB limit; the stemmer once recursed per y.
  const body = `Hoisting notes.\n\n${
    Array.from({ length: 3 }, () => "y".repeat(20_000)).join(" ")
  }\n`;
  const ids = Array.from({ length: 6 }, (_, index) => `kb-yrun${index}`);
  for (const [index, id] of ids.entries()) {
    const title = `Yarn workspace hoisting quirk number ${index}`;
    await Deno.writeTextFile(
      join(box.kb, "entries", `${id}-yarn-hoisting.md`),
      entryText({ id, title, body }),
    );
  }
  const result = await box.hook(
    await payloadWith({ prompt: "why does yarn workspace hoisting break our install?" }),
  );
  const shown = pointerIds(fired(result));
  assert(shown.length > 0 && shown.every((id) => ids.includes(id)), show(result));
});

Deno.test("Gemini CLI's BeforeAgent payload gets the same reply under its own event name", async () => {
  await using box = await sandboxKb();
  const claude = JSON.parse(await payload("prompt-match"));
  const gemini = {
    session_id: claude.session_id,
    transcript_path: claude.transcript_path,
    cwd: claude.cwd,
    hook_event_name: "BeforeAgent",
    timestamp: "2026-11-30T00:00:00.000Z",
    prompt: claude.prompt,
  };
  const result = await box.hook(JSON.stringify(gemini));
  const output = JSON.parse(result.stdout);
  assertEquals(output.hookSpecificOutput.hookEventName, "BeforeAgent");
  assertEquals(pointerIds(output.hookSpecificOutput.additionalContext), MATCH_IDS);
});

Deno.test("short, slash and mechanical prompts: nothing on stdout, exit 0", async () => {
  await using box = await sandboxKb();
  const results = await Promise.all(
    ["prompt-short", "prompt-slash", "prompt-mechanical"].map(async (name) =>
      box.hook(await payload(name))
    ),
  );
  results.forEach(silent);
  const more = await Promise.all(
    [
      "   ",
      "thanks!",
      "commit and push",
      "fix lint errors",
      "/compact keep the plan",
      // No word at all: nothing to match, and no kernel rules either.
      "👍👍👍👍👍👍👍👍👍👍👍👍",
      "?????????????",
      "\u200b".repeat(20),
    ].map(async (prompt) => box.hook(await payloadWith({ prompt }))),
  );
  more.forEach(silent);
});

Deno.test("prompt-review and prompt-nomatch: reviewing entries; kernel only", async () => {
  await using box = await sandboxKb();
  const review = fired(await box.hook(await payload("prompt-review")));
  assert(pointerIds(review).includes("kb-r7v1d"), review);
  assert(pointerIds(review).length <= 5);
  const nomatch = fired(await box.hook(await payload("prompt-nomatch")));
  assertEquals(pointerIds(nomatch), [], nomatch);
  assert(hasKernel(nomatch));
  assert(!nomatch.includes("Fetch full text"));
});

Deno.test("ledger: kb-7q2mx once per session (kernel stays), again in another session", async () => {
  await using box = await sandboxKb();
  const first = fired(await box.hook(await payload("prompt-match")));
  assertEquals(pointerIds(first), MATCH_IDS);
  const second = fired(await box.hook(await payload("prompt-match")));
  assertEquals(pointerIds(second), [], second);
  assert(!second.includes("kb-7q2mx"), "not listed again in the same session");
  assert(hasKernel(second), "kernel is exempt from dedup");
  const other = fired(await box.hook(await payload("prompt-second-session")));
  assertEquals(pointerIds(other), MATCH_IDS, "a fresh session starts empty");
  const ledgers = [...Deno.readDirSync(join(box.cacheDir, "sessions"))].map((item) => item.name)
    .sort();
  const sessions = [
    "252e21c6-b669-4e85-b94d-d49c05bcce31",
    "d66295be-3ea4-40a4-9d72-e3acc5b5d510",
  ];
  assertEquals(ledgers, sessions.map((id) => sessionFile("", id).split("/").pop()).sort());
  const ledger = JSON.parse(Deno.readTextFileSync(sessionFile(box.cacheDir, sessions[1])));
  assertEquals(Object.keys(ledger), MATCH_IDS);
  // A payload without session_id has no ledger: it lists the pointer every time.
  const noSession = JSON.stringify({ prompt: JSON.parse(await payload("prompt-match")).prompt });
  assertEquals(pointerIds(fired(await box.hook(noSession))), MATCH_IDS);
  assertEquals(pointerIds(fired(await box.hook(noSession))), MATCH_IDS);
});

Deno.test("ledger: an entry edited on disk resurfaces in the same session; others stay deduped", async () => {
  await using box = await sandboxKb();
  const review = await payload("prompt-review");
  const reviewed = pointerIds(fired(await box.hook(review)));
  assert(reviewed.length > 0);
  assertEquals(pointerIds(fired(await box.hook(await payload("prompt-match")))), MATCH_IDS);
  assertEquals(pointerIds(fired(await box.hook(await payload("prompt-match")))), []);

  // Edit kb-7q2mx the way editors and git do: write a temp file, rename it over the entry.
  const entries = join(box.kb, "entries");
  const name = [...Deno.readDirSync(entries)].find((item) => item.name.startsWith("kb-7q2mx-"))!
    .name;
  const path = join(entries, name);
  const text = await Deno.readTextFile(path);
  const temp = join(entries, `.${name}.edit.tmp`);
  await Deno.writeTextFile(temp, text.trimEnd() + "\n\nAlso revoke the old token's sessions.\n");
  await Deno.rename(temp, path);

  const after = fired(await box.hook(await payload("prompt-match")));
  assertEquals(pointerIds(after), ["kb-7q2mx"], "changed content resurfaces");
  const again = fired(await box.hook(await payload("prompt-match")));
  assertEquals(pointerIds(again), [], "then it is deduplicated again");
  const reviewAgain = pointerIds(fired(await box.hook(review)));
  for (const id of reviewed) {
    assert(!reviewAgain.includes(id), `${id} unchanged: stays deduplicated after reindex`);
  }
});

Deno.test("KB_HOOK_DEBUG=1: one JSONL record per prompt with the decision's details", async () => {
  await using box = await sandboxKb();
  const debugEnv = { env: { KB_HOOK_DEBUG: "1" } };
  const match = fired(await box.hook(await payload("prompt-match"), debugEnv));
  silent(await box.hook(await payload("prompt-short"), debugEnv));
  silent(await box.hook(await payload("prompt-slash"), debugEnv));
  silent(await box.hook(await payload("prompt-mechanical"), debugEnv));
  const review = fired(await box.hook(await payload("prompt-review"), debugEnv));
  fired(await box.hook(await payload("prompt-match"), debugEnv));
  // Without KB_HOOK_DEBUG nothing is appended.
  fired(await box.hook(await payload("prompt-second-session")));

  const cacheDirs = [...Deno.readDirSync(join(box.tmp, "git-kb"))].map((item) => item.name);
  assertEquals(cacheDirs, [box.cacheDir.split("/").pop()]);
  const records = readDebug(join(box.cacheDir, "debug.jsonl"));
  assertEquals(records.length, 6, JSON.stringify(records, null, 1));
  assertEquals(records.map((record) => record.outcome), [
    "surfaced",
    "skipped",
    "skipped",
    "skipped",
    "surfaced",
    "surfaced",
  ]);
  assertEquals(records.map((record) => record.skip_reason), [
    null,
    "short",
    "slash_command",
    "mechanical",
    null,
    null,
  ]);
  const encoder = new TextEncoder();
  const [first, , , , reviewRecord, repeat] = records;
  for (const record of records) {
    assertEquals(typeof record.ms, "number");
    assertEquals(typeof record.bytes, "number");
    assert(Array.isArray(record.surfaced));
    assert(Array.isArray(record.near_misses));
    assertEquals(typeof record.keyword_hits, "object");
  }
  assertEquals(first.bytes, encoder.encode(match).length);
  assertEquals(Object.keys(first.keyword_hits as object).sort(), [
    "ci",
    "cloudflare",
    "leaked",
    "rotate",
    "token",
  ]);
  assertEquals(first.surfaced, [{
    id: "kb-7q2mx",
    signal: "keyword",
    why: ["rotate", "leaked", "cloudflare", "token", "ci"],
  }]);
  assertEquals(first.kernel, KERNEL_IDS);
  const nearMisses = first.near_misses as {
    id: string;
    hits: string[];
    evidence: { word: string; weight: number; where: string }[];
  }[];
  assert(nearMisses.length > 0);
  assert(nearMisses.every((miss) => miss.hits.length >= 1 && /^kb-/.test(miss.id)));
  // Each near miss shows its evidence: the words, what each counted, and where it matched.
  for (const { hits, evidence } of nearMisses) {
    assertEquals(evidence.map((item) => item.word), hits, JSON.stringify(evidence));
    assert(evidence.every((item) => item.weight > 0 && item.weight <= 1));
    assert(evidence.every((item) => ["title", "tags", "body"].includes(item.where)));
  }
  assert(nearMisses.every((miss) => !MATCH_IDS.includes(miss.id)), "a match is no near miss");
  assertEquals(reviewRecord.bytes, encoder.encode(review).length);
  assertEquals(reviewRecord.activities, ["reviewing"]);
  for (const item of reviewRecord.surfaced as { id: string; signal: string }[]) {
    assertEquals(item.signal, "keyword", JSON.stringify(item));
  }
  assertEquals(repeat.surfaced, []);
  assertEquals(repeat.deduped, MATCH_IDS);
  assertEquals(records[1].bytes, 0);
  assertEquals(records[1].surfaced, []);
});

Deno.test("fail-open: no configuration at all, KB_DIR missing, unreadable stdin", async () => {
  await using box = await sandboxKb();
  const match = await payload("prompt-match");
  const noKb = { TMPDIR: box.tmp, HOME: box.home, XDG_CONFIG_HOME: box.config };
  const missing = { ...box.env, KB_DIR: join(box.root, "no-such-folder") };
  const cases: [string, Promise<RunResult>][] = [
    ["no config", runHook(match, { env: noKb, cwd: box.project })],
    ["no config, debug", runHook(match, { env: { ...noKb, KB_HOOK_DEBUG: "1" } })],
    ["no config, no HOME", runHook(match, { env: { TMPDIR: box.tmp } })],
    ["KB_DIR missing", runHook(match, { env: missing, cwd: box.project })],
    ["empty stdin", box.hook("")],
    ["not JSON", box.hook("not JSON at all")],
    ["half JSON", box.hook(match.slice(0, 60))],
    ["binary", box.hook(new Uint8Array([0xff, 0xfe, 0x00, 0xc3, 0x28, 0xed, 0xa0, 0x80]))],
    ["JSON null", box.hook("null")],
    ["array", box.hook(`[${match}]`)],
  ];
  for (const [label, pending] of cases) {
    const result = await pending;
    assertEquals(checkHook(result), undefined, `${label}\n${show(result)}`);
    assertEquals(result.stdout, "", label);
  }
  let entries: string[] = [];
  try {
    entries = [...Deno.readDirSync(join(box.tmp, "git-kb"))].map((item) => item.name);
  } catch { /* nothing was written at all */ }
  assert(!entries.some((name) => name.startsWith("no-such-folder")), `${entries}`);
});

Deno.test("fail-open: a corrupt index (garbage manifest and shards)", async () => {
  await using box = await sandboxKb();
  fired(await box.hook(await payload("prompt-second-session")));
  const index = join(box.cacheDir, "index");
  const garble = (relative: string) => {
    const path = join(index, relative);
    Deno.writeTextFileSync(path, "\u0000{garbage\u00ff[[[" + "x".repeat(100));
  };
  /** Every index file but the manifest, whatever the layout. */
  const shards = (dir = index, prefix = ""): string[] =>
    [...Deno.readDirSync(dir)].flatMap((item) =>
      item.isDirectory
        ? shards(join(dir, item.name), `${prefix}${item.name}/`)
        : item.name === "manifest.json" && !prefix
        ? []
        : [`${prefix}${item.name}`]
    );
  assert(shards().length > 3, `${shards()}`);

  // Shards only (the manifest still says the index is fresh).
  for (const shard of shards()) garble(shard);
  checkHook(await box.hook(await payload("prompt-match")));
  checkHook(await box.hook(await payload("prompt-review")));

  // Manifest and shards.
  garble("manifest.json");
  for (const shard of shards()) garble(shard);
  const context = checkHook(await box.hook(await payload("prompt-match")));
  if (context) assert(context.length <= BUDGET);

  // A manifest that parses but has the wrong shape, with the current stamp.
  const stamp = { entriesMtime: Deno.statSync(join(box.kb, "entries")).mtime!.getTime() };
  Deno.writeTextFileSync(
    join(index, "manifest.json"),
    JSON.stringify({
      version: 1,
      stamp: { ...stamp, head: "", gitIndexMtime: 0 },
      kernel: 42,
      activity: "x",
      shardCount: 0,
      docCount: -1,
    }),
  );
  checkHook(await box.hook(await payload("prompt-match")));
  checkHook(await box.hook(await payload("prompt-review")));
});

Deno.test("a prompt about the project's files needs one more word; its specific words still match", async () => {
  await using box = await sandboxKb();
  const debugEnv = { env: { KB_HOOK_DEBUG: "1" } };
  // Two words of the rotation howto: a question's worth, not an instruction about deploy.yml's.
  const weak = "rotate the token in deploy.yml";
  assertEquals(
    pointerIds(fired(await box.hook(await payloadWith({ prompt: weak }), debugEnv))),
    [],
  );
  const asked = "how do i rotate a token?";
  const question = await payloadWith({ prompt: asked, session_id: "another-session" });
  assertEquals(pointerIds(fired(await box.hook(question, debugEnv))), ["kb-7q2mx"]);
  // Three: no wording silences words this specific to the knowledge base.
  const strong = "rotate the leaked Cloudflare token in deploy.yml of our CI";
  const told = await payloadWith({ prompt: strong, session_id: "third-session" });
  assertEquals(pointerIds(fired(await box.hook(told, debugEnv))), ["kb-7q2mx"]);
  const records = readDebug(join(box.cacheDir, "debug.jsonl"));
  assertEquals(records.map((record) => record.context ?? null), [
    { kind: "file", text: "deploy.yml" },
    null,
    { kind: "file", text: "deploy.yml" },
  ]);
  assert(Object.keys(records[0].keyword_hits as object).includes("rotate"), "words matched");
});

Deno.test("KB_HOOK_DEBUG=1 names the entry a prompt came closest to firing on, and why not", async () => {
  await using box = await sandboxKb();
  const debugEnv = { env: { KB_HOOK_DEBUG: "1" } };
  const near = "why does the deploy to cloudflare keep failing on the worker route";
  assertEquals(
    pointerIds(fired(await box.hook(await payloadWith({ prompt: near }), debugEnv))),
    [],
  );
  fired(await box.hook(await payload("prompt-match"), debugEnv));
  const records = readDebug(join(box.cacheDir, "debug.jsonl"));
  assertEquals(records.map((record) => record.held_back ?? null), [
    { id: "kb-7q2mx", reason: "not_about" },
    null,
  ]);
});

Deno.test("fail-open: the ledger cannot be written or read", async () => {
  await using box = await sandboxKb();
  fired(await box.hook(await payload("prompt-nomatch")));
  const sessions = join(box.cacheDir, "sessions");
  await Deno.remove(sessions, { recursive: true }).catch(() => {});

  // A dangling symlink: reading finds no ledger, writing fails. As the issue asks, a ledger
  // write failure means no output (the pointer would otherwise repeat on every prompt), and
  // the failure is recorded.
  Deno.symlinkSync(join(box.root, "nowhere", "sessions"), sessions);
  const debugEnv = { env: { KB_HOOK_DEBUG: "1" } };
  silent(await box.hook(await payload("prompt-match"), debugEnv));
  const records = readDebug(join(box.cacheDir, "debug.jsonl"));
  assertEquals(records.length, 1);
  assertEquals(records[0].outcome, "error", JSON.stringify(records[0]));
  assertMatch(String(records[0].error), /sessions/, JSON.stringify(records[0]));

  // A plain file where the sessions folder should be: neither read nor write works.
  Deno.removeSync(sessions);
  Deno.writeTextFileSync(sessions, "not a folder");
  checkHook(await box.hook(await payload("prompt-match")));
  checkHook(await box.hook(await payload("prompt-second-session")));
});

Deno.test("fail-open: a failure with a known knowledge base is recorded in its debug log", async () => {
  await using box = await sandboxKb();
  fired(await box.hook(await payload("prompt-nomatch")));
  const sessions = join(box.cacheDir, "sessions");
  await Deno.remove(sessions, { recursive: true }).catch(() => {});
  Deno.writeTextFileSync(sessions, "not a folder");
  const result = await box.hook(await payload("prompt-match"), { env: { KB_HOOK_DEBUG: "1" } });
  checkHook(result);
  const records = readDebug(join(box.cacheDir, "debug.jsonl"));
  const stray = readDebug(join(box.tmp, "git-kb", "debug.jsonl"));
  assertEquals(
    records.length,
    1,
    `expected one record in ${box.cacheDir}/debug.jsonl (read by git-kb stats); ` +
      `found ${records.length} there and ${stray.length} in $TMPDIR/git-kb/debug.jsonl: ` +
      JSON.stringify(stray),
  );
});

Deno.test("hot path loads no YAML: empty DENO_DIR and --cached-only after the index is built", async () => {
  await using box = await sandboxKb({ noKernel: true });
  const emptyDenoDir = join(box.root, "empty-deno-dir");
  await Deno.mkdir(emptyDenoDir);
  // Build the index with the normal cache (this loads js-yaml to parse entries).
  assertEquals(
    pointerIds(fired(await box.hook(await payload("prompt-second-session")))),
    MATCH_IDS,
  );
  const bare = { denoDir: emptyDenoDir, flags: ["--cached-only"] };
  const nonFiring = await box.hook(await payload("prompt-nomatch"), bare);
  silent(nonFiring);
  const skipped = await box.hook(await payload("prompt-mechanical"), bare);
  silent(skipped);
  const firing = fired(await box.hook(await payload("prompt-match"), bare));
  assertEquals(pointerIds(firing), MATCH_IDS);
  const review = fired(await box.hook(await payload("prompt-review"), bare));
  assert(pointerIds(review).includes("kb-r7v1d"));
  const cached = (dir: string, prefix = ""): string[] =>
    [...Deno.readDirSync(dir)].flatMap((item) =>
      item.isDirectory
        ? cached(join(dir, item.name), `${prefix}${item.name}/`)
        : [`${prefix}${item.name}`]
    );
  const files = cached(emptyDenoDir);
  assert(
    files.some((file) => file.endsWith("core/prompt/decision.ts.js")),
    "the hook's modules",
  );
  assert(!files.some((file) => /js-yaml|argparse/.test(file)), "no npm package fetched");
  assert(
    !files.some((file) => /core\/(entry|frontmatter)\.ts/.test(file)),
    `the entry parser was never compiled:\n${files.join("\n")}`,
  );

  // Control: anything that imports core/entry/entry.ts (js-yaml) fails under the same conditions.
  const control = join(box.root, "control.ts");
  await Deno.writeTextFile(
    control,
    `import { serializeEntry } from ${JSON.stringify(join(ROOT, "core", "entry", "entry.ts"))};\n` +
      `console.log(typeof serializeEntry);\n`,
  );
  const runControl = async (dir: string) =>
    await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--cached-only",
        "--no-prompt",
        "--allow-read",
        "--config",
        join(ROOT, "deno.json"),
        control,
      ],
      cwd: box.project,
      clearEnv: true,
      env: { PATH: Deno.env.get("PATH") ?? "", DENO_DIR: dir, HOME: box.home },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).output();
  const failing = await runControl(emptyDenoDir);
  assertNotStrictEquals(failing.code, 0, "importing the YAML parser needs the npm cache");
  // Deno installs the lock file's npm packages together, so the one it names first may be
  // another of them (diff, the MCP SDK): what matters is that the npm cache was needed.
  assertMatch(decoder.decode(failing.stderr), /npm package .*not found in cache|js-yaml/);
  const passing = await runControl(await denoDir());
  assertEquals(passing.code, 0, decoder.decode(passing.stderr));
  assertEquals(decoder.decode(passing.stdout).trim(), "function");
});
