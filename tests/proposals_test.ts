/**
 * Proposals on real git: written by a real subprocess (tests/_propose.ts, as the end-of-session
 * capture calls it) onto the branch `git-kb/proposals` of a knowledge base with a bare remote,
 * never touching the work tree, the index or the checked-out branch; a credential refused; two
 * writers at once both landing.
 */
import { deepStrictEqual as deepEqual, ok, strictEqual as equal } from "node:assert/strict";
import { join } from "node:path";
import type { Proposal, ProposeOutcome } from "../core/proposals/proposal.ts";
import { entryText, git, type Kb, makeKb, parseJson, ROOT, runDeno, snapshot } from "./helpers.ts";

const PROPOSE = join(ROOT, "tests", "_propose.ts");

/** Write `proposals` into `kb` from a subprocess, as the capture does. */
async function proposeFrom(
  kb: Kb,
  proposals: Proposal[],
  env: Record<string, string> = kb.env,
): Promise<ProposeOutcome[]> {
  const result = await runDeno(
    [
      "run",
      "--no-prompt",
      "--allow-read",
      `--allow-write=${env.TMPDIR}`,
      "--allow-env",
      "--allow-sys=uid",
      "--allow-run=git",
      PROPOSE,
    ],
    { env, stdin: JSON.stringify(proposals) },
  );
  return parseJson<ProposeOutcome[]>(result);
}

/** A proposal of a new entry `id` titled `title`. */
function newProposal(id: string, title: string, body = "Run `make fix` to fix it.\n"): Proposal {
  return {
    kind: "new",
    entryId: id,
    markdown: entryText({ id, title, body }),
    reason: "the session fixed the build this way",
    source: "session test transcript lines 1-9",
  };
}

Deno.test("a proposal is a commit on git-kb/proposals; work tree, index and HEAD untouched", async () => {
  await using kb = await makeKb({ remote: true });
  const before = await snapshot(kb.dir, [".git"]);
  const head = await git(kb.dir, "rev-parse", "HEAD");
  const index = await Deno.readFile(join(kb.dir, ".git", "index"));
  const [outcome] = await proposeFrom(kb, [newProposal("kb-prop1", "Fix the flaky build")]);
  equal(outcome.written, true, JSON.stringify(outcome));
  deepEqual(await snapshot(kb.dir, [".git"]), before);
  equal(await git(kb.dir, "rev-parse", "HEAD"), head);
  deepEqual(await Deno.readFile(join(kb.dir, ".git", "index")), index);
  equal(await git(kb.dir, "symbolic-ref", "HEAD"), "refs/heads/main");
  equal(await git(kb.dir, "rev-parse", "git-kb/proposals"), outcome.commit);
  equal(await git(kb.dir, "rev-parse", "git-kb/proposals^"), head);
  const files = await git(kb.dir, "diff", "--name-only", "main", "git-kb/proposals");
  equal(files, "entries/kb-prop1-fix-the-flaky-build.md");
});

Deno.test("a proposal holding a credential is refused, naming it masked", async () => {
  await using kb = await makeKb();
  const token = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
  const [outcome] = await proposeFrom(kb, [
    newProposal("kb-prop2", "Deploy with the token", `export GITHUB_TOKEN=${token}\n`),
  ]);
  equal(outcome.written, false);
  ok(/GitHub/.test(outcome.refusal ?? ""), outcome.refusal);
  ok(!outcome.refusal!.includes(token), "the credential is masked");
  equal(await git(kb.dir, "branch", "--list", "git-kb/proposals"), "");
});

Deno.test("two writers at once: both proposals land", async () => {
  await using kb = await makeKb();
  const writers = Array.from(
    { length: 4 },
    (_, at) => proposeFrom(kb, [newProposal(`kb-race${at}`, `Race number ${at}`)]),
  );
  const outcomes = (await Promise.all(writers)).flat();
  deepEqual(outcomes.map((outcome) => outcome.written), [true, true, true, true]);
  const files = (await git(kb.dir, "diff", "--name-only", "main", "git-kb/proposals")).split("\n");
  deepEqual(files.sort(), [0, 1, 2, 3].map((at) => `entries/kb-race${at}-race-number-${at}.md`));
});
