/**
 * The save lock with an owner, on real processes: a save killed with `kill -9` while it holds the
 * lock does not delay the next one; a live holder is never broken, however old its file; a
 * release never removes a successor's lock; a lock file without an owner is stale after a short
 * grace; doctor's check names a stale lock.
 */
import { assert, assertEquals, assertMatch, assertStrictEquals } from "@std/assert";
import { join } from "@std/path/posix/join";
import { checkLock, lockState, LockTimeoutError, thisHost, withLock } from "../io/save/lock.ts";
import { checkSaveLock } from "../io/save/repo_state.ts";
import { flagsFor } from "../app/permissions.ts";
import {
  denoDir,
  exists,
  git,
  MAIN,
  makeKb,
  makeSandbox,
  runCli,
  runCliWithFileLimit,
  show,
} from "./helpers.ts";

const LOCK_MODULE = new URL("../io/save/lock.ts", import.meta.url).href;

/** The text of a file, "" while it does not exist. */
function readIfThere(path: string): string {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return "";
  }
}

/** Wait until `ready` holds, polling; fail after `ms`. */
async function waitFor(ready: () => boolean | Promise<boolean>, ms: number, what: string) {
  const deadline = Date.now() + ms;
  while (!(await ready())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 50));
  }
}

Deno.test("kill -9 of a save holding the lock: the next save breaks it at once", async () => {
  await using kb = await makeKb({ remote: true });
  const lock = join(kb.dir, ".git", "git-kb.lock");
  await git(kb.dir, "config", "protocol.ext.allow", "always");
  await git(kb.dir, "remote", "set-url", "origin", "ext::sleep 60");
  const saving = new Deno.Command(Deno.execPath(), {
    args: ["run", ...flagsFor("add", kb.tmp), MAIN, "add", "--title", "Killed", "--type", "note"],
    env: { PATH: Deno.env.get("PATH")!, DENO_DIR: await denoDir(), ...kb.env },
    clearEnv: true,
    stdout: "null",
    stderr: "null",
  }).spawn();
  await waitFor(() => /"pid"/.test(readIfThere(lock)), 30_000, "the lock").catch(
    async (error) => {
      saving.kill("SIGKILL");
      await saving.status;
      throw error;
    },
  );
  assertEquals(JSON.parse(await Deno.readTextFile(lock)).pid, saving.pid);
  saving.kill("SIGKILL");
  await saving.status;
  // The OS lets go of a killed process's locks as it tears the process down: within moments,
  // never after the age-based waits a lock without an owner check would need.
  await waitFor(() => lockState(lock).state === "stale", 2_000, "the lock to be seen as stale");

  await git(kb.dir, "remote", "set-url", "origin", kb.remote!);
  const started = Date.now();
  const result = await runCli(["add", "--title", "After the kill", "--type", "note"], {
    env: kb.env,
  });
  assertEquals(result.code, 0, show(result));
  assert(Date.now() - started < 20_000, "the dead lock was broken, not waited out");
  assertEquals(await exists(lock), false);
  assertEquals(
    await git(kb.remote!, "rev-parse", "main"),
    await git(kb.dir, "rev-parse", "HEAD"),
  );
});

Deno.test("a live holder's lock is never broken, however old its file", async () => {
  await using sandbox = await makeSandbox();
  const lock = join(sandbox.root, "held.lock");
  const script = join(sandbox.root, "hold.ts");
  await Deno.writeTextFile(
    script,
    `import { withLock } from ${JSON.stringify(LOCK_MODULE)};\n` +
      `await withLock(${JSON.stringify(lock)}, async () => {\n` +
      `  console.log("held");\n  await new Promise((done) => setTimeout(done, 60_000));\n});\n`,
  );
  const holder = new Deno.Command(Deno.execPath(), {
    // The script lies outside the repository: name the config that maps its imports.
    args: [
      "run",
      "--config",
      new URL("../deno.json", import.meta.url).pathname,
      "--no-prompt",
      `--allow-read`,
      `--allow-write=${sandbox.root}`,
      script,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  try {
    const reader = holder.stdout.getReader();
    assertMatch(new TextDecoder().decode((await reader.read()).value), /held/);
    const old = new Date(Date.now() - 24 * 60 * 60_000);
    await Deno.utime(lock, old, old);
    const found = lockState(lock);
    assertEquals(found.state, "held");
    assertStrictEquals(found.state === "held" && found.owner?.pid, holder.pid);
    assertStrictEquals(found.state === "held" && found.owner?.host, thisHost());
    const waited = await withLock(lock, () => "taken", { timeoutMs: 1_500 }).catch((e) => e);
    assert(waited instanceof LockTimeoutError, String(waited));
    assertMatch(waited.message, new RegExp(`process ${holder.pid} on `));
    assertEquals(checkLock(lock).level, "ok");
    reader.releaseLock();
  } finally {
    holder.kill("SIGKILL");
    await holder.status;
    await holder.stdout.cancel().catch(() => {});
  }
  assertEquals(lockState(lock).state, "stale", "its process is gone now");
  assertEquals(await withLock(lock, () => "taken"), "taken");
});

Deno.test("a release removes only its own lock, never a successor's", async () => {
  await using sandbox = await makeSandbox();
  const lock = join(sandbox.root, "mine.lock");
  const theirs = JSON.stringify({
    pid: 1,
    host: thisHost(),
    token: "successor",
    started: new Date().toISOString(),
  });
  await withLock(lock, () => {
    // Someone judged this lock stale, broke it and took it while the action ran.
    Deno.removeSync(lock);
    Deno.writeTextFileSync(lock, theirs);
  });
  assertEquals(await Deno.readTextFile(lock), theirs);
});

Deno.test("a lock file with no owner (0 bytes, garbage) is stale after a short grace", async (t) => {
  await using kb = await makeKb();
  const lock = join(kb.dir, ".git", "git-kb.lock");
  await t.step("a fresh empty file is being written: held", async () => {
    await Deno.writeTextFile(lock, "");
    assertEquals(lockState(lock).state, "held");
  });
  await t.step("after the grace, doctor names it and the next save breaks it", async () => {
    for (const text of ["", "\u0000\u0000garbage", "99999\n"]) {
      await Deno.writeTextFile(lock, text);
      const old = new Date(Date.now() - 10_000);
      await Deno.utime(lock, old, old);
      const finding = await checkSaveLock(kb.dir);
      assertEquals(finding.level, "warn");
      assert(finding.message.includes(`rm -f ${lock}`), finding.message);
      const result = await runCli(["add", "--title", `After ${text.length}`, "--type", "note"], {
        env: kb.env,
      });
      assertEquals(result.code, 0, show(result));
      assertEquals(await exists(lock), false);
    }
    assertEquals((await checkSaveLock(kb.dir)).level, "ok");
  });
});

Deno.test("a folder where the save lock goes: save and doctor name it with a fix that works pasted", async () => {
  await using kb = await makeKb({ remote: true });
  const lock = join(kb.dir, ".git", "git-kb.lock");
  await Deno.mkdir(join(lock, "inside"), { recursive: true });
  const add = () =>
    runCli(["add", "--title", "Past a folder", "--type", "note", "--body", "x"], { env: kb.env });
  const head = await git(kb.dir, "rev-parse", "HEAD");
  const refused = await add();
  assertEquals(refused.code, 1, show(refused));
  assertMatch(refused.stderr, /git-kb\.lock is a folder or another non-file, not a lock file/);
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head);

  const doctor = await runCli(["doctor"], { env: kb.env });
  assertMatch(doctor.stdout, /^FAIL lock: .*git-kb\.lock is a folder/m, show(doctor));
  assertMatch(doctor.stdout, /^ok {3}git: on branch main$/m, "the other checks still run");
  const fix = /remove it: (rm -r .*)$/m.exec(refused.stderr)?.[1];
  assert(fix, show(refused));
  const pasted = await new Deno.Command("sh", { args: ["-c", fix] }).output();
  assertEquals(pasted.code, 0);
  assertEquals((await add()).code, 0);
});

Deno.test("a lock file that cannot be written (a full disk): the save names it, and that nothing was done", async () => {
  await using kb = await makeKb();
  const head = await git(kb.dir, "rev-parse", "HEAD");
  // No file may grow: the first write, the save lock's owner, fails as on a full disk.
  const args = ["add", "--title", "On a full disk", "--type", "note", "--body", "x"];
  const result = await runCliWithFileLimit(0, args, kb.env);
  assertEquals(result.code, 1, show(result));
  const lock = join(kb.dir, ".git", "git-kb.lock");
  assert(
    result.stderr.includes(`could not write the lock file ${lock} (`),
    `names the file\n${show(result)}`,
  );
  assertMatch(result.stderr, /so nothing that needs the lock was done/);
  assertEquals(await exists(lock), false, "no lock file left");
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head);
});
