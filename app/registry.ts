/**
 * Every entry point of git-kb, declared once: each CLI command and each hook with its name,
 * module, permission profile (see `PROFILES` in app/permissions.ts) and one-line summary. The
 * CLI's command table and dispatcher (app/main.ts), the plugin launcher (app/launch.ts), the
 * permission tables, the bundle build and the `deno.json` tasks (build/plugin.ts) and the plugin's
 * hooks (app/plugin_hooks.ts) all read it.
 *
 * Each entry loads its module through a literal `import("…")`, so the bundler sees every module
 * and the CLI evaluates only the one it runs.
 *
 * @module
 */
import type { CommandSpec } from "../cli/args.ts";
import type { SelfLauncher } from "../io/selftest/run.ts";
import type { PROFILES } from "./permissions.ts";

/** A permission profile's name. */
export type ProfileName = keyof typeof PROFILES;

/** What every command module exports. */
export interface CommandModule {
  /** The command's usage, options and positionals, declared once. */
  command: CommandSpec;
  /** The command's help text, printed by `--help`: `helpText(command)`. */
  help: string;
  /**
   * Run the command with its arguments; resolves to the exit code. `launcher` starts git-kb
   * itself as a subprocess (only selftest uses it).
   */
  run(args: string[], launcher: SelfLauncher): Promise<number>;
}

/** One `git-kb <name>` command. */
export interface CommandEntry {
  /** Its module, relative to the repository root (the `deno.json` task runs app/main.ts). */
  module: string;
  /** The permission profile it runs with. */
  profile: ProfileName;
  /** The narrower profile it runs with when given `--read-only`. */
  readOnlyProfile?: ProfileName;
  /**
   * It loads a large library the other commands have no use for (mcp's SDK), or is much code
   * that runs once in a while (init, setup, review, import's readers of other tools' notes), so it
   * gets a bundle of its own
   * (`plugin/bin/<name>/`), which the CLI's bundle loads when the command runs: see
   * {@link loadOwnBundle}.
   */
  ownBundle?: boolean;
  /** What it does, in one line of `git-kb --help`. */
  summary: string;
  /** Load its module. */
  load: () => Promise<CommandModule>;
}

/** One `git-kb hook <name>` hook. */
export interface HookEntry {
  /** Its entry module, relative to the repository root. */
  module: string;
  /** The permission profile it runs with. */
  profile: ProfileName;
  /** What it does, in one line. */
  summary: string;
  /**
   * It runs on nearly every turn, so it gets a bundle of its own (`plugin/bin/hooks/<name>/`):
   * every byte of a bundle is parsed on every start, and the CLI's is several times a hook's.
   */
  ownBundle?: boolean;
  /** Load its module and give its runner. */
  load: () => Promise<() => Promise<void>>;
}

/** Where a command's own bundle sits, relative to `plugin/bin/`: `cli/mcp.ts` → `mcp/mcp.js`. */
export function ownBundlePath(module: string): string {
  const name = module.split("/").pop()!.replace(/\.ts$/, "");
  return `${name}/${name}.js`;
}

/**
 * The module of a command with a bundle of its own: in the plugin's CLI bundle (where every
 * module's `import.meta.url` is the bundle's), that bundle beside it; from the sources, the
 * module. The specifier is computed, so the CLI's bundle leaves the command (and the library it
 * loads) out, and its start-up does not pay for parsing them.
 */
function loadOwnBundle(module: string): Promise<CommandModule> {
  const here = import.meta.url;
  const url = here.endsWith(".js")
    ? new URL(`./${ownBundlePath(module)}`, here)
    : new URL(`../${module}`, here);
  return import(url.href);
}

/** The commands, in the order `git-kb --help` lists them. */
export const COMMANDS = {
  init: {
    module: "cli/init.ts",
    profile: "save",
    ownBundle: true,
    summary: "connect or create a knowledge base repo",
    load: () => loadOwnBundle("cli/init.ts"),
  },
  add: {
    module: "cli/add.ts",
    profile: "save",
    summary: "add an entry (validate, write, commit, push, reindex)",
    load: () => import("../cli/add.ts"),
  },
  edit: {
    module: "cli/edit.ts",
    profile: "save",
    summary: "change an entry through the same save pipeline",
    load: () => import("../cli/edit.ts"),
  },
  promote: {
    module: "cli/promote.ts",
    profile: "save",
    summary: "copy an entry into another knowledge base, mark the original superseded",
    load: () => import("../cli/promote.ts"),
  },
  rm: {
    module: "cli/rm.ts",
    profile: "save",
    summary: "delete entries through the save pipeline",
    load: () => import("../cli/rm.ts"),
  },
  review: {
    module: "cli/review.ts",
    profile: "review",
    summary: "accept, edit or reject the proposals waiting on the git-kb/proposals branch",
    ownBundle: true,
    load: () => loadOwnBundle("cli/review.ts"),
  },
  sync: {
    module: "cli/sync.ts",
    profile: "save",
    summary: "fetch, replay local commits on top, push, reindex; say what came in and went out",
    load: () => import("../cli/sync.ts"),
  },
  import: {
    module: "cli/import.ts",
    profile: "save",
    ownBundle: true,
    summary: "bring a folder of notes (Obsidian, markdown, agent files) in, in one commit",
    load: () => loadOwnBundle("cli/import.ts"),
  },
  export: {
    module: "cli/export.ts",
    profile: "export",
    summary: "write kernel rules into AGENTS.md, CLAUDE.md, Cursor and Windsurf rules",
    load: () => import("../cli/export.ts"),
  },
  kernel: {
    module: "cli/kernel.ts",
    profile: "save",
    summary: "review the kernel rules and accept those waiting (a teammate's, a hand edit's)",
    load: () => import("../cli/kernel.ts"),
  },
  search: {
    module: "cli/search.ts",
    profile: "read",
    summary: "ranked lexical search, several queries fused",
    load: () => import("../cli/search.ts"),
  },
  get: {
    module: "cli/get.ts",
    profile: "check",
    summary: "print entries verbatim by id",
    load: () => import("../cli/get.ts"),
  },
  index: {
    module: "cli/index_cmd.ts",
    profile: "read",
    summary: "bring the index up to date and report",
    load: () => import("../cli/index_cmd.ts"),
  },
  context: {
    module: "cli/context.ts",
    profile: "read",
    summary: "what the prompt hook would add for a prompt",
    load: () => import("../cli/context.ts"),
  },
  stats: {
    module: "cli/stats.ts",
    profile: "read",
    summary: "summarise the prompt hook's debug log",
    load: () => import("../cli/stats.ts"),
  },
  eval: {
    module: "cli/eval.ts",
    profile: "read",
    summary: "score the hook and search against a golden file of prompts",
    load: () => import("../cli/eval.ts"),
  },
  doctor: {
    module: "cli/doctor.ts",
    // `doctor --fix --write` rewrites entries, whose folder is known only at run time.
    profile: "save",
    summary: "check config, git, remote, index and entries",
    load: () => import("../cli/doctor.ts"),
  },
  selftest: {
    module: "cli/selftest.ts",
    profile: "selftest",
    summary: "test git-kb end to end on a throwaway knowledge base",
    load: () => import("../cli/selftest.ts"),
  },
  mcp: {
    module: "cli/mcp.ts",
    profile: "save",
    readOnlyProfile: "read",
    ownBundle: true,
    summary: "serve the knowledge base to any agent as an MCP server (stdio)",
    load: () => loadOwnBundle("cli/mcp.ts"),
  },
  setup: {
    module: "cli/setup.ts",
    profile: "setup",
    ownBundle: true,
    summary: "wire git-kb's hooks (or, --mcp, its MCP server) into a coding agent",
    load: () => loadOwnBundle("cli/setup.ts"),
  },
} as const satisfies Record<string, CommandEntry>;

/**
 * How the capture hook and the watch hand a session's capture to the capture worker: started
 * detached, with its own profile (app/self_cli.ts), loaded only when a hand-off happens.
 */
async function captureHandOff(request: string): Promise<void> {
  const { startHookDetached } = await import("./self_cli.ts");
  await startHookDetached("capture-worker", request);
}

/** The hooks, by the name the launcher is given (`git-kb hook prompt`). */
export const HOOKS = {
  prompt: {
    module: "hooks/prompt.ts",
    profile: "read",
    summary: "surface knowledge-base pointers on each prompt",
    ownBundle: true,
    load: async () => (await import("../hooks/prompt.ts")).runPromptHook,
  },
  judge: {
    module: "hooks/judge.ts",
    profile: "judge",
    summary: "judge prose before it is published",
    load: async () => (await import("../hooks/judge.ts")).runJudgeHook,
  },
  search: {
    module: "hooks/search_augment.ts",
    profile: "read",
    summary: "surface pointers on code searches",
    ownBundle: true,
    load: async () => (await import("../hooks/search_augment.ts")).runSearchHook,
  },
  fetch: {
    module: "hooks/fetch_allow.ts",
    profile: "decide",
    summary: "let the agent fetch entries by id without an approval prompt",
    ownBundle: true,
    load: async () => (await import("../hooks/fetch_allow.ts")).runFetchHook,
  },
  subagent: {
    module: "hooks/subagent.ts",
    profile: "read",
    summary: "surface pointers in subagent prompts",
    load: async () => (await import("../hooks/subagent.ts")).runSubagentHook,
  },
  receipts: {
    module: "hooks/receipts.ts",
    profile: "read",
    summary: "note which pointers get fetched",
    load: async () => (await import("../hooks/receipts.ts")).runReceiptsHook,
  },
  session: {
    module: "hooks/session_start.ts",
    profile: "pull",
    summary: "fast-forward the knowledge base when a session starts",
    load: async () => {
      const { runSessionStartHook } = await import("../hooks/session_start.ts");
      return () => runSessionStartHook("pull");
    },
  },
  watch: {
    module: "hooks/watch.ts",
    profile: "handoff",
    summary: "keep the index up to date with in-place edits while a session lasts; at its end, " +
      "start the capture when it fixed something",
    load: async () => (await import("../hooks/watch.ts")).runWatchHook.bind(null, captureHandOff),
  },
  compact: {
    module: "hooks/session_start.ts",
    profile: "read",
    summary: "restore the kernel rules after a compaction; at the first startup with no " +
      "knowledge base, say how to connect one",
    load: async () => {
      const { runSessionStartHook } = await import("../hooks/session_start.ts");
      return () => runSessionStartHook("kernel");
    },
  },
  capture: {
    module: "hooks/capture.ts",
    profile: "handoff",
    summary: "at a session's end or compaction, when it fixed something, start the capture " +
      "of proposals in the background",
    load: async () =>
      (await import("../hooks/capture.ts")).runCaptureHook.bind(null, captureHandOff),
  },
  "capture-worker": {
    module: "hooks/capture_worker.ts",
    profile: "capture",
    summary: "distil a session's lessons into proposals for review (started by the capture hook)",
    load: async () => (await import("../hooks/capture_worker.ts")).runCaptureWorker,
  },
} as const satisfies Record<string, HookEntry>;

/** A command's name. */
export type CommandName = keyof typeof COMMANDS;

/** A hook's name. */
export type HookName = keyof typeof HOOKS;

/** Whether `name` is a command's name. */
export function isCommand(name: string): name is CommandName {
  return Object.hasOwn(COMMANDS, name);
}

/** Whether `name` is a hook's name. */
export function isHook(name: string): name is HookName {
  return Object.hasOwn(HOOKS, name);
}
