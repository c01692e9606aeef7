/**
 * The plugin launcher (`plugin/bin/git-kb`): each command and hook runs with exactly its
 * profile's flags (checked with a `deno` stand-in that records its argv), never `-A` or a bare
 * `--allow-run`; a compiled binary beside it wins; a missing Deno is one line, and a hook still
 * exits 0; and the real thing runs the committed bundle. The bundle is also checked for being
 * up to date with the sources and wholly committed, and the launcher and its template
 * (build/launcher.sh) with shellcheck when it is installed.
 */
import {
  assert,
  assertEquals,
  assertMatch,
  assertNotMatch,
  assertStringIncludes,
  assertThrows,
} from "@std/assert";
import { join } from "@std/path/posix/join";
import {
  COMMAND_PROFILES,
  EDITOR_COMMANDS,
  editorProgram,
  flagsFor,
  HOOK_PROFILES,
  HOOK_V8_FLAGS,
  hookFlags,
} from "../app/permissions.ts";
import { shellQuote } from "../core/shell/quote.ts";
import { editorBlank, MAX_EDITOR_BYTES } from "../core/shell/editor.ts";
import {
  COMPILE_TARGETS,
  HOT_HOOKS,
  hotHookBundle,
  OWN_BUNDLE_COMMANDS,
  SH_TEMPLATE,
  shLauncher,
} from "../build/plugin.ts";
import { runProcess } from "../io/process.ts";
import { childEnv, copyDir, FIXTURE, git, makeKb, makeSandbox, ROOT, show } from "./helpers.ts";

const BIN = join(ROOT, "plugin", "bin");
const LAUNCHER = join(BIN, "git-kb");

/**
 * A folder with a `deno` that prints its arguments one per line, and a copy of the launcher; `deno`
 * is the stand-in's path, which the launcher runs and grants (`--allow-run=…`) by that path.
 */
async function fakeDeno(
  root: string,
): Promise<{ path: string; launcher: string; deno: string }> {
  const fakes = join(root, "fakes");
  const bin = join(root, "plugin-bin");
  await Deno.mkdir(fakes);
  await Deno.mkdir(bin);
  await Deno.writeTextFile(join(fakes, "deno"), '#!/bin/sh\nprintf "%s\\n" "$@"\n', {
    mode: 0o755,
  });
  await Deno.copyFile(LAUNCHER, join(bin, "git-kb"));
  await Deno.chmod(join(bin, "git-kb"), 0o755);
  return {
    path: `${fakes}:/usr/bin:/bin`,
    launcher: join(bin, "git-kb"),
    deno: join(fakes, "deno"),
  };
}

/** `flags` with the `deno` of a run permission spelled as the launcher grants it: `deno`'s path. */
function denoAt(flags: string[], deno: string): string[] {
  return flags.map((flag) =>
    flag.startsWith("--allow-run=")
      ? `--allow-run=${
        flag.slice("--allow-run=".length).split(",").map((name) => name === "deno" ? deno : name)
          .join(",")
      }`
      : flag
  );
}

Deno.test("the launcher passes each command's and hook's profile flags, nothing wider", async () => {
  await using sandbox = await makeSandbox();
  const { path, launcher, deno } = await fakeDeno(sandbox.root);
  const env = { PATH: path, HOME: sandbox.home, TMPDIR: sandbox.tmp };
  const argvOf = async (args: string[], extra: Record<string, string> = {}) => {
    const result = await runProcess(launcher, args, {
      env: { ...env, ...extra },
      clearEnv: true,
    });
    assertEquals(result.code, 0, show(result));
    return result.stdout.trimEnd().split("\n");
  };
  const bundle = join(sandbox.root, "plugin-bin", "git-kb.js");
  const cacheRoot = join(sandbox.home, ".cache", "git-kb");
  for (const command of Object.keys(COMMAND_PROFILES)) {
    assertEquals(
      await argvOf([command, "x"]),
      [
        "run",
        "--quiet",
        "--no-prompt",
        "--no-config",
        ...denoAt(flagsFor(command, cacheRoot).slice(1), deno),
        bundle,
        command,
        "x",
      ],
      command,
    );
  }
  for (const hook of Object.keys(HOOK_PROFILES)) {
    const argv = await argvOf(["hook", hook]);
    const expected = hookFlags(hook, cacheRoot, { deno }).slice(1);
    const hookBundle = HOT_HOOKS[hook]
      ? join(sandbox.root, "plugin-bin", hotHookBundle(hook))
      : bundle;
    assertEquals(argv, [
      "run",
      "--quiet",
      "--no-prompt",
      "--no-config",
      ...HOOK_V8_FLAGS,
      ...expected,
      hookBundle,
      "hook",
      hook,
    ]);
  }
  const everything = [
    ...await argvOf(["hook", "prompt"]),
    ...await argvOf(["search", "a"]),
    ...await argvOf(["--help"]),
  ];
  assert(
    !everything.some((flag) => /^(-A|--allow-all|--allow-run|--allow-net.*)$/.test(flag)),
  );
  assert(!(await argvOf(["hook", "prompt"])).some((flag) => flag.startsWith("--allow-run")));

  const withEditor = await argvOf(["edit", "kb-1"], { EDITOR: "nano -w" });
  assert(withEditor.includes("--allow-run=git,kill,nano"), withEditor.join(" "));
  assert(
    (await argvOf(["search", "a"], { EDITOR: "nano" })).every((flag) =>
      !flag.startsWith("--allow-run")
    ),
  );
});

Deno.test("the launcher grants the editor's program as io/editor.ts reads it: sh's words, unevaluated", async () => {
  await using sandbox = await makeSandbox();
  const { path, launcher } = await fakeDeno(sandbox.root);
  const cases: [Record<string, string>, string][] = [
    [{ EDITOR: `"/opt/my ed/bin/ed" -w` }, "/opt/my ed/bin/ed"],
    [{ EDITOR: `'/opt/my ed/bin/ed'` }, "/opt/my ed/bin/ed"],
    [{ EDITOR: `/opt/my\\ ed/bin/ed -w` }, "/opt/my ed/bin/ed"],
    [{ EDITOR: ` \temacsclient -t -a ""\n` }, "emacsclient"],
    [{ EDITOR: `sed -i "s/, publish//"` }, "sed"],
    [{ EDITOR: `x"y z"'w v'\\ u rest` }, "xy zw v u"],
    [{ EDITOR: `"a\\"b\\\\c\\$d\\e\\\nf" x` }, `a"b\\c$d\\ef`],
    [{ EDITOR: "a\\\nb\tc" }, "ab"],
    [{ EDITOR: "'it''s' x" }, "its"],
    [{ VISUAL: " \t", EDITOR: "'my ed'" }, "my ed"],
  ];
  // /bin/sh as the launcher's first line runs it, and bash, which is /bin/sh on other systems.
  for (const shell of [[], ["bash"]]) {
    for (const [env, program] of cases) {
      const value = editorBlank(env.VISUAL) ? env.EDITOR : env.VISUAL;
      assertEquals(editorProgram(value), program, "io/editor.ts");
      const [command, ...args] = [...shell, launcher, "edit", "kb-1"];
      const result = await runProcess(command, args, {
        env: { PATH: path, HOME: sandbox.home, ...env },
        clearEnv: true,
      });
      assertEquals(result.code, 0, show(result));
      const grant = result.stdout.split("\n").find((line) => line.startsWith("--allow-run="));
      assertEquals(grant, `--allow-run=git,kill,${program}`, `${shell} ${JSON.stringify(env)}`);
    }
  }
});

Deno.test("a long $VISUAL or $EDITOR holds the launcher up for no time; one io/editor.ts refuses for its length is not granted", async () => {
  await using sandbox = await makeSandbox();
  const { path, launcher } = await fakeDeno(sandbox.root);
  const longest = "a".repeat(MAX_EDITOR_BYTES);
  const cases: [Record<string, string>, string | undefined][] = [
    // Each character of these cost the launcher a copy and a match of all the rest, or more.
    [{ EDITOR: longest }, longest],
    [{ EDITOR: `"${"a".repeat(MAX_EDITOR_BYTES - 2)}"` }, "a".repeat(MAX_EDITOR_BYTES - 2)],
    [{ EDITOR: "\\".repeat(MAX_EDITOR_BYTES / 2) }, "\\".repeat(MAX_EDITOR_BYTES / 4)],
    [{ VISUAL: " ".repeat(MAX_EDITOR_BYTES - 3) + "vim" }, "vim"],
    [{ VISUAL: " ".repeat(100_000), EDITOR: "vim" }, "vim"],
    [{ VISUAL: "a".repeat(100_000), EDITOR: "vim" }, undefined],
    [{ EDITOR: `vi ${"a".repeat(MAX_EDITOR_BYTES)}` }, undefined],
  ];
  for (const shell of [[], ["bash"]]) {
    for (const [env, program] of cases) {
      const value = editorBlank(env.VISUAL) ? env.EDITOR : env.VISUAL;
      assertEquals(editorProgram(value), program, "io/editor.ts");
      const [command, ...args] = [...shell, launcher, "edit", "kb-1"];
      const started = Date.now();
      const result = await runProcess(command, args, {
        env: { PATH: path, HOME: sandbox.home, ...env },
        clearEnv: true,
        timeoutMs: 20_000,
      });
      const took = Date.now() - started;
      assertEquals(result.code, 0, show(result));
      assert(took < 5_000, `${shell} took ${took} ms on ${JSON.stringify(env).slice(0, 80)}`);
      const grant = result.stdout.split("\n").find((line) => line.startsWith("--allow-run"));
      assertEquals(grant, `--allow-run=git,kill${program ? `,${program}` : ""}`, `${shell}`);
    }
  }
});

Deno.test("through the real launcher an EDITOR at a path with a space, with a quoted empty argument, runs", async () => {
  await using kb = await makeKb();
  const { launcher } = await pluginAt(kb.root, "plugin");
  const folder = join(kb.root, "my editors");
  await Deno.mkdir(folder);
  const seen = join(kb.root, "arguments");
  const editor = join(folder, "re title");
  await Deno.writeTextFile(
    editor,
    `#!/bin/sh\nprintf '[%s]\\n' "$@" > "${seen}"\nfor file; do :; done\n` +
      `sed -i "s/^title: .*/title: Retitled through the launcher/" "$file"\n`,
    { mode: 0o755 },
  );
  const env = childEnv({
    ...kb.env,
    PATH: Deno.env.get("PATH") ?? "",
    EDITOR: `"${editor}" -a ""`,
  });
  const edited = await runProcess(launcher, ["edit", "kb-7q2mx"], { env, clearEnv: true });
  assertEquals(edited.code, 0, show(edited));
  assertEquals((await Deno.readTextFile(seen)).split("\n").slice(0, 2), ["[-a]", "[]"]);
  assertMatch(await git(kb.dir, "log", "-1", "--format=%s"), /Retitled through the launcher/);

  const refused = await runProcess(launcher, ["edit", "kb-7q2mx"], {
    env: { ...env, EDITOR: `"${editor}" "$(date)"` },
    clearEnv: true,
  });
  assertEquals(refused.code, 2, show(refused));
  assertMatch(refused.stderr, /is not a command git-kb can run without a shell: it has a \$/);
});

Deno.test("options before the command: the launcher picks the command's profile, args unchanged", async () => {
  await using sandbox = await makeSandbox();
  const { path, launcher, deno } = await fakeDeno(sandbox.root);
  const argvOf = async (args: string[]) => {
    const result = await runProcess(launcher, args, {
      env: { PATH: path, HOME: sandbox.home, EDITOR: "nano" },
      clearEnv: true,
    });
    assertEquals(result.code, 0, show(result));
    return result.stdout.trimEnd().split("\n");
  };
  const cacheRoot = join(sandbox.home, ".cache", "git-kb");
  const bundle = join(sandbox.root, "plugin-bin", "git-kb.js");
  const flagsOf = (command: string) => {
    const flags = denoAt(flagsFor(command, cacheRoot).slice(1), deno);
    return EDITOR_COMMANDS.has(command)
      ? flags.map((flag) => flag === "--allow-run=git,kill" ? "--allow-run=git,kill,nano" : flag)
      : flags;
  };
  for (const command of Object.keys(COMMAND_PROFILES)) {
    for (
      const before of [
        ["--kb", "my kb"],
        ["--kb=my kb"],
        ["--kb", "add", "--kb=x"],
        ["--unknown", "-V", "--kb", "-h"],
      ]
    ) {
      const args = [...before, command, "--kb", "x y"];
      assertEquals(
        await argvOf(args),
        ["run", "--quiet", "--no-prompt", "--no-config", ...flagsOf(command), bundle, ...args],
        args.join(" "),
      );
    }
  }
  const readFlags = flagsFor("search", cacheRoot).slice(1);
  for (const args of [["--kb", "d", "hook", "prompt"], ["--kb", "d"], ["--kb"], ["--help"]]) {
    assertEquals(
      await argvOf(args),
      ["run", "--quiet", "--no-prompt", "--no-config", ...readFlags, bundle, ...args],
      `${args.join(" ")}: the read profile (main.ts runs no hook after an option)`,
    );
  }
});

Deno.test("--read-only narrows the profile of a command that has one (mcp), not after --", async () => {
  await using sandbox = await makeSandbox();
  const { path, launcher } = await fakeDeno(sandbox.root);
  const argvOf = async (args: string[]) => {
    const result = await runProcess(launcher, args, {
      env: { PATH: path, HOME: sandbox.home },
      clearEnv: true,
    });
    assertEquals(result.code, 0, show(result));
    return result.stdout.trimEnd().split("\n");
  };
  const cacheRoot = join(sandbox.home, ".cache", "git-kb");
  const bundle = join(sandbox.root, "plugin-bin", "git-kb.js");
  const expect = (args: string[], readOnly: boolean) => [
    "run",
    "--quiet",
    "--no-prompt",
    "--no-config",
    ...flagsFor("mcp", cacheRoot, undefined, readOnly).slice(1),
    bundle,
    ...args,
  ];
  for (const args of [["mcp", "--read-only"], ["--kb", "d", "mcp", "--kb", "e", "--read-only"]]) {
    assertEquals(await argvOf(args), expect(args, true), args.join(" "));
  }
  for (const args of [["mcp"], ["mcp", "--", "--read-only"], ["search", "--read-only"]]) {
    const command = args[0];
    const flags = flagsFor(command, cacheRoot).slice(1);
    assertEquals(
      await argvOf(args),
      ["run", "--quiet", "--no-prompt", "--no-config", ...flags, bundle, ...args],
      args.join(" "),
    );
  }
  const read = flagsFor("mcp", cacheRoot, undefined, true);
  assertEquals(read, flagsFor("search", cacheRoot), "mcp --read-only has the read profile");
});

/** Folder names that a shell would read as more than a plain word, each tried as a plugin path. */
const HOSTILE_NAMES = [
  "plain",
  "with space",
  "o'brien",
  "'$(touch PWNED)'",
  "$(touch PWNED)",
  "`touch PWNED`",
  'quote"d; touch PWNED',
  "back\\slash",
  "new\nline",
];

Deno.test("the launcher exports KB_CLI as its own path quoted for sh, unless one is set", async () => {
  await using sandbox = await makeSandbox();
  const { path, launcher } = await fakeDeno(sandbox.root);
  await Deno.writeTextFile(
    join(sandbox.root, "fakes", "deno"),
    '#!/bin/sh\nprintf "%s" "$KB_CLI"\n',
  );
  const run = (script: string, extra: Record<string, string>) =>
    runProcess(script, ["search"], {
      env: { PATH: path, ...extra },
      clearEnv: true,
      cwd: sandbox.root,
    });
  assertEquals((await run(launcher, {})).stdout, launcher);
  assertEquals((await run(launcher, { KB_CLI: "my-kb" })).stdout, "my-kb");
  for (const name of HOSTILE_NAMES) {
    const copy = join(sandbox.root, name, "git-kb");
    await Deno.mkdir(join(sandbox.root, name));
    await Deno.copyFile(launcher, copy);
    await Deno.chmod(copy, 0o755);
    const printed = (await run(copy, {})).stdout;
    // A newline stays inside the quotes, where shellQuote spells it with printf: both read back
    // as the path.
    if (!name.includes("\n")) assertEquals(printed, shellQuote(copy), name);
    const echoed = await runProcess("sh", ["-c", `printf '%s' ${printed}`], {
      cwd: sandbox.root,
    });
    assertEquals(echoed.stdout, copy, `sh reads ${printed} back as the path`);
  }
  assert(![...Deno.readDirSync(sandbox.root)].some((item) => item.name === "PWNED"));
});

Deno.test("no environment value is evaluated: each reaches deno as one word", async () => {
  await using sandbox = await makeSandbox();
  const { path, launcher } = await fakeDeno(sandbox.root);
  const argvOf = async (args: string[], env: Record<string, string>) => {
    const result = await runProcess(launcher, args, {
      env: { PATH: path, ...env },
      clearEnv: true,
      cwd: sandbox.root,
    });
    assertEquals(result.code, 0, show(result));
    return result.stdout.trimEnd().split("\n");
  };
  const evil = (tag: string) => `${sandbox.root}/x$(touch PWNED-${tag});touch PWNED-${tag}b`;
  const noHome = await argvOf(["search", "x"], { TMPDIR: evil("tmp") });
  assert(
    noHome.includes(`--allow-write=${evil("tmp")}/git-kb-${Deno.uid()}`),
    noHome.join(" "),
  );
  const xdg = await argvOf(["hook", "prompt"], { XDG_CACHE_HOME: evil("xdg"), HOME: "/h" });
  assert(xdg.includes(`--allow-write=${evil("xdg")}/git-kb`), xdg.join(" "));
  const judge = await argvOf(["hook", "judge"], { HOME: "/h", KB_PROSE_LINT_CLAUDE: evil("j") });
  assert(judge.includes(`--allow-run=${evil("j")},kill`), judge.join(" "));
  const edit = await argvOf(["edit", "kb-1"], { HOME: "/h", EDITOR: `${evil("e")} --wait` });
  assert(edit.includes(`--allow-run=git,kill,${evil("e").split(" ")[0]}`), edit.join(" "));
  const visual = await argvOf(["add"], { HOME: "/h", VISUAL: "nano|touch PWNED-v" });
  assert(visual.includes("--allow-run=git,kill,nano|touch"), visual.join(" "));
  const pwned = [...Deno.readDirSync(sandbox.root)].filter((item) => item.name.startsWith("PWNED"));
  assertEquals(pwned, [], "no command from the environment ran");
});

Deno.test("a comma in a permission path: a command says so in one line, a hook stays silent", async () => {
  await using sandbox = await makeSandbox();
  const { path, launcher } = await fakeDeno(sandbox.root);
  const run = (args: string[], env: Record<string, string>) =>
    runProcess(launcher, args, { env: { PATH: path, ...env }, clearEnv: true });
  const commaHome = { HOME: "/home/a,b" };
  const command = await run(["search", "x"], commaHome);
  assertEquals(command.code, 1, show(command));
  assertEquals(command.stdout, "", "deno never ran");
  assertEquals(command.stderr.trim().split("\n").length, 1, show(command));
  assertMatch(
    command.stderr,
    /cache folder \/home\/a,b\/\.cache\/git-kb has a comma.*XDG_CACHE_HOME/,
  );
  for (const hook of ["prompt", "search", "judge"]) {
    const silent = await run(["hook", hook], commaHome);
    assertEquals([silent.code, silent.stdout, silent.stderr], [0, "", ""], hook);
  }
  const fixed = await run(["search", "x"], { ...commaHome, XDG_CACHE_HOME: "/c" });
  assertEquals(fixed.code, 0, show(fixed));
  assert(fixed.stdout.includes("--allow-write=/c/git-kb"), fixed.stdout);
  const tmp = await run(["index"], { TMPDIR: "/t,mp" });
  assertEquals(tmp.code, 1, show(tmp));
  assertMatch(tmp.stderr, /\/t,mp\/git-kb-\d+ has a comma/);

  const judge = { HOME: "/h", KB_PROSE_LINT_CLAUDE: "/opt/a,b/claude" };
  assertEquals((await run(["hook", "judge"], judge)).stdout, "");
  assertEquals((await run(["search", "x"], judge)).code, 0, "only the judge needs the binary");
  const editor = await run(["edit", "kb-1"], { HOME: "/h", EDITOR: "/opt/ed,it" });
  assertEquals(editor.code, 1, show(editor));
  assertMatch(editor.stderr, /the editor \/opt\/ed,it has a comma/);
});

/** A copy of the real plugin/bin in `folder` (a hostile name) under `root`, and its launcher. */
async function pluginAt(
  root: string,
  folder: string,
): Promise<{ plugin: string; launcher: string }> {
  const plugin = join(root, folder, "bin");
  await copyDir(BIN, plugin);
  const launcher = join(plugin, "git-kb");
  await Deno.chmod(launcher, 0o755);
  return { plugin, launcher };
}

Deno.test("the real launcher from a plugin path of quotes, $() and backticks: the fetch line works", async () => {
  await using sandbox = await makeSandbox();
  const { plugin, launcher } = await pluginAt(
    sandbox.root,
    "o'brien's $(touch PWNED) `touch PWNED` plugins",
  );
  const env = {
    PATH: Deno.env.get("PATH") ?? "",
    HOME: sandbox.home,
    KB_DIR: FIXTURE,
    NO_COLOR: "1",
  };
  const hook = await runProcess(launcher, ["hook", "prompt"], {
    env,
    clearEnv: true,
    cwd: sandbox.root,
    stdin: await Deno.readTextFile(join(ROOT, "fixtures", "hooks", "prompt-match.json")),
  });
  assertEquals(hook.code, 0, show(hook));
  const context: string = JSON.parse(hook.stdout).hookSpecificOutput.additionalContext;
  const fetch = context.split("\n").find((line) => line.startsWith("Fetch full text: "));
  assert(fetch?.startsWith(`Fetch full text: ${shellQuote(launcher)} get `), context);
  const line = fetch!.slice("Fetch full text: ".length);
  const pasted = await runProcess("sh", ["-c", line.replace(/ get .*/, " get kb-7q2mx")], {
    env,
    clearEnv: true,
    cwd: sandbox.root,
  });
  assertEquals(pasted.code, 0, show(pasted));
  assertMatch(pasted.stdout, /^id: kb-7q2mx$/m);
  const pwned = (dir: string) => [...Deno.readDirSync(dir)].some((item) => item.name === "PWNED");
  assert(!pwned(sandbox.root) && !pwned(plugin), "the printed line ran nothing else");
});

Deno.test("a hint the CLI prints through the real launcher, off PATH, runs it when pasted", async () => {
  await using sandbox = await makeSandbox();
  const { launcher } = await pluginAt(sandbox.root, "o'brien's $(touch PWNED) plugins");
  const env = { PATH: Deno.env.get("PATH") ?? "", HOME: sandbox.home, NO_COLOR: "1" };
  const missing = await runProcess(launcher, ["get", "kb-zzzzz", "--kb", FIXTURE], {
    env,
    clearEnv: true,
    cwd: sandbox.root,
  });
  assertEquals(missing.code, 1, show(missing));
  const printed = missing.stderr.match(/find ids with (.*) search <words>/)?.[1];
  assertEquals(printed, shellQuote(launcher), show(missing));
  const pasted = await runProcess(
    "sh",
    ["-c", `${printed} search rotate token --kb ${shellQuote(FIXTURE)}`],
    { env, clearEnv: true, cwd: sandbox.root },
  );
  assertEquals(pasted.code, 0, show(pasted));
  assertMatch(pasted.stdout, /kb-7q2mx/);
  const unknown = await runProcess(launcher, ["--bogus"], { env, clearEnv: true });
  assert(unknown.stderr.includes(`Run ${shellQuote(launcher)} --help`), show(unknown));
  assert(![...Deno.readDirSync(sandbox.root)].some((item) => item.name === "PWNED"));
});

Deno.test("a symlink to the launcher (git-kb on PATH) finds the bundle beside the real file", async () => {
  await using sandbox = await makeSandbox();
  const { path, launcher } = await fakeDeno(sandbox.root);
  const links = join(sandbox.root, "links");
  await Deno.mkdir(links);
  await Deno.symlink(launcher, join(links, "middle"));
  await Deno.symlink("middle", join(links, "git-kb"));
  const result = await runProcess("git-kb", ["search"], {
    env: { PATH: `${links}:${path}` },
    clearEnv: true,
  });
  assertEquals(result.code, 0, show(result));
  assert(result.stdout.includes(join(sandbox.root, "plugin-bin", "git-kb.js")), result.stdout);
});

Deno.test("a compiled binary beside the launcher runs instead of deno", async () => {
  await using sandbox = await makeSandbox();
  const { path, launcher } = await fakeDeno(sandbox.root);
  const os = `${Deno.build.os === "darwin" ? "Darwin" : "Linux"} ${
    Deno.build.arch === "aarch64" ? (Deno.build.os === "darwin" ? "arm64" : "aarch64") : "x86_64"
  }`;
  const binary = join(sandbox.root, "plugin-bin", `git-kb-${COMPILE_TARGETS[os]}`);
  await Deno.writeTextFile(binary, '#!/bin/sh\necho "compiled $*"\n', { mode: 0o755 });
  const result = await runProcess(launcher, ["search", "x"], {
    env: { PATH: path },
    clearEnv: true,
  });
  assertEquals(result.stdout.trim(), "compiled search x", show(result));
});

Deno.test("without Deno: one line on how to install it; a hook still exits 0", async () => {
  await using sandbox = await makeSandbox();
  const tools = join(sandbox.root, "tools");
  await Deno.mkdir(tools);
  for (const tool of ["dirname", "uname", "sed"]) {
    const found = await runProcess("sh", ["-c", `command -v ${tool}`]);
    await Deno.symlink(found.stdout.trim(), join(tools, tool));
  }
  const env = { PATH: tools, HOME: sandbox.home };
  const hook = await runProcess(LAUNCHER, ["hook", "prompt"], {
    env,
    clearEnv: true,
    stdin: "{}",
  });
  assertEquals(hook.code, 0, show(hook));
  assertEquals(hook.stdout, "");
  assertEquals(hook.stderr.trim().split("\n").length, 1, show(hook));
  assertMatch(
    hook.stderr,
    /retry: npm install --prefix ~\/\.local\/share\/git-kb\/deno deno@[\d.]+$/m,
  );
  const command = await runProcess(LAUNCHER, ["search", "x"], { env, clearEnv: true });
  assertEquals(command.code, 1, show(command));
  assertMatch(command.stderr, /Deno 2 is needed/);
  // With XDG_DATA_HOME set, the install goes where the launcher then looks, quoted for a shell.
  const data = join(sandbox.root, "data of o'brien");
  const moved = await runProcess(LAUNCHER, ["search", "x"], {
    env: { ...env, XDG_DATA_HOME: data },
    clearEnv: true,
  });
  const install = moved.stderr.match(/retry: (npm install --prefix .* deno@[\d.]+)$/m)?.[1];
  assertEquals(
    install?.replace(/deno@[\d.]+$/, "deno@"),
    `npm install --prefix ${shellQuote(join(data, "git-kb", "deno"))} deno@`,
    show(moved),
  );
  // Without HOME the user-folder Deno cannot be looked for: HOME is what to fix, not Deno.
  const homeless = await runProcess(LAUNCHER, ["search", "x"], {
    env: { PATH: tools },
    clearEnv: true,
  });
  assertEquals(homeless.code, 1, show(homeless));
  assertMatch(homeless.stderr, /^git-kb: HOME is not set, .* set HOME to your home folder/);
  assertEquals(homeless.stderr.trim().split("\n").length, 1, show(homeless));
});

Deno.test("without Deno on PATH: the Deno that ./deno installs in the user's data folder runs the command", async () => {
  await using sandbox = await makeSandbox();
  const tools = join(sandbox.root, "tools");
  await Deno.mkdir(tools);
  const userDeno = join(sandbox.home, ".local", "share", "git-kb", "deno", "node_modules", ".bin");
  await Deno.mkdir(userDeno, { recursive: true });
  await Deno.symlink(Deno.execPath(), join(userDeno, "deno"));
  const command = await runProcess(LAUNCHER, ["search", "rotate token"], {
    env: { PATH: tools, HOME: sandbox.home, KB_DIR: FIXTURE, NO_COLOR: "1" },
    clearEnv: true,
  });
  assertEquals(command.code, 0, show(command));
  assertMatch(command.stdout, /kb-/);
});

Deno.test("without Deno on PATH: selftest runs its CLI and hooks with the Deno the launcher found", async () => {
  await using kb = await makeKb();
  const tools = join(kb.root, "tools");
  await Deno.mkdir(tools);
  const found = await runProcess("sh", ["-c", "command -v git"]);
  await Deno.symlink(found.stdout.trim(), join(tools, "git"));
  const userDeno = join(kb.home, ".local", "share", "git-kb", "deno", "node_modules", ".bin");
  await Deno.mkdir(userDeno, { recursive: true });
  await Deno.symlink(Deno.execPath(), join(userDeno, "deno"));
  const { KB_DIR: _unset, ...env } = kb.env;
  const result = await runProcess(LAUNCHER, ["--kb", kb.dir, "selftest"], {
    env: { ...env, PATH: tools },
    clearEnv: true,
  });
  assertEquals(result.code, 0, show(result));
  assertMatch(result.stdout, /17 of 17 steps passed\./);
});

/** The whole environment of a launcher run in `sandbox` against the fixture knowledge base. */
function fixtureEnv(sandbox: { home: string; tmp: string }): Record<string, string> {
  return {
    PATH: Deno.env.get("PATH") ?? "",
    HOME: sandbox.home,
    TMPDIR: sandbox.tmp,
    KB_DIR: FIXTURE,
    NO_COLOR: "1",
  };
}
Deno.test("the real launcher runs the bundles: both hot hooks answer, a command searches", async () => {
  await using sandbox = await makeSandbox();
  const env = fixtureEnv(sandbox);
  const payload = JSON.parse(
    await Deno.readTextFile(join(ROOT, "fixtures", "hooks", "prompt-match.json")),
  );
  const hook = await runProcess(LAUNCHER, ["hook", "prompt"], {
    env,
    clearEnv: true,
    cwd: sandbox.root,
    stdin: JSON.stringify(payload),
  });
  assertEquals(hook.code, 0, show(hook));
  const context = JSON.parse(hook.stdout).hookSpecificOutput.additionalContext;
  assertMatch(context, /kb-7q2mx/);
  assert(context.includes(`Fetch full text: ${LAUNCHER} get `), context);
  const search = await runProcess(LAUNCHER, ["search", "rotate leaked token", "--json"], {
    env,
    clearEnv: true,
    cwd: sandbox.root,
  });
  assertEquals(search.code, 0, show(search));
  assertEquals(JSON.parse(search.stdout)[0].id, "kb-7q2mx");
  const grep = await runProcess(LAUNCHER, ["hook", "search"], {
    env,
    clearEnv: true,
    cwd: sandbox.root,
    stdin: await Deno.readTextFile(join(ROOT, "fixtures", "hooks", "pretool-grep.json")),
  });
  assertEquals(grep.code, 0, show(grep));
  assertMatch(JSON.parse(grep.stdout).hookSpecificOutput.additionalContext, /kb-r4b9t/);
  const unknown = await runProcess(LAUNCHER, ["hook", "nonsense"], { env, clearEnv: true });
  assertEquals(unknown.code, 0, show(unknown));
});

Deno.test("through the real launcher, a command with a bundle of its own exits with its error's code: a usage error 2, with its usage", async () => {
  // Each such bundle has its own copy of the error classes; the CLI's bundle reports the error.
  await using sandbox = await makeSandbox();
  const env = fixtureEnv(sandbox);
  for (const name of Object.keys(OWN_BUNDLE_COMMANDS)) {
    const result = await runProcess(LAUNCHER, [name, "--no-such-option"], {
      env,
      clearEnv: true,
      cwd: sandbox.root,
      stdin: "",
    });
    assertEquals(result.code, 2, `${name}: ${show(result)}`);
    assertStringIncludes(result.stderr, `git-kb ${name}: unknown option "--no-such-option"`);
    assertStringIncludes(result.stderr, `\nUsage: git-kb ${name}`);
    assertStringIncludes(result.stderr, ` ${name} --help for the options.`);
  }
});

/** A run of the launcher from `sandbox`'s root, in its fixture environment with `home` as HOME. */
function launcherWithHome(sandbox: { root: string; home: string; tmp: string }) {
  const env = fixtureEnv(sandbox);
  return (args: string[], home: string, stdin?: string) =>
    runProcess(LAUNCHER, args, {
      env: { ...env, HOME: home },
      clearEnv: true,
      cwd: sandbox.root,
      stdin,
      timeoutMs: 20_000,
    });
}

Deno.test("where Deno cannot start (HOME, its .npmrc, a deleted folder) a hook exits 0 silently, a command says why", async () => {
  await using sandbox = await makeSandbox();
  const prompt = await Deno.readTextFile(join(ROOT, "fixtures", "hooks", "prompt-match.json"));
  const run = launcherWithHome(sandbox);
  const homeFile = join(sandbox.root, "home-file");
  await Deno.writeTextFile(homeFile, "");
  const npmrcFolder = join(sandbox.root, "npmrc-folder");
  await Deno.mkdir(join(npmrcFolder, ".npmrc"), { recursive: true });
  const npmrcFifo = join(sandbox.root, "npmrc-fifo");
  await Deno.mkdir(npmrcFifo);
  assertEquals((await runProcess("mkfifo", [join(npmrcFifo, ".npmrc")])).code, 0);
  const cases: [string, RegExp][] = [
    [homeFile, /^git-kb: HOME \(.*home-file\) is not a folder.*set HOME to your home folder/],
    [npmrcFolder, /^git-kb: .*npmrc-folder\/\.npmrc is not a file you may read/],
    [npmrcFifo, /^git-kb: .*npmrc-fifo\/\.npmrc is not a file you may read/],
  ];
  for (const [home, message] of cases) {
    const hook = await run(["hook", "prompt"], home, prompt);
    assertEquals([hook.code, hook.stdout, hook.stderr], [0, "", ""], `${home}: ${show(hook)}`);
    const command = await run(["search", "rotate"], home);
    assertEquals(command.code, 1, show(command));
    assertEquals(command.stderr.trim().split("\n").length, 1, show(command));
    assertMatch(command.stderr, message);
  }
  // A .npmrc that is a link to nothing is no .npmrc to Deno: the hook answers.
  const dangling = join(sandbox.root, "npmrc-dangling");
  await Deno.mkdir(dangling);
  await Deno.symlink(join(sandbox.root, "nothing"), join(dangling, ".npmrc"));
  const answered = await run(["hook", "prompt"], dangling, prompt);
  assertEquals(answered.code, 0, show(answered));
  assertMatch(answered.stdout, /kb-7q2mx/);
  // A hook started in a folder that was deleted (the shell itself says so on stderr).
  const gone = join(sandbox.root, "gone");
  await Deno.mkdir(gone);
  const deleted = await runProcess(
    "sh",
    [
      "-c",
      `cd ${shellQuote(gone)} && rmdir ${shellQuote(gone)} && exec "$0" hook prompt`,
      LAUNCHER,
    ],
    { env: fixtureEnv(sandbox), clearEnv: true, stdin: prompt, timeoutMs: 20_000 },
  );
  assertEquals([deleted.code, deleted.stdout], [0, ""], show(deleted));
  assertNotMatch(deleted.stderr, /error|deno/i);
});

Deno.test("a ~/.npmrc whose contents Deno refuses: every hook exits 0 silently, a command shows Deno's error naming it", async () => {
  await using sandbox = await makeSandbox();
  const prompt = await Deno.readTextFile(join(ROOT, "fixtures", "hooks", "prompt-match.json"));
  const run = launcherWithHome(sandbox);
  const home = async (name: string, npmrc: string | Uint8Array) => {
    const folder = join(sandbox.root, name);
    await Deno.mkdir(folder);
    const path = join(folder, ".npmrc");
    if (typeof npmrc === "string") await Deno.writeTextFile(path, npmrc);
    else await Deno.writeFile(path, npmrc);
    return folder;
  };
  // A registry that is no URL (an unset variable leaves it empty), and bytes that are not UTF-8:
  // Deno stops on each with exit 1 before any code runs.
  const cases: [string, RegExp][] = [
    [await home("no-url", "registry=${UNSET_REGISTRY}\n"), /relative URL without a base/],
    [await home("not-utf8", new Uint8Array([0xff, 0xfe, 0x0a])), /invalid utf-8/],
  ];
  for (const [folder, cause] of cases) {
    for (const hook of ["prompt", "session", "watch"]) {
      const result = await run(["hook", hook], folder, prompt);
      assertEquals(
        [result.code, result.stdout, result.stderr],
        [0, "", ""],
        `${hook}: ${show(result)}`,
      );
    }
    // A command is not checked first (that would cost every command a start of Deno): Deno's
    // own error names the file and what is wrong in it.
    const command = await run(["search", "rotate"], folder);
    assertEquals(command.code, 1, show(command));
    assertStringIncludes(command.stderr, join(folder, ".npmrc"), show(command));
    assertMatch(command.stderr, cause);
  }
  // A ~/.npmrc Deno accepts: the hook answers and the command runs, as without one.
  const fine = await home("fine", "//registry.npmjs.org/:_authToken=${UNSET_TOKEN}\n");
  const answered = await run(["hook", "prompt"], fine, prompt);
  assertEquals([answered.code, answered.stderr], [0, ""], show(answered));
  assertMatch(answered.stdout, /kb-7q2mx/);
  const searched = await run(["search", "rotate leaked token", "--json"], fine);
  assertEquals(searched.code, 0, show(searched));
  assertEquals(JSON.parse(searched.stdout)[0].id, "kb-7q2mx");
});

Deno.test("a deno in the current folder is never run, though PATH names it by an empty or relative entry", async () => {
  await using sandbox = await makeSandbox();
  // The project an agent works in, holding a `deno` of its own (in it and in its bin/).
  const project = join(sandbox.root, "project");
  await Deno.mkdir(join(project, "bin"), { recursive: true });
  for (const planted of [join(project, "deno"), join(project, "bin", "deno")]) {
    await Deno.writeTextFile(planted, "#!/bin/sh\necho PLANTED\n", { mode: 0o755 });
  }
  // The real Deno only where the launcher looks past PATH: ~/.deno/bin.
  await Deno.mkdir(join(sandbox.home, ".deno", "bin"), { recursive: true });
  await Deno.symlink(Deno.execPath(), join(sandbox.home, ".deno", "bin", "deno"));
  for (const path of ["/usr/bin:/bin:", ":/usr/bin:/bin", "/usr/bin:.:/bin", "bin:/usr/bin:/bin"]) {
    const fetch = await runProcess(LAUNCHER, ["get", "kb-7q2mx", "--kb", FIXTURE], {
      env: { PATH: path, HOME: sandbox.home, NO_COLOR: "1" },
      clearEnv: true,
      cwd: project,
    });
    assertEquals(fetch.code, 0, `PATH=${path}: ${show(fetch)}`);
    assertMatch(fetch.stdout, /^id: kb-7q2mx$/m, `PATH=${path}`);
    assertNotMatch(fetch.stdout, /PLANTED/, `PATH=${path}`);
  }
});

/** Whether shellcheck is on PATH (`apt-get install shellcheck`, `brew install shellcheck`). */
const SHELLCHECK = (await runProcess("sh", ["-c", "command -v shellcheck"])).code === 0;

Deno.test({
  name: SHELLCHECK
    ? "shellcheck finds nothing in the launcher's template nor in the built launcher"
    : "shellcheck of the launcher: SKIPPED, shellcheck is not installed (apt-get install shellcheck)",
  ignore: !SHELLCHECK,
  fn: async () => {
    const result = await runProcess("shellcheck", [SH_TEMPLATE, LAUNCHER]);
    assertEquals(result.code, 0, show(result));
  },
});

Deno.test("the built launcher is its template with every `# @build` line filled in", () => {
  const launcher = Deno.readTextFileSync(LAUNCHER);
  assertNotMatch(launcher, /^ *# @build /m);
  const template = Deno.readTextFileSync(SH_TEMPLATE);
  const kept = template.split("\n").filter((line) => !/^ *# @build /.test(line));
  const lines = new Set(launcher.split("\n"));
  assertEquals(kept.filter((line) => !lines.has(line)), [], "every template line is kept");
  assertThrows(
    () => shLauncher(`${template}# @build nonsense\n`),
    Error,
    'unknown "# @build nonsense"',
  );
  assertThrows(
    () => shLauncher(template.replace(/^ *# @build hook-profiles\n/m, "")),
    Error,
    'lacks "# @build hook-profiles"',
  );
});

/** Run `build/plugin.ts --check` in the checkout at `root`. */
function checkBuild(root: string) {
  return runProcess("deno", [
    "run",
    "--allow-read",
    "--allow-write",
    "--allow-env",
    "--allow-run=deno",
    join(root, "build", "plugin.ts"),
    "--check",
  ], { cwd: root });
}

Deno.test("the CLI bundle leaves the MCP SDK to mcp's own bundle", async () => {
  // A string of the SDK's protocol code: in the bundle of `mcp`, never in the one every command
  // parses on start.
  const marker = "notifications/initialized";
  assert((await Deno.readTextFile(join(BIN, "mcp", "mcp.js"))).includes(marker));
  const cli = await Deno.readTextFile(join(BIN, "git-kb.js"));
  assert(!cli.includes(marker), "the SDK was bundled into git-kb.js");
  // A budget, not the SDK check: the bundle grew with the commands from 375 KB to 500 KB; past
  // this, give a command its own bundle, as mcp has.
  assert(cli.length < 550_000, `git-kb.js is ${cli.length} bytes`);
});

Deno.test("plugin/bin is what `deno task build` makes from the sources", async () => {
  const result = await checkBuild(ROOT);
  assertEquals(result.code, 0, show(result));
});

Deno.test("every file of plugin/bin is committed, or a clean clone would lack it", async () => {
  // A rebuild can name its chunks anew; `git commit -a` takes the changed bundles but not the
  // new chunks they import, and the checkout it ran in still works.
  const untracked = await runProcess(
    "git",
    ["ls-files", "--others", "--exclude-standard", "--", "plugin/bin"],
    { cwd: ROOT },
  );
  assertEquals(untracked.code, 0, show(untracked));
  assertEquals(untracked.stdout.trim(), "", "run `git add plugin/bin` before committing");
});

Deno.test("a checkout at another depth, with a space and a quote, builds the same plugin/bin", async () => {
  await using sandbox = await makeSandbox();
  const copy = join(sandbox.root, "one", "more o'brien", "level", "git-kb");
  await Deno.mkdir(copy, { recursive: true });
  const parts = [
    "app",
    "build",
    "cli",
    "core",
    "io",
    "hooks",
    "plugin",
    "std",
    "deno.json",
    "deno.lock",
  ];
  const cp = await runProcess("cp", ["-R", ...parts.map((part) => join(ROOT, part)), copy]);
  assertEquals(cp.code, 0, show(cp));
  const result = await checkBuild(copy);
  assertEquals(result.code, 0, show(result));
});
