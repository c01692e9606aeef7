/**
 * `git-kb setup` through the real CLI, run with the setup profile's permissions (read, write,
 * the listed env vars; no run, no net) against a temp HOME and a temp project: install, a
 * second run that changes nothing, other keys kept, backups, dry runs, removal, refusal of a
 * file it cannot parse, Codex and Gemini CLI files, and the AGENTS.md rule for Cursor/OpenCode.
 */
import {
  assert,
  assertEquals,
  assertMatch,
  assertNotEquals,
  assertNotMatch,
  assertStringIncludes,
} from "@std/assert";
import { join } from "@std/path/posix/join";
import { ENV_VARS, flagsFor } from "../app/permissions.ts";
import { runProcess } from "../io/process.ts";
import { SERVER_ENV_VARS } from "../core/setup/mcp_config.ts";
import pluginHooks from "../plugin/hooks/hooks.json" with { type: "json" };
import {
  FIXTURE,
  makeSandbox,
  parseJson,
  realLauncherIn,
  ROOT,
  runCli,
  type RunResult,
  show,
  STACK_FRAME,
} from "./helpers.ts";

/** The permissions `setup` runs with: it writes agent config files anywhere under HOME or cwd. */
const SETUP_FLAGS = [
  "--no-prompt",
  "--allow-read",
  "--allow-write",
  `--allow-env=${ENV_VARS.join(",")},PATH,SHELL`,
];

interface Hook {
  type: string;
  command: string;
  timeout?: number;
  name?: string;
  if?: string;
  async?: boolean;
}
interface Group {
  matcher?: string;
  hooks: Hook[];
}
type Settings = { hooks?: Record<string, Group[]> } & Record<string, unknown>;

/** A sandbox with a fake launcher (in a folder with a space) and a project folder. */
async function makeSetup() {
  const sandbox = await makeSandbox("git-kb-setup-");
  const launcher = join(sandbox.root, "kb tools", "plugin", "bin", "git-kb");
  const project = join(sandbox.root, "project");
  await Deno.mkdir(join(sandbox.root, "kb tools", "plugin", "bin"), { recursive: true });
  await Deno.mkdir(project);
  await Deno.writeTextFile(launcher, "#!/bin/sh\nexit 0\n", { mode: 0o755 });
  const env = { HOME: sandbox.home, TMPDIR: sandbox.tmp, NO_COLOR: "1", KB_CLI: launcher };
  const setup = (args: string[], options: { env?: Record<string, string>; cwd?: string } = {}) =>
    runCli(["setup", ...args], {
      env: options.env ?? env,
      cwd: options.cwd ?? project,
      flags: SETUP_FLAGS,
    });
  return { ...sandbox, launcher, project, env, setup };
}

function ok(result: RunResult): RunResult {
  assertEquals(result.code, 0, show(result));
  assertEquals(result.stderr, "", show(result));
  return result;
}

async function readJson(path: string): Promise<Settings> {
  return JSON.parse(await Deno.readTextFile(path));
}

async function exists(path: string): Promise<boolean> {
  return await Deno.lstat(path).then(() => true, () => false);
}

function commands(settings: Settings, event: string): string[] {
  return (settings.hooks?.[event] ?? []).flatMap((group) =>
    group.hooks.map((hook) => hook.command)
  );
}

/** The PreToolUse commands of the plugin's hooks.json, in its order, run through `launcher`. */
function preTool(launcher: string): string[] {
  return pluginHooks.hooks.PreToolUse.flatMap((group) =>
    group.hooks.map((hook) => hook.command.replace("${CLAUDE_PLUGIN_ROOT}/bin/git-kb", launcher))
  );
}

Deno.test("the setup profile: read, write, listed env vars, PATH and SHELL; no run, no net", () => {
  assertEquals(flagsFor("setup", "/c/git-kb"), SETUP_FLAGS);
});

Deno.test("claude: install, idempotent rerun, dry run, moved launcher, remove", async (t) => {
  await using s = await makeSetup();
  const file = join(s.home, ".claude", "settings.json");
  const prompt = `"${s.launcher}" hook prompt`;
  await t.step("--dry-run on a fresh HOME prints the diff and writes nothing", async () => {
    const result = ok(await s.setup(["--dry-run"]));
    assertMatch(result.stdout, /^--- \/dev\/null\n\+\+\+ .*settings\.json/m, show(result));
    assertMatch(result.stdout, /Dry run: nothing was written/);
    // What to do after the write is for once it is applied: no "Next:" to load what is not there.
    assertNotMatch(result.stdout, /^Next:/m);
    assertMatch(result.stdout, /^Once applied:\n {2}- Start a new Claude Code session/m);
    assert(!(await exists(join(s.home, ".claude"))), "nothing created");
  });

  await t.step("a fresh install writes every hook with the absolute launcher path", async () => {
    const result = ok(await s.setup([]));
    const settings = await readJson(file);
    assertEquals(commands(settings, "UserPromptSubmit"), [prompt]);
    assertEquals(commands(settings, "PreToolUse"), preTool(s.launcher));
    assertEquals(commands(settings, "PostToolUse"), [`"${s.launcher}" hook receipts`]);
    assertEquals(commands(settings, "SessionStart"), [
      `exec "${s.launcher}" hook session`,
      `exec "${s.launcher}" hook watch`,
      `"${s.launcher}" hook compact`,
    ]);
    assertEquals(
      settings.hooks!.SessionStart.map((group) => [group.matcher, group.hooks[0].async ?? false]),
      [["startup|resume", true], ["startup|resume|clear", true], ["startup|compact", false]],
      "the pull and the watch run in the background; the kernel rules and the welcome before " +
        "the session goes on",
    );
    for (const event of ["SessionEnd", "PreCompact"]) {
      assertEquals(commands(settings, event), [`"${s.launcher}" hook capture`], event);
    }
    assert(settings.hooks!.PreToolUse[0].matcher, "the judge keeps the plugin's matcher");
    assertEquals(settings.hooks!.PostToolUse[0].hooks[0].if, "Bash(*git-kb*)", "if is kept");
    assertEquals(
      settings.hooks!.PreToolUse.map((group) => group.hooks.map((hook) => hook.if ?? "")),
      pluginHooks.hooks.PreToolUse.map((group) =>
        group.hooks.map((hook) => ("if" in hook ? hook.if : "") as string)
      ),
      "each Bash handler keeps its if rule, in the plugin's groups",
    );
    assertEquals(settings.hooks!.UserPromptSubmit[0].hooks[0].timeout, 10);
    assertNotMatch(await Deno.readTextFile(file), /CLAUDE_PLUGIN_ROOT/);
    assertMatch(result.stdout, /^\+.*hook prompt/m);
    assertMatch(
      result.stdout,
      /Added the git-kb hooks \(UserPromptSubmit, PreToolUse, PostToolUse, SessionStart, SessionEnd, PreCompact\)/,
    );
    assert(!(await exists(`${file}.bak`)), "no backup of a file that did not exist");
  });

  await t.step("a second run changes nothing and says so", async () => {
    const before = await Deno.readTextFile(file);
    const result = ok(await s.setup([]));
    assertMatch(result.stdout, /up to date; nothing changed/);
    assertNotMatch(result.stdout, /^[-+]/m, "no diff");
    assertEquals(await Deno.readTextFile(file), before);
    assert(!(await exists(`${file}.bak`)));
  });

  await t.step("after the launcher moved, the entries are updated in place", async () => {
    const moved = join(s.root, "moved", "git-kb");
    await Deno.mkdir(join(s.root, "moved"));
    await Deno.copyFile(s.launcher, moved);
    const result = ok(await s.setup([], { env: { ...s.env, KB_CLI: moved } }));
    const settings = await readJson(file);
    assertEquals(commands(settings, "UserPromptSubmit"), [`"${moved}" hook prompt`]);
    assertEquals(commands(settings, "PreToolUse"), preTool(moved));
    assertMatch(result.stdout, /Updated the git-kb hooks/);
    assertMatch(result.stdout, /^-.*kb tools.*hook prompt/m);
    ok(await s.setup([]));
  });

  await t.step(
    "--remove takes ours out, keeps a backup, and a second --remove is a no-op",
    async () => {
      const settings = await readJson(file);
      settings.model = "opus";
      await Deno.writeTextFile(file, JSON.stringify(settings, null, 2));
      const installed = await Deno.readTextFile(file);
      const dry = ok(await s.setup(["--remove", "--dry-run"]));
      assertMatch(dry.stdout, /^-.*hook judge/m);
      assertEquals(await Deno.readTextFile(file), installed, "dry run wrote nothing");
      const result = ok(await s.setup(["--remove"]));
      assertEquals(await readJson(file), { model: "opus" });
      assertEquals(await Deno.readTextFile(`${file}.bak`), installed);
      assertMatch(result.stdout, /Removed the git-kb hooks/);
      assertMatch(ok(await s.setup(["--remove"])).stdout, /No git-kb hooks .*nothing changed/);
    },
  );
});

Deno.test("claude: other keys and hooks are kept, indentation and mode too", async () => {
  await using s = await makeSetup();
  const file = join(s.home, ".claude", "settings.json");
  const mine = { matcher: "Bash", hooks: [{ type: "command", command: "lint-bash", timeout: 5 }] };
  const original = {
    model: "opus",
    permissions: { allow: ["Bash(ls)"], deny: [] },
    hooks: {
      Stop: [{ hooks: [{ type: "command", command: "notify-done" }] }],
      PreToolUse: [mine],
    },
    env: { FOO: "bar" },
  };
  const text = JSON.stringify(original, null, 4) + "\n";
  await Deno.mkdir(join(s.home, ".claude"));
  await Deno.writeTextFile(file, text, { mode: 0o600 });
  await Deno.chmod(file, 0o600);
  ok(await s.setup([]));
  const settings = await readJson(file);
  assertEquals(Object.keys(settings), ["model", "permissions", "hooks", "env"]);
  assertEquals(settings.permissions, original.permissions);
  assertEquals(settings.env, original.env);
  assertEquals(settings.hooks!.Stop, original.hooks.Stop);
  assertEquals(settings.hooks!.PreToolUse[0], mine, "the user's group comes first, intact");
  assertEquals(commands(settings, "PreToolUse"), ["lint-bash", ...preTool(s.launcher)]);
  assertMatch(await Deno.readTextFile(file), /^ {4}"model"/m, "four-space indent kept");
  assertEquals(await Deno.readTextFile(`${file}.bak`), text, "backup is the previous file");
  if (Deno.build.os !== "windows") {
    assertEquals((await Deno.stat(file)).mode! & 0o777, 0o600, "mode kept");
  }
});

Deno.test("a switch that turns every hook off is pointed out, even when nothing changed", async () => {
  await using s = await makeSetup();
  await Deno.mkdir(join(s.home, ".claude"));
  await Deno.writeTextFile(join(s.home, ".claude", "settings.json"), '{"disableAllHooks": true}');
  const [first, second] = [ok(await s.setup([])), ok(await s.setup([]))];
  assertMatch(first.stdout, /disableAllHooks is true/);
  assertMatch(second.stdout, /nothing changed/);
  assertMatch(second.stdout, /disableAllHooks is true/);
  assertNotMatch(second.stdout, /Start a new/, "no reload advice when nothing changed");
});

Deno.test("claude: a symlinked settings file is written through, the link stays", async () => {
  await using s = await makeSetup();
  const real = join(s.root, "dotfiles", "claude-settings.json");
  const link = join(s.home, ".claude", "settings.json");
  await Deno.mkdir(join(s.root, "dotfiles"));
  await Deno.mkdir(join(s.home, ".claude"));
  await Deno.writeTextFile(real, '{"model": "opus"}\n');
  await Deno.symlink(real, link);
  ok(await s.setup([]));
  assert((await Deno.lstat(link)).isSymlink, "still a symlink");
  const settings = await readJson(real);
  assertEquals(settings.model, "opus");
  assertEquals(commands(settings, "UserPromptSubmit"), [`"${s.launcher}" hook prompt`]);
});

Deno.test("a file setup cannot parse or edit is left alone, exit 1, naming the file", async (t) => {
  await using s = await makeSetup();
  const file = join(s.home, ".claude", "settings.json");
  await Deno.mkdir(join(s.home, ".claude"));
  const cases: [string, string, RegExp][] = [
    ["a comment", '{\n  // mine\n  "model": "opus"\n}\n', /strict JSON/],
    ["a trailing comma", '{"model": "opus",}\n', /strict JSON/],
    ["hooks as a list", '{"hooks": []}\n', /"hooks" is a list/],
  ];
  for (const [name, text, reason] of cases) {
    await t.step(name, async () => {
      await Deno.writeTextFile(file, text);
      const result = await s.setup([]);
      assertEquals(result.code, 1, show(result));
      assertMatch(result.stderr, new RegExp(`${file.replaceAll("/", "\\/")}`), show(result));
      assertMatch(result.stderr, reason, show(result));
      assertMatch(result.stderr, /nothing was written/);
      assertMatch(result.stderr, /by hand/, "says how to add the entries by hand");
      assertNotMatch(result.stderr, STACK_FRAME);
      assertEquals(await Deno.readTextFile(file), text, "untouched");
      assert(!(await exists(`${file}.bak`)), "no backup either");
    });
  }
});

Deno.test("a settings file setup cannot parse: the line that runs the same setup again keeps its agent and scope", async () => {
  await using s = await makeSetup();
  const cases: [string[], string][] = [
    [["--agent", "gemini"], join(s.home, ".gemini", "settings.json")],
    [["--scope", "project"], join(s.project, ".claude", "settings.json")],
    [["--agent", "gemini", "--mcp", "--read-only"], join(s.home, ".gemini", "settings.json")],
  ];
  for (const [args, file] of cases) {
    await Deno.mkdir(join(file, ".."), { recursive: true });
    await Deno.writeTextFile(file, '{"model": "opus",}\n');
    const refused = await s.setup(args);
    assertEquals(refused.code, 1, show(refused));
    const again = refused.stderr.match(/run the same setup again: .*git-kb (setup .*)$/m)?.[1];
    const agent = args.includes("gemini") ? "gemini" : "claude";
    const rest = args.filter((word, at) => word !== "--agent" && args[at - 1] !== "--agent");
    assertEquals(again, ["setup", "--agent", agent, ...rest].join(" "), show(refused));
    // Fixed, the file takes the same setup, pasted: the file refused is the one written.
    await Deno.writeTextFile(file, '{"model": "opus"}\n');
    ok(await s.setup(again!.split(" ").slice(1)));
    assertNotEquals(await Deno.readTextFile(file), '{"model": "opus"}\n');
  }
});

Deno.test("claude --scope project writes .claude/settings.json under the current folder", async () => {
  await using s = await makeSetup();
  const result = ok(await s.setup(["--scope", "project", "--json"]));
  const report = parseJson<{ file: string; written: boolean; notes: string[] }>(result);
  const file = join(s.project, ".claude", "settings.json");
  assertEquals(report.file, file);
  assertEquals(report.written, true);
  assert(report.notes.some((note) => /shared repository/.test(note)), report.notes.join("\n"));
  // The line that takes them out again names this file's scope, not the home folder's.
  const twice = report.notes.find((note) => note.includes("plugin is installed as well"));
  const remove = `cd ${s.project} && '${s.launcher}' setup --agent claude --scope project --remove`;
  assertStringIncludes(twice ?? "", `(claude plugin uninstall git-kb, or ${remove}).`);
  assertEquals(commands(await readJson(file), "UserPromptSubmit"), [
    `"${s.launcher}" hook prompt`,
  ]);
  assert(!(await exists(join(s.home, ".claude"))), "HOME untouched");
});

Deno.test("claude: where the git-kb plugin is enabled, setup writes no hooks beside it and says why, naming what to run", async () => {
  await using s = await makeSetup();
  const file = join(s.home, ".claude", "settings.json");
  await Deno.mkdir(join(s.home, ".claude"), { recursive: true });
  const enabledText = '{"enabledPlugins": {"git-kb@git-kb": true}}\n';
  await Deno.writeTextFile(file, enabledText);
  const skipped = ok(await s.setup([]));
  assertStringIncludes(
    skipped.stdout,
    `The git-kb plugin is enabled in ${file} (enabledPlugins) and runs git-kb's hooks already: ` +
      `nothing was written to ${file}, where they would run a second time.`,
  );
  assertStringIncludes(skipped.stdout, "claude plugin uninstall git-kb, then run the same setup");
  assertEquals(await Deno.readTextFile(file), enabledText, "no hooks written beside the plugin");

  // Enabled in the home folder's settings: a project's settings get none either.
  const project = parseJson<{ file: string; written: boolean; action: string; plugin: string }>(
    ok(await s.setup(["--scope", "project", "--json"])),
  );
  assertEquals([project.written, project.action, project.plugin], [false, "none", file]);
  assert(!(await exists(join(s.project, ".claude"))), "the project's settings untouched");

  // Hooks there already (an earlier setup): named as running twice, with the line that takes them
  // out, which leaves the plugin enabled.
  await Deno.writeTextFile(file, '{"enabledPlugins": {"git-kb@git-kb": false}}\n');
  ok(await s.setup([]));
  const withHooks = JSON.parse(await Deno.readTextFile(file));
  withHooks.enabledPlugins["git-kb@git-kb"] = true;
  await Deno.writeTextFile(file, JSON.stringify(withHooks, null, 2));
  const twice = parseJson<{ notes: string[]; written: boolean }>(ok(await s.setup(["--json"])));
  assertEquals(twice.written, false);
  const remove = `'${s.launcher}' setup --agent claude --remove`;
  assert(
    twice.notes.some((note) =>
      note === `${file} holds git-kb's hooks already, so each runs twice; take them out: ${remove}`
    ),
    twice.notes.join("\n"),
  );
  ok(await s.setup(["--remove"]));
  assertEquals(commands(await readJson(file), "UserPromptSubmit"), []);
  assertEquals((await readJson(file) as Settings & { enabledPlugins: object }).enabledPlugins, {
    "git-kb@git-kb": true,
  });

  // Switched off, it may still be installed: the advice stays conditional.
  await Deno.writeTextFile(file, '{"enabledPlugins": {"git-kb@git-kb": false}}\n');
  const installed = parseJson<{ notes: string[] }>(ok(await s.setup(["--json"])));
  assert(
    installed.notes.some((note) => note.startsWith("If the git-kb plugin is installed as well")),
    installed.notes.join("\n"),
  );
});

Deno.test("codex: the prompt hook in ~/.codex/hooks.json, with the advice it needs", async () => {
  await using s = await makeSetup();
  const file = join(s.home, ".codex", "hooks.json");
  const result = ok(await s.setup(["--agent", "codex"]));
  const settings = await readJson(file);
  assertEquals(Object.keys(settings.hooks!), ["UserPromptSubmit"]);
  assertEquals(settings.hooks!.UserPromptSubmit, [{
    hooks: [{ type: "command", command: `"${s.launcher}" hook prompt`, timeout: 10 }],
  }]);
  assertMatch(result.stdout, /codex_hooks = true/);
  assertMatch(result.stdout, /\/hooks/);
  const report = parseJson<{ changed: boolean }>(await s.setup(["--agent", "codex", "--json"]));
  assertEquals(report.changed, false);
});

Deno.test("gemini: BeforeAgent in .gemini/settings.json, timeout in ms, other keys kept", async () => {
  await using s = await makeSetup();
  const file = join(s.project, ".gemini", "settings.json");
  await Deno.mkdir(join(s.project, ".gemini"));
  await Deno.writeTextFile(file, '{"theme": "dark", "hooksConfig": {"enabled": true}}\n');
  const result = ok(await s.setup(["--agent", "gemini", "--scope", "project"]));
  const settings = await readJson(file);
  assertEquals(settings.theme, "dark");
  assertEquals(settings.hooksConfig, { enabled: true });
  assertEquals(settings.hooks, {
    BeforeAgent: [{
      hooks: [{
        name: "git-kb-prompt",
        type: "command",
        command: `"${s.launcher}" hook prompt`,
        timeout: 10_000,
      }],
    }],
  });
  // Gemini CLI (0.61.0) runs no hook, the user's own included, in a folder not trusted.
  const trust = /Gemini CLI runs hooks, yours included, only in folders you trust .*\/permissions/;
  assertMatch(result.stdout, trust);
  assertMatch(ok(await s.setup(["--agent", "gemini"])).stdout, trust, "user scope too");
  ok(await s.setup(["--agent", "gemini", "--scope", "project", "--remove"]));
  assertEquals(await readJson(file), { theme: "dark", hooksConfig: { enabled: true } });
});

Deno.test("cursor and opencode: print the AGENTS.md rule, write nothing", async () => {
  await using s = await makeSetup();
  const [cursor, opencode, opencodeJson] = [
    ok(await s.setup(["--agent", "cursor", "--scope", "project"])),
    ok(await s.setup(["--agent", "opencode"])),
    parseJson<{ written: boolean; where: string; rule: string }>(
      ok(await s.setup(["--agent", "opencode", "--json"])),
    ),
  ];
  const context = `"${s.launcher}" context "<the task in a few words>"`;
  assert(cursor.stdout.includes(context), show(cursor));
  assert(cursor.stdout.includes(join(s.project, "AGENTS.md")), show(cursor));
  assertMatch(cursor.stdout, /nothing was written/);
  assert(opencode.stdout.includes(join(s.home, ".config", "opencode", "AGENTS.md")));
  assertEquals(opencodeJson.written, false);
  assert(opencodeJson.rule.includes(context));
  for (const dir of [s.home, s.project]) {
    assertEquals([...Deno.readDirSync(dir)], [], `${dir} stays empty`);
  }
});

Deno.test("usage errors exit 2; a missing launcher exits 1 and writes nothing", async () => {
  await using s = await makeSetup();
  const cases: [string[], RegExp][] = [
    [["--agent", "vim"], /--agent "vim".*claude, codex, gemini, cursor, opencode/],
    [["--scope", "global"], /--scope "global"/],
    [["claude"], /unexpected argument "claude"/],
  ];
  for (const [args, message] of cases) {
    const result = await s.setup(args);
    assertEquals(result.code, 2, show(result));
    assertMatch(result.stderr, message, show(result));
  }
  const missing = join(s.root, "nowhere", "git-kb");
  const result = await s.setup([], { env: { ...s.env, KB_CLI: missing } });
  assertEquals(result.code, 1, show(result));
  assert(result.stderr.includes(missing), show(result));
  assertMatch(result.stderr, /KB_CLI/);
  assert(!(await exists(join(s.home, ".claude"))));
});

Deno.test("without KB_CLI the launcher is this checkout's plugin/bin/git-kb", async () => {
  await using s = await makeSetup();
  const { KB_CLI: _, ...env } = s.env;
  const checkout = join(ROOT, "plugin", "bin", "git-kb");
  const result = await s.setup(["--dry-run", "--json"], { env });
  if (await exists(checkout)) {
    assertEquals(parseJson<{ launcher: string }>(ok(result)).launcher, checkout);
  } else {
    assertEquals(result.code, 1, show(result));
    assert(result.stderr.includes(checkout), show(result));
  }
});

Deno.test("setup through the real launcher from a path with a space, a quote and a backslash", async () => {
  await using s = await makeSetup();
  const launcher = await realLauncherIn(join(s.root, "kb tools", "o'brien\\plugins", "bin"));
  const env = { PATH: Deno.env.get("PATH") ?? "", HOME: s.home, NO_COLOR: "1" };
  const result = await runProcess(launcher, ["setup", "--json"], {
    env,
    clearEnv: true,
    cwd: s.project,
  });
  assertEquals(result.code, 0, show(result));
  assertEquals(parseJson<{ launcher: string }>(result).launcher, launcher, "no \\ turned into /");
  const settings = await readJson(join(s.home, ".claude", "settings.json"));
  const [prompt] = commands(settings, "UserPromptSubmit");
  assert(prompt.includes("o'brien\\\\plugins"), prompt);
  // The agent runs the command with sh: it must reach this launcher and answer.
  const hook = await runProcess("sh", ["-c", prompt], {
    env: { ...env, KB_DIR: FIXTURE },
    clearEnv: true,
    cwd: s.project,
    stdin: await Deno.readTextFile(join(ROOT, "fixtures", "hooks", "prompt-match.json")),
  });
  assertEquals(hook.code, 0, show(hook));
  assertMatch(hook.stdout, /kb-7q2mx/, show(hook));
});

Deno.test("KB_CLI as the launcher quotes it, or as a plain path, names the same launcher", async () => {
  await using s = await makeSetup();
  const quoted = `'${s.launcher.replaceAll("'", `'\\''`)}'`;
  for (const value of [quoted, s.launcher]) {
    const result = await s.setup(["--dry-run", "--json"], { env: { ...s.env, KB_CLI: value } });
    assertEquals(parseJson<{ launcher: string }>(ok(result)).launcher, s.launcher, value);
  }
});

Deno.test("setup --path in a fresh HOME: ~/.local/bin made, git-kb on PATH runs, undo line works", async () => {
  await using s = await makeSetup();
  const launcher = await realLauncherIn(join(s.root, "checkout", "plugin", "bin"));
  const userBin = join(s.home, ".local", "bin");
  const systemPath = Deno.env.get("PATH") ?? "";
  const env = { PATH: systemPath, HOME: s.home, NO_COLOR: "1", KB_DIR: FIXTURE };
  const run = (args: string[], path = systemPath) =>
    runProcess(launcher, args, { env: { ...env, PATH: path }, clearEnv: true, cwd: s.project });

  const first = await run(["setup", "--path"]);
  assertEquals(first.code, 0, show(first));
  assertEquals(await Deno.readLink(join(userBin, "git-kb")), launcher);
  assertMatch(first.stdout, /is not on your PATH yet/);
  assert(first.stdout.includes(`echo 'export PATH="$HOME/.local/bin:$PATH"' >> ~/.profile`));
  const undo = first.stdout.split("\n").find((line) => line.startsWith("To undo: "));
  assert(undo, show(first));

  const onPath = `${userBin}:${systemPath}`;
  const search = await runProcess("sh", ["-c", "git-kb search rotate token"], {
    env: { ...env, PATH: onPath },
    clearEnv: true,
    cwd: s.project,
  });
  assertEquals(search.code, 0, show(search));
  assertMatch(search.stdout, /kb-7q2mx/);
  const again = await run(["setup", "--path"], onPath);
  assertEquals(again.code, 0, show(again));
  assertMatch(again.stdout, /already runs this launcher; nothing changed/);
  assertMatch(again.stdout, /is on your PATH/);

  const removed = await runProcess("sh", ["-c", undo.slice("To undo: ".length)], {
    env,
    clearEnv: true,
    cwd: s.project,
  });
  assertEquals(removed.code, 0, show(removed));
  assertMatch(removed.stdout, /Removed/);
  assert(!await exists(join(userBin, "git-kb")));
  const twice = await run(["setup", "--path", "--remove"]);
  assertMatch(twice.stdout, /nothing changed/, show(twice));
});

Deno.test("setup --path for a bash user: the line it prints, pasted, puts git-kb on PATH in a new terminal", async () => {
  await using s = await makeSetup();
  const launcher = await realLauncherIn(join(s.root, "checkout", "plugin", "bin"));
  const env = { PATH: Deno.env.get("PATH") ?? "", HOME: s.home, NO_COLOR: "1", SHELL: "/bin/bash" };
  const linked = await runProcess(launcher, ["setup", "--path"], { env, clearEnv: true });
  assertEquals(linked.code, 0, show(linked));
  const line = linked.stdout.split("\n")[2].trim();
  assertEquals(line, `echo 'export PATH="$HOME/.local/bin:$PATH"' >> ~/.bashrc`);
  const pasted = await runProcess("sh", ["-c", line], { env, clearEnv: true });
  assertEquals(pasted.code, 0, show(pasted));
  // A new terminal's bash: interactive, not a login shell.
  const terminal = await runProcess("bash", ["-ic", "command -v git-kb"], { env, clearEnv: true });
  assertEquals(terminal.stdout.trim(), join(s.home, ".local", "bin", "git-kb"), show(terminal));
});

Deno.test("setup --path leaves alone a git-kb of the user's own, and a link elsewhere", async () => {
  await using s = await makeSetup();
  const userBin = join(s.home, ".local", "bin");
  await Deno.mkdir(userBin, { recursive: true });
  const own = join(userBin, "git-kb");
  await Deno.writeTextFile(own, "#!/bin/sh\necho mine\n");
  for (const args of [["--path"], ["--path", "--remove"]]) {
    const result = await s.setup(args);
    assertEquals(result.code, 1, show(result));
    assertMatch(result.stderr, /is not a link to a git-kb launcher, so setup leaves it alone/);
    assertEquals(await Deno.readTextFile(own), "#!/bin/sh\necho mine\n");
  }
  await Deno.remove(own);
  await Deno.symlink("/usr/local/lib/other-tool", own);
  const result = await s.setup(["--path"]);
  assertEquals(result.code, 1, show(result));
  assertMatch(result.stderr, /links to \/usr\/local\/lib\/other-tool, not to a git-kb launcher/);
  assertEquals(await Deno.readLink(own), "/usr/local/lib/other-tool");
});

Deno.test("setup --path from a checkout (deno task), refused by a git-kb of the user's own: the printed setup, pasted once it is moved, links with no git-kb on PATH", async () => {
  await using s = await makeSetup();
  const own = join(s.home, ".local", "bin", "git-kb");
  await Deno.mkdir(join(s.home, ".local", "bin"), { recursive: true });
  await Deno.writeTextFile(own, "#!/bin/sh\necho mine\n", { mode: 0o755 });
  // As `./deno task setup --path` runs it: no launcher in between, so no KB_CLI.
  const { KB_CLI: _none, ...env } = s.env;
  const refused = await s.setup(["--path"], { env });
  assertEquals(refused.code, 1, show(refused));
  const line = refused.stderr.match(/move it away, then run (.*) again$/m)?.[1];
  assert(line, show(refused));
  await Deno.rename(own, `${own}.mine`);
  const path = `${join(Deno.execPath(), "..")}:/usr/bin:/bin`;
  const pasted = await runProcess("sh", ["-c", line], {
    env: { HOME: s.home, PATH: path, NO_COLOR: "1" },
    clearEnv: true,
  });
  assertEquals(pasted.code, 0, `${line}\n${show(pasted)}`);
  assertEquals(await Deno.readLink(own), join(ROOT, "plugin", "bin", "git-kb"));
});

Deno.test("setup --path replaces a link to another launcher (a moved checkout), --dry-run writes nothing", async () => {
  await using s = await makeSetup();
  const userBin = join(s.home, ".local", "bin");
  await Deno.mkdir(userBin, { recursive: true });
  const link = join(userBin, "git-kb");
  await Deno.symlink("/old/checkout/plugin/bin/git-kb", link);
  const dry = ok(await s.setup(["--path", "--dry-run"]));
  assertMatch(dry.stdout, /Would link/);
  assertEquals(await Deno.readLink(link), "/old/checkout/plugin/bin/git-kb");
  const result = ok(await s.setup(["--path"]));
  assertMatch(result.stdout, /it ran another launcher before/);
  assertEquals(await Deno.readLink(link), s.launcher);
  assertEquals((await Array.fromAsync(Deno.readDir(userBin))).map((e) => e.name), ["git-kb"]);
});

Deno.test("setup --mcp: each agent's MCP config gets the server, other keys kept, backed up, twice is a no-op", async () => {
  await using s = await makeSetup();
  const other = { command: "docs-mcp", args: ["--port", "1"] };
  const jsonFiles = [
    { agent: "claude", path: join(s.home, ".claude.json"), extra: { type: "stdio" } },
    { agent: "cursor", path: join(s.home, ".cursor", "mcp.json"), extra: {} },
    {
      agent: "gemini",
      path: join(s.home, ".gemini", "settings.json"),
      // Gemini CLI passes a server the ssh agent only when its env names it.
      extra: { env: { SSH_AUTH_SOCK: "$SSH_AUTH_SOCK" } },
    },
  ];
  for (const { agent, path, extra } of jsonFiles) {
    await Deno.mkdir(join(path, ".."), { recursive: true });
    const original = JSON.stringify(
      { theme: "dark", projects: { "/p": { x: 1 } }, mcpServers: { docs: other } },
      null,
      4,
    );
    await Deno.writeTextFile(path, original);
    const first = ok(await s.setup(["--agent", agent, "--mcp"]));
    assertMatch(first.stdout, /Set the git-kb MCP server in /, agent);
    if (agent === "gemini") {
      assertMatch(first.stdout, /Gemini CLI starts MCP servers, yours included, only in folders/);
      assertMatch(first.stdout, /gemini mcp list, in a folder you trust/);
    }
    const written = await readJson(path);
    assertEquals(written, {
      theme: "dark",
      projects: { "/p": { x: 1 } },
      mcpServers: { docs: other, "git-kb": { ...extra, command: s.launcher, args: ["mcp"] } },
    }, agent);
    assertEquals(await Deno.readTextFile(`${path}.bak`), original, agent);
    assertMatch(await Deno.readTextFile(path), /^ {4}"theme"/m, `${agent}: indent kept`);
    const text = await Deno.readTextFile(path);
    const second = ok(await s.setup(["--agent", agent, "--mcp"]));
    assertMatch(second.stdout, /is up to date; nothing changed/, agent);
    assertEquals(await Deno.readTextFile(path), text, agent);
    assertEquals(await Deno.readTextFile(`${path}.bak`), original, `${agent}: backup kept`);
  }

  const toml = join(s.home, ".codex", "config.toml");
  await Deno.mkdir(join(toml, ".."));
  const codex = '# mine\nmodel = "o4" # keep\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n';
  await Deno.writeTextFile(toml, codex);
  const readOnly = ok(await s.setup(["--agent", "codex", "--mcp", "--read-only"]));
  assertMatch(readOnly.stdout, /it offers search, get and context \(read-only\)\.$/m);
  assertNotMatch(readOnly.stdout, /add and edit/);
  // Codex passes a server only the variables env_vars lists (and a few of its own).
  const table = `[mcp_servers.git-kb]\ncommand = ${
    JSON.stringify(s.launcher)
  }\nargs = ["mcp", "--read-only"]\nenv_vars = ${
    JSON.stringify(SERVER_ENV_VARS).replaceAll(",", ", ")
  }\n`;
  assertEquals(await Deno.readTextFile(toml), `${codex}\n${table}`);
  assertEquals(await Deno.readTextFile(`${toml}.bak`), codex);
  assertMatch(
    ok(await s.setup(["--agent", "codex", "--mcp", "--read-only"])).stdout,
    /up to date/,
  );
  assertEquals(await Deno.readTextFile(toml), `${codex}\n${table}`);
  ok(await s.setup(["--agent", "codex", "--mcp", "--remove"]));
  assertEquals(await Deno.readTextFile(toml), codex);
});

Deno.test("setup --mcp: Claude Code's project scope is .mcp.json; --remove keeps the rest; misuse is exit 2", async () => {
  await using s = await makeSetup();
  const result = ok(await s.setup(["--agent", "claude", "--mcp", "--scope", "project", "--json"]));
  const report = parseJson<{ file: string; written: boolean; backup: null }>(result);
  assertEquals(report.file, join(s.project, ".mcp.json"));
  assertEquals(report.written, true);
  assertEquals(report.backup, null);
  assertEquals(await readJson(join(s.project, ".mcp.json")), {
    mcpServers: { "git-kb": { type: "stdio", command: s.launcher, args: ["mcp"] } },
  });
  ok(await s.setup(["--agent", "claude", "--mcp", "--scope", "project", "--remove"]));
  assertEquals(await readJson(join(s.project, ".mcp.json")), {});
  for (
    const args of [["--agent", "opencode", "--mcp"], ["--agent", "cursor", "--read-only"]]
  ) {
    const misuse = await s.setup(args);
    assertEquals(misuse.code, 2, show(misuse));
    assertNotMatch(misuse.stderr, STACK_FRAME);
  }
  const broken = join(s.home, ".cursor", "mcp.json");
  await Deno.mkdir(join(broken, ".."), { recursive: true });
  await Deno.writeTextFile(broken, "{ not json");
  const refused = await s.setup(["--agent", "cursor", "--mcp"]);
  assertEquals(refused.code, 1, show(refused));
  assertMatch(refused.stderr, /cannot parse .*mcp\.json.*nothing was written/s);
  assertEquals(await Deno.readTextFile(broken), "{ not json");
});
