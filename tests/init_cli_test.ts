/**
 * `init` against a config that already names a knowledge base, and folders holding markdown that
 * git-kb does not read.
 *
 * @module
 */
import { assert, assertEquals, assertMatch, assertNotMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import { shellQuote } from "../core/shell/quote.ts";
import { runProcess } from "../io/process.ts";
import { cramped } from "./slow_git.ts";
import {
  childEnv,
  denoChildEnv,
  exists,
  FIXTURE_ENTRIES,
  git,
  gitRun,
  IDENTITY,
  type Kb,
  MAIN,
  makeKb,
  makeSandbox,
  parseJson,
  pushAttributes,
  runCli,
  sandboxEnv,
  show,
  writeFolder,
} from "./helpers.ts";

Deno.test("init refuses to point the config away from another knowledge base unless --force", async (t) => {
  await using configured = await makeKb();
  await using sandbox = await makeSandbox();
  const env = sandboxEnv(sandbox);
  const configFile = join(sandbox.config, "git-kb", "config.json");
  await Deno.mkdir(join(sandbox.config, "git-kb"), { recursive: true });
  const config = JSON.stringify({ kbDir: configured.dir });
  await Deno.writeTextFile(configFile, config);
  const typo = join(sandbox.root, "typo", "path");

  await t.step(
    "a new folder: exit 2, both paths and the entry count named, nothing made",
    async () => {
      const result = await runCli(["init", typo], { env });
      assertEquals(result.code, 2, show(result));
      for (
        const text of [configFile, configured.dir, typo, `${FIXTURE_ENTRIES} entries`, "--force"]
      ) {
        assert(result.stderr.includes(text), `names ${text}\n${show(result)}`);
      }
      assertEquals(await exists(join(sandbox.root, "typo")), false, "no folder created");
      assertEquals(await Deno.readTextFile(configFile), config, "the config is untouched");
    },
  );

  await t.step("the configured knowledge base itself is adopted as before", async () => {
    const result = await runCli(["init", configured.dir, "--json"], { env });
    assertEquals(result.code, 0, show(result));
    assertEquals(parseJson<{ mode: string }>(result).mode, "existing");
  });

  await t.step("with --force: created, the config repointed, the old one named", async () => {
    const result = await runCli(["init", typo, "--force"], { env });
    assertEquals(result.code, 0, show(result));
    assert(
      result.stdout.includes(`The config named ${configured.dir} (${FIXTURE_ENTRIES} entries)`),
      show(result),
    );
    assertEquals(JSON.parse(await Deno.readTextFile(configFile)), {
      kbs: [{ name: "path", dir: typo }],
      default: "path",
    });
  });

  await t.step("a configured folder that is gone is replaced without --force", async () => {
    const gone = join(sandbox.root, "gone");
    await Deno.writeTextFile(configFile, JSON.stringify({ kbDir: gone }));
    const fresh = join(sandbox.root, "fresh");
    const result = await runCli(["init", fresh], { env });
    assertEquals(result.code, 0, show(result));
    assertMatch(result.stdout, /holds no knowledge base/);
    assertEquals(JSON.parse(await Deno.readTextFile(configFile)), {
      kbs: [{ name: "fresh", dir: fresh }],
      default: "fresh",
    });
  });
});

Deno.test("init names the markdown files outside entries/ that git-kb does not read", async () => {
  await using kb = await makeKb();
  await using sandbox = await makeSandbox();
  await Deno.mkdir(join(kb.dir, "notes"));
  await Deno.writeTextFile(join(kb.dir, "notes", "meeting.md"), "# Meeting\n");
  await Deno.writeTextFile(join(kb.dir, "ideas.md"), "# Ideas\n");
  await git(kb.dir, "add", "notes/meeting.md");
  await git(kb.dir, "commit", "--quiet", "-m", "notes");
  const env = sandboxEnv(sandbox);
  const text = await runCli(["init", kb.dir], { env });
  assertEquals(text.code, 0, show(text));
  assertMatch(text.stdout, /2 markdown files outside entries\/ are not read by git-kb/);
  assertMatch(
    text.stdout,
    /move them into entries\/, or bring a folder of notes in with git-kb import/,
  );
  assertMatch(text.stdout, /ideas\.md/);
  assertMatch(text.stdout, /notes\/meeting\.md/);
  assertNotMatch(text.stdout, /README\.md/);
  const json = await runCli(["init", kb.dir, "--json"], { env });
  assertEquals(parseJson<{ notRead: string[] }>(json).notRead.sort(), [
    "ideas.md",
    "notes/meeting.md",
  ]);
});

Deno.test("a second remote cloned without --name: exit 2 names the configured one, and the printed command adds it beside", async () => {
  await using sandbox = await makeSandbox();
  const env = sandboxEnv(sandbox);
  const personal = join(sandbox.root, "personal.git");
  const team = join(sandbox.root, "team.git");
  for (const remote of [personal, team]) {
    await git(sandbox.root, "init", "--quiet", "--bare", remote);
  }
  const first = await runCli(["init", personal], { env });
  assertEquals(first.code, 0, show(first));

  const second = await runCli(["init", team], { env });
  assertEquals(second.code, 2, show(second));
  assertMatch(second.stderr, /already holds the knowledge base "\w+" the config names/);
  const suggested = second.stderr.match(/run (git-kb init .*--name \S+)/)?.[1];
  assertEquals(suggested, `git-kb init ${team} --name team`, show(second));
  const added = await runCli(["init", team, "--name", "team"], { env });
  assertEquals(added.code, 0, show(added));
  const config = JSON.parse(
    await Deno.readTextFile(join(sandbox.config, "git-kb", "config.json")),
  );
  assertEquals(config.kbs.map((kb: { name: string }) => kb.name).length, 2);
});

Deno.test("a second clone of a remote a configured knowledge base clones: exit 2 names it, nothing made, and the printed --force line makes one beside it", async () => {
  await using sandbox = await makeSandbox();
  const env = { ...sandboxEnv(sandbox), XDG_DATA_HOME: join(sandbox.root, "data"), ...IDENTITY };
  const remote = join(sandbox.root, "kb.git");
  await git(sandbox.root, "init", "--quiet", "--bare", remote);
  const first = await runCli(["init", remote], { env });
  assertEquals(first.code, 0, show(first));
  const configFile = join(sandbox.config, "git-kb", "config.json");
  const config = await Deno.readTextFile(configFile);
  const personal = join(sandbox.root, "data", "git-kb", "personal");
  // Under another name, by another spelling of the same remote, in another folder.
  for (
    const [args, folder] of [
      [["init", `${remote}/`, "--name", "work"], join(sandbox.root, "data", "git-kb", "work")],
      [["init", `file://${remote}`, "--dir", join(sandbox.root, "two")], join(sandbox.root, "two")],
    ] as const
  ) {
    const again = await runCli([...args], { env });
    assertEquals(again.code, 2, show(again));
    assert(
      again.stderr.includes(
        `is cloned already: the config names a clone of it, the knowledge base "personal" ` +
          `(${personal}, 0 entries); nothing was changed.`,
      ),
      show(again),
    );
    assertMatch(again.stderr, /git-kb sync personal brings it up to date/);
    assertEquals(await exists(folder), false, "no second clone was made");
    assertEquals(await Deno.readTextFile(configFile), config, "the config is as it was");
  }
  // The same init run again on the configured clone is no second clone.
  const rerun = await runCli(["init", remote], { env });
  assertEquals(rerun.code, 0, show(rerun));
  // The printed line, pasted, makes the second clone under a name of its own.
  const refused = await runCli(["init", remote, "--dir", join(sandbox.root, "personal")], { env });
  assertEquals(refused.code, 2, show(refused));
  const line = /to make one all the same, run (git-kb init .*)$/m.exec(refused.stderr)?.[1];
  assertEquals(
    line,
    `git-kb init ${remote} --dir ${join(sandbox.root, "personal")} --name personal-2 --force`,
  );
  const forced = await runCli(line!.split(" ").slice(1), { env });
  assertEquals(forced.code, 0, show(forced));
  const names = JSON.parse(await Deno.readTextFile(configFile)).kbs.map((kb: { name: string }) =>
    kb.name
  );
  assertEquals(names, ["personal", "personal-2"]);
});

Deno.test("init with no git identity says so, with the git config line that works pasted; with one it does not", async () => {
  await using sandbox = await makeSandbox();
  const env = sandboxEnv(sandbox);
  const anonymous = await runCli(["init", join(sandbox.root, "mine")], { env });
  assertEquals(anonymous.code, 0, show(anonymous));
  assertMatch(anonymous.stdout, /! git has no user\.name\/user\.email/);
  assertMatch(anonymous.stdout, /the commit is authored git-kb <git-kb@localhost>/);
  // Run again on the same folder, init commits nothing, and says what later commits will be.
  const again = await runCli(["init", join(sandbox.root, "mine")], { env });
  assertEquals(again.code, 0, show(again));
  assertMatch(again.stdout, /so git-kb's commits will be authored git-kb <git-kb@localhost>/);
  assertNotMatch(again.stdout, /the commit is authored/);
  const json = await runCli(["init", join(sandbox.root, "mine"), "--json"], { env });
  assertMatch(parseJson<{ warnings: string[] }>(json).warnings[0], /git config --global/);
  const line = anonymous.stdout.match(/in place of these\): (git config .*)$/m)?.[1] ?? "";
  const pasted = await runProcess("sh", ["-c", line], { env: childEnv(env) });
  assertEquals(pasted.code, 0, `${line}\n${pasted.stderr}`);
  const configured = await gitRun(sandbox.home, ["config", "--global", "--get-regexp", "^user"], {
    GIT_CONFIG_GLOBAL: join(sandbox.home, ".gitconfig"),
  });
  assertEquals(configured.stdout, "user.name Your Name\nuser.email you@example.com\n");

  await using named = await makeSandbox();
  const withIdentity = await runCli(["init", join(named.root, "mine")], {
    env: { ...sandboxEnv(named), ...IDENTITY },
  });
  assertEquals(withIdentity.code, 0, show(withIdentity));
  assertNotMatch(withIdentity.stdout, /user\.name/);
});

Deno.test("the first knowledge base's default folder and name are personal; an earlier kb folder is found again", async () => {
  await using sandbox = await makeSandbox();
  const env = { ...sandboxEnv(sandbox), XDG_DATA_HOME: join(sandbox.root, "data"), ...IDENTITY };
  const created = await runCli(["init", "--json"], { env });
  assertEquals(created.code, 0, show(created));
  const personal = join(sandbox.root, "data", "git-kb", "personal");
  assertEquals(parseJson<{ kbDir: string }>(created).kbDir, personal);
  const configFile = join(sandbox.config, "git-kb", "config.json");
  assertEquals(JSON.parse(await Deno.readTextFile(configFile)).kbs, [
    { name: "personal", dir: personal },
  ]);

  await using earlier = await makeSandbox();
  const earlierEnv = {
    ...sandboxEnv(earlier),
    XDG_DATA_HOME: join(earlier.root, "data"),
    ...IDENTITY,
  };
  const earlierDir = join(earlier.root, "data", "git-kb", "kb");
  const remote = join(earlier.root, "remote.git");
  await git(earlier.root, "init", "--quiet", "--bare", remote);
  const first = await runCli(["init", remote, "--dir", earlierDir], { env: earlierEnv });
  assertEquals(first.code, 0, show(first));
  // The last line says what to do next.
  assertMatch(first.stdout.trimEnd().split("\n").at(-1)!, /^Next: add an entry \(.* add --edit\)/);
  const again = await runCli(["init", remote, "--json"], { env: earlierEnv });
  assertEquals(again.code, 0, show(again));
  const { kbDir, mode } = parseJson<{ kbDir: string; mode: string }>(again);
  assertEquals([kbDir, mode], [earlierDir, "existing"]);
});

/**
 * The environment of a machine with nothing configured yet (its own HOME, data folder and git
 * identity) whose printed commands run the sources, so that they can be pasted.
 */
function pastingEnv(sandbox: Parameters<typeof sandboxEnv>[0] & { root: string }) {
  return {
    ...sandboxEnv(sandbox),
    XDG_DATA_HOME: join(sandbox.root, "data"),
    KB_CLI: `deno run -A ${shellQuote(MAIN)}`,
    ...IDENTITY,
  };
}

Deno.test("a command run before any init names the init that starts a new knowledge base, and it works pasted", async () => {
  await using sandbox = await makeSandbox();
  const env = pastingEnv(sandbox);
  const before = await runCli(["search", "anything"], { env });
  assertEquals(before.code, 1, show(before));
  const start = before.stderr.match(/`([^`]* init)` to start a new one/)?.[1] ?? "";
  const pasted = await runProcess("sh", ["-c", start], { env: childEnv(env) });
  assertEquals(pasted.code, 0, `${start}\n${pasted.stderr}`);
  const after = await runCli(["search", "anything"], { env });
  assertEquals(after.code, 0, show(after));
});

Deno.test("init <url> that git cannot clone: git's words on one line, nothing made, and lines that check the address and run init again", async () => {
  await using sandbox = await makeSandbox();
  const env = sandboxEnv(sandbox);
  const url = `file://${join(sandbox.root, "no-such-remote.git")}`;
  const kbDir = join(sandbox.root, "kb");
  const result = await runCli(["init", url, "--dir", kbDir], { env });
  assertEquals(result.code, 1, show(result));
  const lines = result.stderr.trim().split("\n");
  assertEquals(lines.length, 3, show(result));
  assertMatch(
    lines[0],
    /^git-kb init: cannot clone file:\S+: git clone .* failed \(exit 128\): .*does not appear to be a git repository.* Nothing was changed \(no clone, no config\)\. Check the remote's address/,
  );
  assertEquals(lines[1], `  git ls-remote --heads -- ${url}`);
  assertEquals(lines[2], `  git-kb init ${url} --dir ${kbDir}`);
  const checked = await runProcess("sh", ["-c", lines[1]], { env: childEnv(env) });
  assertEquals(checked.code, 128, "the check fails as the clone did, with git's words");
  assertMatch(checked.stderr, /does not appear to be a git repository/);
  assertEquals(await exists(kbDir), false);
  assertEquals(await exists(join(sandbox.config, "git-kb", "config.json")), false);
  // Once the address is right, the same init goes through.
  await git(sandbox.root, "init", "--quiet", "--bare", "no-such-remote.git");
  const again = await runCli(["init", url, "--dir", kbDir], { env });
  assertEquals(again.code, 0, show(again));
});

Deno.test("init <url> on a disk with no room for the clone: says so with the df that shows the room left, not that the address is wrong; nothing made", async () => {
  await using kb = await makeKb({ remote: true });
  await using sandbox = await makeSandbox();
  const env = { ...sandboxEnv(sandbox), PATH: await cramped(sandbox.root, "clone", 0) };
  const kbDir = join(sandbox.root, "kb");
  const result = await runCli(["init", kb.remote!, "--dir", kbDir], { env });
  assertEquals(result.code, 1, show(result));
  assertMatch(
    result.stderr,
    /^git-kb init: cannot write in (\S+) \(.*File too large.*\), so nothing was written or committed; make room on its disk \(df -h \1 shows what is left\), then run the command again:\n {2}git-kb init \S+ --dir \S+\n$/,
  );
  assertNotMatch(result.stderr, /Check the remote's address|ls-remote/);
  assertEquals(await exists(kbDir), false);
  assertEquals(await exists(join(sandbox.config, "git-kb", "config.json")), false);
});

Deno.test("init of a folder of notes that is not a repo leaves it alone and prints the init and import that bring its notes in", async () => {
  await using sandbox = await makeSandbox();
  const env = pastingEnv(sandbox);
  const notes = join(sandbox.root, "my notes");
  await Deno.mkdir(notes);
  await Deno.writeTextFile(join(notes, "a.md"), "# Rotate the API key\n\nRevoke, then reissue.\n");
  const refused = await runCli(["init", notes], { env });
  assertEquals(refused.code, 1, show(refused));
  assertEquals([...Deno.readDirSync(notes)].map((entry) => entry.name), ["a.md"]);
  const line = refused.stderr.match(/start one and import them: (.*)$/m)?.[1];
  assert(line, show(refused));
  const pasted = await runProcess("sh", ["-c", line], { env: childEnv(env) });
  assertEquals(pasted.code, 0, `${line}\n${pasted.stdout}${pasted.stderr}`);
  const found = await runCli(["search", "rotate api key"], { env });
  assertMatch(found.stdout, /kb-\w{5} {2}Rotate the API key/, show(found));
  // With a knowledge base configured, the line is the import alone.
  const again = await runCli(["init", notes], { env });
  assertEquals(again.code, 1, show(again));
  assertMatch(again.stderr, /import them into your knowledge base: \S.* import .*my notes'$/m);
  const file = join(sandbox.root, "a-file");
  await Deno.writeTextFile(file, "x\n");
  const onFile = await runCli(["init", file], { env });
  assertEquals(onFile.code, 1, show(onFile));
  assertMatch(onFile.stderr, /a-file is a file: give init a clone URL, a git repo, or a new/);
});

Deno.test("the add command init's last line names, pasted as is, saves no placeholder entry", async () => {
  await using sandbox = await makeSandbox();
  const env = pastingEnv(sandbox);
  const created = await runCli(["init"], { env });
  assertEquals(created.code, 0, show(created));
  const add = created.stdout.match(/^Next: add an entry \((.*?)\), bring notes in/m)?.[1];
  assert(add, show(created));
  const kbDir = join(sandbox.root, "data", "git-kb", "personal");
  const head = await git(kbDir, "rev-parse", "HEAD");
  // No editor and no terminal (a usage error), then an editor that leaves the template as it is
  // (invalid): no commit either way.
  const editors = [[{ VISUAL: "", EDITOR: "" }, 2], [{ VISUAL: "", EDITOR: "true" }, 1]] as const;
  for (const [editor, code] of editors) {
    const pasted = await runProcess("sh", ["-c", add], {
      env: await denoChildEnv({ ...env, ...editor }),
    });
    assertEquals(pasted.code, code, `${add}\n${pasted.stdout}${pasted.stderr}`);
    assertEquals(await git(kbDir, "rev-parse", "HEAD"), head, `${add}\n${pasted.stdout}`);
  }
});

Deno.test("init of a knowledge base beside the default one: the import its last line names, pasted, imports there", async () => {
  await using sandbox = await makeSandbox();
  const env = pastingEnv(sandbox);
  assertEquals((await runCli(["init"], { env })).code, 0);
  const team = join(sandbox.root, "team's kb");
  const created = await runCli(["init", "--dir", team, "--name", "team"], { env });
  assertEquals(created.code, 0, show(created));
  const line = created.stdout.match(/^Next: add an entry \((.*?)\), bring notes in \((.*?)\)/m);
  assert(line, show(created));
  assertMatch(line[1], / add --edit --kb /);
  const notes = join(sandbox.root, "notes");
  await writeFolder(notes, { "deploy.md": "# Deploy\n\nRun make deploy.\n" });
  const personal = join(sandbox.root, "data", "git-kb", "personal");
  const before = await git(personal, "rev-parse", "HEAD");
  const pasted = line[2].replace("<folder>", shellQuote(notes));
  const imported = await runProcess("sh", ["-c", pasted], { env: await denoChildEnv(env) });
  assertEquals(imported.code, 0, `${pasted}\n${imported.stdout}${imported.stderr}`);
  assertEquals(await git(personal, "rev-parse", "HEAD"), before, "the default one is untouched");
  assertEquals(
    await git(team, "log", "-1", "--format=%s"),
    "kb: import notes (1 added, 0 updated)",
  );
});

Deno.test("init without HOME and without --dir: a usage error (exit 2) that asks for --dir, nothing made", async () => {
  await using sandbox = await makeSandbox();
  const { HOME: _home, ...env } = sandboxEnv(sandbox);
  const result = await runCli(["init"], { env, cwd: sandbox.root });
  assertEquals(result.code, 2, show(result));
  assertMatch(
    result.stderr,
    /^git-kb init: cannot choose a default folder without HOME; pass --dir <path>\nUsage: /,
    show(result),
  );
  assertMatch(result.stderr, /--help for the options/, show(result));
  assertEquals(await exists(join(sandbox.config, "git-kb", "config.json")), false, show(result));
});

Deno.test("a new knowledge base with no remote says so at init, and the line it prints adds one when pasted", async () => {
  await using sandbox = await makeSandbox();
  const env = pastingEnv(sandbox);
  const created = await runCli(["init"], { env });
  assertEquals(created.code, 0, show(created));
  const line = created.stdout.match(/No remote yet: .* in place of <url>: (.*)$/m)?.[1];
  assert(line, show(created));
  const remote = join(sandbox.root, "remote.git");
  await git(sandbox.root, "init", "--quiet", "--bare", remote);
  const pasted = await runProcess("sh", ["-c", line.replace("<url>", shellQuote(remote))], {
    env: childEnv(env),
  });
  assertEquals(pasted.code, 0, `${line}\n${pasted.stderr}`);
  assertMatch(await git(remote, "log", "--oneline"), /set up the knowledge base/);

  // A second clone of that remote, made on purpose (--force), has the remote from the start.
  const cloned = await runCli(["init", remote, "--name", "again", "--force"], { env });
  assertEquals(cloned.code, 0, show(cloned));
  assertNotMatch(cloned.stdout, /No remote yet/);
});

Deno.test("init run again with no argument finds the knowledge base it made: exit 0, nothing new", async () => {
  await using sandbox = await makeSandbox();
  const env = { ...sandboxEnv(sandbox), XDG_DATA_HOME: join(sandbox.root, "data"), ...IDENTITY };
  const first = await runCli(["init"], { env });
  assertEquals(first.code, 0, show(first));
  const kbDir = join(sandbox.root, "data", "git-kb", "personal");
  const head = await git(kbDir, "rev-parse", "HEAD");
  const configFile = join(sandbox.config, "git-kb", "config.json");
  const config = await Deno.readTextFile(configFile);
  const again = await runCli(["init"], { env });
  assertEquals(again.code, 0, show(again));
  assertMatch(again.stdout, /Using the existing clone/);
  assertEquals(await git(kbDir, "rev-parse", "HEAD"), head);
  assertEquals(await Deno.readTextFile(configFile), config);

  // A folder inside another repo is not taken for a knowledge base.
  const project = join(sandbox.root, "project");
  await git(sandbox.root, "init", "--quiet", project);
  await Deno.mkdir(join(project, "notes"));
  await Deno.writeTextFile(join(project, "notes", "a.txt"), "x\n");
  const inside = await runCli(["init", "--dir", join(project, "notes"), "--name", "notes"], {
    env,
  });
  assertEquals(inside.code, 1, show(inside));
  assertMatch(inside.stderr, /already exists and is not empty/);
});

Deno.test("init run again with the same remote spelled otherwise finds its clone: exit 0, not a clone of another remote", async () => {
  await using sandbox = await makeSandbox();
  const env = { ...sandboxEnv(sandbox), XDG_DATA_HOME: join(sandbox.root, "data"), ...IDENTITY };
  const remote = join(sandbox.root, "kb.git");
  await git(sandbox.root, "init", "--quiet", "--bare", remote);
  const link = join(sandbox.root, "link-to-kb.git");
  await Deno.symlink(remote, link);
  assertEquals((await runCli(["init", remote], { env })).code, 0);
  const configFile = join(sandbox.config, "git-kb", "config.json");
  const config = await Deno.readTextFile(configFile);
  for (const spelling of [`file://${remote}`, `${remote}/`, link]) {
    const again = await runCli(["init", spelling], { env });
    assertEquals(again.code, 0, show(again));
    assertMatch(again.stdout, /, already a clone of /);
    assertNotMatch(again.stderr, /another remote/);
    assertEquals(await Deno.readTextFile(configFile), config, "the config is as it was");
  }
});

Deno.test("init run again once an agent runs git-kb says so, and offers no setup", async () => {
  await using sandbox = await makeSandbox();
  const env = { ...sandboxEnv(sandbox), XDG_DATA_HOME: join(sandbox.root, "data"), ...IDENTITY };
  const next = (result: { stdout: string }) => result.stdout.match(/^Next: .*$/m)?.[0] ?? "";
  const first = await runCli(["init"], { env });
  assertEquals(first.code, 0, show(first));
  assertMatch(next(first), /, or wire your agent \(git-kb setup --agent claude, /);
  // The Claude Code plugin enabled in the user's settings.
  const claude = join(sandbox.home, ".claude", "settings.json");
  await Deno.mkdir(join(sandbox.home, ".claude"));
  await Deno.writeTextFile(claude, JSON.stringify({ enabledPlugins: { "git-kb@git-kb": true } }));
  const plugin = await runCli(["init"], { env });
  assertEquals(plugin.code, 0, show(plugin));
  assertNotMatch(next(plugin), /setup/);
  assertMatch(next(plugin), /; Claude Code \(its plugin\) runs git-kb already\.$/);
  // Codex's hooks, as setup writes them, through a launcher that is there.
  await Deno.remove(claude);
  const launcher = join(sandbox.root, "bin", "git-kb");
  await Deno.mkdir(join(sandbox.root, "bin"));
  await Deno.writeTextFile(launcher, "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  const setup = await runCli(["setup", "--agent", "codex"], { env: { ...env, KB_CLI: launcher } });
  assertEquals(setup.code, 0, show(setup));
  const hooks = await runCli(["init"], { env });
  assertMatch(next(hooks), /; Codex \(hooks\) runs git-kb already\.$/, show(hooks));
  // Hooks whose launcher is gone run nothing: wiring is offered again.
  await Deno.remove(launcher);
  const gone = await runCli(["init"], { env });
  assertMatch(next(gone), /, or wire your agent \(git-kb setup --agent claude, /);
  // The MCP server setup --mcp writes, in Codex's TOML and Cursor's JSON.
  await Deno.writeTextFile(launcher, "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  const withLauncher = { ...env, KB_CLI: launcher };
  assertEquals((await runCli(["setup", "--agent", "codex", "--remove"], { env })).code, 0);
  for (const [agent, label] of [["codex", "Codex"], ["cursor", "Cursor"]]) {
    const mcp = await runCli(["setup", "--agent", agent, "--mcp"], { env: withLauncher });
    assertEquals(mcp.code, 0, show(mcp));
    const served = await runCli(["init"], { env });
    assertMatch(next(served), new RegExp(`; ${label} \\(MCP server\\) runs git-kb already\\.$`));
    const removed = await runCli(["setup", "--agent", agent, "--mcp", "--remove"], { env });
    assertEquals(removed.code, 0, show(removed));
  }
  // The rule setup prints for AGENTS.md, put in a project's.
  const printed = await runCli(["setup", "--agent", "opencode", "--scope", "project", "--json"], {
    env: withLauncher,
  });
  const project = join(sandbox.root, "project");
  await writeFolder(project, {
    "AGENTS.md": `# Project\n\n${parseJson<{ rule: string }>(printed).rule}\n`,
  });
  const ruled = await runCli(["init"], { env, cwd: project });
  assertMatch(
    next(ruled),
    new RegExp(`; the git-kb rule in ${join(project, "AGENTS.md")} runs git-kb already\\.$`),
    show(ruled),
  );
  assertMatch(next(await runCli(["init"], { env })), /, or wire your agent/, "not elsewhere");
});

/**
 * A teammate pushes `attributes` as the `.gitattributes` of `kb`; then `init <url>` clones its
 * remote into a folder of `sandbox`. Returns the clone's folder and the environment it ran in.
 */
async function initAfterAttributes(
  kb: Kb,
  sandbox: Awaited<ReturnType<typeof makeSandbox>>,
  attributes: string,
): Promise<{ dir: string; env: Record<string, string> }> {
  await pushAttributes(kb.dir, attributes);
  const env = { ...sandboxEnv(sandbox), ...IDENTITY };
  const dir = join(sandbox.root, "clone");
  const cloned = await runCli(["init", kb.remote!, "--dir", dir], { env });
  assertEquals(cloned.code, 0, show(cloned));
  return { dir, env };
}

Deno.test("init <url> checks entries out as committed whatever the remote's .gitattributes asks", async () => {
  await using kb = await makeKb({ remote: true });
  await using sandbox = await makeSandbox();
  const attributes = "entries/** working-tree-encoding=UTF-16\n";
  const { dir, env } = await initAfterAttributes(kb, sandbox, attributes);
  const path = "entries/kb-7q2mx-rotate-a-leaked-npm-or-cloudflare-token.md";
  assertEquals(
    await Deno.readTextFile(join(dir, path)),
    await git(kb.dir, "show", `HEAD:${path}`) + "\n",
  );
  assertEquals(await git(dir, "status", "--porcelain"), "");
  const got = await runCli(["get", "kb-7q2mx"], { env: { ...env, KB_DIR: dir } });
  assertEquals(got.code, 0, show(got));
});

Deno.test("init <url> leaves a filter in force for the tool that sets its driver up after the clone (git-crypt's unlock)", async () => {
  await using kb = await makeKb({ remote: true });
  await using sandbox = await makeSandbox();
  const { dir } = await initAfterAttributes(kb, sandbox, "entries/** filter=seal\n");

  // What an unlock does: set the driver up in the clone's config, then check the files out again.
  const path = "entries/kb-7q2mx-rotate-a-leaked-npm-or-cloudflare-token.md";
  await git(dir, "config", "--local", "filter.seal.smudge", "tr a-z A-Z");
  await git(dir, "config", "--local", "filter.seal.clean", "cat");
  await Deno.remove(join(dir, path));
  await git(dir, "checkout", "--", path);
  assertEquals(
    await Deno.readTextFile(join(dir, path)),
    (await git(kb.dir, "show", `HEAD:${path}`)).toUpperCase() + "\n",
  );
});

Deno.test("init <url> of a remote whose HEAD names a branch it does not have checks out the one it has, not an empty history", async () => {
  await using kb = await makeKb({ remote: true });
  await using sandbox = await makeSandbox();
  const env = { ...sandboxEnv(sandbox), KB_CLI: `deno run -A ${shellQuote(MAIN)}` };
  // A bare repository made with another default branch than the one pushed.
  await git(kb.remote!, "symbolic-ref", "HEAD", "refs/heads/master");
  const dir = join(sandbox.root, "kb");
  const result = await runCli(["init", kb.remote!, "--dir", dir], { env });
  assertEquals(result.code, 0, show(result));
  assertMatch(result.stdout, /Checked out main: the remote's HEAD names a branch it does not have/);
  assertMatch(result.stdout, new RegExp(`Indexed ${FIXTURE_ENTRIES} entries`), show(result));
  assertEquals(await git(dir, "rev-parse", "HEAD"), await git(kb.remote!, "rev-parse", "main"));
  assertEquals(await git(dir, "rev-parse", "--abbrev-ref", "@{u}"), "origin/main");

  await git(kb.remote!, "branch", "trunk", "main");
  await git(kb.remote!, "branch", "-m", "main", "staging");
  const elsewhere = join(sandbox.root, "o'brien's kb");
  // Another machine's config, which names no clone of this remote yet.
  await Deno.remove(join(sandbox.config, "git-kb"), { recursive: true });
  const refused = await runCli(["init", kb.remote!, "--dir", elsewhere, "--name", "team"], {
    env,
  });
  assertEquals(refused.code, 1, show(refused));
  assertMatch(refused.stderr, /has the branches staging, trunk, and its HEAD names none of them/);
  const choice = refused.stderr.split("\n").find((line) => line.includes("--track origin/trunk"));
  assert(choice, show(refused));
  const again = await runCli(["init", kb.remote!, "--dir", elsewhere, "--name", "team"], { env });
  assertEquals(again.code, 1, `run again unchosen, still refused\n${show(again)}`);
  const pasted = await runProcess("/bin/sh", ["-c", choice.trim()], {
    cwd: sandbox.root,
    env: childEnv(env),
  });
  assertEquals(pasted.code, 0, `${choice}\n${pasted.stderr}`);
  assertEquals(
    await git(elsewhere, "rev-parse", "HEAD"),
    await git(kb.remote!, "rev-parse", "trunk"),
  );
});

/**
 * `init <url>` of an empty bare remote whose pre-receive hook is `hookScript`: exit 3 after the
 * rest of init is done and said, the cause matching `cause`, and the printed push, pasted once
 * the hook is gone, pushes the first commit and sets the upstream.
 */
async function assertFirstPushFinishes(
  hookScript: string,
  cause: RegExp,
  extraEnv: Record<string, string> = {},
): Promise<void> {
  await using sandbox = await makeSandbox();
  const env = { ...pastingEnv(sandbox), ...extraEnv };
  const remote = join(sandbox.root, "remote.git");
  await git(sandbox.root, "init", "--quiet", "--bare", "-b", "main", remote);
  const hook = join(remote, "hooks", "pre-receive");
  await Deno.writeTextFile(hook, hookScript);
  await Deno.chmod(hook, 0o755);
  const dir = join(sandbox.root, "kb");
  const result = await runCli(["init", remote, "--dir", dir], { env });
  assertEquals(result.code, 3, show(result));
  assertMatch(result.stdout, /Indexed 0 entries/, "the rest of init is done and said");
  assertMatch(result.stderr, /its first commit is not pushed to the empty remote .*: /);
  assertMatch(result.stderr, cause);
  assertMatch(result.stderr, /\. It is committed here/);
  const command = result.stderr.trimEnd().split("\n").pop()!.trim();
  await Deno.remove(hook);
  const pasted = await runProcess("/bin/sh", ["-c", command], { env: childEnv(env) });
  assertEquals(pasted.code, 0, `${command}\n${pasted.stderr}`);
  assertEquals(await git(remote, "rev-parse", "main"), await git(dir, "rev-parse", "HEAD"));
  assertEquals(await git(dir, "rev-parse", "--abbrev-ref", "@{u}"), "origin/main");
}

Deno.test("init <url> of an empty remote whose push never finishes: stopped in time, the report, then the push that finishes, exit 3", async () => {
  // The clone and ls-remote answer; the push waits on the remote's hook, as on a stalled host.
  await assertFirstPushFinishes(
    "#!/bin/sh\nexec sleep 600\n",
    /: git push .* did not finish within 2 s and was stopped\./,
    { KB_TEST_NETWORK_TIMEOUT_MS: "1500" },
  );
});

Deno.test("init <url> of an empty remote that refuses the first push: the report, then the remote's words and the push that finishes, exit 3", async () => {
  await assertFirstPushFinishes(
    "#!/bin/sh\necho 'pushes wait for an admin' >&2\nexit 1\n",
    /: \[remote rejected\] .*pre-receive hook declined\); pushes wait for an admin\./,
  );
});

Deno.test("a path typed in quotes with its ~ (init, --kb, KB_DIR, import, --body-file) is read from the home folder, not as a folder named ~", async () => {
  await using sandbox = await makeSandbox();
  const env = pastingEnv(sandbox);
  const cwd = join(sandbox.root, "elsewhere");
  await Deno.mkdir(cwd);
  const made = await runCli(["init", "~/My Notes"], { env, cwd });
  assertEquals(made.code, 0, show(made));
  const kbDir = join(sandbox.home, "My Notes");
  assert(await exists(join(kbDir, "entries")), show(made));
  assertEquals(await exists(join(cwd, "~")), false, "no folder named ~ where the command ran");

  await writeFolder(join(sandbox.home, "Obsidian Vault"), { "Deploy.md": "Ship with make.\n" });
  await Deno.writeTextFile(join(sandbox.home, "body.md"), "Rotate it at once.\n");
  const imported = await runCli(["import", "~/Obsidian Vault", "--kb", "~/My Notes"], { env, cwd });
  assertEquals(imported.code, 0, show(imported));
  assertMatch(imported.stdout, /1 added/);
  const added = await runCli(
    ["add", "--title", "Rotate the token", "--type", "howto", "--body-file", "~/body.md"],
    { env: { ...env, KB_DIR: "~/My Notes" }, cwd },
  );
  assertEquals(added.code, 0, show(added));
  const doctor = await runCli(["doctor", "--offline"], {
    env: { ...env, KB_DIR: "~/My Notes" },
    cwd,
  });
  assertMatch(
    doctor.stdout,
    /config: knowledge base .*\/home\/My Notes \(from KB_DIR\)/,
    show(doctor),
  );
  assertNotMatch(doctor.stdout, /KB_DIR is a relative folder/);
});

Deno.test("init of a project's repo (a package.json at its top, no entries/) refuses, changes nothing, and the --force line it prints makes it one", async () => {
  await using sandbox = await makeSandbox();
  const env = pastingEnv(sandbox);
  const project = join(sandbox.root, "my app");
  await writeFolder(project, { "package.json": "{}\n", "src/main.js": "run();\n" });
  await gitRun(project, ["init", "-q"]);
  await gitRun(project, ["add", "-A"]);
  await gitRun(project, ["-c", "user.name=u", "-c", "user.email=u@x", "commit", "-qm", "app"]);
  const head = await git(project, "rev-parse", "HEAD");
  for (const given of [".", "src"]) {
    const refused = await runCli(["init", given], { env, cwd: project });
    assertEquals(refused.code, 2, show(refused));
    assertMatch(
      refused.stderr,
      /is a project's git repo \(it holds package\.json\), not a knowledge base/,
    );
    assertMatch(refused.stderr, / init <clone-url>; to make this repo one all the same: /);
    assertEquals(await git(project, "rev-parse", "HEAD"), head, "nothing committed");
    assertEquals(await exists(join(project, "entries")), false);
    assertEquals(await exists(join(sandbox.config, "git-kb", "config.json")), false, "no config");
  }
  const refused = await runCli(["init", "."], { env, cwd: project });
  const line = refused.stderr.match(/to make this repo one all the same: (.*)$/m)?.[1] ?? "";
  const pasted = await runProcess("sh", ["-c", line], { env: childEnv(env), cwd: project });
  assertEquals(pasted.code, 0, `${line}\n${pasted.stdout}${pasted.stderr}`);
  assert(await exists(join(project, "entries")));
});

Deno.test("init --dir naming a file says so, with no system error, and makes nothing", async () => {
  await using sandbox = await makeSandbox();
  const env = pastingEnv(sandbox);
  const file = join(sandbox.root, "notes.txt");
  await Deno.writeTextFile(file, "x\n");
  const remote = join(sandbox.root, "remote.git");
  await git(sandbox.root, "init", "--quiet", "--bare", remote);
  for (const args of [["init", "--dir", file], ["init", remote, "--dir", file]]) {
    const refused = await runCli(args, { env });
    assertEquals(refused.code, 1, show(refused));
    assertEquals(
      refused.stderr,
      `git-kb init: ${file} already exists and is a file; pass ${
        args.length === 3 ? "an empty or new folder" : "--dir <new folder>"
      }\n`,
    );
    assertEquals(await exists(join(sandbox.config, "git-kb", "config.json")), false);
  }
});
