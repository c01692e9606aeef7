/**
 * A save that worked is reported as one whatever happens to the index after it: with the cache
 * unusable (a file where its folder should be, as a full disk or a stray file leaves it), `add`,
 * `edit`, `rm`, `import` and `sync` commit and push, exit 0, and warn on stderr with the cause
 * and the `git-kb index` that rebuilds it — so nobody retries a save that is done.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import {
  cacheRootOf,
  cloneRemote,
  git,
  type Kb,
  makeKb,
  pushEntryFrom,
  runCli,
  type RunResult,
  show,
} from "./helpers.ts";

/** Replace the cache root of `kb`'s runs by a file: nothing can be written in the cache. */
async function breakCache(kb: Kb): Promise<string> {
  const root = cacheRootOf(kb.env);
  await Deno.remove(root, { recursive: true }).catch(() => {});
  await Deno.writeTextFile(root, "not a folder\n");
  return root;
}

/** Assert a run succeeded, said why the index was not updated and how to rebuild it. */
function assertWarned(result: RunResult, kb: Kb, root: string): void {
  assertEquals(result.code, 0, show(result));
  const warning = result.stderr.split("\n").find((line) => line.includes("index was not updated"));
  assert(warning, show(result));
  assert(warning.includes(root), `the cause is named: ${warning}`);
  assert(warning.includes(`git-kb index --kb ${kb.dir}`), warning);
  assertMatch(warning, /do not run the command again/);
}

/** Whether the remote's main is where the local main is. */
async function assertPushed(kb: Kb): Promise<void> {
  assertEquals(await git(kb.remote!, "rev-parse", "main"), await git(kb.dir, "rev-parse", "HEAD"));
}

Deno.test("a cache that cannot be written: add, edit and rm commit, push, exit 0 and warn", async () => {
  await using kb = await makeKb({ remote: true });
  const root = await breakCache(kb);
  const run = (...args: string[]) => runCli(args, { env: kb.env });

  const added = await run("add", "--title", "Saved on a full disk", "--type", "note", "--json");
  assertWarned(added, kb, root);
  const { id, index } = JSON.parse(added.stdout);
  assertEquals(index, null, "no index report when it was not updated");
  await assertPushed(kb);
  assertEquals(
    await git(kb.dir, "log", "--oneline", "--grep", id),
    await git(kb.dir, "log", "--oneline", "-1"),
  );

  const edited = await run("edit", id, "--body", "Changed on a full disk.");
  assertWarned(edited, kb, root);
  assertMatch(edited.stdout, /index not updated/);
  await assertPushed(kb);

  const removed = await run("rm", id);
  assertWarned(removed, kb, root);
  await assertPushed(kb);
  assertEquals(await git(kb.dir, "status", "--porcelain"), "");

  await Deno.remove(root);
  const rebuilt = await run("index", "--kb", kb.dir);
  assertEquals(rebuilt.code, 0, show(rebuilt));
});

Deno.test("a cache that cannot be written: import and sync exit 0 and warn", async () => {
  await using kb = await makeKb({ remote: true });
  const notes = join(kb.root, "notes");
  await Deno.mkdir(notes);
  await Deno.writeTextFile(join(notes, "Deploy steps.md"), "# Deploy steps\n\nRun make deploy.\n");
  const other = await cloneRemote(kb);
  await pushEntryFrom(other, "kb-0th3r", "From another machine");
  const root = await breakCache(kb);

  const imported = await runCli(["import", notes], { env: kb.env });
  assertWarned(imported, kb, root);
  assertMatch(imported.stdout, /Imported .* 1 added/);
  assertEquals(await git(kb.dir, "status", "--porcelain"), "");

  const synced = await runCli(["sync"], { env: kb.env });
  assertWarned(synced, kb, root);
  assertMatch(synced.stdout, /Index not updated/);
  await assertPushed(kb);
  assert(await git(kb.dir, "ls-files", "entries/kb-0th3r-from-another-machine.md"));
});
