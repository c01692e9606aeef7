/**
 * The developer task behind `deno task build` (not a `git-kb` command): bundle the CLI and
 * hooks into `plugin/bin/git-kb.js`, bundle each hot hook (see {@link HOT_HOOKS}) on its own
 * under `plugin/bin/hooks/`, and write the launchers `plugin/bin/git-kb` (POSIX sh, from the
 * template build/launcher.sh) and `plugin/bin/git-kb.cmd` (Windows) with each entry point's
 * permission flags, taken from `app/permissions.ts`; and write `plugin/hooks/hooks.json` from
 * `app/plugin_hooks.ts`. `--check` builds into a temp folder and fails when the committed files
 * differ; `--compile` builds per-platform binaries for a release.
 *
 * ```sh
 * deno task build            # write plugin/bin/
 * deno task build --check    # exit 1 when plugin/bin/ or hooks.json is stale
 * deno task compile          # release binaries (needs to download Deno's runtime)
 * ```
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { parseArgs } from "@std/cli/parse-args";
import { join } from "../core/path.ts";
import { ifExists } from "../io/fs.ts";
import { runProcess } from "../io/process.ts";
import {
  CACHE_ROOT,
  CACHE_ROOT_FLAGS,
  CACHE_WRITE,
  COMMAND_PROFILES,
  HOOK_PROFILES,
  HOOK_V8_FLAGS,
  PROFILES,
  READ_ONLY_PROFILES,
} from "../app/permissions.ts";
import { PLUGIN_HOOKS, pluginHooksJson } from "../app/plugin_hooks.ts";
import { COMMANDS, HOOKS, ownBundlePath } from "../app/registry.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");
const BIN = join(ROOT, "plugin", "bin");
const ENTRY = join(ROOT, "app", "launch.ts");

/** The plugin's hooks file, written from `app/plugin_hooks.ts`. */
export const HOOKS_JSON: string = join(ROOT, "plugin", "hooks", "hooks.json");

/**
 * The commands with a bundle of their own (`ownBundle` in app/registry.ts), by name, with their
 * module: `plugin/bin/<name>/<name>.js` (see `ownBundlePath`), split at its lazy imports as a
 * hot hook's is. The CLI's bundle loads it when the command runs.
 */
export const OWN_BUNDLE_COMMANDS: Record<string, string> = Object.fromEntries(
  Object.entries(COMMANDS).flatMap(([name, command]) =>
    "ownBundle" in command && command.ownBundle ? [[name, command.module]] : []
  ),
);

/** The folder of a command's own bundle, relative to `plugin/bin/`. */
function ownBundleDir(module: string): string {
  return ownBundlePath(module).split("/")[0];
}

/** The files and folders `deno task build` writes into `plugin/bin/`. */
export const BUILT_FILES: readonly string[] = [
  "git-kb.js",
  "git-kb",
  "git-kb.cmd",
  "hooks",
  ...Object.values(OWN_BUNDLE_COMMANDS).map(ownBundleDir),
];

/**
 * The hooks with a bundle of their own (`ownBundle` in app/registry.ts), by the name the launcher
 * is given, with their entry module: `plugin/bin/hooks/<name>/<module>.js`. The bundles are split
 * at the one lazy import on their path, the entry parser (and the YAML library with it), which
 * only an index rebuild loads; tests/hot_path_test.ts fails when a static import of a hot hook
 * reaches a `node:` module or an npm package.
 */
export const HOT_HOOKS: Record<string, string> = Object.fromEntries(
  Object.entries(HOOKS).flatMap(([name, hook]) =>
    "ownBundle" in hook && hook.ownBundle ? [[name, hook.module]] : []
  ),
);

/** Where the bundle of a hot hook sits, relative to `plugin/bin/`. */
export function hotHookBundle(name: string): string {
  const module = HOT_HOOKS[name].split("/").pop()!.replace(/\.ts$/, ".js");
  return `hooks/${name}/${module}`;
}

/** Deno's targets for release binaries, by the `uname -s`/`uname -m` pair that runs them. */
export const COMPILE_TARGETS: Record<string, string> = {
  "Linux x86_64": "x86_64-unknown-linux-gnu",
  "Linux aarch64": "aarch64-unknown-linux-gnu",
  "Darwin x86_64": "x86_64-apple-darwin",
  "Darwin arm64": "aarch64-apple-darwin",
  "Windows x86_64": "x86_64-pc-windows-msvc",
};

type Profile = keyof typeof PROFILES;

/** The `--allow-env` flag every profile shares: the variables git-kb reads. */
const ENV_FLAG = PROFILES.read.find((flag) => flag.startsWith("--allow-env="))!;

/**
 * A profile's flags as sh words: the environment flag from `$allow_env`, the cache root from
 * `$cache`, the run permission of `add` and `edit` with `$editor` (empty, or a comma and the
 * editor's program), the judge's program from `$judge`, the Deno found from `$deno` (last in a
 * run permission: the capture hook's, selftest's). A word that expands a variable is
 * double-quoted, so its value stays one word.
 */
function shFlags(profile: Profile): string {
  return PROFILES[profile].map((flag) =>
    flag.replace(ENV_FLAG, "$allow_env").replace(CACHE_ROOT, "$cache").replace(
      /^(--allow-run=git(?:,kill)?)$/,
      "$1$editor",
    )
      .replace("--allow-run=claude", "--allow-run=$judge").replace(
        /^(--allow-run=(?:[^,]+,)*)deno$/,
        "$1$deno",
      )
  ).map((flag) => flag.includes("$") ? `"${flag}"` : flag).join(" ");
}

/** The same for cmd.exe: the cache root from `%cache%`. */
function cmdFlags(profile: Profile): string {
  return PROFILES[profile].map((flag) =>
    flag.replace(CACHE_ROOT, "%cache%").replace("--allow-run=claude", "--allow-run=%judge%")
  ).join(" ");
}

/** The template of the POSIX launcher, whose `# @build <name>` lines {@link shLauncher} fills. */
export const SH_TEMPLATE: string = join(ROOT, "build", "launcher.sh");

/**
 * The lines that replace each `# @build <name>` line of build/launcher.sh, before that line's
 * indentation. A profile is written quoted (`profile='read'`): `read` and `export` are also
 * commands, and shellcheck asks that a string assigned to look like one be quoted.
 */
function shPlaceholders(): Record<string, string[]> {
  const byProfile = new Map<Profile, string[]>();
  for (const [command, profile] of Object.entries(COMMAND_PROFILES)) {
    byProfile.set(profile, [...byProfile.get(profile) ?? [], command]);
  }
  return {
    "notice": [
      "# git-kb launcher, written by `deno task build` from build/launcher.sh and" +
      " app/permissions.ts: do not edit.",
    ],
    "compile-targets": Object.entries(COMPILE_TARGETS).filter(([os]) => !os.startsWith("Windows"))
      .map(([os, target]) => `"${os}") target=${target} ;;`),
    "hook-v8-flags": [`v8="${HOOK_V8_FLAGS.join(" ")}"`],
    "hook-profiles": Object.entries(HOOK_PROFILES).map(([hook, profile]) =>
      HOT_HOOKS[hook]
        ? `${hook}) profile='${profile}' bundle=${hotHookBundle(hook)} ;;`
        : `${hook}) profile='${profile}' ;;`
    ),
    // The hooks Claude Code runs in the background (`exec`, app/plugin_hooks.ts), as "hook <verb>".
    "background-hooks": [
      `${
        PLUGIN_HOOKS.filter((hook) => hook.async).map((hook) => `"hook ${hook.verb}"`).join("|")
      }) background=1 ;;`,
    ],
    "command-profiles": [...byProfile].map(([profile, names]) =>
      `${names.join("|")}) profile='${profile}' ;;`
    ),
    // A command that runs with a narrower profile when given `--read-only` (before any `--`).
    "read-only-profiles": Object.entries(READ_ONLY_PROFILES).flatMap(([command, profile]) => [
      `${command})`,
      '  for word in "$@"; do',
      '    case "$word" in',
      `      --read-only) profile='${profile}' ;;`,
      "      --) break ;;",
      "    esac",
      "  done ;;",
    ]),
    "env-flag": [`allow_env=${ENV_FLAG}`],
    "profile-flags": (Object.keys(PROFILES) as Profile[]).map((profile) =>
      `${profile}) set -- ${shFlags(profile)} "$@" ;;`
    ),
  };
}

/**
 * The POSIX launcher: build/launcher.sh with each `# @build <name>` line replaced by the lines
 * it names. A name the build does not know, or one the template lacks, is a build error.
 */
export function shLauncher(template = Deno.readTextFileSync(SH_TEMPLATE)): string {
  const fills = shPlaceholders();
  const used = new Set<string>();
  const text = template.replace(/^( *)# @build (\S+)$/gm, (_line, indent: string, name: string) => {
    if (!Object.hasOwn(fills, name)) {
      throw new Error(`build/launcher.sh: unknown "# @build ${name}"`);
    }
    used.add(name);
    return fills[name].map((line) => indent + line).join("\n");
  });
  const missing = Object.keys(fills).filter((name) => !used.has(name));
  if (missing.length) {
    throw new Error(
      `build/launcher.sh lacks ${missing.map((name) => `"# @build ${name}"`).join(", ")}`,
    );
  }
  return text;
}

/** The Windows launcher (cmd.exe). */
export function cmdLauncher(): string {
  const hooks = Object.entries(HOOK_PROFILES).map(([hook, profile]) => {
    const bundle = HOT_HOOKS[hook]
      ? ` & set "bundle=${hotHookBundle(hook).replaceAll("/", "\\")}"`
      : "";
    return `if /i "%~1"=="hook" if /i "%~2"=="${hook}" (set "profile=${profile}"${bundle})`;
  });
  const commands = Object.entries(COMMAND_PROFILES).map(([command, profile]) =>
    `if /i "%first%"=="${command}" set "profile=${profile}"`
  );
  const readOnly = Object.entries(READ_ONLY_PROFILES).map(([command, profile]) =>
    `if /i "%first%"=="${command}" for %%a in (%*) do if /i "%%~a"=="--read-only" ` +
    `set "profile=${profile}"`
  );
  const profiles = (Object.keys(PROFILES) as Profile[]).map((profile) =>
    `if "%profile%"=="${profile}" set "flags=${cmdFlags(profile)}"`
  );
  const binary = COMPILE_TARGETS["Windows x86_64"];
  return [
    "@echo off",
    "rem git-kb launcher, written by `deno task build` from app/permissions.ts: do not edit.",
    "setlocal",
    'set "here=%~dp0"',
    'if not defined KB_CLI set "KB_CLI="%here%git-kb.cmd""',
    `if exist "%here%git-kb-${binary}.exe" (`,
    `  "%here%git-kb-${binary}.exe" %*`,
    "  exit /b %errorlevel%",
    ")",
    "where deno >nul 2>nul",
    "if errorlevel 1 (",
    '  echo git-kb: Deno 2 is needed and was not found: install it with "npm install -g deno" ^(or see https://deno.com^), then retry. 1>&2',
    '  if /i "%~1"=="hook" exit /b 0',
    "  exit /b 1",
    ")",
    'set "judge=%KB_PROSE_LINT_CLAUDE%"',
    'if not defined judge set "judge=claude"',
    'set "cache=%TEMP%\\git-kb"',
    'if defined HOME set "cache=%HOME%\\.cache\\git-kb"',
    'if defined XDG_CACHE_HOME set "cache=%XDG_CACHE_HOME%\\git-kb"',
    'set "profile=read"',
    'set "bundle=git-kb.js"',
    'set "v8="',
    "call :command_word %*",
    `if /i "%~1"=="hook" set "v8=${HOOK_V8_FLAGS.join(" ")}"`,
    ...commands,
    ...readOnly,
    ...hooks,
    ...profiles,
    'deno run --quiet --no-prompt --no-config %v8% %flags% "%here%%bundle%" %*',
    "exit /b %errorlevel%",
    "rem The command word, as app/main.ts finds it: past --kb <dir> and the other options before it.",
    ":command_word",
    'set "first="',
    'set "word=%~1"',
    "if not defined word exit /b 0",
    'if /i "%word%"=="--kb" (',
    "  shift",
    "  shift",
    "  goto command_word",
    ")",
    'if "%word:~0,1%"=="-" if not "%word%"=="-" (',
    "  shift",
    "  goto command_word",
    ")",
    'set "first=%word%"',
    "exit /b 0",
    "",
  ].join("\r\n");
}

async function deno(args: string[]): Promise<void> {
  const result = await runProcess("deno", args, { cwd: ROOT });
  if (result.code !== 0) {
    throw new Error(`deno ${args.join(" ")} failed:\n${result.stderr || result.stdout}`);
  }
}

/**
 * `--node-modules-dir` puts js-yaml under `./node_modules`: the bundler names a chunk by a hash
 * that takes in its sources' paths, and a path into the global cache depends on where the
 * checkout sits, so without it a clone elsewhere builds other chunk names.
 */
const BUNDLE_FLAGS = [
  "bundle",
  "--quiet",
  "--node-modules-dir=auto",
  "--platform",
  "deno",
  "--minify",
];

/**
 * Bundle `entry` (a path) into `outdir` as a hot hook's bundle is made: split at its lazy imports,
 * the entry's own file named after it (`hooks/prompt.ts` → `prompt.js`).
 */
export async function bundleSplit(entry: string, outdir: string): Promise<void> {
  await deno([...BUNDLE_FLAGS, "--code-splitting", "--outdir", outdir, entry]);
}

/** Write the bundles and both launchers into `dir`. */
export async function build(dir: string): Promise<void> {
  Deno.mkdirSync(dir, { recursive: true });
  await deno([...BUNDLE_FLAGS, "-o", join(dir, "git-kb.js"), ENTRY]);
  try {
    Deno.removeSync(join(dir, "hooks"), { recursive: true });
  } catch { /* no earlier hook bundles */ }
  for (const [name, module] of Object.entries(HOT_HOOKS)) {
    await bundleSplit(join(ROOT, module), join(dir, "hooks", name));
  }
  for (const module of Object.values(OWN_BUNDLE_COMMANDS)) {
    const own = join(dir, ownBundleDir(module));
    try {
      Deno.removeSync(own, { recursive: true });
    } catch { /* no earlier bundle */ }
    await bundleSplit(join(ROOT, module), own);
  }
  Deno.writeTextFileSync(join(dir, "git-kb"), shLauncher(), { mode: 0o755 });
  Deno.chmodSync(join(dir, "git-kb"), 0o755);
  Deno.writeTextFileSync(join(dir, "git-kb.cmd"), cmdLauncher());
}

/** `deno.json`, whose entry-point tasks `deno task build` writes from app/registry.ts. */
export const DENO_JSON: string = join(ROOT, "deno.json");

/** A `deno.json` task: its command line, or that with a description `deno task` lists. */
export type DenoTask = string | { description: string; command: string };

/** The task that runs a module with a profile's flags: `deno task profile:read hooks/prompt.ts`. */
export function profileTask(profile: Profile): string {
  return `profile:${profile}`;
}

/**
 * The task every profile's task runs through: `deno run --no-prompt` with read access to the
 * variables git-kb reads, the one flag all profiles share, so that it is written once.
 */
export const ENV_TASK = "profile:env";

/**
 * The write permission to the cache root in a task: `deno task` has no `${VAR:-default}`, so the
 * root (`XDG_CACHE_HOME` first, as `cacheRootFor` in io/paths.ts works it out) is printed by
 * app/cache_root.ts. When it cannot be, Deno refuses the empty path and the task stops.
 */
export const TASK_CACHE_WRITE = `"--allow-write=$(deno run --quiet --no-prompt ${
  CACHE_ROOT_FLAGS.join(" ")
} app/cache_root.ts)"`;

/** A profile's flags besides {@link ENV_FLAG}; a profile that reads more variables names them. */
function flagsBesideEnv(profile: Profile): string[] {
  return PROFILES[profile].flatMap((flag): string[] => {
    if (flag === ENV_FLAG) return [];
    if (flag === CACHE_WRITE) return [TASK_CACHE_WRITE];
    if (flag.startsWith(`${ENV_FLAG},`)) return [`--allow-env=${flag.slice(ENV_FLAG.length + 1)}`];
    return [flag];
  });
}

/** What `deno task` lists for a generated task: where it comes from, and what it does. */
function generated(what: string): string {
  return `Generated by \`deno task build\` from app/permissions.ts: ${what}`;
}

/**
 * The `deno.json` tasks `deno task build` writes: {@link ENV_TASK}; one task per permission
 * profile in use, which adds the profile's other flags to it (both described as generated, so
 * `deno task` says so); and for each command (`deno task search …`) and each hook (`deno task
 * hook:prompt`) one short line that runs its module through its profile's task. Each flag is
 * written once per profile, and the list of variables once.
 */
export function entryPointTasks(): Record<string, DenoTask> {
  const entries: [string, Profile, string][] = [
    ...Object.entries(COMMANDS).map(([name, command]): [string, Profile, string] => [
      name,
      command.profile,
      `app/main.ts ${name}`,
    ]),
    ...Object.entries(READ_ONLY_PROFILES).map(([name, profile]): [string, Profile, string] => [
      `${name}:read-only`,
      profile,
      `app/main.ts ${name} --read-only`,
    ]),
    ...Object.entries(HOOKS).map(([name, hook]): [string, Profile, string] => [
      `hook:${name}`,
      hook.profile,
      hook.module,
    ]),
  ];
  const profiles = [...new Set(entries.map(([, profile]) => profile))].map((profile) => [
    profileTask(profile),
    {
      description: generated(`${ENV_TASK} with the ${profile} profile's other flags`),
      command: `deno task --quiet ${ENV_TASK} ${flagsBesideEnv(profile).join(" ")}`,
    },
  ]);
  return Object.fromEntries([
    [ENV_TASK, {
      description: generated("deno run with the variables git-kb reads, for every profile"),
      command: `deno run --no-prompt ${ENV_FLAG}`,
    }],
    ...profiles,
    ...entries.map((
      [name, profile, target],
    ) => [name, `deno task --quiet ${profileTask(profile)} ${target}`]),
  ]);
}

/**
 * The text of `deno.json` given its current `text`: the generated tasks first, as
 * {@link entryPointTasks} writes them, then the developer tasks (test, build, bench…) as they are.
 * A generated task no longer called for (`profile:…`, `hook:…`, or one running app/main.ts) goes.
 */
export function denoJsonWithTasks(text: string): string {
  const config = JSON.parse(text);
  const generated = entryPointTasks();
  const isGenerated = (name: string, task: DenoTask) =>
    Object.hasOwn(generated, name) || /^(profile|hook):/.test(name) ||
    (typeof task === "string" ? task : task.command).includes(" app/main.ts ");
  const own = Object.entries(config.tasks as Record<string, DenoTask>).filter(([name, task]) =>
    !isGenerated(name, task)
  );
  config.tasks = { ...generated, ...Object.fromEntries(own) };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** Every file under `path` (itself when it is a file), relative to `dir`. */
function filesUnder(dir: string, path: string): string[] {
  try {
    if (Deno.statSync(join(dir, path)).isFile) return [path];
    return [...Deno.readDirSync(join(dir, path))].flatMap((item) =>
      filesUnder(dir, `${path}/${item.name}`)
    );
  } catch {
    return [];
  }
}

function readText(path: string): string | undefined {
  return ifExists(() => Deno.readTextFileSync(path));
}

/** The built files that differ between `plugin/bin/` (or `bin`) and a fresh build. */
export async function staleFiles(bin = BIN): Promise<string[]> {
  const fresh = Deno.makeTempDirSync({ prefix: "git-kb-build-" });
  try {
    await build(fresh);
    const names = new Set(
      BUILT_FILES.flatMap((name) => [...filesUnder(fresh, name), ...filesUnder(bin, name)]),
    );
    return [...names].sort().filter((name) =>
      readText(join(bin, name)) !== readText(join(fresh, name))
    );
  } finally {
    Deno.removeSync(fresh, { recursive: true });
  }
}

/** Compile one binary per target, with every profile's permissions joined (see the README). */
async function compile(): Promise<number> {
  const flags = [
    "--allow-read",
    "--allow-write",
    ENV_FLAG,
    "--allow-run=git,claude",
  ];
  let failed = 0;
  for (const target of new Set(Object.values(COMPILE_TARGETS))) {
    const output = join(BIN, `git-kb-${target}`);
    try {
      await deno([
        "compile",
        "--quiet",
        ...flags,
        // A command with a bundle of its own is loaded by a computed specifier: named here.
        ...Object.values(OWN_BUNDLE_COMMANDS).flatMap((module) => ["--include", module]),
        "--target",
        target,
        "--output",
        output,
        ENTRY,
      ]);
      console.log(`built ${output}`);
    } catch (error) {
      failed++;
      const lines = (error as Error).message.split("\n").map((line) => line.trim());
      const reason = lines.find((line) => /error sending request|^1: /.test(line)) ??
        lines.find((line) => line.startsWith("error:")) ?? lines[0];
      console.error(`could not compile for ${target}: ${reason.replace(/^\d+: /, "")}`);
    }
  }
  if (failed) {
    console.error(
      "deno compile downloads a Deno runtime per target; without network access to dl.deno.land" +
        " it cannot work. The plugin runs the bundle with deno instead.",
    );
  }
  return failed ? 1 : 0;
}

if (import.meta.main) {
  const flags = parseArgs(Deno.args, { boolean: ["check", "compile"] });
  if (flags.compile) Deno.exit(await compile());
  if (flags.check) {
    const stale = (await staleFiles()).map((name) => `plugin/bin/${name}`);
    if (readText(HOOKS_JSON) !== pluginHooksJson()) stale.push("plugin/hooks/hooks.json");
    const config = Deno.readTextFileSync(DENO_JSON);
    if (config !== denoJsonWithTasks(config)) stale.push("the tasks of deno.json");
    if (stale.length) {
      console.error(`stale: ${stale.join(", ")}: run \`deno task build\` and commit it`);
      Deno.exit(1);
    }
    console.log("plugin/bin/, plugin/hooks/hooks.json and the tasks of deno.json are up to date");
  } else {
    // First: the bundle embeds hooks.json (git-kb setup reads it) and deno.json (the version).
    Deno.writeTextFileSync(HOOKS_JSON, pluginHooksJson());
    Deno.writeTextFileSync(DENO_JSON, denoJsonWithTasks(Deno.readTextFileSync(DENO_JSON)));
    await build(BIN);
    console.log(
      `wrote ${
        BUILT_FILES.map((name) => `plugin/bin/${name}`).join(", ")
      }, plugin/hooks/hooks.json, the tasks of deno.json`,
    );
  }
}
