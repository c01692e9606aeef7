/**
 * The Deno permissions each entry point needs, written once. `deno.json` tasks and the plugin
 * launcher spell out the same flags; a test keeps them in step.
 *
 * @module
 */

/** Environment variables git-kb reads. */
export const ENV_VARS = [
  "KB_DIR",
  "CLAUDE_PLUGIN_DATA",
  "XDG_CONFIG_HOME",
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
  "KB_CLI",
  "CLAUDE_PLUGIN_ROOT",
  "KB_PROSE_LINT",
  "KB_PROSE_LINT_MODEL",
  "KB_PROSE_LINT_TIMEOUT_MS",
  "KB_PROSE_LINT_CLAUDE",
  "GIT_KB_JUDGE",
] as const;

/** Where the cache may be written: the temp dir's git-kb folder (TMPDIR, else /tmp). */
export const CACHE_WRITE = "/tmp/git-kb,$TMPDIR/git-kb";

/** Permission profiles by what an entry point does. */
export const PROFILES = {
  /** Reads the knowledge base, writes only the cache: search, get, index, context, stats. */
  read: ["--allow-read", `--allow-write=${CACHE_WRITE}`, `--allow-env=${ENV_VARS.join(",")}`],
  /** Also asks git about the repo and its remote: doctor. */
  check: [
    "--allow-read",
    `--allow-write=${CACHE_WRITE}`,
    `--allow-env=${ENV_VARS.join(",")}`,
    "--allow-run=git",
  ],
  /** Writes entries (whose folder is known only at run time), commits and pushes: init, add, edit, rm. */
  save: ["--allow-read", "--allow-write", `--allow-env=${ENV_VARS.join(",")}`, "--allow-run=git"],
  /**
   * Makes a scratch knowledge base under the cache folder, asks git about it and about the
   * user's own, and runs the CLI and hooks as `deno run` subprocesses with their own profiles:
   * selftest.
   */
  selftest: [
    "--allow-read",
    `--allow-write=${CACHE_WRITE}`,
    `--allow-env=${ENV_VARS.join(",")}`,
    "--allow-run=git,deno",
  ],
  /** Writes agent settings files under HOME or the project (known only at run time): setup. */
  setup: ["--allow-read", "--allow-write", `--allow-env=${ENV_VARS.join(",")}`],
  /**
   * The prose judge hook: reads the knowledge base, writes the cache (index, verdicts) and runs
   * the judge model. `claude` stands for the configured binary (`KB_PROSE_LINT_CLAUDE`): see
   * {@link judgeFlags}.
   */
  judge: [
    "--allow-read",
    `--allow-write=${CACHE_WRITE}`,
    `--allow-env=${ENV_VARS.join(",")}`,
    "--allow-run=claude",
  ],
} as const;

/** The profile each command runs with. */
export const COMMAND_PROFILES: Record<string, keyof typeof PROFILES> = {
  init: "save",
  add: "save",
  edit: "save",
  rm: "save",
  search: "read",
  get: "check",
  index: "read",
  context: "read",
  stats: "read",
  eval: "read",
  doctor: "check",
  setup: "setup",
  selftest: "selftest",
};

/** The profile each hook runs with (`git-kb hook <name>`). */
export const HOOK_PROFILES: Record<string, keyof typeof PROFILES> = {
  prompt: "read",
  judge: "judge",
  search: "read",
  subagent: "read",
  receipts: "read",
};

/**
 * The V8 settings every hook runs with, before its permission flags: a young generation of 4 MiB
 * to start (V8's default is 1 MiB), so a prompt that fires allocates what it needs (about 1.5 MB
 * at 5,000 entries) without a garbage collection. Measured at 1.5–4 ms off a firing prompt, with
 * no change to a quiet one.
 */
export const HOOK_V8_FLAGS = ["--v8-flags=--min-semi-space-size=4"] as const;

/** The program of an editor command (`code --wait` → `code`), for a run permission. */
export function editorProgram(command: string | undefined): string | undefined {
  return command?.trim().split(/\s+/)[0] || undefined;
}

/**
 * The `deno run` flags for a command, with `$TMPDIR` filled in from `tmpdir`. `add` and `edit`
 * may open the user's editor: pass its command (`$VISUAL` or `$EDITOR`) to allow running it
 * beside git. Without it they run git only and say which flag `--edit` needs.
 */
export function flagsFor(command: string, tmpdir: string, editor?: string): string[] {
  const profile = COMMAND_PROFILES[command] ?? "save";
  const program = command === "add" || command === "edit" ? editorProgram(editor) : undefined;
  return [
    "--no-prompt",
    ...PROFILES[profile].map((flag) =>
      flag === "--allow-run=git" && program
        ? `--allow-run=git,${program}`
        : flag.replace("$TMPDIR", tmpdir)
    ),
  ];
}

/**
 * The `deno run` flags of the judge hook, with `$TMPDIR` filled in from `tmpdir` and the run
 * permission naming `claudeBin`, the binary the hook will start (`KB_PROSE_LINT_CLAUDE`, else
 * `claude`): Deno allows running a program only by the name or path it was granted.
 */
export function judgeFlags(tmpdir: string, claudeBin = "claude"): string[] {
  return [
    "--no-prompt",
    ...PROFILES.judge.map((flag) =>
      flag === "--allow-run=claude" ? `--allow-run=${claudeBin}` : flag.replace("$TMPDIR", tmpdir)
    ),
  ];
}
