/**
 * `git-kb eval` as a process with its own permission flags, on a copy of the sample knowledge
 * base: the scores and misses of a golden file, the run kept in the cache and compared on the
 * next run after an edit, and bad golden files named line by line.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import { join } from "@std/path/posix/join";
import { makeKb, parseJson, runCli, show } from "./helpers.ts";

interface EvalJson {
  golden: string;
  entries: number;
  unknownIds: string[];
  run: {
    summary: {
      prompts: number;
      positives: number;
      negatives: number;
      hook: { recall1: number; recall5: number; falseFires: number };
      search: { recall5: number };
      bytes: { max: number };
    };
    results: { line: number; hookMissed: string[]; falseFire: boolean }[];
  };
  previous?: { diff: { prompts: { line: number; changes: string[] }[] } };
}

const GOLDEN = [
  { prompt: "How do I rotate a leaked Cloudflare token used by our CI?", expect: ["kb-7q2mx"] },
  { prompt: "my sourdough starter smells of acetone", expect: ["kb-x1e6g"] },
  { prompt: "thanks, that works", expect: [] },
  { prompt: "bisect the regression with a script", expect: ["kb-zzzzz"] },
].map((line) => JSON.stringify(line)).join("\n") + "\n";

Deno.test("eval scores a golden file in the knowledge base, then reports what an edit changed", async () => {
  await using kb = await makeKb();
  await Deno.writeTextFile(join(kb.dir, "golden.jsonl"), GOLDEN);
  const first = await runCli(["eval", "golden.jsonl", "--json"], { env: kb.env, cwd: kb.root });
  assertEquals(first.code, 0, show(first));
  const report = parseJson<EvalJson>(first);
  assertEquals(report.golden, join(kb.dir, "golden.jsonl"), "found in the knowledge base");
  assertEquals(report.entries, 45);
  assertEquals(report.unknownIds, ["kb-zzzzz"]);
  const { summary } = report.run;
  assertEquals([summary.prompts, summary.positives, summary.negatives], [4, 3, 1]);
  assertEquals(summary.hook.recall1, 1 / 3, "only the token prompt is found");
  assertEquals(summary.hook.falseFires, 0);
  assert(summary.bytes.max > 0);
  assertEquals(report.run.results[1].hookMissed, ["kb-x1e6g"]);
  assertEquals(report.previous, undefined);
  const one = join(kb.root, "one.jsonl");
  await Deno.writeTextFile(one, GOLDEN.split("\n")[0] + "\n");
  const text = await runCli(["eval", one], { env: kb.env });
  assertMatch(text.stdout, /^pointers listed: \d+ on 1 prompt, /m, show(text));

  const edited = await runCli([
    "edit",
    "kb-x1e6g",
    "--alias",
    "sourdough starter",
    "--alias",
    "acetone smell",
  ], { env: kb.env });
  assertEquals(edited.code, 0, show(edited));
  const second = await runCli(["eval", join(kb.dir, "golden.jsonl")], { env: kb.env });
  assertEquals(second.code, 0, show(second));
  assertMatch(second.stdout, /^hook {6}/m);
  assertMatch(second.stdout, /false fires: 0 of 1/);
  assertMatch(second.stdout, /ids no entry has \(always missed\): kb-zzzzz/);
  assertMatch(second.stdout, /Since the previous run/);
  assertMatch(
    second.stdout,
    /line 2 "my sourdough starter smells of acetone": .*hook now finds kb-x1e6g/,
  );
  assertMatch(second.stdout, /hook recall@1: 0\.333 → 0\.667 \(\+0\.333\)/);
});

Deno.test("eval names every bad line and the missing file, exit 1; no argument is a usage error", async () => {
  await using kb = await makeKb();
  const bad = join(kb.root, "bad.jsonl");
  await Deno.writeTextFile(bad, '{"prompt": "ok", "expect": ["7q2mx"]}\n\nnot json\n');
  const result = await runCli(["eval", bad], { env: kb.env });
  assertEquals(result.code, 1, show(result));
  assertMatch(result.stderr, /line 1: "expect" holds "7q2mx", which is not an entry id/);
  assertMatch(result.stderr, /line 3: not valid JSON/);
  const missing = await runCli(["eval", "nowhere.jsonl"], { env: kb.env, cwd: kb.root });
  assertEquals(missing.code, 1, show(missing));
  assertMatch(missing.stderr, /golden file nowhere\.jsonl not found/);
  // A folder is named as one, not as missing.
  const folder = await runCli(["eval", "entries"], { env: kb.env, cwd: kb.dir });
  assertEquals(folder.code, 1, show(folder));
  assertStringIncludes(
    folder.stderr,
    `${join(kb.dir, "entries")} is a folder); give the path of the .jsonl file itself`,
  );
  const usage = await runCli(["eval"], { env: kb.env });
  assertEquals(usage.code, 2, show(usage));
});

Deno.test("eval reads a file saved with a byte-order mark, refuses one with no prompt and a folder for what they are", async () => {
  await using kb = await makeKb();
  const bom = join(kb.root, "bom.jsonl");
  await Deno.writeTextFile(bom, "\uFEFF" + GOLDEN.replaceAll("\n", "\r\n"));
  const read = await runCli(["eval", bom, "--json"], { env: kb.env });
  assertEquals(read.code, 0, show(read));
  assertEquals(parseJson<EvalJson>(read).run.summary.prompts, 4);

  // Nothing to score: no report of zeros as if recall had been measured.
  const empty = join(kb.root, "empty.jsonl");
  await Deno.writeTextFile(empty, "\n\n");
  const none = await runCli(["eval", empty], { env: kb.env });
  assertEquals(none.code, 1, show(none));
  assertEquals(none.stdout, "");
  assert(
    none.stderr.includes(`${empty} holds no prompt, so there is nothing to score; `),
    show(none),
  );

  const folder = await runCli(["eval", kb.root], { env: kb.env });
  assertEquals(folder.code, 1, show(folder));
  assert(folder.stderr.includes(`(${kb.root} is a folder)`), show(folder));
  assert(!folder.stderr.includes("not found"), show(folder));
});
