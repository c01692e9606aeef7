/**
 * Fuzzing the prompt hook: thousands of malformed, huge, binary and deeply nested payloads run
 * in-process through promptHookOutput (wrapped exactly like the hook's main block), ~30 more as
 * real subprocesses, and a knowledge base of 200 matching entries with long titles. Always:
 * output empty or the UserPromptSubmit JSON, additionalContext never over 10,000 characters.
 *
 * Then hostile input of every shape that once made a hook run for seconds or crash (brace
 * bombs, long xargs and find -exec chains, runs of y, a 1 MB word, many unique words, deep
 * nesting, NULs, lone surrogates), through both the prompt hook and the search augment, in
 * process and as subprocesses: each payload finishes within a time bound, exit 0, with no output
 * or valid JSON.
 */
import {
  assert,
  assertEquals,
  assertMatch,
  assertNotMatch,
  assertStrictEquals,
  fail,
} from "@std/assert";
import { join } from "@std/path/posix/join";
import { type Entry, serializeEntry } from "../core/entry/entry.ts";
import { hookFlags } from "../app/permissions.ts";
import { shellQuote } from "../core/shell/quote.ts";
import { runProcess } from "../io/process.ts";
import { parsePayload } from "../core/hook/payload.ts";
import { recordFailure } from "../io/hook/debug_log.ts";
import { openIndex } from "../io/index/store.ts";
import { promptHookOutput } from "../hooks/prompt.ts";
import { searchHookOutput } from "../hooks/search_augment.ts";
import {
  acceptKernel,
  cacheRootOf,
  childEnv,
  copyDir,
  denoDir,
  FIXTURE,
  kernelRulesOf,
  makeSandbox,
  mapLimit,
  overrideEnv,
  ROOT,
  runAlone,
  runHook,
  STACK_FRAME,
} from "./helpers.ts";

import { createRandom } from "../bench/generate.ts";

const CAP = 10_000;
const BUDGET = 9_000;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

const next = createRandom(20260701).next;
const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
const int = (max: number) => Math.floor(next() * max);

function randomBytes(length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  for (let index = 0; index < length; index++) bytes[index] = int(256);
  return bytes;
}

/** Words that hit the sample knowledge base, plus noise, stopwords and odd tokens. */
const VOCABULARY = [
  "rotate",
  "leaked",
  "cloudflare",
  "npm",
  "token",
  "ci",
  "review",
  "pull",
  "request",
  "postgres",
  "migration",
  "deno",
  "permissions",
  "github",
  "actions",
  "pin",
  "commit",
  "messages",
  "idempotency",
  "keys",
  "release",
  "branch",
  "bm25",
  "ranking",
  "git",
  "bisect",
  "the",
  "please",
  "and",
  "constructor",
  "__proto__",
  "toString",
  "hasOwnProperty",
  "prototype",
  "écrire",
  "日本語",
  "🙂",
  "\u0000",
  "\ud800",
  "\udfff",
  "a\u0301",
  "\u200b",
  "\u202e",
  "plan",
  "write",
  "draft",
  "implement",
];

const SESSIONS = [
  "d66295be-3ea4-40a4-9d72-e3acc5b5d510",
  "fuzz-1",
  "fuzz-2",
  "../../../../etc/passwd",
  "",
  "\u0000\u0000",
  "a".repeat(5000),
  "séssion/🙂",
  "\ud800",
  "..",
  "CON",
];

function words(count: number): string {
  return Array.from({ length: count }, () => pick(VOCABULARY)).join(pick([" ", " ", ", ", "\n"]));
}

const VALID = {
  session_id: "d66295be-3ea4-40a4-9d72-e3acc5b5d510",
  transcript_path: "/root/.claude/projects/-work-demo/x.jsonl",
  cwd: "/work/demo",
  prompt_id: "f0fb90bd-7dc3-41a1-975f-88e53cdf5469",
  permission_mode: "default",
  hook_event_name: "UserPromptSubmit",
  prompt: "How do I rotate a leaked Cloudflare token used by our CI?",
};

/** A fuzz case: stdin text, and whether it is a well-formed payload (object, string prompt). */
interface Case {
  label: string;
  input: string;
  wellFormed: boolean;
}

function payload(fields: Record<string, unknown>): string {
  return JSON.stringify({ ...VALID, ...fields });
}

function nested(depth: number, open: string, close: string, inner = "0"): string {
  return open.repeat(depth) + inner + close.repeat(depth);
}

/** About 3,000 cases of every kind. */
function fuzzCases(): Case[] {
  const cases: Case[] = [];
  const bad = (label: string, input: string) => cases.push({ label, input, wellFormed: false });
  const good = (label: string, fields: Record<string, unknown>) =>
    cases.push({ label, input: payload(fields), wellFormed: true });

  // Random bytes, as the hook would decode them.
  for (let index = 0; index < 900; index++) {
    bad(`random bytes ${index}`, decoder.decode(randomBytes(int(index < 850 ? 300 : 20_000))));
  }
  // Every truncation of real payloads.
  const match = payload({});
  for (let length = 0; length < match.length; length++) {
    bad(`truncated at ${length}`, match.slice(0, length));
  }
  const review = payload({ prompt: "please review this pull request for the payment module" });
  for (let length = 0; length < review.length; length += 3) {
    bad(`truncated review at ${length}`, review.slice(0, length));
  }
  // Random mutations of a valid payload.
  for (let index = 0; index < 600; index++) {
    const chars = [...match];
    for (let edit = 0; edit <= int(4); edit++) {
      const at = int(chars.length);
      const kind = int(3);
      if (kind === 0) chars.splice(at, 1);
      else if (kind === 1) {
        chars.splice(
          at,
          0,
          pick(['"', "{", "}", "[", "]", ",", ":", "\\", "\u0000", "é", "\ud800"]),
        );
      } else chars[at] = String.fromCharCode(int(0x10000));
    }
    const input = chars.join("");
    let wellFormed = false;
    try {
      const parsed = JSON.parse(input);
      wellFormed = typeof parsed === "object" && parsed !== null &&
        typeof parsed.prompt === "string";
    } catch { /* malformed */ }
    cases.push({ label: `mutation ${index}`, input, wellFormed });
  }
  // Deep nesting, as the whole payload and inside the prompt field.
  for (const depth of [10_000, 100_000]) {
    bad(`arrays ${depth} deep`, nested(depth, "[", "]"));
    bad(`arrays ${depth} deep, unclosed`, "[".repeat(depth));
    bad(`objects ${depth} deep`, nested(depth, '{"a":', "}"));
    bad(`prompt is ${depth}-deep array`, `{"prompt":${nested(depth, "[", "]")}}`);
  }
  // Top-level values that are not objects, and prompts of the wrong type.
  for (
    const input of ["null", "0", "-1e400", "true", '"prompt"', "[]", "{}", `[${match}]`, "\ufeff"]
  ) {
    bad(`top level ${input.slice(0, 20)}`, input);
  }
  for (const prompt of [null, 42, true, [], ["rotate leaked token"], { text: "rotate" }, 1e309]) {
    bad(`prompt ${JSON.stringify(prompt)}`, payload({ prompt }));
  }
  bad("no prompt", JSON.stringify({ session_id: "x" }));
  bad("__proto__ prompt", '{"__proto__":{"prompt":"rotate the leaked npm token now"}}');
  bad("BOM then JSON", "\ufeff" + match);
  // Well-formed payloads: odd prompts and sessions.
  good("1 MB of words", { prompt: words(150_000).slice(0, 1_000_000) });
  good("1 MB of one letter", { prompt: "a".repeat(1_000_000) });
  good("1 MB of unicode", { prompt: "日本語🙂é ".repeat(120_000) });
  good("NUL and lone surrogates", { prompt: "rotate\u0000leaked\ud800token\udfff npm \u0000" });
  good("escaped lone surrogate", { prompt: "rotate leaked \ud83d token" });
  good("only NULs", { prompt: "\u0000".repeat(100) });
  good("RTL and zero-width", { prompt: "\u202erotate\u200b leaked\u200d token\u2066npm" });
  good("prototype words", { prompt: "constructor __proto__ toString hasOwnProperty valueOf" });
  good("session is a number", { session_id: 42 });
  good("session is an object", { session_id: { id: "x" } });
  for (const session of SESSIONS) {
    good(`session ${JSON.stringify(session).slice(0, 20)}`, { session_id: session });
  }
  for (let index = 0; index < 1100; index++) {
    good(`words ${index}`, {
      prompt: words(1 + int(index % 10 === 0 ? 400 : 14)),
      session_id: pick(SESSIONS.slice(0, 4)),
    });
  }
  return cases;
}

/** The hook's main block, in-process: the output, or "" after recording a failure. */
async function hookInProcess(input: string): Promise<{ output: string; error?: unknown }> {
  let output = "";
  let caught: unknown;
  try {
    output = await promptHookOutput(parsePayload(input));
  } catch (error) {
    caught = error;
    recordFailure(error);
  }
  return { output, error: caught };
}

/** Check a hook output; returns its additionalContext or undefined. */
function checkOutput(
  output: string,
  label: string,
  event = "UserPromptSubmit",
): string | undefined {
  if (output === "") return undefined;
  let parsed: { hookSpecificOutput?: { hookEventName?: string; additionalContext?: unknown } };
  try {
    parsed = JSON.parse(output);
  } catch {
    fail(`${label}: output is neither empty nor JSON: ${output.slice(0, 200)}`);
  }
  assertEquals(Object.keys(parsed), ["hookSpecificOutput"], label);
  assertStrictEquals(parsed.hookSpecificOutput?.hookEventName, event, label);
  const context = parsed.hookSpecificOutput?.additionalContext;
  assertEquals(typeof context, "string", label);
  assert((context as string).length <= CAP, `${label}: ${(context as string).length} > ${CAP}`);
  assert((context as string).length <= BUDGET, `${label}: ${(context as string).length}`);
  return context as string;
}

const ENV_NAMES = [
  "KB_DIR",
  "TMPDIR",
  "TEMP",
  "TMP",
  "HOME",
  "XDG_CONFIG_HOME",
  "XDG_CACHE_HOME",
  "CLAUDE_PLUGIN_DATA",
  "KB_HOOK_DEBUG",
  "KB_HOOK_THRESHOLD",
  "KB_HOOK_MAX_ENTRIES",
  "KB_CLI",
  "CLAUDE_PLUGIN_ROOT",
];

/** Run `action` with these environment variables (others of ENV_NAMES unset), then restore. */
async function withEnv<T>(env: Record<string, string>, action: () => Promise<T>): Promise<T> {
  const unset = Object.fromEntries(ENV_NAMES.map((name) => [name, undefined]));
  using _env = overrideEnv({ ...unset, ...env });
  return await action();
}

async function sampleBox() {
  const sandbox = await makeSandbox("git-kb-fuzz-");
  const kb = join(sandbox.root, "kb");
  await copyDir(FIXTURE, kb);
  const env = {
    TMPDIR: sandbox.tmp,
    XDG_CACHE_HOME: sandbox.tmp,
    HOME: sandbox.home,
    XDG_CONFIG_HOME: sandbox.config,
    KB_DIR: kb,
  };
  return { ...sandbox, kb, env };
}

/** Every file under `dir`, relative. */
function walk(dir: string, prefix = ""): string[] {
  return [...Deno.readDirSync(dir)].flatMap((item) =>
    item.isDirectory
      ? walk(join(dir, item.name), `${prefix}${item.name}/`)
      : [`${prefix}${item.name}`]
  );
}

Deno.test("fuzz in-process: thousands of malformed payloads → empty or valid JSON under the cap", async (t) => {
  if (await runAlone(t)) return;
  await using box = await sampleBox();
  const cases = fuzzCases();
  assert(cases.length >= 3000, `${cases.length} cases`);
  let fired = 0;
  const failures: string[] = [];
  await withEnv({ ...box.env, KB_HOOK_DEBUG: "1" }, async () => {
    for (const item of cases) {
      const { output, error } = await hookInProcess(item.input);
      if (checkOutput(output, item.label) !== undefined) fired++;
      if (error !== undefined && item.wellFormed) {
        failures.push(`${item.label}: ${error instanceof Error ? error.stack : error}`);
      }
    }
  });
  assert(fired >= 500, `only ${fired} of ${cases.length} fired: the fuzz misses the hot path`);
  assertEquals(failures, [], "well-formed payloads must not throw");
  // Nothing was written outside the cache folder, whatever the session ids.
  const top = [...Deno.readDirSync(box.tmp)].map((item) => item.name);
  assertEquals(top, ["git-kb"]);
  const files = walk(join(box.tmp, "git-kb"));
  for (const file of files) {
    assertMatch(
      file,
      /^(debug\.jsonl|kb-[0-9a-f]{10}\/(debug\.jsonl|index\.lock|index\/.+|sessions\.swept|sessions\/[^/]+(\.json|\.unmatched\.jsonl)))$/,
      file,
    );
  }
  const entries = [...Deno.readDirSync(box.kb)].map((item) => item.name).sort();
  assertEquals(entries, [...Deno.readDirSync(FIXTURE)].map((item) => item.name).sort());
});

// ---------------------------------------------------------------------------------------------
// Subprocesses

Deno.test("fuzz subprocesses: ~30 malformed stdins → exit 0, stdout empty or valid JSON", async () => {
  await using box = await sampleBox();
  const bytes = (text: string) => encoder.encode(text);
  const match = payload({});
  const cases: [string, Uint8Array][] = [
    ["empty", new Uint8Array()],
    ["not JSON", bytes("not JSON")],
    ["whitespace", bytes(" \n\t ")],
    ["invalid UTF-8", new Uint8Array([0xc3, 0x28, 0xa0, 0xa1, 0xe2, 0x28, 0xa1, 0xff])],
    [
      "CESU lone surrogate",
      new Uint8Array([
        ...bytes('{"prompt":"rotate leaked '),
        0xed,
        0xa0,
        0x80,
        ...bytes(' token npm"}'),
      ]),
    ],
    ...Array.from(
      { length: 4 },
      (_, index) => [`random ${index}`, randomBytes(1 + int(4000))] as [string, Uint8Array],
    ),
    ["random 100 KB", randomBytes(100_000)],
    ["truncated 1", bytes(match.slice(0, 1))],
    ["truncated 40", bytes(match.slice(0, 40))],
    ["truncated -1", bytes(match.slice(0, -1))],
    ["truncated -20", bytes(match.slice(0, -20))],
    ["arrays 10k deep", bytes(nested(10_000, "[", "]"))],
    ["arrays 1M deep", bytes(nested(1_000_000, "[", "]"))],
    ["prompt 10k-deep array", bytes(`{"prompt":${nested(10_000, "[", "]")}}`)],
    ["prompt number", bytes(payload({ prompt: 42 }))],
    ["prompt null", bytes(payload({ prompt: null }))],
    ["prompt object", bytes(payload({ prompt: { text: "rotate leaked token" } }))],
    ["1 MB prompt", bytes(payload({ prompt: words(150_000).slice(0, 1_000_000) }))],
    ["9 MB stdin", bytes(payload({ prompt: "rotate leaked npm token ".repeat(380_000) }))],
    [
      "NUL and lone surrogates",
      bytes(payload({ prompt: "rotate\u0000leaked\ud800 npm token\udfff" })),
    ],
    [
      "escaped lone surrogate",
      bytes('{"prompt":"rotate leaked \\ud800 npm token","session_id":"\\udfff"}'),
    ],
    [
      "unicode",
      bytes(payload({ prompt: "Comment faire une rotation du jeton npm divulgué 🙂 日本語" })),
    ],
    ["BOM", bytes("\ufeff" + match)],
    ["traversal session", bytes(payload({ session_id: "../../../../../tmp/evil" }))],
    ["huge session", bytes(payload({ session_id: "s".repeat(100_000) }))],
    ["valid match", bytes(payload({ session_id: "fresh-session" }))],
    [
      "valid review",
      bytes(payload({ prompt: "please review this pull request for the payment module" })),
    ],
    ["__proto__", bytes('{"__proto__":{"prompt":"rotate the leaked npm token"}}')],
  ];
  assert(cases.length >= 30, `${cases.length}`);
  const results = await mapLimit(cases, 4, ([, stdin]) => runHook(stdin, { env: box.env }));
  let fired = 0;
  results.forEach((result, index) => {
    const label = cases[index][0];
    const detail = `${label}: exit ${result.code}\n${result.stdout.slice(0, 500)}\n${
      result.stderr.slice(0, 500)
    }`;
    assertEquals(result.code, 0, detail);
    assertNotMatch(result.stdout, STACK_FRAME, detail);
    assertNotMatch(result.stderr, STACK_FRAME, detail);
    if (checkOutput(result.stdout, label) !== undefined) fired++;
  });
  assert(fired >= 3, `${fired} fired`);
  const byLabel = new Map(cases.map(([label], index) => [label, results[index]]));
  assert(byLabel.get("valid match")!.stdout.includes("kb-7q2mx"));
  assertEquals(byLabel.get("empty")!.stdout, "");
  assertEquals(byLabel.get("9 MB stdin")!.stdout, "", "over the input limit: no output");
  assertEquals([...Deno.readDirSync(box.tmp)].map((item) => item.name), ["git-kb"]);
});

// ---------------------------------------------------------------------------------------------
// 200 matching entries with long titles

function longTitle(index: number): string {
  let title = `Kafka consumer lag runbook ${index}:`;
  while (title.length < 195) title += " when the partition rebalance stalls under load";
  return title.slice(0, 195).trimEnd();
}

async function bigKb(dir: string): Promise<void> {
  await Deno.mkdir(join(dir, "entries"), { recursive: true });
  const base: Omit<Entry, "id" | "title" | "body"> = {
    type: "howto",
    tags: ["kafka", "consumer-lag", "operations"],
    aliases: ["kafka lag"],
    appliesTo: ["coding"],
    kernel: false,
    status: "active",
    created: "2026-01-01",
    updated: "2026-01-02",
    links: [],
    extra: {},
  };
  const writes: Promise<void>[] = [];
  for (let index = 0; index < 200; index++) {
    const id = `kb-b${index.toString(36).padStart(4, "0")}`;
    const entry: Entry = {
      ...base,
      id,
      title: longTitle(index),
      body: `Steps for case ${index}.\n`,
    };
    writes.push(
      Deno.writeTextFile(join(dir, "entries", `${id}-kafka-lag.md`), serializeEntry(entry)),
    );
  }
  // Among 3,300 entries about other things, a word of the 200 still says enough to count: a
  // word in every entry would say nothing.
  for (let index = 0; index < 3_300; index++) {
    const id = `kb-o${index.toString(36).padStart(4, "0")}`;
    const entry: Entry = {
      ...base,
      id,
      title: `Bread notes ${index}`,
      tags: [],
      aliases: [],
      appliesTo: [],
      body: "Rye and wheat.\n",
    };
    writes.push(Deno.writeTextFile(join(dir, "entries", `${id}-bread.md`), serializeEntry(entry)));
  }
  // Kernel rules that together exceed the kernel budget: the last ones degrade to pointers.
  for (let index = 0; index < 3; index++) {
    const id = `kb-kern${index}`;
    const entry: Entry = {
      ...base,
      id,
      type: "rule",
      kernel: true,
      tags: ["style"],
      aliases: [],
      appliesTo: [],
      title: `House rule ${index} for every kafka consumer change`,
      body: `Rule ${index}: keep changes small and observable. `.repeat(55) + "\n",
    };
    writes.push(
      Deno.writeTextFile(join(dir, "entries", `${id}-house-rule.md`), serializeEntry(entry)),
    );
  }
  await Promise.all(writes);
}

Deno.test("200 matching entries with long titles: additionalContext stays under 9,000", async (t) => {
  if (await runAlone(t)) return;
  await using sandbox = await makeSandbox("git-kb-fuzz-big-");
  const kb = join(sandbox.root, "kb");
  await bigKb(kb);
  await acceptKernel(sandbox.config, await kernelRulesOf(kb));
  const env = {
    TMPDIR: sandbox.tmp,
    HOME: sandbox.home,
    XDG_CONFIG_HOME: sandbox.config,
    KB_DIR: kb,
  };
  const prompts = [
    "kafka consumer lag keeps growing after the partition rebalance",
    "write code to fix the kafka consumer lag runbook when rebalance stalls under load",
    "kafka consumer lag runbook partition rebalance stalls load operations",
  ];
  // Indexed first, as the session's watch or `git-kb index` does: a hook builds no index of 3,503
  // entries itself (tests/hook_budget_test.ts).
  await withEnv(env, () => openIndex(kb));
  for (const maxEntries of ["5", "200"]) {
    await withEnv({ ...env, KB_HOOK_MAX_ENTRIES: maxEntries }, async () => {
      for (const [index, prompt] of prompts.entries()) {
        const label = `max ${maxEntries}, prompt ${index}`;
        const { output, error } = await hookInProcess(
          payload({ prompt, session_id: `big-${maxEntries}-${index}` }),
        );
        assertEquals(error, undefined, `${label}: ${error}`);
        const context = checkOutput(output, label);
        assert(context, label);
        const pointers = context.split("\n").filter((line) => line.startsWith("- kb-"));
        assert(pointers.length >= 1, label);
        if (maxEntries === "5") assert(pointers.length <= 5 + 3, label);
        else assert(pointers.length > 5, `${label}: ${pointers.length} pointers`);
        assert(context.includes("### kb-kern0"), `${label}: first kernel rule inline`);
      }
    });
  }
  // The subprocess's cache is under its TMPDIR (see childEnv): indexed there too.
  await withEnv({ ...env, XDG_CACHE_HOME: sandbox.tmp }, () => openIndex(kb));
  const result = await runHook(
    encoder.encode(payload({ prompt: prompts[0], session_id: "big-subprocess" })),
    { env: { ...env, KB_HOOK_MAX_ENTRIES: "200" } },
  );
  assertEquals(result.code, 0, result.stderr);
  const context = checkOutput(result.stdout, "subprocess");
  assert(context && context.length <= BUDGET);
});

// ---------------------------------------------------------------------------------------------
// Hostile input of every shape, through both hooks, each within a time bound

/**
 * What one payload may cost a hook in process, in CPU time of its thread where Linux says (see
 * {@link cpuMs}), else in time on the clock.
 */
const IN_PROCESS_MS = 2000;

/** How long on the clock any one payload may take, however loaded the machine: a hang. */
const HANG_MS = 30_000;

/**
 * CPU time in ms from Linux's /proc (in ticks of 10 ms): of this thread, or of this process's
 * children that have ended; undefined where /proc cannot say. Unlike the time on the clock, it
 * does not grow when other processes load the machine, so a bound on it holds under any load.
 */
function cpuMs(of: "thread" | "children"): number | undefined {
  try {
    const stat = Deno.readTextFileSync(
      of === "thread" ? "/proc/thread-self/stat" : "/proc/self/stat",
    );
    // stat(5) fields from the state (field 3) on: utime and stime are 14 and 15, cutime and
    // cstime 16 and 17.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const at = of === "thread" ? 11 : 13;
    const ticks = Number(fields[at]) + Number(fields[at + 1]);
    return Number.isFinite(ticks) ? ticks * 10 : undefined;
  } catch {
    return undefined;
  }
}

/** CPU time spent since `before` (a {@link cpuMs} reading), else `clockMs`. */
function costMs(of: "thread" | "children", before: number | undefined, clockMs: number): number {
  const now = cpuMs(of);
  return before === undefined || now === undefined ? clockMs : now - before;
}

/** `count` distinct words that are neither stopwords nor stemmed together. */
function uniqueWords(count: number): string {
  return Array.from({ length: count }, (_, index) => `q${index.toString(36)}z`).join(" ");
}

/** Hostile text by shape: what a prompt, a pattern or a command line may hold. */
const HOSTILE: [string, string][] = [
  ["{a,b} x 24", "{a,b}".repeat(24) + "rebase"],
  ["{a,b} x 2000", "{a,b}".repeat(2000)],
  ["189-byte brace bomb", "{a,b,c,d,e,f,g,h,i,j}".repeat(9)],
  ["600 KB of xargs", "xargs ".repeat(100_000) + "grep rebase"],
  ["find -exec chain", "find . -exec ".repeat(40_000) + "grep rebase"],
  ["find -name -exec chain", "find . -name '*rebase*' -exec ".repeat(20_000) + "grep rebase"],
  ["8 runs of 10,000 y", Array.from({ length: 8 }, () => "y".repeat(10_000)).join(" ")],
  ["40 runs of 20,000 y", Array.from({ length: 40 }, () => "y".repeat(20_000)).join(" ")],
  ["1 MB single word", "k".repeat(1_000_000)],
  // İ lowercases to two characters, and all of it is one word: every pass over it costs.
  ["8 MB single word of İ", "\u0130".repeat(4_000_000)],
  ["many unique words", uniqueWords(120_000)],
  ["many unique words, another script", uniqueWords(60_000).replaceAll("z", "é")],
  ["deep $( nesting", "grep $(".repeat(100_000)],
  ["deep bracket nesting", "[(".repeat(300_000)],
  ["deep regex groups", "(?:".repeat(200_000) + "rebase"],
  ["NULs", "\u0000".repeat(300_000) + " rebase git"],
  ["lone surrogates", "\ud800rebase\udfff ".repeat(60_000)],
  ["brackets never closed", "[a".repeat(300_000)],
  // Each sentence is read alone when the whole prompt says too much else to be about an entry.
  [
    "20,000 sentences naming one entry",
    Array.from({ length: 20_000 }, (_, index) => `Rebase the branch onto main, w${index}q.`)
      .join(" "),
  ],
];

type HookName = "prompt" | "search";

/** Each hook's answer to a payload, as its main block calls it, and the event its reply names. */
const HOOKS: Record<HookName, { run: (input: string) => Promise<string>; event: string }> = {
  prompt: { run: (input) => promptHookOutput(parsePayload(input)), event: "UserPromptSubmit" },
  search: { run: (input) => searchHookOutput(parsePayload(input)), event: "PreToolUse" },
};

/** A search augment payload: a `tool` call with `input`. */
function searchCall(tool: string, input: Record<string, unknown>, session = VALID.session_id) {
  return JSON.stringify({
    ...VALID,
    session_id: session,
    hook_event_name: "PreToolUse",
    tool_name: tool,
    tool_input: input,
  });
}

/** Every payload of `text` for both hooks: the prompt, Grep and Glob patterns, Bash commands. */
function hostilePayloads(text: string): [string, HookName, string][] {
  return [
    ["prompt", "prompt", payload({ prompt: text })],
    ["Grep", "search", searchCall("Grep", { pattern: text })],
    ["Glob", "search", searchCall("Glob", { pattern: text })],
    ["Bash", "search", searchCall("Bash", { command: text })],
    ["Bash find", "search", searchCall("Bash", { command: `find . -name ${shellQuote(text)}` })],
  ];
}

/**
 * Run hook `name` in process on `input`: its output, what it threw, how long it took on the
 * clock, and what it cost (see {@link costMs}).
 */
async function timed(name: HookName, input: string) {
  const cpu = cpuMs("thread");
  const started = performance.now();
  let output = "";
  let error: unknown;
  try {
    output = await HOOKS[name].run(input);
  } catch (caught) {
    error = caught;
  }
  const ms = performance.now() - started;
  return { output, error, ms, cost: costMs("thread", cpu, ms) };
}

Deno.test("hostile shapes in process: both hooks finish each payload in bounded time, output empty or JSON", async (t) => {
  if (await runAlone(t)) return;
  await using box = await sampleBox();
  await withEnv(box.env, async () => {
    // The first call builds the index; the bound is for what a payload costs afterwards.
    assert(checkOutput(await promptHookOutput(parsePayload(payload({}))), "warm-up"));
    const slow: string[] = [];
    for (const [shape, text] of HOSTILE) {
      for (const [as, name, input] of hostilePayloads(text)) {
        const label = `${as}, ${shape}`;
        const { output, error, ms, cost } = await timed(name, input);
        assertEquals(
          error,
          undefined,
          `${label}: ${error instanceof Error ? error.stack : error}`,
        );
        checkOutput(output, label, HOOKS[name].event);
        if (cost > IN_PROCESS_MS || ms > HANG_MS) {
          slow.push(`${label}: ${cost.toFixed(0)} ms of CPU, ${ms.toFixed(0)} ms on the clock`);
        }
      }
    }
    assertEquals(slow, [], `over ${IN_PROCESS_MS} ms, or ${HANG_MS} ms on the clock`);
  });
});

/**
 * Run hook `name` as Claude Code would, with its profile's flags; killed after `timeoutMs`. Its
 * cost is its CPU time (see {@link costMs}), which only a test run alone measures right: the
 * children of tests running beside it in this process would count too.
 */
async function hookProcess(
  name: HookName,
  stdin: string,
  env: Record<string, string>,
  timeoutMs: number,
) {
  const flags = hookFlags(name, cacheRootOf(env));
  const script = join(ROOT, "hooks", name === "prompt" ? "prompt.ts" : "search_augment.ts");
  const denoDirPath = await denoDir();
  const cpu = cpuMs("children");
  const started = performance.now();
  const result = await runProcess(Deno.execPath(), ["run", ...flags, script], {
    cwd: env.TMPDIR,
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      DENO_DIR: denoDirPath,
      DENO_NO_UPDATE_CHECK: "1",
      ...childEnv(env),
    },
    stdin,
    timeoutMs,
  });
  const ms = performance.now() - started;
  return { ...result, ms, cost: costMs("children", cpu, ms) };
}

Deno.test("hostile shapes as subprocesses: exit 0, output empty or JSON, within 2 s of a plain start", async (t) => {
  if (await runAlone(t)) return;
  await using box = await sampleBox();
  const text = new Map(HOSTILE);
  const cases: [string, HookName, string][] = [
    ["8 runs of 10,000 y", "prompt", payload({ prompt: text.get("8 runs of 10,000 y") })],
    ["1 MB single word", "prompt", payload({ prompt: text.get("1 MB single word") })],
    ["many unique words", "prompt", payload({ prompt: text.get("many unique words") })],
    ["lone surrogates", "prompt", payload({ prompt: text.get("lone surrogates") })],
    ["{a,b} x 2000 Glob", "search", searchCall("Glob", { pattern: text.get("{a,b} x 2000") })],
    ["189-byte Glob", "search", searchCall("Glob", { pattern: text.get("189-byte brace bomb") })],
    ["600 KB of xargs", "search", searchCall("Bash", { command: text.get("600 KB of xargs") })],
    ["find -exec chain", "search", searchCall("Bash", { command: text.get("find -exec chain") })],
    ["deep $( nesting", "search", searchCall("Bash", { command: text.get("deep $( nesting") })],
    ["many unique words Grep", "search", searchCall("Grep", { pattern: uniqueWords(100_000) })],
  ];
  // What starting each hook costs here and now, on a payload that matches (a new session each),
  // in CPU time where Linux says: a bound on it holds however loaded the machine is.
  const plain = (name: HookName, session: string) =>
    name === "prompt"
      ? payload({ session_id: session })
      : searchCall("Grep", { pattern: "rebase" }, session);
  const start: Record<HookName, number> = { prompt: 0, search: 0 };
  for (const [index, name] of (["prompt", "search", "prompt", "search"] as const).entries()) {
    const result = await hookProcess(name, plain(name, `plain-${index}`), box.env, 60_000);
    assertEquals(result.code, 0, result.stderr);
    assert(checkOutput(result.stdout, `plain ${name}`, HOOKS[name].event), result.stderr);
    start[name] = Math.max(start[name], result.cost);
  }
  const slow: string[] = [];
  for (const [shape, name, stdin] of cases) {
    const label = `${name}, ${shape}`;
    const bound = start[name] + 2000;
    const result = await hookProcess(name, stdin, box.env, HANG_MS);
    const detail = `${label}: exit ${result.code}\n${result.stderr.slice(0, 500)}`;
    assertEquals(result.code, 0, detail);
    assertNotMatch(result.stderr, STACK_FRAME, detail);
    checkOutput(result.stdout, label, HOOKS[name].event);
    if (result.cost > bound) {
      slow.push(`${label}: ${result.cost.toFixed(0)} > ${bound.toFixed(0)} ms`);
    }
  }
  assertEquals(slow, []);
});

Deno.test("a config file that is a FIFO or a link to /dev/zero: the prompt hook finishes, silent; one linked to a real config is read", async () => {
  await using box = await sampleBox();
  const { KB_DIR: kbDir, ...env } = box.env;
  const folder = join(box.config, "git-kb");
  await Deno.mkdir(folder, { recursive: true });
  const config = join(folder, "config.json");
  const ask = payload({ prompt: "how do I rotate a leaked npm token?" });
  const fifo = await runProcess("mkfifo", [config]);
  assertEquals(fifo.code, 0, fifo.stderr);
  for (const shape of ["FIFO", "link to /dev/zero"]) {
    if (shape !== "FIFO") {
      await Deno.remove(config);
      await Deno.symlink("/dev/zero", config);
    }
    const result = await hookProcess("prompt", ask, env, HANG_MS);
    assertEquals([result.code, result.stdout], [0, ""], `${shape}: ${result.stderr}`);
  }
  const real = join(box.root, "dotfiles-config.json");
  await Deno.writeTextFile(real, JSON.stringify({ kbs: [{ name: "personal", dir: kbDir }] }));
  await Deno.remove(config);
  await Deno.symlink(real, config);
  const read = await hookProcess("prompt", ask, env, HANG_MS);
  assertEquals(read.code, 0, read.stderr);
  assertMatch(read.stdout, /kb-7q2mx/);
});
