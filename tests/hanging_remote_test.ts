/**
 * A remote whose transport hangs: `add`, `sync`, `doctor` and `init` give up at their timeout and
 * leave none of the processes git started behind (the transport and its own child), because git
 * runs in a process group of its own that is ended whole. Real CLI runs with their real permissions,
 * and runProcess in a script of its own for an interrupt that comes as soon as git starts.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import { flagsFor } from "../app/permissions.ts";
import {
  cacheRootOf,
  childEnv,
  denoDir,
  exists,
  git,
  MAIN,
  makeKb,
  makeSandbox,
  runCli,
  sandboxEnv,
  show,
  tempDir,
} from "./helpers.ts";
import { assertGone, hangingRemote } from "./slow_git.ts";

Deno.test("a hanging remote: add, sync and doctor time out and leave no transport running", async () => {
  await using kb = await makeKb({ remote: true });
  const pids = join(kb.root, "transport.pids");
  const path = await hangingRemote(kb.root, pids);
  await git(kb.dir, "remote", "set-url", "origin", "hang::nowhere");
  const env = { ...kb.env, PATH: path, KB_TEST_NETWORK_TIMEOUT_MS: "1500" };
  const run = async (...args: string[]) => {
    await Deno.remove(pids).catch(() => {});
    const result = await runCli(args, { env });
    assert(await exists(pids), `the hanging transport ran: ${show(result)}`);
    await assertGone(pids);
    return result;
  };

  const added = await run("add", "--title", "Behind a hanging remote", "--type", "note");
  assertEquals(added.code, 3, show(added));
  assertMatch(added.stderr, /git push .* did not finish within 2 s and was stopped/);

  const synced = await run("sync");
  assertEquals(synced.code, 1, show(synced));
  assertMatch(synced.stderr, /did not finish within 2 s/);

  const doctor = await run("doctor");
  assertMatch(doctor.stdout, /did not finish within 2 s/);
});

Deno.test("a hanging remote: init's clone times out, and leaves no folder, config or transport", async () => {
  await using sandbox = await makeSandbox();
  const pids = join(sandbox.root, "transport.pids");
  const path = await hangingRemote(sandbox.root, pids);
  const kbDir = join(sandbox.root, "kb");
  const env = { ...sandboxEnv(sandbox), PATH: path, KB_TEST_NETWORK_TIMEOUT_MS: "1500" };
  const result = await runCli(["init", "hang://nowhere", "--dir", kbDir], { env });
  assert(await exists(pids), `the hanging transport ran: ${show(result)}`);
  await assertGone(pids);
  assertEquals(result.code, 1, show(result));
  assertEquals(
    result.stderr.trim().split("\n"),
    [
      "git-kb init: cannot reach hang://nowhere: git clone --quiet --no-checkout hang://nowhere " +
      `${kbDir} did not finish within 2 s and was stopped. Nothing was changed (no clone, no ` +
      "config). Check the network and the remote's address, then run init again:",
      `  git-kb init hang://nowhere --dir ${kbDir}`,
    ],
  );
  assertEquals(await exists(kbDir), false, "the half-made clone is removed");
  assertEquals(await exists(join(sandbox.config, "git-kb", "config.json")), false);
});

Deno.test("Ctrl-C during a hanging push: the transport is ended too, and the commit reported kept", async () => {
  await using kb = await makeKb({ remote: true });
  const pids = join(kb.root, "transport.pids");
  const path = await hangingRemote(kb.root, pids);
  await git(kb.dir, "remote", "set-url", "origin", "hang::nowhere");
  const env = childEnv({ ...kb.env, PATH: path, DENO_DIR: await denoDir() });
  const args = ["add", "--title", "Interrupted push", "--type", "note"];
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...flagsFor("add", cacheRootOf(kb.env)), MAIN, ...args],
    clearEnv: true,
    env,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  for (let tries = 0; tries < 300 && !(await exists(pids)); tries++) {
    await new Promise((done) => setTimeout(done, 50));
  }
  assert(await exists(pids), "the push reached the hanging transport");
  child.kill("SIGINT");
  const output = await child.output();
  const stderr = new TextDecoder().decode(output.stderr);
  await assertGone(pids);
  assertEquals(output.code, 3, stderr);
  assertMatch(
    stderr,
    /Committed .* locally .* but it is not pushed: git push .* was stopped: git-kb got SIGINT/,
  );
});

Deno.test("an interrupt as soon as a child in its own group starts still ends the group", async () => {
  // The child signals this script at once, while the script is still busy before its first await
  // (encoding a large stdin): the interrupt must already be listened for then, or the script
  // dies of it and the child's group, out of reach of a signal to the script's, runs on.
  await using temp = await tempDir("git-kb-interrupt-");
  const pids = join(temp.path, "child.pids");
  const script = join(temp.path, "run.ts");
  await Deno.writeTextFile(
    script,
    `import { ProcessInterruptedError, runProcess } from ${
      JSON.stringify(new URL("../io/process.ts", import.meta.url).href)
    };
const child = "sleep 600 & echo \\"$$ $!\\" > '${pids}'; kill -INT $PPID; wait";
try {
  await runProcess("sh", ["-c", child], { ownGroup: true, stdin: "x".repeat(64 * 2 ** 20) });
} catch (error) {
  if (!(error instanceof ProcessInterruptedError)) throw error;
  console.log(error.message);
}
`,
  );
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-run=sh,kill", script],
    stdin: "null",
  }).output();
  assert(await exists(pids), "the child ran");
  await assertGone(pids);
  assertEquals(
    [output.code, new TextDecoder().decode(output.stdout).trim()],
    [0, "sh was stopped: this process got SIGINT"],
    new TextDecoder().decode(output.stderr),
  );
});
