/**
 * Git's lock files left by a killed git command: `HEAD.lock` and the branch's ref lock block
 * every save, so `add` and `sync` refuse before writing anything, naming the lock; `doctor`
 * reports each of them, and a `packed-refs.lock` (which blocks deleting refs, not a save), with
 * the command that removes it (pasted, it works).
 */
import { assert, assertEquals, assertStrictEquals } from "@std/assert";
import { join } from "@std/path/posix/join";
import type { Finding } from "../core/setup/finding.ts";
import { runProcess } from "../io/process.ts";
import { git, makeKb, parseJson, runCli, show } from "./helpers.ts";

for (const lock of ["HEAD.lock", "refs/heads/main.lock", "refs/remotes/origin/main.lock"]) {
  Deno.test(`git's ${lock} left by a kill: doctor reports it, add and sync refuse naming it`, async () => {
    await using kb = await makeKb({ remote: true });
    const path = join(kb.dir, ".git", lock);
    await Deno.writeTextFile(path, "");
    const head = await git(kb.dir, "rev-parse", "HEAD");

    const doctor = await runCli(["doctor", "--offline", "--json"], { env: kb.env });
    assertEquals(doctor.code, 1, show(doctor));
    const finding = parseJson<Finding[]>(doctor).find((item) => item.message.includes(path));
    assert(finding, show(doctor));
    assertEquals(finding.level, "error");
    const fix = finding.message.slice(finding.message.indexOf("; fix: ") + 7);
    assertEquals(fix, `rm -f ${path}`);

    const added = await runCli(["add", "--title", "Behind a ref lock", "--type", "note"], {
      env: kb.env,
    });
    assertEquals(added.code, 1, show(added));
    assert(added.stderr.includes(path), show(added));
    assert(added.stderr.includes("nothing was written"), show(added));
    assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head);
    assertEquals(await git(kb.dir, "status", "--porcelain"), "");

    const synced = await runCli(["sync"], { env: kb.env });
    assertEquals(synced.code, 1, show(synced));
    assert(synced.stderr.includes(path), show(synced));

    const pasted = await runProcess("sh", ["-c", fix]);
    assertEquals(pasted.code, 0, pasted.stderr);
    const after = await runCli(["doctor", "--offline", "--json"], { env: kb.env });
    assert(!after.stdout.includes(path), show(after));
    const saved = await runCli(["add", "--title", "After the lock", "--type", "note"], {
      env: kb.env,
    });
    assertEquals(saved.code, 0, show(saved));
  });
}

Deno.test("git's packed-refs.lock: doctor reports it, a save goes through", async () => {
  await using kb = await makeKb();
  const path = join(kb.dir, ".git", "packed-refs.lock");
  await Deno.writeTextFile(path, "");
  const doctor = await runCli(["doctor", "--offline", "--json"], { env: kb.env });
  const finding = parseJson<Finding[]>(doctor).find((item) => item.message.includes(path));
  assertStrictEquals(finding?.level, "error", show(doctor));
  const saved = await runCli(["add", "--title", "Beside a packed-refs lock", "--type", "note"], {
    env: kb.env,
  });
  assertEquals(saved.code, 0, show(saved));
});
