/**
 * Least privilege, for real: read commands work with read access, write access to the cache
 * only, no --allow-run and no --allow-net; a missing permission prints one line naming the flag
 * to add, never a stack trace; deno.json's tasks use exactly the flags of app/permissions.ts.
 */
import {
  assert,
  assertEquals,
  assertMatch,
  assertNotMatch,
  assertStrictEquals,
  assertThrows,
} from "@std/assert";
import { join } from "@std/path/posix/join";
import {
  CACHE_ROOT,
  CACHE_WRITE,
  COMMAND_PROFILES,
  flagsFor,
  judgeFlags,
  PROFILES,
} from "../app/permissions.ts";
import { HOOKS } from "../app/registry.ts";
import { TASK_CACHE_WRITE } from "../build/plugin.ts";
import {
  cacheRootOf,
  denoDir,
  git,
  makeKb,
  makeSandbox,
  parseJson,
  ROOT,
  runCli,
  type RunResult,
  show,
  STACK_FRAME,
} from "./helpers.ts";

const READ_COMMANDS = ["search", "get", "index"];

/** Exactly one line on stderr, naming `flag`, with no stack trace; exit 1. */
function assertOneLine(result: RunResult, flag: RegExp): void {
  assertEquals(result.code, 1, show(result));
  const lines = result.stderr.trim().split("\n");
  assertEquals(lines.length, 1, `one line on stderr:\n${show(result)}`);
  assertMatch(lines[0], flag, show(result));
  assertNotMatch(result.stderr, STACK_FRAME, show(result));
  assertNotMatch(result.stderr, /Uncaught|error: /, show(result));
}

Deno.test("the read profile grants no run, no net, no sys but the uid, writes only the cache", () => {
  const root = "/some/cache/git-kb";
  for (const command of READ_COMMANDS) {
    // get may ask git which files are in conflict (`git ls-files -u`), and nothing else.
    const flags = flagsFor(command, root).filter((flag) =>
      command !== "get" || flag !== "--allow-run=git"
    );
    assert(flags.includes("--no-prompt"), command);
    for (const flag of flags) {
      assertNotMatch(flag, /^--allow-(run|net|ffi|all)\b|^-A$/, `${command}: ${flag}`);
      assertMatch(flag, /^(?!--allow-sys)|^--allow-sys=uid$/, `${command}: ${flag}`);
    }
    const writes = flags.filter((flag) => flag.startsWith("--allow-write"));
    assertEquals(writes, [`--allow-write=${root}`], `${command}: ${flags.join(" ")}`);
  }
  assert(flagsFor("add", root).includes("--allow-run=git,kill"));
  assert(!flagsFor("add", root).some((flag) => flag.startsWith("--allow-net")));
});

Deno.test("a comma in a path bound for a permission list is refused, not split", () => {
  assertMatch(
    String(assertThrows(() => flagsFor("search", "/home/a,b/.cache/git-kb"))),
    /comma.*cache folder|cache folder.*comma/,
  );
  assertMatch(
    String(assertThrows(() => flagsFor("edit", "/c", "/opt/ed,it -w"))),
    /editor .*comma/,
  );
  assertMatch(
    String(assertThrows(() => judgeFlags("/c", "/opt/a,b/claude"))),
    /judge binary .*comma/,
  );
});

Deno.test("sandboxed runs: read commands work, missing permissions name the flag", async (t) => {
  const [kb, saving, fresh] = await Promise.all([makeKb(), makeKb(), makeSandbox()]);
  try {
    const head = await git(saving.dir, "rev-parse", "HEAD");
    const cold = { ...kb.env, TMPDIR: fresh.tmp };
    const without = (command: string, drop: RegExp) =>
      flagsFor(command, cacheRootOf(cold)).filter((flag) => !drop.test(flag));
    const [index, search, get, noWrite, wrongWrite, noEnv, addNoRun, noSys] = await Promise.all([
      runCli(["index", "--json"], { env: kb.env }),
      runCli(["search", "rebase", "--json"], { env: kb.env }),
      runCli(["get", "kb-7q2mx"], { env: kb.env }),
      runCli(["search", "rebase"], { env: cold, flags: without("search", /^--allow-write/) }),
      runCli(["get", "kb-7q2mx"], {
        env: cold,
        flags: [
          ...without("get", /^--allow-write/),
          `--allow-write=${join(fresh.root, "elsewhere")}`,
        ],
      }),
      runCli(["index"], { env: cold, flags: without("index", /^--allow-env/) }),
      runCli(["add", "--title", "Needs git", "--type", "note"], {
        env: saving.env,
        flags: without("add", /^--allow-run/),
      }),
      runCli(["search", "rebase"], { env: cold, flags: without("search", /^--allow-sys/) }),
    ]);

    await t.step("search, get and index succeed with flagsFor (read profile)", async () => {
      assertEquals(index.code, 0, show(index));
      const report = parseJson<{ docCount: number; indexDir: string }>(index);
      assertEquals(report.docCount, 45);
      assert(report.indexDir.startsWith(cacheRootOf(kb.env)), report.indexDir);
      assert((await Deno.stat(join(report.indexDir, "manifest.json"))).isFile);
      assertEquals(search.code, 0, show(search));
      assertStrictEquals(parseJson<{ id: string }[]>(search)[0]?.id, "kb-r4b9t");
      assertEquals(get.code, 0, show(get));
      assertMatch(get.stdout, /^id: kb-7q2mx$/m);
      assertEquals(await git(kb.dir, "status", "--porcelain", "--ignored"), "");
    });

    await t.step("search without write access to the cache: one line naming --allow-write", () => {
      assertOneLine(noWrite, /--allow-write=\S*git-kb/);
      assertEquals(noWrite.stdout, "");
    });

    await t.step("get with write access elsewhere: one line naming --allow-write", () => {
      assertOneLine(wrongWrite, /--allow-write=\S*git-kb/);
    });

    await t.step("search without the uid: one line naming --allow-sys=uid", () => {
      assertOneLine(noSys, /--allow-sys=uid/);
    });

    await t.step("index without env access: one line naming --allow-env", () => {
      assertOneLine(noEnv, /--allow-env/);
    });

    await t.step(
      "add without --allow-run: one line naming --allow-run=git, nothing left",
      async () => {
        assertOneLine(addNoRun, /--allow-run=git\b/);
        assertEquals(await git(saving.dir, "rev-parse", "HEAD"), head);
        assertEquals(
          await git(saving.dir, "status", "--porcelain", "--untracked-files=all"),
          "",
          "no entry file may be left behind when the commit could not be made",
        );
      },
    );
  } finally {
    await Promise.all([kb.cleanup(), saving.cleanup(), fresh.cleanup()]);
  }
});

/** `flags` with every `--allow-env` list joined into one sorted list, in a fixed order. */
function normalFlags(flags: readonly string[]): string[] {
  const env = flags.filter((flag) => flag.startsWith("--allow-env="))
    .flatMap((flag) => flag.slice("--allow-env=".length).split(","));
  const others = flags.filter((flag) => !flag.startsWith("--allow-env="));
  return [...others, ...(env.length ? [`--allow-env=${[...env].sort().join(",")}`] : [])].sort();
}

Deno.test("deno.json tasks use exactly the flags of app/permissions.ts", async () => {
  assertEquals(CACHE_ROOT, "$HOME/.cache/git-kb", "a task expands it as the default root");
  const config = JSON.parse(await Deno.readTextFile(join(ROOT, "deno.json")));
  const tasks = config.tasks as Record<string, string | { command: string; description: string }>;
  /** The command line `task` comes to, each `deno task --quiet <name>` it runs followed. */
  const expand = (task: string): string => {
    const command = tasks[task];
    const line = typeof command === "string" ? command : command?.command ?? "";
    const nested = /^deno task --quiet (\S+)(.*)$/.exec(line);
    // The cache root a task grants is printed by app/cache_root.ts: the test below runs it.
    return (nested ? expand(nested[1]) + nested[2] : line).replace(TASK_CACHE_WRITE, CACHE_WRITE);
  };
  const entries = [
    ...Object.entries(COMMAND_PROFILES).map(([command, profile]) => ({
      task: command,
      profile,
      target: `app/main.ts ${command}`,
    })),
    ...Object.entries(HOOKS).map(([hook, entry]) => ({
      task: `hook:${hook}`,
      profile: entry.profile,
      target: entry.module,
    })),
  ];
  for (const { task, profile, target } of entries) {
    assertEquals(tasks[task], `deno task --quiet profile:${profile} ${target}`, `task "${task}"`);
    const line = expand(task);
    assert(line.startsWith("deno run ") && line.endsWith(` ${target}`), `${task}: ${line}`);
    const flags = line.slice("deno run ".length, -` ${target}`.length).split(" ");
    assertEquals(
      normalFlags(flags),
      normalFlags(["--no-prompt", ...PROFILES[profile]]),
      `task "${task}"`,
    );
  }
  const env = tasks["profile:env"];
  assert(typeof env !== "string" && /^Generated by `deno task build`/.test(env.description));
});

/** `deno task --quiet search rebase --json` from the checkout, in `env` (and PATH, DENO_DIR). */
async function taskSearch(env: Record<string, string>): Promise<RunResult> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["task", "--quiet", "search", "rebase", "--json"],
    cwd: ROOT,
    clearEnv: true,
    env: {
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      DENO_DIR: await denoDir(),
      DENO_NO_UPDATE_CHECK: "1",
      ...env,
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  return {
    code: output.code,
    stdout: new TextDecoder().decode(output.stdout),
    stderr: new TextDecoder().decode(output.stderr),
  };
}

Deno.test("deno task search works from a checkout", async () => {
  await using kb = await makeKb();
  const result = await taskSearch(kb.env);
  assertEquals(result.code, 0, show(result));
  assertStrictEquals(parseJson<{ id: string }[]>(result)[0]?.id, "kb-r4b9t", show(result));
});

Deno.test("deno task search writes its cache under XDG_CACHE_HOME, as git-kb does", async () => {
  await using kb = await makeKb();
  const cache = join(kb.env.TMPDIR, "my cache's folder");
  const result = await taskSearch({ ...kb.env, XDG_CACHE_HOME: cache });
  assertEquals(result.code, 0, show(result));
  assertStrictEquals(parseJson<{ id: string }[]>(result)[0]?.id, "kb-r4b9t", show(result));
  assert((await Deno.stat(join(cache, "git-kb"))).isDirectory, "the index is cached there");

  // A folder no permission flag can name stops the task, saying why.
  const comma = await taskSearch({ ...kb.env, XDG_CACHE_HOME: join(kb.env.TMPDIR, "a,b") });
  assertEquals(comma.code, 1, show(comma));
  assertMatch(comma.stderr, /^git-kb: the cache folder .*a,b\/git-kb has a comma/, show(comma));
  assertStrictEquals(comma.stdout, "", show(comma));
});
