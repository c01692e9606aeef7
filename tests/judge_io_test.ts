/**
 * The judge's I/O pieces in-process: the verdict cache (atomic files, expiry, bounded size)
 * and the subprocess timeout that kills a judge model that does not answer.
 */
import { assert, assertEquals, assertRejects, assertThrows } from "@std/assert";
import { join } from "@std/path/posix/join";
import type { Verdict } from "../core/judge/verdict.ts";
import { ProcessTimeoutError, runProcess } from "../io/process.ts";
import { tempDir } from "./helpers.ts";
import {
  pruneVerdicts,
  readCachedVerdict,
  VERDICT_CACHE_LIMITS,
  verdictDir,
  writeCachedVerdict,
} from "../io/judge/verdict_cache.ts";

const FAIL: Verdict = {
  verdict: "fail",
  violations: [{ rule: "kb-k1rn0", phrase: "blazing fast", rewrite: "35 ms" }],
};

Deno.test("verdict cache: a written verdict reads back until it expires", async () => {
  await using cacheTemp = await tempDir("git-kb-verdicts-");
  const cacheDir = cacheTemp.path;
  assertEquals(readCachedVerdict(cacheDir, "abc123"), undefined, "missing folder: a miss");
  writeCachedVerdict(cacheDir, "abc123", FAIL);
  writeCachedVerdict(cacheDir, "def456", { verdict: "pass", violations: [] });
  assertEquals(readCachedVerdict(cacheDir, "abc123"), FAIL);
  assertEquals(readCachedVerdict(cacheDir, "def456"), { verdict: "pass", violations: [] });
  const later = Date.now() + VERDICT_CACHE_LIMITS.maxAgeMs + 1_000;
  assertEquals(readCachedVerdict(cacheDir, "abc123", later), undefined, "expired");
  await Deno.writeTextFile(join(verdictDir(cacheDir), "bad.json"), "{half");
  assertEquals(readCachedVerdict(cacheDir, "bad"), undefined, "corrupt: a miss");
  assertThrows(() => readCachedVerdict(cacheDir, "../escape"), Error, "invalid verdict cache key");
  const names = [...Deno.readDirSync(verdictDir(cacheDir))].map((item) => item.name).sort();
  assertEquals(names, ["abc123.json", "bad.json", "def456.json"], "no temp files left");
});

Deno.test("verdict cache: past its bound, expired and then oldest verdicts go", async () => {
  await using dirTemp = await tempDir("git-kb-verdicts-");
  const dir = dirTemp.path;
  const now = Date.now();
  const ages = [10, 9, 8, 7, 6, 5].map((days) => days * 24 * 60 * 60 * 1000);
  for (const [index, age] of ages.entries()) {
    const path = join(dir, `v${index}.json`);
    await Deno.writeTextFile(path, "{}");
    await Deno.utime(path, (now - age) / 1000, (now - age) / 1000);
  }
  const limits = { maxEntries: 10, maxAgeMs: 7.5 * 24 * 60 * 60 * 1000 };
  assertEquals(pruneVerdicts(dir, limits, now), 0, "under the bound nothing is deleted");
  assertEquals(pruneVerdicts(dir, { ...limits, maxEntries: 4 }, now), 3);
  const left = [...Deno.readDirSync(dir)].map((item) => item.name).sort();
  assertEquals(left, ["v3.json", "v4.json", "v5.json"], "the expired and then the oldest");
  assertEquals(pruneVerdicts(dir, { maxEntries: 1, maxAgeMs: Infinity }, now), 2);
  assertEquals([...Deno.readDirSync(dir)].map((item) => item.name), ["v5.json"]);
});

Deno.test("runProcess: a child past its timeout is killed, even when it leaves a grandchild", async () => {
  const started = performance.now();
  const error = await assertRejects(
    () =>
      runProcess("sh", ["-c", "sleep 20 & sleep 20; echo late"], { timeoutMs: 300, stdin: "x" }),
    ProcessTimeoutError,
  );
  assert(/within 300 ms/.test(error.message));
  const elapsed = performance.now() - started;
  // Far below the orphan's 20 s, and far above what a loaded machine takes to kill and return.
  assert(elapsed < 8_000, `${Math.round(elapsed)} ms: the orphan's open pipe is not awaited`);
});

Deno.test("runProcess: with a timeout to spare, output, stdin and exit code are as before", async () => {
  const result = await runProcess("sh", ["-c", "cat; echo err >&2; exit 3"], {
    stdin: "piped in",
    timeoutMs: 10_000,
  });
  assertEquals(result, { code: 3, stdout: "piped in", stderr: "err\n" });
  const big = "y".repeat(1 << 20);
  const echoed = await runProcess("cat", [], { stdin: big });
  assertEquals(echoed.stdout.length, big.length);
});

/** Whether process `pid` still runs (a zombie waiting to be reaped does not). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z/.test(Deno.readTextFileSync(`/proc/${pid}/stat`));
  } catch {
    return false;
  }
}

/** Wait up to a second for `pid` to stop running; whether it did. */
async function stopped(pid: number): Promise<boolean> {
  for (let tries = 0; tries < 20 && running(pid); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return !running(pid);
}

Deno.test("runProcess: output is taken when the child exits, though a grandchild holds the pipe", async () => {
  const started = performance.now();
  const result = await runProcess("sh", ["-c", "sleep 30 & echo $!; echo answer"], {
    timeoutMs: 20_000,
    ownGroup: true,
    exitGraceMs: 200,
  });
  const elapsed = performance.now() - started;
  const [pid, answer] = result.stdout.trim().split("\n");
  assertEquals(answer, "answer");
  assert(elapsed < 15_000, `${Math.round(elapsed)} ms: the grandchild's pipe was awaited`);
  assert(await stopped(Number(pid)), "the grandchild was killed with the child's group");
});

Deno.test("runProcess: on timeout the child's whole group is killed", async () => {
  const pidFile = await Deno.makeTempFile();
  try {
    await assertRejects(
      () =>
        runProcess("sh", ["-c", `sleep 30 & echo $! > ${pidFile}; sleep 30`], {
          timeoutMs: 500,
          ownGroup: true,
        }),
      ProcessTimeoutError,
    );
    const pid = Number(await Deno.readTextFile(pidFile));
    assert(pid > 0 && await stopped(pid), "the grandchild outlived the timeout");
  } finally {
    await Deno.remove(pidFile);
  }
});
