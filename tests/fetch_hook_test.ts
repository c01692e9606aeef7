/**
 * The fetch hook as Claude Code runs it: the real launcher (a copy of plugin/bin at a path of
 * quotes, spaces, `$(…)` and backticks) with the hook's permission profile, payloads on stdin, a
 * cleared environment. The fetch line the prompt hook prints is allowed, and runs in sh and bash
 * as exactly the words the hook checked; hostile variants of it get no decision; every failure
 * is silent with exit 0.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import { relative } from "@std/path/posix/relative";
import { ALLOW_REASON } from "../hooks/fetch_allow.ts";
import { shellQuote } from "../core/shell/quote.ts";
import { runProcess } from "../io/process.ts";
import {
  copyDir,
  exists,
  FIXTURE,
  git,
  makeSandbox,
  realLauncherIn,
  ROOT,
  show,
} from "./helpers.ts";

/** A folder name a shell would run something in, were it not quoted. */
const HOSTILE_FOLDER = "o'brien's $(touch PWNED) `touch PWNED` plugins";

/** A sandbox with plugin/bin copied under a hostile folder, and the launcher's environment. */
async function setUp() {
  const sandbox = await makeSandbox("git-kb-fetch-hook-");
  const launcher = await realLauncherIn(join(sandbox.root, HOSTILE_FOLDER, "bin"));
  const env: Record<string, string> = {
    PATH: Deno.env.get("PATH") ?? "",
    HOME: sandbox.home,
    TMPDIR: sandbox.tmp,
    KB_DIR: FIXTURE,
    NO_COLOR: "1",
  };
  // The session's folder: the plugin is installed elsewhere, as Claude Code installs it.
  const project = join(sandbox.root, "project");
  await Deno.mkdir(project);
  const hook = async (
    verb: string,
    stdin: string,
    extra: Record<string, string> = {},
    cwd = project,
  ) => {
    const result = await runProcess(launcher, ["hook", verb], {
      env: { ...env, ...extra },
      clearEnv: true,
      cwd,
      stdin,
    });
    assertEquals(result.code, 0, show(result));
    assertEquals(result.stderr, "", show(result));
    return result.stdout.trim();
  };
  const pwned = () =>
    [sandbox.root, join(sandbox.root, HOSTILE_FOLDER)].some((dir) =>
      [...Deno.readDirSync(dir)].some((item) => item.name === "PWNED")
    );
  return { ...sandbox, launcher, env, project, hook, pwned };
}

/** A Bash PreToolUse payload running `command`, in the session folder `cwd`. */
function bash(command: unknown, cwd?: string): string {
  return JSON.stringify({
    session_id: "s-1",
    cwd,
    hook_event_name: "PreToolUse",
    permission_mode: "default",
    tool_name: "Bash",
    tool_input: { command, description: "fetch" },
    tool_use_id: "toolu_1",
  });
}

/** The fetch line of the prompt hook's answer to the fixture prompt that matches. */
async function printedFetch(setup: Awaited<ReturnType<typeof setUp>>): Promise<string> {
  const prompt = await Deno.readTextFile(join(ROOT, "fixtures", "hooks", "prompt-match.json"));
  const context: string = JSON.parse(await setup.hook("prompt", prompt)).hookSpecificOutput
    .additionalContext;
  const line = context.split("\n").find((text) => text.startsWith("Fetch full text: "));
  assert(line, context);
  return line.slice("Fetch full text: ".length);
}

const ALLOW = JSON.stringify({
  hookSpecificOutput: {
    hookEventName: "PreToolUse",
    permissionDecision: "allow",
    permissionDecisionReason: ALLOW_REASON,
  },
});

Deno.test("fetch hook: the printed fetch line is allowed, and runs as printed", async () => {
  await using setup = await setUp();
  const fetch = await printedFetch(setup);
  assert(fetch.startsWith(`${shellQuote(setup.launcher)} get kb-7q2mx`), fetch);
  assertEquals(await setup.hook("fetch", bash(fetch)), ALLOW);
  const ran = await runProcess("sh", ["-c", fetch], {
    env: setup.env,
    clearEnv: true,
    cwd: setup.root,
  });
  assertEquals(ran.code, 0, show(ran));
  assertMatch(ran.stdout, /^id: kb-7q2mx$/m);
  assert(!setup.pwned(), "the allowed line ran nothing else");
});

Deno.test("fetch hook: hostile variants of the printed line get no decision", async () => {
  await using setup = await setUp();
  const fetch = await printedFetch(setup);
  const get = fetch.replace(/ --kb .*$/, "");
  const twin = join(setup.root, "twin", "bin", "git-kb");
  const hostile = [
    `${fetch}; touch PWNED`,
    `${fetch} && touch PWNED`,
    `${fetch} | sh`,
    `${fetch}\ntouch PWNED`,
    `${fetch} > ~/.bashrc`,
    `${get} kb-c0mw8 $(touch PWNED)`,
    `${get} \`touch PWNED\``,
    `${get} --kb /etc`,
    `${get} --kb ${shellQuote(setup.root)}`,
    `KB_DIR=/etc ${get}`,
    fetch.replace(shellQuote(setup.launcher), shellQuote(twin)),
    fetch.replace(" get ", " rm "),
    fetch.replace(" get ", " search "),
  ];
  for (const command of hostile) {
    assertEquals(await setup.hook("fetch", bash(command)), "", command);
  }
  // The printed line itself, asked to run outside the client's sandbox or with a field the hook
  // does not know (which may change what runs).
  for (const extra of [{ dangerouslyDisableSandbox: true }, { env: { GIT_DIR: setup.root } }]) {
    const payload = JSON.parse(bash(fetch));
    Object.assign(payload.tool_input, extra);
    assertEquals(await setup.hook("fetch", JSON.stringify(payload)), "", JSON.stringify(extra));
  }
  assert(!setup.pwned(), "deciding ran nothing");
});

Deno.test("fetch hook: nothing is free when the launcher lies in the session's folder, which the agent may edit", async () => {
  await using setup = await setUp();
  const fetch = await printedFetch(setup);
  assertEquals(await setup.hook("fetch", bash(fetch, setup.project)), ALLOW);
  // The plugin run in place from a checkout the session works in: an edit of its bundle needs no
  // Bash approval, and the allowed fetch would then run it.
  const plugin = join(setup.root, HOSTILE_FOLDER);
  const linked = join(setup.project, "linked");
  await Deno.symlink(plugin, linked);
  for (const cwd of [plugin, join(plugin, "bin"), setup.root, linked]) {
    assertEquals(await setup.hook("fetch", bash(fetch, cwd)), "", `payload cwd ${cwd}`);
  }
  // The hook's own folder (the project, as Claude Code starts it) counts too.
  assertEquals(await setup.hook("fetch", bash(fetch), {}, plugin), "", "hook started there");
  assertEquals(await setup.hook("fetch", bash(fetch, setup.project), {}, setup.root), "");
});

Deno.test("a free fetch of an id the knowledge base lacks runs no program its git config names", async () => {
  await using setup = await setUp();
  // A knowledge base whose git config the agent could have edited (it lies in the session's
  // folder, say): git runs core.fsmonitor for `ls-files`, which get asks on a miss.
  const kb = join(setup.root, "kb");
  await copyDir(FIXTURE, kb);
  await git(kb, "init", "--quiet", "-b", "main");
  await git(kb, "add", "-A");
  await git(kb, "commit", "--quiet", "-m", "sample");
  const pwned = join(setup.root, "FSMONITOR-RAN");
  const monitor = join(setup.root, "monitor.sh");
  await Deno.writeTextFile(monitor, `#!/bin/sh\ntouch ${shellQuote(pwned)}\n`, { mode: 0o755 });
  await git(kb, "config", "core.fsmonitor", monitor);
  const line = `${shellQuote(setup.launcher)} get kb-zzzzz --kb ${shellQuote(kb)}`;
  const env = { ...setup.env, KB_DIR: kb };
  assertEquals(await setup.hook("fetch", bash(line, setup.project), { KB_DIR: kb }), ALLOW);
  const ran = await runProcess("sh", ["-c", line], { env, clearEnv: true, cwd: setup.project });
  assertEquals(ran.code, 1, show(ran));
  assertMatch(ran.stderr, /no entry kb-zzzzz/);
  assert(!(await exists(pwned)), "get ran the knowledge base's core.fsmonitor");
});

Deno.test("fetch hook: a relative KB_DIR makes no fetch free; a config's relative folder is read from the config's own folder", async () => {
  await using setup = await setUp();
  const launcher = shellQuote(setup.launcher);
  // KB_DIR is read from the current folder: the hook's, `get`'s from the shell's, which may have
  // moved to a folder whose `kb` is someone else's.
  for (const dir of ["kb", "./kb"]) {
    const line = `${launcher} get kb-7q2mx`;
    assertEquals(await setup.hook("fetch", bash(line), { KB_DIR: dir }), "", `KB_DIR=${dir}`);
  }
  // A config's relative folder is read from the config file's folder, wherever the command runs,
  // so the hook and `get` read the same knowledge base.
  const config = join(setup.home, ".config", "git-kb");
  await Deno.mkdir(config, { recursive: true });
  await Deno.writeTextFile(
    join(config, "config.json"),
    JSON.stringify({ kbs: [{ name: "personal", dir: relative(config, FIXTURE) }] }),
  );
  const line = `${launcher} get kb-7q2mx`;
  assertEquals(await setup.hook("fetch", bash(line), { KB_DIR: "" }), ALLOW);
  assertEquals(await setup.hook("fetch", bash(`${line} --kb kb`), { KB_DIR: "" }), "");
  for (const cwd of [setup.root, setup.home]) {
    const ran = await runProcess("sh", ["-c", line], {
      env: { ...setup.env, KB_DIR: "" },
      clearEnv: true,
      cwd,
    });
    assertEquals(ran.code, 0, show(ran));
    assertMatch(ran.stdout, /^id: kb-7q2mx$/m, `run from ${cwd}`);
  }
});

Deno.test("fetch hook: sh and bash read an allowed line as exactly the words it checked", async () => {
  await using setup = await setUp();
  const kb = shellQuote(FIXTURE);
  const lines: [string, string[]][] = [
    [`${shellQuote(setup.launcher)} get kb-7q2mx kb-c0mw8 --kb ${kb}`, [
      "get",
      "kb-7q2mx",
      "kb-c0mw8",
      "--kb",
      FIXTURE,
    ]],
    [`'${setup.launcher.replaceAll("'", `'\\''`)}'  get\tkb-7q2mx,kb-c0mw8 --json`, [
      "get",
      "kb-7q2mx,kb-c0mw8",
      "--json",
    ]],
    [`${shellQuote(setup.launcher)} get team:kb-7q2mx "--kb=${FIXTURE}" --links`, [
      "get",
      "team:kb-7q2mx",
      `--kb=${FIXTURE}`,
      "--links",
    ]],
  ];
  for (const [line] of lines) assertEquals(await setup.hook("fetch", bash(line)), ALLOW, line);
  // A stand-in for the launcher, at its path, that prints its arguments one per line.
  await Deno.writeTextFile(setup.launcher, '#!/bin/sh\nprintf "<%s>\\n" "$@"\n');
  for (const [line, words] of lines) {
    for (const shell of ["sh", "bash"]) {
      const ran = await runProcess(shell, ["-c", line], { env: setup.env, clearEnv: true });
      assertEquals(ran.stdout, words.map((word) => `<${word}>\n`).join(""), `${shell}: ${line}`);
    }
  }
  assert(!setup.pwned());
});

Deno.test("fetch hook: fails open, silently, exit 0", async () => {
  await using setup = await setUp();
  const fetch = await printedFetch(setup);
  const cases: [string, string, Record<string, string>][] = [
    ["no knowledge base configured", bash(fetch), { KB_DIR: "" }],
    ["a launcher of several words", bash(fetch), { KB_CLI: "deno run -A main.ts" }],
    ["another tool", JSON.stringify({ tool_name: "Read", tool_input: { command: fetch } }), {}],
    ["no command", JSON.stringify({ tool_name: "Bash", tool_input: {} }), {}],
    ["a command that is not text", bash(["get", "kb-7q2mx"]), {}],
    ["no tool input", JSON.stringify({ tool_name: "Bash", tool_input: null }), {}],
    ["not JSON", "{", {}],
    ["not an object", "[]", {}],
    ["empty", "", {}],
    ["too large", bash(`${fetch}${" ".repeat(70_000)}`), {}],
  ];
  for (const [what, stdin, extra] of cases) {
    assertEquals(await setup.hook("fetch", stdin, extra), "", what);
  }
});
