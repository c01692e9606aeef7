/**
 * A remote whose branch is gone (deleted, or renamed as when a host's default branch becomes
 * `main`): a save keeps its commit and a sync changes nothing, both naming the cause (not a
 * rewrite of history, whose way out would check out the stale tip and meet the same refusal) and
 * the remote's default branch; doctor says so instead of "in step"; each printed way out works
 * when pasted, in a folder whose name needs quoting.
 */
import { assert, assertEquals, assertMatch, assertNotMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import { shellQuote } from "../core/shell/quote.ts";
import { runProcess } from "../io/process.ts";
import { childEnv, git, type Kb, MAIN, makeKb, runCli, type RunResult, show } from "./helpers.ts";

/** A knowledge base with a remote, in a folder whose name holds a space and a quote. */
async function awkwardKb(): Promise<Kb> {
  const kb = await makeKb({ remote: true });
  const dir = join(kb.root, "o'brien's kb");
  await Deno.rename(kb.dir, dir);
  const env = { ...kb.env, KB_DIR: dir, KB_CLI: `deno run -A ${shellQuote(MAIN)}` };
  return { ...kb, dir, env };
}

/** The indented command lines of a message. */
function commandsOf(stderr: string): string[] {
  return stderr.split("\n").filter((line) => line.startsWith("  ")).map((line) => line.trim());
}

/** Run a printed command line through sh, as a person pasting it would. */
function paste(kb: Kb, line: string): Promise<RunResult> {
  return runProcess("/bin/sh", ["-c", line], { cwd: kb.root, env: childEnv(kb.env) });
}

function add(kb: Kb, title: string): Promise<RunResult> {
  return runCli(["add", "--title", title, "--type", "note", "--body", "Body."], { env: kb.env });
}

const GONE =
  /origin no longer has the branch main \(it was deleted or renamed there; its default branch is trunk\)/;

Deno.test("a remote branch renamed away: save and sync name it and the default branch; following it works when pasted", async () => {
  await using kb = await awkwardKb();
  assertEquals((await add(kb, "Pushed before the rename")).code, 0);
  await git(kb.remote!, "branch", "-m", "main", "trunk");
  assertEquals(await git(kb.remote!, "symbolic-ref", "HEAD"), "refs/heads/trunk");

  const saved = await add(kb, "Saved after the rename");
  assertEquals(saved.code, 3, show(saved));
  assertMatch(saved.stderr, GONE, show(saved));
  assertNotMatch(saved.stderr, /fetching origin failed|history was rewritten/);
  const head = await git(kb.dir, "rev-parse", "HEAD");
  assertMatch(await git(kb.dir, "log", "-1", "--format=%s"), /Saved after the rename/);

  const synced = await runCli(["sync"], { env: kb.env });
  assertEquals(synced.code, 1, show(synced));
  assertMatch(synced.stderr, GONE, show(synced));
  assertNotMatch(synced.stderr, /history was rewritten/);
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head, "nothing was changed");

  const doctor = await runCli(["doctor"], { env: kb.env });
  assertMatch(doctor.stdout, /origin no longer has the branch main/, show(doctor));
  assertNotMatch(doctor.stdout, /in step with origin\/main/);

  const [follow, publish] = commandsOf(synced.stderr);
  assertEquals(commandsOf(saved.stderr), [follow, publish]);
  const pasted = await paste(kb, follow);
  assertEquals(pasted.code, 0, `${follow}\n${pasted.stderr}`);
  assertEquals(await git(kb.remote!, "rev-parse", "trunk"), head, "the save went to trunk");
  assertEquals(
    (await git(kb.remote!, "for-each-ref", "--format=%(refname)", "refs/heads")).split("\n"),
    ["refs/heads/trunk"],
    "no main made again",
  );
  assertEquals((await runCli(["sync"], { env: kb.env })).code, 0);
});

Deno.test("a remote branch deleted: the printed push publishes it again, and the next save pushes", async () => {
  await using kb = await awkwardKb();
  await git(kb.remote!, "branch", "trunk", "main");
  await git(kb.remote!, "symbolic-ref", "HEAD", "refs/heads/trunk");
  await git(kb.remote!, "branch", "-D", "main");

  const synced = await runCli(["sync"], { env: kb.env });
  assertEquals(synced.code, 1, show(synced));
  assertMatch(synced.stderr, GONE, show(synced));
  const publish = commandsOf(synced.stderr).at(-1)!;
  assertMatch(publish, /push --set-upstream origin main:main$/);
  const pasted = await paste(kb, publish);
  assertEquals(pasted.code, 0, `${publish}\n${pasted.stderr}`);
  assertEquals(await git(kb.remote!, "rev-parse", "main"), await git(kb.dir, "rev-parse", "HEAD"));

  const saved = await add(kb, "Saved once main is back");
  assertEquals(saved.code, 0, show(saved));
  assert(saved.stdout.includes("pushed"), show(saved));
  assertEquals(await git(kb.remote!, "rev-parse", "main"), await git(kb.dir, "rev-parse", "HEAD"));
});
