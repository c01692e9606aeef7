/**
 * The developer task behind `deno task build` (not a `git-kb` command): bundle the CLI and
 * hooks into `plugin/bin/git-kb.js`, bundle each hot hook (see {@link HOT_HOOKS}) on its own
 * under `plugin/bin/hooks/`, and write the launchers `plugin/bin/git-kb` (POSIX sh) and
 * `plugin/bin/git-kb.cmd` (Windows) with each entry point's permission flags, taken from
 * `app/permissions.ts`; and write `plugin/hooks/hooks.json` from `app/plugin_hooks.ts`. `--check`
 * builds into a temp folder and fails when the committed files differ; `--compile` builds
 * per-platform binaries for a release.
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
import { join } from "../core/path.ts";
import { ifExists } from "../io/fs.ts";
import { runProcess } from "../io/process.ts";
import {
  CACHE_ROOT,
  COMMAND_PROFILES,
  HOOK_PROFILES,
  HOOK_V8_FLAGS,
  PROFILES,
} from "../app/permissions.ts";
import { pluginHooksJson } from "../app/plugin_hooks.ts";
import { COMMANDS, HOOKS } from "../app/registry.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url)).replace(/\/$/, "");
const BIN = join(ROOT, "plugin", "bin");
const ENTRY = join(ROOT, "app", "launch.ts");

/** The plugin's hooks file, written from `app/plugin_hooks.ts`. */
export const HOOKS_JSON: string = join(ROOT, "plugin", "hooks", "hooks.json");

/** The files and folders `deno task build` writes into `plugin/bin/`. */
export const BUILT_FILES = ["git-kb.js", "git-kb", "git-kb.cmd", "hooks"] as const;

/**
 * The hooks with a bundle of their own (`ownBundle` in app/registry.ts), by the name the launcher
 * is given, with their entry module: `plugin/bin/hooks/<name>/<module>.js`. The bundles are split
 * at the one lazy import on their path, the entry parser (and the YAML library with it), which
 * only an index rebuild loads.
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

/**
 * A profile's flags as sh words: the cache root from `$cache`, the run permission of `add` and
 * `edit` with `$editor` (empty, or a comma and the editor's program), the judge's program from
 * `$judge`. A word that expands a variable is double-quoted, so its value stays one word.
 */
function shFlags(profile: Profile): string {
  return PROFILES[profile].map((flag) =>
    flag.replace(CACHE_ROOT, "$cache").replace(/^(--allow-run=git(?:,kill)?)$/, "$1$editor")
      .replace("--allow-run=claude", "--allow-run=$judge")
  ).map((flag) => flag.includes("$") ? `"${flag}"` : flag).join(" ");
}

/** The same for cmd.exe: the cache root from `%cache%`. */
function cmdFlags(profile: Profile): string {
  return PROFILES[profile].map((flag) =>
    flag.replace(CACHE_ROOT, "%cache%").replace("--allow-run=claude", "--allow-run=%judge%")
  ).join(" ");
}

/** `case` arms of the sh launcher: the profile of each command, and of each hook. */
function shCases(): string {
  const byProfile = new Map<Profile, string[]>();
  for (const [command, profile] of Object.entries(COMMAND_PROFILES)) {
    byProfile.set(profile, [...byProfile.get(profile) ?? [], command]);
  }
  const commands = [...byProfile].map(([profile, names]) =>
    `  ${names.join("|")}) profile=${profile} ;;`
  );
  const hooks = Object.entries(HOOK_PROFILES).map(([hook, profile]) =>
    HOT_HOOKS[hook]
      ? `      ${hook}) profile=${profile} bundle=${hotHookBundle(hook)} ;;`
      : `      ${hook}) profile=${profile} ;;`
  );
  return [
    "  hook)",
    `    v8="${HOOK_V8_FLAGS.join(" ")}"`,
    '    case "${2:-}" in',
    ...hooks,
    "      *) profile=read ;;",
    "    esac ;;",
    ...commands,
    "  *) profile=read ;;",
  ].join("\n");
}

/** The POSIX launcher. */
export function shLauncher(): string {
  const profiles = (Object.keys(PROFILES) as Profile[]).map((profile) =>
    `  ${profile}) set -- ${shFlags(profile)} "$here/$bundle" "$@" ;;`
  );
  const targets = Object.entries(COMPILE_TARGETS).filter(([os]) => !os.startsWith("Windows"))
    .map(([os, target]) => `  "${os}") target=${target} ;;`);
  return `#!/bin/sh
# git-kb launcher, written by \`deno task build\` from app/permissions.ts: do not edit.
# Runs a compiled binary when one sits beside this script, else \`deno run\` on git-kb.js (or a
# hot hook's own bundle) with the least-privilege flags of the command or hook asked for.
# Forks as little as it can: a hook pays for every process started here. Evaluates nothing it is
# given: every value from the environment reaches deno as one word of its argument list.
self=$0
while [ -L "$self" ]; do
  link=$(readlink "$self")
  case "$link" in
    /*) self=$link ;;
    *) self=\${self%/*}/$link ;;
  esac
done
case "$self" in
  */*) here=\${self%/*} ;;
  *) here=. ;;
esac
case "$here" in
  /*) ;;
  *) here=$(CDPATH= cd -- "$here" && pwd) ;;
esac
# The command that reaches this launcher, as printed fetch commands spell it: one sh word, quoted
# as core/shell/quote.ts quotes (inside '…', each ' written '\\''), so that a pasted line runs
# this launcher and nothing else, whatever its path holds.
if [ -z "\${KB_CLI:-}" ]; then
  KB_CLI=$here/git-kb
  case "$KB_CLI" in
    *[!A-Za-z0-9_./:=@%+,-]*)
      q="'"
      rest=$KB_CLI
      KB_CLI=
      while :; do
        case "$rest" in
          *$q*) ;;
          *) break ;;
        esac
        KB_CLI=$KB_CLI\${rest%%$q*}$q\\\\$q$q
        rest=\${rest#*$q}
      done
      KB_CLI=$q$KB_CLI$rest$q ;;
  esac
fi
export KB_CLI
# The command word, as app/main.ts finds it: past the options it reads before the command
# (--kb <dir>, --kb=<dir>, --help, --version, and the unknown ones it reports). A hook is only
# ever \`hook <name>\` from the first word on (app/launch.ts). A loop of builtins: no fork.
first=\${1:-}
case "$first" in
  -?*)
    first=
    skip=
    for word in "$@"; do
      if [ -n "$skip" ]; then
        skip=
        continue
      fi
      case "$word" in
        --kb) skip=1 ;;
        -?*) ;;
        hook) break ;;
        *)
          first=$word
          break ;;
      esac
    done ;;
esac

for binary in "$here"/git-kb-*; do
  [ -x "$binary" ] || continue
  case "$(uname -s) $(uname -m)" in
${targets.map((line) => "  " + line).join("\n")}
    *) break ;;
  esac
  [ -x "$here/git-kb-$target" ] && exec "$here/git-kb-$target" "$@"
  break
done

deno=
command -v deno >/dev/null 2>&1 && deno=deno
for candidate in "\${DENO_INSTALL:-$HOME/.deno}/bin/deno" "$HOME/.deno/bin/deno"; do
  [ -n "$deno" ] && break
  [ -x "$candidate" ] && deno=$candidate
done
if [ -z "$deno" ]; then
  echo "git-kb: Deno 2 is needed and was not found: install it with \\"npm install -g deno\\" (or see https://deno.com), then retry." >&2
  [ "$first" = hook ] && exit 0
  exit 1
fi

# Deno splits its permission lists on commas, with no escape: a path holding one cannot be
# granted. A hook then stays silent (it fails open); a command says why, in one line.
refuse() {
  [ "$first" = hook ] && exit 0
  echo "git-kb: $1 has a comma, which Deno's permission flags cannot hold (they split on commas): $2, then retry." >&2
  exit 1
}

# The cache root, as cacheRootFor in io/paths.ts works it out: the one folder the read-only
# profiles may write. Only without HOME does it cost a process (id -u).
case "\${XDG_CACHE_HOME:-}" in
  /*) cache=\${XDG_CACHE_HOME%/}/git-kb ;;
  *)
    if [ -n "\${HOME:-}" ]; then
      cache=\${HOME%/}/.cache/git-kb
    else
      cache=\${TMPDIR:-\${TEMP:-\${TMP:-/tmp}}}
      cache=\${cache%/}/git-kb-$(id -u)
    fi ;;
esac
case "$cache" in
  *,*) refuse "the cache folder $cache" "set XDG_CACHE_HOME to a folder whose path has none" ;;
esac

bundle=git-kb.js
v8=
case "$first" in
${shCases()}
esac
judge=
editor=
case "$profile" in
  judge)
    judge=\${KB_PROSE_LINT_CLAUDE:-claude}
    case "$judge" in
      *,*) refuse "KB_PROSE_LINT_CLAUDE ($judge)" "name the judge binary by a path without one" ;;
    esac ;;
esac
case "$first" in
  add|edit)
    editor=\${VISUAL:-\${EDITOR:-}}
    editor=\${editor%% *}
    case "$editor" in
      *,*) refuse "the editor $editor" "set VISUAL or EDITOR to a program whose path has none" ;;
    esac
    editor=\${editor:+,$editor} ;;
esac
case "$profile" in
${profiles.join("\n")}
esac
# --no-config: the user's own deno.json (hooks run in their project) must not apply here;
# --quiet: Deno's own notes (an --allow-run program not on PATH) are not ours to print;
# $v8: the hooks' V8 settings (HOOK_V8_FLAGS in app/permissions.ts), one word or none.
exec "$deno" run --quiet --no-prompt --no-config \${v8:+"$v8"} "$@"
`;
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
  Deno.writeTextFileSync(join(dir, "git-kb"), shLauncher(), { mode: 0o755 });
  Deno.chmodSync(join(dir, "git-kb"), 0o755);
  Deno.writeTextFileSync(join(dir, "git-kb.cmd"), cmdLauncher());
}

/** `deno.json`, whose entry-point tasks `deno task build` writes from app/registry.ts. */
export const DENO_JSON: string = join(ROOT, "deno.json");

/**
 * The `deno.json` task of each command (`deno task search …`) and each hook (`deno task
 * hook:prompt`), with the flags of its permission profile.
 */
export function entryPointTasks(): Record<string, string> {
  const run = (profile: Profile, target: string) =>
    `deno run ${["--no-prompt", ...PROFILES[profile]].join(" ")} ${target}`;
  return Object.fromEntries([
    ...Object.entries(COMMANDS).map((
      [name, command],
    ) => [name, run(command.profile, `app/main.ts ${name}`)]),
    ...Object.entries(HOOKS).map((
      [name, hook],
    ) => [`hook:${name}`, run(hook.profile, hook.module)]),
  ]);
}

/**
 * The text of `deno.json` given its current `text`: the entry-point tasks first, as
 * {@link entryPointTasks} writes them, then the developer tasks (test, build, bench…) as they are.
 * A task of an entry point that is no longer in the registry (`hook:…`, or one running
 * app/main.ts) goes.
 */
export function denoJsonWithTasks(text: string): string {
  const config = JSON.parse(text);
  const generated = entryPointTasks();
  const own = Object.entries(config.tasks as Record<string, string>).filter(([name, task]) =>
    !Object.hasOwn(generated, name) && !name.startsWith("hook:") && !task.includes(" app/main.ts ")
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
    PROFILES.read.find((flag) => flag.startsWith("--allow-env="))!,
    "--allow-run=git,claude",
  ];
  let failed = 0;
  for (const target of new Set(Object.values(COMPILE_TARGETS))) {
    const output = join(BIN, `git-kb-${target}`);
    try {
      await deno(["compile", "--quiet", ...flags, "--target", target, "--output", output, ENTRY]);
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
  if (Deno.args.includes("--compile")) Deno.exit(await compile());
  if (Deno.args.includes("--check")) {
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
