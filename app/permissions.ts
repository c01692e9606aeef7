/**
 * The Deno permissions each entry point needs, written once. `deno.json` tasks and the plugin
 * launcher spell out the same flags; a test keeps them in step.
 *
 * @module
 */
import { GIT_REPO_ENV } from "../core/git/repo_env.ts";
import { editorWords } from "../core/shell/editor.ts";
import { COMMANDS, HOOKS } from "./registry.ts";

/**
 * Environment variables git-kb reads; and git's own that point it at another repository, which
 * git-kb removes from its environment before it runs git (core/git/repo_env.ts).
 */
export const ENV_VARS = [
  "KB_DIR",
  "CLAUDE_PLUGIN_DATA",
  "XDG_CONFIG_HOME",
  "XDG_CACHE_HOME",
  "XDG_DATA_HOME",
  "HOME",
  "USERPROFILE",
  "TMPDIR",
  "TEMP",
  "TMP",
  "NO_COLOR",
  "VISUAL",
  "EDITOR",
  "KB_HOOK_DEBUG",
  "KB_HOOK_THRESHOLD",
  "KB_HOOK_MAX_ENTRIES",
  "KB_TEST_WATCH_PERIOD_MS",
  "KB_TEST_NETWORK_TIMEOUT_MS",
  "KB_CLI",
  "CLAUDE_PLUGIN_ROOT",
  "KB_PROSE_LINT",
  "KB_PROSE_LINT_MODEL",
  "KB_PROSE_LINT_TIMEOUT_MS",
  "KB_PROSE_LINT_CLAUDE",
  "GIT_KB_JUDGE",
  "GIT_KB_CAPTURE",
  "GIT_KB_CAPTURE_MODEL",
  "GIT_KB_CAPTURE_TIMEOUT_MS",
  "GIT_KB_CAPTURING",
  "KB_DENO",
  ...GIT_REPO_ENV,
] as const;

/**
 * The cache root in a profile's flags, spelled as `deno.json` tasks expand it (the default root,
 * under HOME: see `cacheRootFor` in io/paths.ts). {@link flagsFor} and the plugin launcher put
 * the real root in its place.
 */
export const CACHE_ROOT = "$HOME/.cache/git-kb";

/** Where the cache may be written: the per-user cache root only. */
export const CACHE_WRITE = `--allow-write=${CACHE_ROOT}`;

/**
 * What app/cache_root.ts needs to work out the cache root (`cacheRootFor` in io/paths.ts): the
 * variables it reads and the uid it falls back on.
 */
export const CACHE_ROOT_FLAGS = [
  "--allow-env=XDG_CACHE_HOME,HOME,TMPDIR,TEMP,TMP",
  "--allow-sys=uid",
] as const;

/** The one system fact git-kb asks: the uid that must own the cache root. */
const SYS_UID = "--allow-sys=uid";

/** Read access to the environment variables git-kb reads, and no others. */
const ENV = `--allow-env=${ENV_VARS.join(",")}`;

/** Permission profiles by what an entry point does. */
export const PROFILES = {
  /** Reads the knowledge base, writes only the cache: search, get, index, context, stats. */
  read: ["--allow-read", CACHE_WRITE, SYS_UID, ENV],
  /**
   * Reads the config to learn the knowledge bases' folders, and writes and runs nothing: the
   * fetch hook, whose answer lets a command run without asking.
   */
  decide: ["--allow-read", ENV],
  /** Also asks git about the repo and its remote: get. */
  check: ["--allow-read", CACHE_WRITE, SYS_UID, ENV, "--allow-run=git"],
  /**
   * Writes entries (whose folder is known only at run time), commits and pushes: init, add, edit,
   * rm, import, sync, and doctor (whose --fix --write rewrites entries, and which fetches). A
   * push or fetch that runs out of time is stopped with the processes it started, ssh or a
   * remote helper (`kill` signals git's process group).
   */
  save: ["--allow-read", "--allow-write", SYS_UID, ENV, "--allow-run=git,kill"],
  /**
   * Reviews proposals: writes the proposals branch with git (a temporary index under the cache
   * folder), and accepts a proposal through the save pipeline, which writes the entry file
   * (whose folder is known only at run time), commits and pushes (a push that runs out of time
   * is stopped with its process group, through `kill`); `review edit` also runs the editor
   * (see {@link flagsFor}): review.
   */
  review: ["--allow-read", "--allow-write", SYS_UID, ENV, "--allow-run=git,kill"],
  /**
   * Makes a scratch knowledge base under the cache folder, asks git about it and about the
   * user's own, and runs the CLI and hooks as `deno run` subprocesses with their own profiles
   * (`deno` stands for the Deno the launcher found, `KB_DENO`): selftest.
   */
  selftest: ["--allow-read", CACHE_WRITE, SYS_UID, ENV, "--allow-run=git,deno"],
  /**
   * Reads the index (writing the cache) and writes agent files in a project (known only at run
   * time): export.
   */
  export: ["--allow-read", "--allow-write", SYS_UID, ENV],
  /**
   * Writes agent settings files under HOME or the project (known only at run time), or the
   * `git-kb` link in ~/.local/bin, and reads PATH to say whether that folder is on it and SHELL
   * for the startup file that puts it there: setup.
   */
  setup: ["--allow-read", "--allow-write", `${ENV},PATH,SHELL`],
  /**
   * Fast-forwards the knowledge base's branch when a session starts: git changes the repo (the
   * save lock, in its git folder, is known only at run time), the index is rebuilt in the cache,
   * and a fetch that runs out of time is stopped with the processes it started (`kill` signals
   * git's process group): the session hook.
   */
  pull: ["--allow-read", "--allow-write", SYS_UID, ENV, "--allow-run=git,kill"],
  /**
   * The prose judge hook: reads the knowledge base, writes the cache (index, verdicts) and runs
   * the judge model. `claude` stands for the configured binary (`KB_PROSE_LINT_CLAUDE`): see
   * {@link judgeFlags}.
   */
  judge: ["--allow-read", CACHE_WRITE, SYS_UID, ENV, "--allow-run=claude,kill"],
  /**
   * Decides at a session's end or compaction whether it taught something, and if so starts the
   * capture worker as a detached `deno run` (`deno` stands for the Deno the launcher found,
   * `KB_DENO`): the capture hook, and the freshness watch (a read profile otherwise), which sees
   * the session end where the client runs no SessionEnd hook.
   */
  handoff: ["--allow-read", CACHE_WRITE, SYS_UID, ENV, "--allow-run=deno"],
  /**
   * The capture worker: reads the knowledge base and the session's transcript, runs the capture
   * model (`claude`: see {@link hookFlags}), and writes proposals as commits on the proposals
   * branch (git, in a folder known only at run time).
   */
  capture: ["--allow-read", "--allow-write", SYS_UID, ENV, "--allow-run=claude,git,kill"],
} as const;

/** The profile each command runs with, from app/registry.ts. */
export const COMMAND_PROFILES: Record<string, keyof typeof PROFILES> = Object.fromEntries(
  Object.entries(COMMANDS).map(([name, command]) => [name, command.profile]),
);

/**
 * The narrower profile a command runs with when given `--read-only` (`readOnlyProfile` in
 * app/registry.ts): mcp.
 */
export const READ_ONLY_PROFILES: Record<string, keyof typeof PROFILES> = Object.fromEntries(
  Object.entries(COMMANDS).flatMap(([name, command]) =>
    "readOnlyProfile" in command ? [[name, command.readOnlyProfile]] : []
  ),
);

/** The profile each hook runs with (`git-kb hook <name>`), from app/registry.ts. */
export const HOOK_PROFILES: Record<string, keyof typeof PROFILES> = Object.fromEntries(
  Object.entries(HOOKS).map(([name, hook]) => [name, hook.profile]),
);

/**
 * The V8 settings every hook runs with, before its permission flags: a young generation of 4 MiB
 * to start (V8's default is 1 MiB), so a prompt that fires allocates what it needs (about 1.5 MB
 * at 5,000 entries) without a garbage collection. Measured at 1.5–4 ms off a firing prompt, with
 * no change to a quiet one.
 */
export const HOOK_V8_FLAGS = ["--v8-flags=--min-semi-space-size=4"] as const;

/**
 * The program of an editor command, for a run permission: its first word as sh reads it
 * (`code --wait` → `code`, `"/opt/my ed/ed" -w` → `/opt/my ed/ed`); undefined for none, or for a
 * command io/editor.ts refuses to run (core/shell/editor.ts).
 */
export function editorProgram(command: string | undefined): string | undefined {
  if (command === undefined) return undefined;
  const read = editorWords(command);
  return read.refused === undefined ? read.program : undefined;
}

/**
 * Refuse a value bound for one of Deno's permission lists when it holds a comma: Deno splits the
 * lists on commas, with no escape, so `--allow-write=/a,b` would grant `/a` and `b`.
 */
export function checkPermissionWord(value: string, what: string): string {
  if (value.includes(",")) {
    throw new Error(
      `${what} ${value} has a comma, and Deno's permission flags cannot name such a path ` +
        `(they split on commas); use one without a comma`,
    );
  }
  return value;
}

/** The programs a profile's run permission names by a stand-in, and what they stand for. */
export interface RunPrograms {
  /** The model's binary (`KB_PROSE_LINT_CLAUDE`), for `claude`; default `claude`. */
  claude?: string;
  /** The Deno that runs git-kb (`KB_DENO`), for `deno`; default `deno`. */
  deno?: string;
}

/** A run permission with its stand-ins replaced by `programs`. */
function runFlag(flag: string, programs: RunPrograms): string {
  const names = flag.slice("--allow-run=".length).split(",").map((name) => {
    const given = name === "claude" ? programs.claude : name === "deno" ? programs.deno : undefined;
    const what = name === "claude" ? "the judge binary" : "the Deno binary";
    return given === undefined ? name : checkPermissionWord(given, what);
  });
  return `--allow-run=${names.join(",")}`;
}

/** A profile's flags with the cache root filled in, after `--no-prompt`. */
function profileFlags(
  profile: keyof typeof PROFILES,
  cacheRoot: string,
  run?: string,
  programs: RunPrograms = {},
): string[] {
  const root = checkPermissionWord(cacheRoot, "the cache folder");
  return [
    "--no-prompt",
    ...PROFILES[profile].map((flag) =>
      !flag.startsWith("--allow-run=")
        ? flag.replace(CACHE_ROOT, root)
        : run ?? runFlag(flag, programs)
    ),
  ];
}

/** The commands that may open the user's editor. */
export const EDITOR_COMMANDS: ReadonlySet<string> = new Set(["add", "edit", "review"]);

/**
 * The `deno run` flags for a command, with `cacheRoot` (see `cacheRootFor` in io/paths.ts) as
 * the one folder it may write besides what its profile allows. `add`, `edit` and `review` may
 * open the user's editor: pass its command (`$VISUAL` or `$EDITOR`) to allow running it beside git.
 * Without it they run git only and say which flag `--edit` needs. `readOnly`: the command is
 * given `--read-only`, and runs with its narrower profile where it has one.
 */
export function flagsFor(
  command: string,
  cacheRoot: string,
  editor?: string,
  readOnly = false,
): string[] {
  const profile = (readOnly ? READ_ONLY_PROFILES[command] : undefined) ??
    COMMAND_PROFILES[command] ?? "save";
  const program = EDITOR_COMMANDS.has(command) ? editorProgram(editor) : undefined;
  const run = program
    ? `--allow-run=git,kill,${checkPermissionWord(program, "the editor")}`
    : undefined;
  return profileFlags(profile, cacheRoot, run);
}

/**
 * The `deno run` flags of hook `name` (`git-kb hook <name>`), with `cacheRoot` filled in and the
 * run permission naming `programs` (the capture worker's model binary, the capture hook's Deno):
 * Deno allows running a program only by the name or path it was granted.
 */
export function hookFlags(name: string, cacheRoot: string, programs: RunPrograms = {}): string[] {
  return profileFlags(HOOK_PROFILES[name] ?? "read", cacheRoot, undefined, programs);
}

/**
 * The `deno run` flags of the judge hook, with `cacheRoot` filled in and the run permission
 * naming `claudeBin`, the binary the hook will start (`KB_PROSE_LINT_CLAUDE`, else `claude`):
 * Deno allows running a program only by the name or path it was granted.
 */
export function judgeFlags(cacheRoot: string, claudeBin = "claude"): string[] {
  return profileFlags("judge", cacheRoot, undefined, { claude: claudeBin });
}
