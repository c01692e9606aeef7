/**
 * `git-kb eval` as a process with its own permission flags, on a copy of the sample knowledge
 * base: the scores and misses of a golden file, the run kept in the cache and compared on the
 * next run after an edit, and bad golden files named line by line.
 */
import assert from "node:assert/strict";
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
  assert.equal(first.code, 0, show(first));
  const report = parseJson<EvalJson>(first);
  assert.equal(report.golden, join(kb.dir, "golden.jsonl"), "found in the knowledge base");
  assert.equal(report.entries, 45);
  assert.deepEqual(report.unknownIds, ["kb-zzzzz"]);
  const { summary } = report.run;
  assert.deepEqual([summary.prompts, summary.positives, summary.negatives], [4, 3, 1]);
  assert.equal(summary.hook.recall1, 1 / 3, "only the token prompt is found");
  assert.equal(summary.hook.falseFires, 0);
  assert.ok(summary.bytes.max > 0);
  assert.deepEqual(report.run.results[1].hookMissed, ["kb-x1e6g"]);
  assert.equal(report.previous, undefined);

  const edited = await runCli([
    "edit",
    "kb-x1e6g",
    "--alias",
    "sourdough starter",
    "--alias",
    "acetone smell",
  ], { env: kb.env });
  assert.equal(edited.code, 0, show(edited));
  const second = await runCli(["eval", join(kb.dir, "golden.jsonl")], { env: kb.env });
  assert.equal(second.code, 0, show(second));
  assert.match(second.stdout, /^hook {6}/m);
  assert.match(second.stdout, /false fires: 0 of 1/);
  assert.match(second.stdout, /ids no entry has \(always missed\): kb-zzzzz/);
  assert.match(second.stdout, /Since the previous run/);
  assert.match(
    second.stdout,
    /line 2 "my sourdough starter smells of acetone": .*hook now finds kb-x1e6g/,
  );
  assert.match(second.stdout, /hook recall@1: 0\.333 → 0\.667 \(\+0\.333\)/);
});

Deno.test("eval names every bad line and the missing file, exit 1; no argument is a usage error", async () => {
  await using kb = await makeKb();
  const bad = join(kb.root, "bad.jsonl");
  await Deno.writeTextFile(bad, '{"prompt": "ok", "expect": ["7q2mx"]}\n\nnot json\n');
  const result = await runCli(["eval", bad], { env: kb.env });
  assert.equal(result.code, 1, show(result));
  assert.match(result.stderr, /line 1: "expect" holds "7q2mx", which is not an entry id/);
  assert.match(result.stderr, /line 3: not valid JSON/);
  const missing = await runCli(["eval", "nowhere.jsonl"], { env: kb.env, cwd: kb.root });
  assert.equal(missing.code, 1, show(missing));
  assert.match(missing.stderr, /golden file nowhere\.jsonl not found/);
  const usage = await runCli(["eval"], { env: kb.env });
  assert.equal(usage.code, 2, show(usage));
});
