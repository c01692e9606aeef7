/**
 * git-kb started where git's environment points at another repository: a shell that exports
 * `GIT_DIR` and `GIT_WORK_TREE` (the bare-repository way of keeping dotfiles), or a git hook of
 * the user's project that starts an agent (git hands its hooks `GIT_INDEX_FILE` and the `-c`
 * settings). Its git calls must still read and write the knowledge base alone: the real CLI, a
 * project repository with staged work, a knowledge base with a bare remote. Nor may what the
 * user's own git config asks of git's output (signatures shown in every log) change what git-kb
 * reads from it.
 */
import { assertEquals, assertMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import { runProcess } from "../io/process.ts";
import { childEnv, cloneRemote, git, makeKb, pushEntryFrom, runCli, show } from "./helpers.ts";

Deno.test("with GIT_DIR, GIT_WORK_TREE and GIT_INDEX_FILE of another repo exported, add and sync write the knowledge base alone", async () => {
  await using kb = await makeKb({ remote: true });
  const project = join(kb.root, "project");
  await git(kb.root, "init", "--quiet", "-b", "work", project);
  await Deno.writeTextFile(join(project, "app.txt"), "v1\n");
  await git(project, "add", "app.txt");
  await git(project, "commit", "--quiet", "-m", "project start");
  await Deno.writeTextFile(join(project, "app.txt"), "v2, staged\n");
  await git(project, "add", "app.txt");
  const projectState = async () => ({
    refs: await git(project, "for-each-ref"),
    index: await Deno.readFile(join(project, ".git", "index")),
    staged: await git(project, "diff", "--cached", "--name-status"),
  });
  const before = await projectState();
  const env = {
    ...kb.env,
    GIT_DIR: join(project, ".git"),
    GIT_WORK_TREE: project,
    GIT_INDEX_FILE: join(project, ".git", "index"),
    GIT_CONFIG_PARAMETERS: "'core.bare'='true'",
  };

  const added = await runCli(["add", "--title", "Kept in the knowledge base", "--type", "note"], {
    env,
  });
  assertEquals(added.code, 0, show(added));
  assertMatch(added.stdout, /^Added kb-\w{5} .*pushed/m);
  assertMatch(await git(kb.dir, "log", "-1", "--format=%s"), /Kept in the knowledge base/);
  assertEquals(await git(kb.remote!, "rev-parse", "main"), await git(kb.dir, "rev-parse", "HEAD"));
  assertEquals(await git(kb.dir, "status", "--porcelain"), "");

  const synced = await runCli(["sync"], { env });
  assertEquals(synced.code, 0, show(synced));
  assertEquals(await projectState(), before, "the project repository is untouched");
});

/** Whether ssh-keygen, which signs the commits of the test below, is on PATH. */
const SSH_KEYGEN = (await runProcess("sh", ["-c", "command -v ssh-keygen"])).code === 0;

Deno.test({
  name: SSH_KEYGEN
    ? "a user who signs commits and has git log show signatures: a save's replay keeps the author, signed"
    : "signed commits shown by git log: SKIPPED, ssh-keygen is not installed (openssh-client)",
  ignore: !SSH_KEYGEN,
  fn: async () => {
    await using kb = await makeKb({ remote: true });
    const key = join(kb.home, "signing-key");
    const made = await runProcess("ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", key]);
    assertEquals(made.code, 0, show(made));
    await Deno.writeTextFile(
      join(kb.home, ".gitconfig"),
      `[user]\n\tsigningkey = ${key}\n[gpg]\n\tformat = ssh\n[commit]\n\tgpgsign = true\n` +
        "[log]\n\tshowSignature = true\n",
    );
    // A teammate's push first, so that the save's commit is replayed onto it.
    await pushEntryFrom(await cloneRemote(kb), "kb-tm001", "From a teammate");

    const added = await runCli(["add", "--title", "Signed on this machine", "--type", "note"], {
      env: kb.env,
    });
    assertEquals(added.code, 0, show(added));
    assertMatch(added.stdout, /remote had moved: rebased and pushed/);
    const author = await git(kb.remote!, "log", "-1", "--format=%an <%ae>", "main");
    assertEquals(author, `${kb.env.GIT_AUTHOR_NAME} <${kb.env.GIT_AUTHOR_EMAIL}>`);
    // Signed as git rebase would sign it, by commit.gpgSign.
    assertMatch(await git(kb.remote!, "cat-file", "commit", "main"), /^gpgsig -----BEGIN SSH/m);
  },
});

Deno.test("git set to sign every commit with a key it cannot load: a save says so, keeps nothing, and names the way on", async () => {
  await using kb = await makeKb({ remote: true });
  await Deno.writeTextFile(
    join(kb.home, ".gitconfig"),
    `[user]\n\tsigningkey = ${join(kb.root, "no-such-key")}\n[gpg]\n\tformat = ssh\n` +
      "[commit]\n\tgpgsign = true\n",
  );
  const head = await git(kb.dir, "rev-parse", "HEAD");
  const add = ["add", "--title", "Signed or not at all", "--type", "note"];

  const refused = await runCli(add, { env: kb.env });
  assertEquals(refused.code, 1, show(refused));
  assertMatch(
    refused.stderr,
    /commit\.gpgSign is true\) and could not sign this one: .*no-such-key/,
  );
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head);
  assertEquals(await git(kb.dir, "status", "--porcelain"), "", "nothing written or staged");
  const command = refused.stderr.trim().split("\n").at(-1)!.trim();
  assertEquals(command, `git -C ${kb.dir} config commit.gpgSign false`);

  const pasted = await runProcess("sh", ["-c", command], { env: childEnv(kb.env) });
  assertEquals(pasted.code, 0, show(pasted));
  const added = await runCli(add, { env: kb.env });
  assertEquals(added.code, 0, show(added));
});

Deno.test("git set to sign every commit with a program that waits for input no one gives: a save stops, says signing is why, keeps nothing", async () => {
  await using kb = await makeKb({ remote: true });
  // A signing program waiting for a passphrase or a touch of a key that never comes.
  const program = join(kb.root, "waiting-signer");
  await Deno.writeTextFile(program, "#!/bin/sh\nsleep 60\n");
  await Deno.chmod(program, 0o755);
  await Deno.writeTextFile(
    join(kb.home, ".gitconfig"),
    `[gpg]\n\tprogram = ${program}\n[commit]\n\tgpgsign = true\n`,
  );
  const head = await git(kb.dir, "rev-parse", "HEAD");
  const started = Date.now();

  const add = ["add", "--title", "Signed by a program that waits", "--type", "note"];
  const stopped = await runCli(add, { env: { ...kb.env, KB_TEST_NETWORK_TIMEOUT_MS: "1500" } });
  assertEquals(stopped.code, 1, show(stopped));
  assertMatch(
    stopped.stderr,
    /commit\.gpgSign is true\) and its signing program \(gpg\.program\) did not finish within 2 s/,
  );
  assertMatch(stopped.stderr, /nothing was committed/);
  assertEquals(
    stopped.stderr.trim().split("\n").at(-1)!.trim(),
    `git -C ${kb.dir} config commit.gpgSign false`,
  );
  assertEquals(Date.now() - started < 30_000, true, "stopped long before the program's minute");
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head);
  assertEquals(await git(kb.dir, "status", "--porcelain"), "", "nothing written or staged");
});

Deno.test("a save whose signed commit is made but whose replay onto a teammate's push waits on the signing program: committed here, not pushed (exit 3), signing named", async () => {
  await using kb = await makeKb({ remote: true });
  // Signs the first commit (a signature git takes), then waits as a locked key would.
  const program = join(kb.root, "signer-once");
  const count = join(kb.root, "signed");
  await Deno.writeTextFile(
    program,
    `#!/bin/sh\nif [ -e '${count}' ]; then sleep 60; fi\ntouch '${count}'\ncat > /dev/null\n` +
      "echo '[GNUPG:] SIG_CREATED D 1 8 00 0 X' >&2\n" +
      "printf -- '-----BEGIN PGP SIGNATURE-----\\n\\nc2ln\\n-----END PGP SIGNATURE-----\\n'\n",
  );
  await Deno.chmod(program, 0o755);
  await Deno.writeTextFile(
    join(kb.home, ".gitconfig"),
    `[gpg]\n\tprogram = ${program}\n[commit]\n\tgpgsign = true\n`,
  );
  await pushEntryFrom(await cloneRemote(kb), "kb-tm001", "From a teammate");
  const remote = await git(kb.remote!, "rev-parse", "main");
  const head = await git(kb.dir, "rev-parse", "HEAD");

  const add = ["add", "--title", "Signed here, replayed there", "--type", "note"];
  const saved = await runCli(add, { env: { ...kb.env, KB_TEST_NETWORK_TIMEOUT_MS: "1500" } });
  assertEquals(saved.code, 3, show(saved));
  assertMatch(
    saved.stderr,
    /Committed .* locally in \w{7}, but it is not pushed: its replay onto origin's commits stopped: git signs every commit/,
  );
  assertMatch(saved.stderr, /config commit\.gpgSign false\)/);
  assertEquals(await git(kb.dir, "rev-parse", "HEAD~1"), head, "the save's own commit stands");
  assertEquals(await git(kb.remote!, "rev-parse", "main"), remote, "nothing pushed");
});
