/**
 * The judge against a hostile or careless model and hostile prose: a model that leaves a
 * process holding its output open, a model whose errors and replies quote credentials, and prose
 * that tries to close the prompt's `<text>` and add rules of its own.
 */
import { assert, assertEquals, assertMatch, assertNotMatch, assertStrictEquals } from "@std/assert";
import { join } from "@std/path/posix/join";
import { show } from "./helpers.ts";
import {
  assertAllowed,
  assertDenied,
  fakeClaude,
  judgeKb,
  kbCache,
  payload,
  recordedCalls,
  runJudge,
} from "./judge_helpers.ts";

/** Kill the process whose pid a fake left in `file`, if it is still there. */
async function killLeftover(file: string): Promise<void> {
  try {
    Deno.kill(Number(await Deno.readTextFile(file)), "SIGKILL");
  } catch { /* gone already */ }
}

/** Whether process `pid` has ended (or become a zombie) within `ms`. */
async function goneWithin(pid: number, ms: number): Promise<boolean> {
  for (const deadline = Date.now() + ms; Date.now() < deadline;) {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`).catch(() => "");
    if (!stat || / Z /.test(stat)) return true;
    await new Promise((done) => setTimeout(done, 50));
  }
  return false;
}

Deno.test("a model that exits while its grandchild holds stdout: the verdict is taken at exit, the group killed", async () => {
  const box = await judgeKb();
  const env = { ...box.env, KB_PROSE_LINT_TIMEOUT_MS: "20000" };
  try {
    const result = await runJudge(await payload("write-fail"), {
      env,
      claude: fakeClaude("orphan"),
    });
    const reason = assertDenied(result);
    assertMatch(reason, /kb-k1rn0/);
    assert(result.ms < 8_000, `${Math.round(result.ms)} ms: the open pipe was awaited`);
    const [record] = await box.records();
    assertEquals(record.outcome, "deny", JSON.stringify(record));
    const orphan = Number(await Deno.readTextFile(join(box.root, "calls", "orphan.pid")));
    assert(await goneWithin(orphan, 3_000), `the model's grandchild ${orphan} still runs`);
  } finally {
    await killLeftover(join(box.root, "calls", "orphan.pid"));
    await box.cleanup();
  }
});

/** Every text file under `dir`. */
async function texts(dir: string): Promise<string> {
  let all = "";
  for await (const item of Deno.readDir(dir)) {
    const path = join(dir, item.name);
    if (item.isDirectory) all += await texts(path);
    else if (item.isFile) all += `${await Deno.readTextFile(path)}\n`;
  }
  return all;
}

const TOKEN = "ghp_1234567890abcdefghijklmnopqrstuvwxyzAB";
const AWS = "AKIAZ7Q3K9W2M5X8R4TB";

Deno.test("the judge's debug records and cached verdicts hold no credential and little prose", async (t) => {
  await using box = await judgeKb();
  const claude = fakeClaude("scripted");
  const long = "blazing fast ".repeat(200);
  const cases: [string, Record<string, string>, RegExp][] = [
    ["stderr of a failed call", {
      FAKE_EXIT: "1",
      FAKE_STDERR: `auth failed for ${TOKEN} ${long}`,
    }, /exited with code 1: auth failed for ghp_…yzAB/],
    ["an unparseable reply", {
      FAKE_REPLY: JSON.stringify({ type: "result", result: `key ${AWS} ${long}` }),
    }, /no clear verdict: key AKIA…R4TB/],
  ];
  for (const [name, extra, reason] of cases) {
    await t.step(name, async () => {
      const result = await runJudge(await payload("write-fail"), {
        env: { ...box.env, ...extra },
        claude,
      });
      assertAllowed(result);
      const record = (await box.records()).at(-1)!;
      assertMatch(String(record.reason), reason, JSON.stringify(record));
      assert(String(record.reason).length < 200, String(record.reason));
    });
  }
  await t.step("a fail verdict quoting a long phrase with a credential", async () => {
    const violation = { rule: "kb-k1rn0", phrase: `${long} ${AWS}`, rewrite: `use ${TOKEN}` };
    const reply = JSON.stringify({ verdict: "fail", violations: [violation] });
    const result = await runJudge(await payload("write-fail"), {
      env: { ...box.env, FAKE_REPLY: JSON.stringify({ type: "result", result: reply }) },
      claude,
    });
    const denied = assertDenied(result);
    assertNotMatch(denied, new RegExp(TOKEN), show(result));
    const verdicts = await texts(join(await kbCache(box.tmp), "verdicts"));
    assert(verdicts.length < 1_000, `${verdicts.length} characters cached:\n${verdicts}`);
  });
  const cache = await texts(await kbCache(box.tmp));
  assertNotMatch(cache, new RegExp(`${TOKEN}|${AWS}|(blazing fast ){20}`));
  assertEquals((await recordedCalls(join(box.root, "calls"))).length, 3);
});

Deno.test("KB_PROSE_LINT_TIMEOUT_MS past what a timer holds: clamped, and the model is heard", async () => {
  await using box = await judgeKb();
  const result = await runJudge(await payload("write-fail"), {
    env: { ...box.env, KB_PROSE_LINT_TIMEOUT_MS: "9999999999" },
    claude: fakeClaude("fail"),
  });
  assertMatch(assertDenied(result), /kb-k1rn0/);
  assertStrictEquals((await box.records()).at(-1)?.outcome, "deny");
});
