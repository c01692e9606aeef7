/**
 * `git-kb doctor` through real subprocesses: it sees every file the index sees (and those it
 * does not read), counts right, names a stand-in git identity, never blocks on a FIFO, and every
 * fix it prints works when pasted into sh.
 */
import {
  assert,
  assertEquals,
  assertMatch,
  assertNotMatch,
  assertStrictEquals,
  assertStringIncludes,
} from "@std/assert";
import { dirname } from "@std/path/posix/dirname";
import { join } from "@std/path/posix/join";
import { relative } from "@std/path/posix/relative";
import type { Finding } from "../core/setup/finding.ts";
import { INDEX_VERSION } from "../core/index/format.ts";
import { flagsFor } from "../app/permissions.ts";
import { shellQuote } from "../core/shell/quote.ts";
import { runProcess } from "../io/process.ts";
import { withLock } from "../io/save/lock.ts";
import {
  cacheRootOf,
  childEnv,
  cloneRemote,
  denoDir,
  entryPath,
  entryText,
  git,
  IDENTITY,
  lockFolder,
  MAIN,
  makeKb,
  makeSandbox,
  parseJson,
  pushEntryFrom,
  realLauncherIn,
  ROOT,
  runCli,
  sandboxEnv,
  show,
  writeEntryFile,
} from "./helpers.ts";

async function doctor(env: Record<string, string>): Promise<Finding[]> {
  const result = await runCli(["doctor", "--offline", "--json"], { env });
  assert(result.code === 0 || result.code === 1, show(result));
  return parseJson<Finding[]>(result);
}

/** Doctor's warnings about agent settings, run through `launcher` as a user runs it. */
async function agentWarningsThrough(
  launcher: string,
  env: Record<string, string>,
): Promise<Finding[]> {
  const result = await runProcess(launcher, ["doctor", "--offline", "--json"], {
    env,
    clearEnv: true,
  });
  assert(result.code === 0 || result.code === 1, show(result));
  return parseJson<Finding[]>(result).filter((item) => item.check === "agent");
}

/** The command after "fix: " in a finding's message. */
function fixOf(finding: Finding | undefined): string {
  const at = finding?.message.indexOf("; fix: ") ?? -1;
  assert(finding && at > 0, `no fix in ${JSON.stringify(finding)}`);
  return finding.message.slice(at + "; fix: ".length);
}

Deno.test("doctor on a folder that does not exist: one failure, naming it and how to make it", async () => {
  await using sandbox = await makeSandbox();
  const missing = join(sandbox.root, "no such kb");
  const result = await runCli(["doctor", "--offline", "--kb", missing, "--json"], {
    env: sandboxEnv(sandbox),
  });
  assertEquals(result.code, 1, show(result));
  const failures = parseJson<Finding[]>(result).filter((item) => item.level === "error");
  assertEquals(failures.map((item) => item.check), ["git"], JSON.stringify(failures));
  assertEquals(fixOf(failures[0]), `git-kb init --dir ${shellQuote(missing)}`);
});

Deno.test("doctor lists every file the index left out, with its reason and a fix", async () => {
  await using kb = await makeKb();
  const entries = join(kb.dir, "entries");
  await Deno.writeTextFile(
    join(entries, "kb-bad01-broken.md"),
    "---\nid: kb-bad01\ntitle: [x\n---\nx\n",
  );
  await Deno.writeTextFile(
    join(entries, "kb-bad02-no-ending"),
    entryText({ id: "kb-bad02", title: "No ending", body: "x\n" }),
  );
  const [index, findings, text] = await Promise.all([
    runCli(["index", "--json"], { env: kb.env }),
    doctor(kb.env),
    runCli(["doctor", "--offline"], { env: kb.env }),
  ]);
  const skipped = parseJson<{ invalid: { path: string }[] }>(index).invalid.map((file) =>
    file.path
  );
  assertEquals(skipped.sort(), ["entries/kb-bad01-broken.md", "entries/kb-bad02-no-ending"]);
  for (const path of skipped) {
    const finding = findings.find((item) => item.message.startsWith(`${path} is left out`));
    assertStrictEquals(finding?.level, "error", `${path} in ${JSON.stringify(findings, null, 1)}`);
    fixOf(finding);
  }
  assertMatch(
    findings.find((item) => item.message.startsWith("entries/kb-bad01-broken.md"))!.message,
    /not valid YAML/,
  );
  assertEquals(text.code, 1, show(text));
  assertMatch(text.stdout, /^FAIL entries: 2 of 47 files under entries\/ left out of the index/m);
  assertMatch(text.stdout, /^ok {3}index: .*: 45 entries/m);
});

Deno.test("hand-written entries are served with their repairs; doctor --fix rewrites them in one commit", async () => {
  await using kb = await makeKb();
  const entries = join(kb.dir, "entries");
  await Deno.writeTextFile(
    join(entries, "kb-han01-no-updated.md"),
    "---\nid: kb-han01\ntitle: Grafana: add a panel\ntype: Howto\ntags: [null, 42]\n" +
      "created: 2024-03-01 10:00\n---\nClick add.\n",
  );
  await Deno.writeTextFile(
    join(entries, "misnamed.md"),
    "---\nid: kb-han02\n---\n# Misnamed note\n\nx\n",
  );
  await Deno.mkdir(join(entries, "sub"));
  await Deno.writeTextFile(
    join(entries, "sub", "kb-sub01-nested.md"),
    entryText({ id: "kb-sub01", title: "Nested", body: "x\n" }),
  );
  await git(kb.dir, "add", "-A");
  await git(kb.dir, "commit", "--quiet", "-m", "hand-written entries");
  const index = parseJson<{ docCount: number; invalid: unknown[] }>(
    await runCli(["index", "--json"], { env: kb.env }),
  );
  assertEquals([index.docCount, index.invalid.length], [48, 0], "every entry is served");
  const get = await runCli(["get", "kb-han01"], { env: kb.env });
  assertEquals(get.code, 0, show(get));
  const found = await runCli(["search", "grafana panel", "--json"], { env: kb.env });
  assertMatch(found.stdout, /kb-han01/);
  const findings = await doctor(kb.env);
  const warned = (path: string) =>
    findings.find((item) => item.level === "warn" && item.message.startsWith(`${path}: `));
  assertMatch(warned("entries/kb-han01-no-updated.md")?.message ?? "", /updated is missing/);
  assertMatch(
    warned("entries/misnamed.md")?.message ?? "",
    /(: |; )file name does not start with kb-han02- \(as kb-han02-<slug>\.md\)/,
  );
  assertEquals(warned("entries/sub/kb-sub01-nested.md"), undefined);
  assertEquals(findings.some((item) => item.level === "error"), false, JSON.stringify(findings));
  const forgiving = findings.find((item) => item.message.includes("served as read forgivingly"));
  assertEquals(fixOf(forgiving), `git-kb doctor --fix --kb ${shellQuote(kb.dir)}`);

  const edited = await runCli(["edit", "kb-sub01", "--add-tag", "x"], { env: kb.env });
  assertEquals(edited.code, 0, show(edited));
  const head = await git(kb.dir, "rev-parse", "HEAD");
  const dry = await runCli(["doctor", "--fix"], { env: kb.env });
  assertEquals(dry.code, 0, show(dry));
  assertMatch(dry.stdout, /^\+ title: 'Grafana: add a panel'$/m);
  assertMatch(dry.stdout, /^entries\/misnamed\.md → entries\/kb-han02-misnamed-note\.md$/m);
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), head, "--fix alone writes nothing");
  const write = `git-kb doctor --fix --write --kb ${shellQuote(kb.dir)}`;
  assert(dry.stdout.includes(`\n  ${write}\n`), show(dry));

  const wrote = await runCli(["doctor", "--fix", "--write"], { env: kb.env });
  assertEquals(wrote.code, 0, show(wrote));
  assertEquals(await git(kb.dir, "rev-parse", "HEAD~1"), head, "one commit");
  const fixed = await Deno.readTextFile(join(entries, "kb-han01-no-updated.md"));
  assertMatch(fixed, /^type: howto$/m);
  assertMatch(fixed, /^updated: 2024-03-01$/m);
  assertMatch(fixed, /^tags: \[.null., .42.\]$/m);
  const after = await doctor(kb.env);
  const problems = after.filter((item) => item.level !== "ok" && item.check !== "remote");
  assertEquals(problems, [], "nothing left to repair, nothing uncommitted");
});

Deno.test("doctor --fix with no rewrite to make does not say every entry follows the contract", async () => {
  await using kb = await makeKb();
  // An id that is not one: left out of the index, which no rewrite of --fix can mend.
  await Deno.writeTextFile(
    join(kb.dir, "entries", "notes.md"),
    "---\nid: odd\ntitle: Notes\n---\nx\n",
  );
  await git(kb.dir, "add", "-A");
  await git(kb.dir, "commit", "--quiet", "-m", "hand-written");
  assertEquals((await runCli(["doctor", "--offline"], { env: kb.env })).code, 1);
  const fix = await runCli(["doctor", "--fix"], { env: kb.env });
  assertEquals(fix.code, 0, show(fix));
  assertNotMatch(fix.stdout, /Every entry is written to the contract/);
  assertStringIncludes(fix.stdout, `git-kb doctor --kb ${shellQuote(kb.dir)}`);
});

Deno.test("doctor's fix for a link to an entry deleted since takes the link out, pasted", async () => {
  await using kb = await makeKb();
  await writeEntryFile(kb.dir, {
    id: "kb-dng01",
    title: "Dangling",
    body: "x\n",
    extra: "links:\n  - { rel: related, to: kb-g0ne1 }\n",
  });
  await git(kb.dir, "add", "-A");
  await git(kb.dir, "commit", "--quiet", "-m", "what rm --force leaves");
  const failed = (await doctor(kb.env)).find((item) =>
    item.level === "error" && item.message.includes("kb-g0ne1 does not exist")
  );
  const fix = fixOf(failed);
  assertEquals(fix, `git-kb edit kb-dng01 --remove-link kb-g0ne1 --kb ${shellQuote(kb.dir)}`);
  const edited = await runCli(["edit", "kb-dng01", "--remove-link", "kb-g0ne1", "--kb", kb.dir], {
    env: kb.env,
  });
  assertEquals(edited.code, 0, show(edited));
  assertEquals((await doctor(kb.env)).filter((item) => item.level === "error"), []);
});

Deno.test("edit of an entry with a repairable problem writes it repaired", async () => {
  await using kb = await makeKb();
  const path = join(kb.dir, "entries", "kb-han03-hand.md");
  await Deno.writeTextFile(path, "---\nid: kb-han03\ntitle: Hand: written\ntype: Note\n---\nx\n");
  await git(kb.dir, "add", "-A");
  await git(kb.dir, "commit", "--quiet", "-m", "hand-written");
  const edited = await runCli(["edit", "kb-han03", "--add-tag", "ops"], { env: kb.env });
  assertEquals(edited.code, 0, show(edited));
  const text = await Deno.readTextFile(path);
  assertMatch(text, /^title: 'Hand: written'$/m);
  assertMatch(text, /^type: note$/m);
  assertMatch(text, /^tags: \[ops\]$/m);
  assertMatch(text, /^updated: \d{4}-\d{2}-\d{2}$/m);
});

Deno.test("doctor counts one entry as one entry", async () => {
  await using kb = await makeKb({ empty: true });
  await Deno.writeTextFile(
    join(kb.dir, "entries", "kb-one01-only.md"),
    entryText({ id: "kb-one01", title: "Only", body: "x\n" }),
  );
  await git(kb.dir, "add", "-A");
  await git(kb.dir, "commit", "-qm", "one");
  const result = await runCli(["doctor", "--offline"], { env: kb.env });
  assertEquals(result.code, 0, show(result));
  assertMatch(result.stdout, /entries: 1 indexed entry follows the contract/);
  assertMatch(result.stdout, /index: .*: 1 entry\b/);
  assertMatch(result.stdout, /kernel: 0 kernel rules/);
  assertNotMatch(result.stdout, /\b1 entries|\(s\)/);
});

Deno.test("doctor names git-kb's stand-in identity when git has none", async () => {
  await using kb = await makeKb();
  const anonymous = Object.fromEntries(
    Object.entries(kb.env).filter(([key]) => !(key in IDENTITY)),
  );
  const [without, withIdentity] = await Promise.all([doctor(anonymous), doctor(kb.env)]);
  const warning = without.find((finding) => finding.check === "identity");
  assertStrictEquals(warning?.level, "warn", JSON.stringify(without, null, 1));
  assertMatch(warning!.message, /commits would be made as git-kb <git-kb@localhost>/);
  assertMatch(fixOf(warning), /^git config --global user\.name 'Your Name' && /);
  const fine = withIdentity.find((finding) => finding.check === "identity");
  assertStrictEquals(fine?.level, "ok");
  assertMatch(fine!.message, /Test Author <author@example\.test>/);
});

/** `git-kb doctor --offline --json` with `env`, ended after a minute should it block. */
async function doctorWithin(env: Record<string, string>): Promise<Finding[]> {
  const result = await runProcess(
    Deno.execPath(),
    ["run", ...flagsFor("doctor", cacheRootOf(env)), MAIN, "doctor", "--offline", "--json"],
    {
      cwd: ROOT,
      clearEnv: true,
      env: {
        PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
        DENO_DIR: await denoDir(),
        ...childEnv(env),
      },
      timeoutMs: 60_000,
    },
  );
  return parseJson<Finding[]>(result);
}

Deno.test("doctor never opens a FIFO among the entries, and names it", async () => {
  await using kb = await makeKb();
  const fifo = join(kb.dir, "entries", "kb-fifo1-pipe.md");
  await runProcess("mkfifo", [fifo]);
  const findings = await doctorWithin(kb.env);
  const named = findings.find((item) => item.message.startsWith("entries/kb-fifo1-pipe.md"));
  assertMatch(named?.message ?? "", /is a FIFO/, JSON.stringify(findings, null, 1));
});

Deno.test("doctor warns when Claude Code's git-kb hooks run a launcher that is gone, and its fix repoints them", async () => {
  await using kb = await makeKb();
  const launcher = await realLauncherIn(join(kb.root, "o'brien's tools", "plugin", "bin"));
  const gone = join(kb.root, "old clone", "plugin", "bin", "git-kb");
  const settingsFile = join(kb.env.HOME, ".claude", "settings.json");
  await Deno.mkdir(dirname(settingsFile), { recursive: true });
  const hook = (verb: string) => ({ type: "command", command: `"${gone}" hook ${verb}` });
  await Deno.writeTextFile(
    settingsFile,
    JSON.stringify({
      model: "opus",
      hooks: {
        UserPromptSubmit: [{ hooks: [hook("prompt")] }],
        PreToolUse: [{ matcher: "Write", hooks: [hook("judge")] }],
        // As setup writes the session hook: through exec.
        SessionStart: [{
          hooks: [{ ...hook("session"), command: `exec ${hook("session").command}` }],
        }],
      },
    }),
  );
  // Through the launcher, as a user runs it: it names itself in the commands it prints.
  const env = { ...childEnv(kb.env), PATH: Deno.env.get("PATH") ?? "" };
  const agentWarnings = () => agentWarningsThrough(launcher, env);
  const [warning, ...more] = await agentWarnings();
  assertEquals(more, []);
  assertEquals(warning.level, "warn");
  assertStringIncludes(warning.message, `${settingsFile} runs git-kb's Claude Code hooks`);
  assertStringIncludes(
    warning.message,
    `(prompt, judge, session) through ${gone}, which is not there`,
  );
  assertEquals(fixOf(warning), `${shellQuote(launcher)} setup --agent claude`);
  const sh = await runProcess("/bin/sh", ["-c", fixOf(warning)], { env, clearEnv: true });
  assertEquals(sh.code, 0, `${fixOf(warning)}\n${sh.stdout}\n${sh.stderr}`);
  assertEquals(await agentWarnings(), []);
  const settings = JSON.parse(await Deno.readTextFile(settingsFile));
  assertEquals(settings.model, "opus");
  assertStringIncludes(JSON.stringify(settings.hooks), JSON.stringify(launcher).slice(1, -1));
});

Deno.test("doctor warns when the git-kb command of setup --path links to a launcher that is gone, and its fix relinks it", async () => {
  await using kb = await makeKb();
  const launcher = await realLauncherIn(join(kb.root, "o'brien's tools", "plugin", "bin"));
  const gone = join(kb.root, "old clone", "plugin", "bin", "git-kb");
  const link = join(kb.env.HOME, ".local", "bin", "git-kb");
  await Deno.mkdir(dirname(link), { recursive: true });
  await Deno.symlink(gone, link);
  const env = { ...childEnv(kb.env), PATH: Deno.env.get("PATH") ?? "" };
  const warnings = async () => {
    const result = await runProcess(launcher, ["doctor", "--offline", "--json"], {
      env,
      clearEnv: true,
    });
    assert(result.code === 0 || result.code === 1, show(result));
    return parseJson<Finding[]>(result).filter((item) => item.check === "command");
  };
  const [warning, ...more] = await warnings();
  assertEquals(more, []);
  assertEquals(warning?.level, "warn", JSON.stringify(warning));
  assertStringIncludes(warning.message, `${link} links to ${gone}, which is not there`);
  assertEquals(fixOf(warning), `${shellQuote(launcher)} setup --path`);
  const sh = await runProcess("/bin/sh", ["-c", fixOf(warning)], { env, clearEnv: true });
  assertEquals(sh.code, 0, `${fixOf(warning)}\n${show(sh)}`);
  assertEquals(await Deno.readLink(link), launcher);
  assertEquals(await warnings(), []);
  // A git-kb of the user's own there is not doctor's business.
  await Deno.remove(link);
  await Deno.symlink("/usr/local/lib/other-tool", link);
  assertEquals(await warnings(), []);
});

Deno.test("doctor names a knowledge base named by a relative folder; its fix writes the folder absolute", async () => {
  await using kb = await makeKb();
  const launcher = await realLauncherIn(join(kb.root, "o'brien's tools", "bin"));
  const env = { ...childEnv(kb.env), PATH: Deno.env.get("PATH") ?? "" };
  const configWarnings = async (extra: Record<string, string>, cwd: string) => {
    const result = await runProcess(launcher, ["doctor", "--offline", "--json"], {
      env: { ...env, ...extra },
      clearEnv: true,
      cwd,
    });
    assert(result.code === 0 || result.code === 1, show(result));
    const findings = parseJson<Finding[]>(result).filter((item) => item.check === "config");
    return { chosen: findings[0].message, warnings: findings.slice(1) };
  };
  // KB_DIR is read from the current folder, as a flag is.
  const fromEnv = await configWarnings({ KB_DIR: "kb" }, kb.root);
  assertEquals(fromEnv.warnings.length, 1, JSON.stringify(fromEnv));
  assertStringIncludes(fromEnv.warnings[0].message, "KB_DIR is a relative folder (kb)");
  assertEquals(fixOf(fromEnv.warnings[0]), `export KB_DIR=${shellQuote(kb.dir)}`);
  assertEquals((await configWarnings({ KB_DIR: kb.dir }, kb.root)).warnings, []);

  // A config file's relative folder is read from the config file's folder, wherever doctor runs.
  const folder = join(kb.env.XDG_CONFIG_HOME, "git-kb");
  const file = join(folder, "config.json");
  await Deno.mkdir(folder, { recursive: true });
  await Deno.writeTextFile(
    file,
    JSON.stringify({ kbs: [{ name: "personal", dir: relative(folder, kb.dir) }] }),
  );
  const noEnv = { KB_DIR: "" };
  const fromConfig = await configWarnings(noEnv, "/");
  assertEquals(fromConfig.chosen, `knowledge base ${kb.dir} (from ${file})`);
  assertEquals(fromConfig.warnings.length, 1, JSON.stringify(fromConfig));
  assertStringIncludes(
    fromConfig.warnings[0].message,
    "names the knowledge base personal by a relative folder",
  );
  assertEquals(
    fixOf(fromConfig.warnings[0]),
    `${shellQuote(launcher)} init ${shellQuote(kb.dir)} --name personal`,
  );
  const sh = await runProcess("/bin/sh", ["-c", fixOf(fromConfig.warnings[0])], {
    env: { ...env, ...noEnv },
    clearEnv: true,
    cwd: "/",
  });
  assertEquals(sh.code, 0, `${sh.stdout}\n${sh.stderr}`);
  assertEquals(JSON.parse(await Deno.readTextFile(file)).kbs, [{ name: "personal", dir: kb.dir }]);
  assertEquals((await configWarnings(noEnv, "/")).warnings, []);
});

Deno.test("doctor's fixes work when pasted into sh, whatever the folder is called", async () => {
  await using kb = await makeKb();
  const odd = join(kb.root, "o'brien's kb $(touch pwned)");
  await Deno.rename(kb.dir, odd);
  const env = { ...kb.env, KB_DIR: odd };
  await Deno.writeTextFile(
    join(odd, "entries", "kb-nam01-misnamed"),
    entryText({ id: "kb-nam01", title: "Misnamed", body: "x\n" }),
  );
  const before = await doctor(env);
  const misnamed = before.find((item) => item.message.startsWith("entries/kb-nam01-misnamed"));
  const sh = await runProcess("/bin/sh", ["-c", fixOf(misnamed)], { cwd: kb.root });
  assertEquals(sh.code, 0, `${fixOf(misnamed)}\n${sh.stderr}`);
  assert(!(await Deno.stat(join(kb.root, "pwned")).catch(() => undefined)));
  const after = await doctor(env);
  assert(
    !after.some((item) => item.message.includes("kb-nam01-misnamed is left out")),
    JSON.stringify(after, null, 1),
  );
  assert(
    after.some((item) => item.message === "46 indexed entries follow the contract"),
    "the renamed file is indexed now",
  );
});

Deno.test("a folder named like an entry file: doctor's fix, pasted, removes an empty one (a submodule's) and renames one with entries in it", async () => {
  await using kb = await makeKb();
  const entries = join(kb.dir, "entries");
  // An uninitialised submodule is checked out as an empty folder.
  await Deno.mkdir(join(entries, "kb-sub01-module.md"));
  await Deno.mkdir(join(entries, "kb-dir01-notes.md"));
  await Deno.writeTextFile(
    join(entries, "kb-dir01-notes.md", "kb-dir02-inside.md"),
    entryText({ id: "kb-dir02", title: "Kept in a folder", body: "x\n" }),
  );
  const before = await doctor(kb.env);
  for (const name of ["kb-sub01-module.md", "kb-dir01-notes.md"]) {
    const finding = before.find((item) => item.message.startsWith(`entries/${name} is left out`));
    const fix = fixOf(finding);
    const sh = await runProcess("/bin/sh", ["-c", fix], { cwd: kb.root });
    assertEquals(sh.code, 0, `${fix}\n${sh.stderr}`);
  }
  const after = await doctor(kb.env);
  assert(!after.some((item) => / is left out/.test(item.message)), JSON.stringify(after, null, 1));
  const got = await runCli(["get", "kb-dir02"], { env: kb.env });
  assertEquals(got.code, 0, show(got));
});

Deno.test("two files with one id, one named for no id: doctor's fix for each opens it to give it a new id, not a rename that keeps the clash", async () => {
  await using kb = await makeKb();
  const copy = join(kb.dir, "entries", "notes-copy.md");
  await Deno.copyFile(join(kb.dir, await entryPath(kb.dir, "kb-7q2mx")), copy);
  const found = await doctor(kb.env);
  const fix = fixOf(
    found.find((item) => item.message.startsWith("entries/notes-copy.md is left out")),
  );
  assertEquals(fix, `\${VISUAL:-\${EDITOR:-vi}} ${copy}`);
  // An editor that gives the copy an id of its own.
  const editor = join(kb.root, "new-id.sh");
  await Deno.writeTextFile(editor, `#!/bin/sh\nsed -i 's/^id: kb-7q2mx$/id: kb-c0py1/' "$1"\n`);
  await Deno.chmod(editor, 0o755);
  const sh = await runProcess("/bin/sh", ["-c", fix], { env: { EDITOR: editor } });
  assertEquals(sh.code, 0, `${fix}\n${sh.stderr}`);
  const after = await doctor(kb.env);
  assert(!after.some((item) => / is left out/.test(item.message)), JSON.stringify(after, null, 1));
});

Deno.test("notes written by hand into entries/ with no id: doctor's fix, pasted once, gives each an id and the contract's frontmatter, and doctor is clean", async () => {
  await using kb = await makeKb();
  const entries = join(kb.dir, "entries");
  await Deno.writeTextFile(
    join(entries, "curl-retries.md"),
    "# Retry curl on every error\n\nUse `curl --retry 5 --retry-all-errors`.\n",
  );
  await Deno.writeTextFile(
    join(entries, "pnpm.md"),
    "---\ntitle: Use pnpm\ntags: [js]\n---\nWe use pnpm, not npm.\n",
  );
  // An id that is not one: a new file name would not change what the frontmatter says.
  await Deno.writeTextFile(join(entries, "odd.md"), "---\nid: odd\ntitle: Odd\n---\nx\n");
  const before = await doctor(kb.env);
  const fixAll = `git-kb doctor --fix --kb ${kb.dir}`;
  const ids: string[] = [];
  for (const name of ["curl-retries.md", "pnpm.md"]) {
    const finding = before.find((item) => item.message.startsWith(`entries/${name} is left out`));
    assertEquals(fixOf(finding), fixAll, JSON.stringify(before, null, 1));
    ids.push(/doctor --fix gives it the id (kb-[0-9a-z]{5}); fix/.exec(finding!.message)![1]);
  }
  assertMatch(
    fixOf(before.find((item) => item.message.startsWith("entries/odd.md"))),
    /^\$\{VISUAL:-\$\{EDITOR:-vi\}\} \S+\/entries\/odd\.md$/,
  );
  // The fix shows the rewrite under the ids doctor named, then the line that writes it.
  const shown = await runCli(fixAll.split(" ").slice(1), { env: kb.env });
  assertEquals(shown.code, 0, show(shown));
  assertMatch(shown.stdout, new RegExp(`entries/curl-retries\\.md → entries/${ids[0]}-retry-curl`));
  assertMatch(shown.stdout, new RegExp(`entries/pnpm\\.md → entries/${ids[1]}-use-pnpm\\.md`));
  const write = shown.stdout.trimEnd().split("\n").pop()!.trim();
  const written = await runCli(write.split(" ").slice(1), { env: kb.env });
  assertEquals(written.code, 0, show(written));
  // One round: nothing is left to do for either note.
  const after = await doctor(kb.env);
  const left = after.filter((item) =>
    item.level !== "ok" && /curl-retries|pnpm|read forgivingly/.test(item.message)
  );
  assertEquals(left, [], JSON.stringify(after, null, 1));
  const found = await runCli(["search", "retry curl", "--json"], { env: kb.env });
  assertEquals(
    parseJson<{ id: string; title: string }[]>(found).map(({ id, title }) => `${id} ${title}`)[0],
    `${ids[0]} Retry curl on every error`,
  );
});

Deno.test("a copy of an entry set aside in entries/ is named as one: no fix commits it or makes it a second entry", async () => {
  await using kb = await makeKb();
  const entry = join(kb.dir, "entries", "kb-7q2mx-rotate-a-leaked-npm-or-cloudflare-token.md");
  const copy = `${entry}.mine`;
  await Deno.writeTextFile(copy, `${await Deno.readTextFile(entry)}My own step.\n`);
  await Deno.writeTextFile(entry, `${await Deno.readTextFile(entry)}A hand edit.\n`);
  const findings = await doctor(kb.env);
  const named = findings.find((item) =>
    item.message.startsWith(`${relative(kb.dir, copy)} is left`)
  );
  assertMatch(named?.message ?? "", /; it copies the entry kb-7q2mx \(a version set aside/);
  assertStrictEquals(fixOf(named), `diff -- ${shellQuote(entry)} ${shellQuote(copy)}`);

  // The commit doctor offers takes the hand edit, not the copy.
  const hand = findings.find((item) => item.check === "git" && /uncommitted/.test(item.message));
  assert(hand && !hand.message.includes(".mine"), JSON.stringify(findings, null, 1));
  const sh = await runProcess("/bin/sh", ["-c", fixOf(hand)], { cwd: kb.root, env: kb.env });
  assertEquals(sh.code, 0, `${fixOf(hand)}\n${sh.stderr}`);
  assertEquals(
    await git(kb.dir, "status", "--porcelain"),
    `?? ${relative(kb.dir, copy)}`,
    "the copy is still the user's, uncommitted",
  );
  assert((await doctor(kb.env)).every((item) => !/^id kb-7q2mx is used by/.test(item.message)));
});

Deno.test("a newline in a teammate's file name cannot fake a line of doctor's", async () => {
  await using kb = await makeKb();
  const name = "kb-nl001-x\nok   links: every link resolves\n.md";
  await Deno.writeTextFile(join(kb.dir, "entries", name), "---\nid: kb-nl001\n---\n");
  const result = await runCli(["doctor", "--offline"], { env: { ...kb.env, NO_COLOR: "1" } });
  const lines = result.stdout.split("\n").filter(Boolean);
  for (const line of lines) assertMatch(line, /^(ok {2}|warn|FAIL) /, show(result));
  // The commit it offers, pasted, still commits the file by its real name.
  const orphan = lines.find((line) => line.includes("not committed"));
  const commit = orphan?.slice(orphan.indexOf("commit them: ") + "commit them: ".length) ?? "";
  // Pasted on a machine whose git has an identity only through the environment, as in every test.
  const sh = await runProcess("/bin/sh", ["-c", commit], { cwd: kb.root, env: kb.env });
  assertEquals(sh.code, 0, `${commit}\n${sh.stderr}`);
  assertEquals(await git(kb.dir, "status", "--porcelain"), "");
  assertMatch(await git(kb.dir, "ls-files", "-z", "entries"), /kb-nl001-x\nok {3}links/);
});

Deno.test("a newline in the name of an entry read forgivingly fakes no line of doctor's or doctor --fix's", async () => {
  await using kb = await makeKb();
  const name = "kb-nl002-x\nok   links: every link resolves\n.md";
  // Served, with its dates read from the file: a repair doctor lists and --fix shows.
  await Deno.writeTextFile(join(kb.dir, "entries", name), "---\nid: kb-nl002\ntitle: X\n---\n");
  const env = { ...kb.env, NO_COLOR: "1" };
  const doctor = await runCli(["doctor", "--offline"], { env });
  assertMatch(
    doctor.stdout,
    /^warn entries: entries\/kb-nl002-x ok links: every link resolves \.md: .*updated is missing/m,
  );
  for (const line of doctor.stdout.split("\n").filter(Boolean)) {
    assertMatch(line, /^(ok {2}|warn|FAIL) /, show(doctor));
  }
  const fix = await runCli(["doctor", "--fix", "--offline"], { env });
  assertEquals(fix.code, 0, show(fix));
  const shown = fix.stdout.split("\n");
  assert(shown.includes("entries/kb-nl002-x ok links: every link resolves .md"), show(fix));
  assert(!shown.includes("ok   links: every link resolves"), show(fix));
});

Deno.test("doctor names a body's [[mention]] of an entry that is not there, and only that", async () => {
  await using kb = await makeKb();
  await writeEntryFile(kb.dir, {
    id: "kb-men01",
    title: "Mentions",
    body: "See [[kb-7q2mx]] and [[kb-gone0]], twice: [[kb-gone0]].\n",
  });
  const findings = await doctor(kb.env);
  const mentions = findings.filter((finding) => finding.message.includes("mentions [["));
  assertEquals(mentions.length, 1, JSON.stringify(findings, null, 1));
  assertEquals(mentions[0].level, "warn");
  assertMatch(
    mentions[0].message,
    /^entries\/kb-men01-mentions\.md: its body mentions \[\[kb-gone0\]\], which no entry has; fix: /,
  );
});

Deno.test("doctor notices a damaged index and two files with one id", async () => {
  await using kb = await makeKb();
  const index = parseJson<{ indexDir: string }>(
    await runCli(["index", "--json"], { env: kb.env }),
  );
  await Deno.writeTextFile(join(index.indexDir, "ids.json"), "");
  const shadow = join(kb.dir, "entries", "kb-7q2mx-a-shadow.md");
  await Deno.writeTextFile(
    shadow,
    entryText({ id: "kb-7q2mx", title: "A shadow", body: "Not the real one.\n" }),
  );
  const findings = await doctor(kb.env);
  const said = (pattern: RegExp) => findings.find((item) => pattern.test(item.message));
  assertStrictEquals(
    said(/damaged .*rebuilt it/)?.level,
    "warn",
    JSON.stringify(findings, null, 1),
  );
  assertStrictEquals(said(/^id kb-7q2mx is used by /)?.level, "error");
  assertMatch(said(/^id kb-7q2mx is used by /)!.message, /kb-7q2mx-a-shadow\.md/);
});

Deno.test("doctor gives up on a remote that never answers, and says so", async () => {
  await using kb = await makeKb({ remote: true });
  await git(kb.dir, "config", "protocol.ext.allow", "always");
  await git(kb.dir, "remote", "set-url", "origin", "ext::sleep 60");
  const started = Date.now();
  const result = await runCli(["doctor", "--json"], { env: kb.env });
  const findings = parseJson<Finding[]>(result);
  assert(Date.now() - started < 30_000, "doctor waited for the remote");
  const remote = findings.find((item) => item.check === "remote" && item.level === "error");
  assertMatch(remote?.message ?? "", /origin did not answer: git fetch .* did not finish/);
  assertMatch(remote!.message, /git-kb doctor --offline --kb /);
});

Deno.test("doctor does not offer to commit hand edits while a merge is under way", async () => {
  await using kb = await makeKb();
  const file = join(kb.dir, "entries", "kb-zz001-clash.md");
  const write = async (body: string) => {
    await Deno.writeTextFile(file, entryText({ id: "kb-zz001", title: "Clash", body }));
    await git(kb.dir, "add", "-A");
    await git(kb.dir, "commit", "--quiet", "-m", body);
  };
  await write("Base.\n");
  await git(kb.dir, "checkout", "--quiet", "-b", "other");
  await write("Theirs.\n");
  await git(kb.dir, "checkout", "--quiet", "main");
  await write("Ours.\n");
  await git(kb.dir, "merge", "other").catch(() => undefined);
  const findings = await doctor(kb.env);
  const dirty = findings.find((item) => /uncommitted change/.test(item.message));
  assertMatch(dirty?.message ?? "", /finish the git operation first$/, JSON.stringify(findings));
  assert(!findings.some((item) => /commit -m 'kb: commit hand edits'/.test(item.message)));
  assert(
    findings.some((item) => item.level === "error" && /middle of a merge/.test(item.message)),
  );
});

Deno.test("doctor does not call entry files committed beside its warning about a hand edit", async () => {
  await using kb = await makeKb();
  const file = join(kb.dir, await entryPath(kb.dir, "kb-7q2mx"));
  await Deno.writeTextFile(file, (await Deno.readTextFile(file)) + "\nTyped by hand.\n");
  const findings = await doctor(kb.env);
  const messages = findings.map(({ level, message }) => `${level} ${message}`);
  const edited = messages.filter((line) => /^warn 1 uncommitted change under entries\//.test(line));
  assertEquals(edited.length, 1, messages.join("\n"));
  assert(
    !messages.some((line) => line.startsWith("ok ") && /\bcommitted\b/.test(line)),
    messages.join("\n"),
  );
  assert(messages.includes("ok no entry file waits for its first commit"), messages.join("\n"));
});

Deno.test("doctor offers no sync while a merge is under way, which the sync would refuse", async () => {
  await using kb = await makeKb({ remote: true });
  const other = await cloneRemote(kb);
  const path = await entryPath(kb.dir, "kb-7q2mx");
  const retitle = async (dir: string, title: string) => {
    const file = join(dir, path);
    await Deno.writeTextFile(
      file,
      (await Deno.readTextFile(file)).replace(/^title: .*$/m, `title: ${title}`),
    );
    await git(dir, "commit", "--quiet", "-am", title);
  };
  await retitle(other, "Theirs");
  await git(other, "push", "--quiet", "origin", "HEAD:main");
  await retitle(kb.dir, "Ours");
  await git(kb.dir, "fetch", "--quiet", "origin");
  await git(kb.dir, "merge", "origin/main").catch(() => undefined);
  const findings = await doctor(kb.env);
  const remote = findings.find((item) => item.check === "remote" && /diverged/.test(item.message));
  assertMatch(remote?.message ?? "", /; sync once the git check's error is fixed: /);
  assertNotMatch(remote!.message, /; fix: /);
  const sync = await runCli(["sync"], { env: kb.env });
  assertEquals(sync.code, 1, `the sync is refused mid-merge: ${show(sync)}`);
});

Deno.test("doctor names a planted link in the cache, and its pasted fix clears it", async () => {
  await using kb = await makeKb();
  const index = parseJson<{ indexDir: string }>(
    await runCli(["index", "--json"], { env: kb.env }),
  );
  const cacheDir = dirname(index.indexDir);
  const victim = join(kb.root, "victim");
  await Deno.mkdir(victim);
  await Deno.writeTextFile(join(victim, "keep"), "x");
  const sessions = join(cacheDir, "sessions");
  await Deno.remove(sessions, { recursive: true }).catch(() => {});
  await Deno.symlink(victim, sessions);
  const result = await runCli(["doctor", "--offline", "--json"], { env: kb.env });
  assertEquals(result.code, 1, show(result));
  const cache = parseJson<Finding[]>(result).filter((item) => item.check === "cache");
  assertEquals(cache.length, 1, JSON.stringify(cache, null, 1));
  assertEquals(cache[0].level, "error");
  assert(cache[0].message.startsWith(`${sessions} is a symbolic link (to ${victim})`));
  assertEquals(fixOf(cache[0]), `rm ${shellQuote(sessions)}`);
  const sh = await runProcess("/bin/sh", ["-c", fixOf(cache[0])], { cwd: kb.root });
  assertEquals(sh.code, 0, sh.stderr);
  assertEquals([...Deno.readDirSync(victim)].map((item) => item.name), ["keep"]);
  const after = (await doctor(kb.env)).filter((item) => item.check === "cache");
  assertEquals(after.map((item) => item.level), ["ok"], JSON.stringify(after));
});

Deno.test("doctor fetches before it says behind, diverged or ahead, and says when its figures are old", async () => {
  await using kb = await makeKb({ remote: true });
  const other = await cloneRemote(kb);
  const remote = async (...flags: string[]) => {
    const result = await runCli(["doctor", "--json", ...flags], { env: kb.env });
    return parseJson<Finding[]>(result).filter((item) => item.check === "remote");
  };
  const distance = async (...flags: string[]) => (await remote(...flags)).at(-1)!;
  const commitHere = async (id: string) => {
    await Deno.writeTextFile(
      join(kb.dir, "entries", `${id}-here.md`),
      entryText({ id, title: "Here", body: "x\n" }),
    );
    await git(kb.dir, "add", "-A");
    await git(kb.dir, "commit", "--quiet", "-m", `kb: add ${id}`);
  };
  const sync = shellQuote(kb.dir);
  assertEquals(await remote(), [
    { level: "ok", check: "remote", message: "origin is reachable; fetched origin/main" },
    { level: "ok", check: "remote", message: "in step with origin/main" },
  ]);

  await pushEntryFrom(other, "kb-far01", "Pushed elsewhere");
  assertEquals(await distance(), {
    level: "warn",
    check: "remote",
    message: `1 commit of origin/main not pulled; fix: git-kb sync --kb ${sync}`,
  });

  await commitHere("kb-loc01");
  assertEquals(
    (await distance()).message,
    `diverged from origin/main: 1 commit not pushed, 1 commit not pulled; fix: git-kb sync --kb ${sync}`,
  );

  const synced = await runCli(["sync"], { env: kb.env });
  assertEquals(synced.code, 0, show(synced));
  await commitHere("kb-loc02");
  assertEquals(
    (await distance()).message,
    `1 commit not pushed to origin/main; fix: git-kb sync --kb ${sync}`,
  );

  await git(other, "pull", "--quiet", "--rebase");
  await pushEntryFrom(other, "kb-far02", "Pushed while this one is offline");
  const offline = await distance("--offline");
  assertMatch(
    offline.message,
    /^1 commit not pushed to origin\/main \(as of the last fetch, \d{4}-\d\d-\d\d \d\d:\d\d UTC: --offline skips it\); fix: /,
  );
  await git(kb.dir, "remote", "set-url", "origin", join(kb.root, "gone.git"));
  const [reach, old] = await remote();
  assertEquals(reach.level, "error");
  assertMatch(reach.message, /^origin is not reachable: /);
  // The next step: its address, and the line that points origin at the repository's new one.
  const setUrl = `git -C ${shellQuote(kb.dir)} remote set-url origin <url>`;
  assert(reach.message.endsWith(`; fix: ${setUrl}`), reach.message);
  const moved = join(kb.root, "moved.git");
  await Deno.rename(kb.remote!, moved);
  const pasted = await runProcess("/bin/sh", ["-c", setUrl.replace("<url>", shellQuote(moved))]);
  assertEquals(pasted.code, 0, show(pasted));
  assertEquals((await remote())[0].level, "ok");
  assertMatch(
    old.message,
    /^1 commit not pushed to origin\/main \(as of the last fetch, .* UTC: this fetch failed\)/,
  );
});

Deno.test("doctor --offline on a clone never fetched since says so in one plain parenthesis", async () => {
  await using kb = await makeKb({ remote: true });
  const findings = await doctor(kb.env);
  const distance = findings.find((finding) => finding.message.startsWith("in step with"));
  assertEquals(
    distance?.message,
    "in step with origin/main (as of the clone, with no fetch since: --offline skips it)",
    JSON.stringify(findings, null, 1),
  );
});

Deno.test("doctor does not fetch under a save or sync that holds the lock, and says so", async () => {
  await using kb = await makeKb({ remote: true });
  const remote = await withLock(join(kb.dir, ".git", "git-kb.lock"), async () => {
    const result = await runCli(["doctor", "--json"], { env: kb.env });
    return parseJson<Finding[]>(result).filter((item) => item.check === "remote");
  });
  assertEquals(remote[0].level, "warn", JSON.stringify(remote));
  assertMatch(remote[0].message, /^origin was not fetched: a save or sync under way holds/);
  assertMatch(remote[1].message, /^in step with origin\/main \(as of /);
});

Deno.test("doctor's fix for a knowledge base with no remote adds one to it, pasted anywhere, and pushes", async () => {
  await using kb = await makeKb();
  const env = { ...kb.env, KB_CLI: `deno run -A ${shellQuote(MAIN)}` };
  const noRemote = (await doctor(env)).find((item) => item.message.startsWith("NO_REMOTE"));
  const remote = join(kb.root, "later.git");
  await git(kb.root, "init", "--quiet", "--bare", remote);
  const fix = fixOf(noRemote).replace("<url>", shellQuote(remote));
  const pasted = await runProcess("/bin/sh", ["-c", fix], { cwd: kb.root, env: childEnv(env) });
  assertEquals(pasted.code, 0, `${fix}\n${pasted.stderr}`);
  assert((await git(remote, "for-each-ref")).includes(await git(kb.dir, "rev-parse", "HEAD")));
  assert(!(await doctor(env)).some((item) => item.message.startsWith("NO_REMOTE")));
});

/** Index the knowledge base of `env`; the path of its index's manifest. */
async function indexedManifest(env: Record<string, string>): Promise<string> {
  assertEquals((await runCli(["index"], { env })).code, 0);
  const root = cacheRootOf(env);
  const cache = [...Deno.readDirSync(root)].find((folder) => folder.name.startsWith("kb-"));
  return join(root, cache!.name, "index", "manifest.json");
}

/** Whether doctor reported the index's manifest unusable. */
function unusable(findings: Finding[]): boolean {
  return findings.some((item) => item.message.startsWith("the index's manifest was unusable"));
}

Deno.test("doctor says when the index's manifest was unusable, and only then", async () => {
  await using kb = await makeKb();
  const manifest = await indexedManifest(kb.env);
  // A manifest of this version with its fields gone is damage, reported and rebuilt.
  await Deno.writeTextFile(manifest, JSON.stringify({ version: INDEX_VERSION }));
  assertEquals(unusable(await doctor(kb.env)), true);
  // The rebuilt one, read twice as the check reads it, is not.
  assertEquals(unusable(await doctor(kb.env)), false);
});

Deno.test("doctor never opens a manifest that is a FIFO or a link to a device: it is unusable", async () => {
  await using kb = await makeKb();
  const manifest = await indexedManifest(kb.env);
  const plants = [
    () => runProcess("mkfifo", [manifest]),
    () => Deno.symlink("/dev/zero", manifest),
  ];
  for (const plant of plants) {
    await Deno.remove(manifest);
    await plant();
    const started = performance.now();
    const findings = await doctorWithin(kb.env);
    assert(performance.now() - started < 30_000, "doctor did not wait on the manifest");
    assert(unusable(findings), JSON.stringify(findings, null, 1));
    assert((await Deno.lstat(manifest)).isFile, "rebuilt as a regular file");
  }
});

Deno.test("doctor --kb on a knowledge base the config names beside the default warns of no other", async () => {
  await using kb = await makeKb({ empty: true });
  const other = join(kb.root, "other");
  await Deno.mkdir(join(kb.config, "git-kb"), { recursive: true });
  await Deno.writeTextFile(
    join(kb.config, "git-kb", "config.json"),
    JSON.stringify({
      kbs: [{ name: "personal", dir: other }, { name: "team", dir: kb.dir }],
      default: "personal",
    }),
  );
  const { KB_DIR: _, ...env } = kb.env;
  const configWarnings = async (dir: string) => {
    const result = await runCli(["doctor", "--offline", "--json", "--kb", dir], { env });
    return parseJson<Finding[]>(result).filter((item) =>
      item.check === "config" && item.level === "warn"
    );
  };
  assertEquals(await configWarnings(kb.dir), []);
  const elsewhere = await configWarnings(join(kb.root, "elsewhere"));
  assertEquals(elsewhere.length, 1, JSON.stringify(elsewhere));
  assertStringIncludes(elsewhere[0].message, `names another knowledge base: ${other}`);
});

Deno.test("doctor warns when Claude Code runs git-kb's hooks from settings and from the plugin, and its fix keeps one", async () => {
  await using kb = await makeKb();
  const launcher = await realLauncherIn(join(kb.root, "tools", "plugin", "bin"));
  const settingsFile = join(kb.env.HOME, ".claude", "settings.json");
  await Deno.mkdir(dirname(settingsFile), { recursive: true });
  const hook = { type: "command", command: `"${launcher}" hook prompt` };
  await Deno.writeTextFile(
    settingsFile,
    JSON.stringify({
      enabledPlugins: { "git-kb@git-kb": true, "other@git-kb": true },
      hooks: { UserPromptSubmit: [{ hooks: [hook] }] },
    }),
  );
  const env = { ...childEnv(kb.env), PATH: Deno.env.get("PATH") ?? "" };
  const agentWarnings = () => agentWarningsThrough(launcher, env);
  const [warning, ...more] = await agentWarnings();
  assertEquals(more, []);
  assertEquals(warning.level, "warn");
  assertStringIncludes(warning.message, `${settingsFile} holds git-kb's Claude Code hooks and`);
  assertStringIncludes(warning.message, "every hook runs twice");
  assertEquals(fixOf(warning), `${shellQuote(launcher)} setup --agent claude --remove`);
  const sh = await runProcess("/bin/sh", ["-c", fixOf(warning)], { env, clearEnv: true });
  assertEquals(sh.code, 0, `${fixOf(warning)}\n${sh.stdout}\n${sh.stderr}`);
  assertEquals(await agentWarnings(), [], "the plugin alone runs each hook once");
  const settings = JSON.parse(await Deno.readTextFile(settingsFile));
  assertEquals(settings.enabledPlugins["git-kb@git-kb"], true);
});

Deno.test("doctor never says an entry left out of the index is served as read forgivingly", async () => {
  await using kb = await makeKb({ empty: true });
  const write = (name: string, text: string) =>
    Deno.writeTextFile(join(kb.dir, "entries", name), text);
  await write("kb-one01-a.md", entryText({ id: "kb-one01", title: "A", body: "x\n" }));
  // Two files with one id, the second with no type: neither is served.
  await write("kb-two02-b.md", entryText({ id: "kb-two02", title: "B", body: "y\n" }));
  await write("kb-two02-c.md", "---\nid: kb-two02\ntitle: C\n---\nz\n");
  await git(kb.dir, "add", "-A");
  await git(kb.dir, "commit", "-qm", "three");
  const findings = await doctor(kb.env);
  const forgiving = findings.filter((item) => /read forgivingly/.test(item.message));
  assertEquals(forgiving.length, 1, JSON.stringify(findings, null, 1));
  assertStringIncludes(
    forgiving[0].message,
    "1 entry file is read forgivingly, not as written (1 of them left out of the index",
  );
  assertStrictEquals(
    findings.find((item) => /kb-two02-c\.md is left out of the index/.test(item.message))?.level,
    "error",
  );
});

Deno.test("doctor with a cache that takes no write: the cache fails, every check after it still reports, and the last line names them all", async () => {
  await using kb = await makeKb();
  const index = parseJson<{ indexDir: string }>(await runCli(["index", "--json"], { env: kb.env }));
  const cacheDir = dirname(index.indexDir);
  // An entry added since: the index must be written again, in a folder that takes no write now.
  await writeEntryFile(kb.dir, { id: "kb-qk0ka", title: "Quokka feeding", body: "Twice.\n" });
  const sealed = join(kb.root, "sealed-cache");
  await Deno.mkdir(sealed);
  const unlock = [await lockFolder(cacheDir), await lockFolder(sealed)];
  try {
    for (
      const [env, folder] of [[kb.env, cacheDir], [
        { ...kb.env, XDG_CACHE_HOME: sealed },
        join(sealed, "git-kb"),
      ]] as const
    ) {
      const result = await runCli(["doctor", "--offline"], { env });
      assertEquals(result.code, 1, show(result));
      const lines = result.stdout.trim().split("\n");
      const at = lines.findIndex((line) => line.startsWith("FAIL cache: "));
      assertStringIncludes(lines[at], `FAIL cache: cannot write git-kb's cache in ${folder} (`);
      assertMatch(lines[at], /export XDG_CACHE_HOME="\$\(mktemp -d\)"\) and run again\.$/);
      assertEquals(lines.slice(at + 1), [
        "FAIL index: not checked, for the reason given under cache above",
        "FAIL entries: not checked, for the reason given under cache above",
        "FAIL kernel: not checked, for the reason given under cache above",
        "FAIL doctor: failed: cache, index, entries, kernel; warned: git, remote; each is named " +
        "above with what to do",
      ]);
      const json = parseJson<Finding[]>(await runCli(["doctor", "--offline", "--json"], { env }));
      assertEquals(json.filter((item) => item.level === "error").map((item) => item.check), [
        "cache",
        "index",
        "entries",
        "kernel",
      ]);
    }
  } finally {
    for (const undo of unlock) await undo();
  }
  const healed = await runCli(["doctor", "--offline"], { env: kb.env });
  assertMatch(healed.stdout, /^ok {3}cache: the cache folders under .* are yours alone$/m);
  assertMatch(healed.stdout, /^ok {3}index: .*46 entries/m);
});
