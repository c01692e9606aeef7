/**
 * The plugin's hooks, declared once: `deno task build` writes `plugin/hooks/hooks.json` from
 * {@link PLUGIN_HOOKS} (and `--check` fails when the committed file differs), and `git-kb setup`
 * derives its settings entries from that file.
 *
 * A hook that reads Bash commands names the commands it acts on as permission rules: Claude Code
 * starts it only when some subcommand of the call matches one (a command it cannot parse starts
 * it anyway), so an everyday Bash call starts no git-kb process. A rule takes one pattern, so
 * each becomes a handler of its own; a call matching two rules of one hook starts it twice
 * (Claude Code de-duplicates handlers by command and rule together), and a command the client
 * cannot parse (a `for` loop, a here-document) starts every handler: so each hook has as few
 * rules as cover what it reads.
 *
 * @module
 */
import type { HookName } from "./registry.ts";

/** One hook of the plugin, run as `git-kb hook <verb>`. */
export interface PluginHook {
  /** The launcher's hook verb, a name of app/registry.ts. */
  verb: HookName;
  /** The Claude Code event it runs on. */
  event:
    | "UserPromptSubmit"
    | "PreToolUse"
    | "PostToolUse"
    | "SessionStart"
    | "SessionEnd"
    | "PreCompact";
  /** Seconds Claude Code waits for it (or, run in the background, lets it run). */
  timeout: number;
  /** The tools it runs for on every call (a matcher); unset: every call of its event. */
  tools?: string;
  /** The session sources it runs for (SessionStart's matcher: `startup|resume`). */
  sources?: string;
  /** Claude Code runs it in the background: the session never waits for it. */
  async?: boolean;
  /** The Bash commands it acts on, as the patterns of `Bash(…)` rules; none: never for Bash. */
  bash?: readonly string[];
}

/**
 * Every hook, in the order of its groups. The Bash rules cover what the hooks read: the judge,
 * commit messages (`git commit`, with git's own options before it) and the gh and glab commands
 * that post text (core/judge/prose.ts; one rule per program, not per pr/mr/issue group); the search augment, rg, grep and its variants,
 * git grep and find, also run through xargs or find -exec (core/search_augment/commands.ts); the receipts,
 * a run of git-kb; the fetch hook, a run of git-kb too (it decides on `get` alone). A leading `*` also takes in a path, a wrapper or an assignment before the
 * program (`/usr/bin/grep`, `sudo git commit`, `LC_ALL=C grep`).
 */
export const PLUGIN_HOOKS: readonly PluginHook[] = [
  { verb: "prompt", event: "UserPromptSubmit", timeout: 10 },
  {
    verb: "judge",
    event: "PreToolUse",
    timeout: 60,
    tools:
      "Write|Edit|MultiEdit|NotebookEdit|.*(Comment|Review|Revision|Issue|Ticket|PullRequest).*",
    bash: ["*git *commit*", "*gh *", "*glab *"],
  },
  {
    verb: "search",
    event: "PreToolUse",
    timeout: 10,
    tools: "Grep|Glob",
    bash: ["*rg *", "*grep *", "*find *"],
  },
  { verb: "subagent", event: "PreToolUse", timeout: 10, tools: "Task|Agent" },
  { verb: "fetch", event: "PreToolUse", timeout: 10, bash: ["*git-kb*"] },
  { verb: "receipts", event: "PostToolUse", timeout: 10, bash: ["*git-kb*"] },
  { verb: "session", event: "SessionStart", timeout: 30, sources: "startup|resume", async: true },
  // Claude Code lets a background hook run past its timeout (2.1.197); the watch's own bound is
  // 12 hours, and the timeout says the same to a client that enforces it.
  {
    verb: "watch",
    event: "SessionStart",
    timeout: 43_200,
    sources: "startup|resume|clear",
    async: true,
  },
  // In the foreground: the kernel rules after a compaction; at a startup, once per machine, how to
  // connect a knowledge base when none is (one stat of the cache root once that is settled).
  { verb: "compact", event: "SessionStart", timeout: 10, sources: "startup|compact" },
  // In the foreground and quick: it reads the transcript's end and, when the session fixed
  // something, starts the capture worker detached, which outlives the client's end.
  { verb: "capture", event: "SessionEnd", timeout: 10 },
  { verb: "capture", event: "PreCompact", timeout: 10 },
];

/** What the plugin's hooks do, for the `description` of hooks.json. */
const DESCRIPTION = "git-kb: surface knowledge-base pointers on each prompt, on code searches " +
  "and in subagent prompts, judge prose before it is published, let the agent fetch entries by " +
  "id without an approval prompt, note which pointers get fetched, fast-forward the knowledge " +
  "base when a session starts, keep its index up to date while the session lasts, restore its " +
  "kernel rules after a compaction, say once how to connect a knowledge base when none is, and " +
  "at a session's end or compaction offer what it fixed as proposals for review";

interface Handler {
  type: "command";
  command: string;
  if?: string;
  timeout: number;
  async?: true;
}

interface Group {
  matcher?: string;
  hooks: Handler[];
}

function handler(hook: PluginHook, rule?: string): Handler {
  // A background hook replaces the client's shell (`exec`): then the client is its parent, which
  // tells it when the client is gone and keys one watch per client (io/hook/session_alive.ts),
  // and a SIGTERM the client sends it reaches deno, not a shell that waits for it (dash).
  const exec = hook.async ? "exec " : "";
  const command = `${exec}"\${CLAUDE_PLUGIN_ROOT}/bin/git-kb" hook ${hook.verb}`;
  const background = hook.async ? { async: true as const } : {};
  return rule === undefined
    ? { type: "command", command, timeout: hook.timeout, ...background }
    : { type: "command", command, if: `Bash(${rule})`, timeout: hook.timeout };
}

/**
 * An event's groups: one per hook with tools or sources (its matcher), then one Bash group with
 * every Bash rule.
 */
function eventGroups(hooks: readonly PluginHook[]): Group[] {
  const groups: Group[] = hooks.filter((hook) => hook.bash === undefined || hook.tools)
    .map((hook) => {
      const matcher = hook.tools ?? hook.sources;
      return { ...(matcher === undefined ? {} : { matcher }), hooks: [handler(hook)] };
    });
  const bash = hooks.flatMap((hook) => (hook.bash ?? []).map((rule) => handler(hook, rule)));
  return bash.length ? [...groups, { matcher: "Bash", hooks: bash }] : groups;
}

/** The text of `plugin/hooks/hooks.json` for `hooks`. */
export function pluginHooksJson(hooks: readonly PluginHook[] = PLUGIN_HOOKS): string {
  const events: Record<string, Group[]> = {};
  for (const event of new Set(hooks.map((hook) => hook.event))) {
    events[event] = eventGroups(hooks.filter((hook) => hook.event === event));
  }
  return `${JSON.stringify({ description: DESCRIPTION, hooks: events }, null, 2)}\n`;
}
