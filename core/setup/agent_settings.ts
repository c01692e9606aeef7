/**
 * Agent hook settings as data, for `git-kb setup`: which hook entries git-kb wants in an agent's
 * settings file, how to merge them into what is already there (keeping every other key, matcher
 * group and hook), and how to take them out again. Pure: no I/O. The change is shown with
 * core/text/unified_diff.ts.
 *
 * Our entries are recognised by their command, not by position: a command that runs a `git-kb`
 * launcher with `hook <verb>` (`"/any/path/plugin/bin/git-kb" hook prompt`) is ours, whatever
 * the path, so moving the checkout replaces the entry instead of adding a second one. One verb
 * may have several entries in an event, told apart by their `if` rule (the judge's Bash
 * handlers: one per command it reads).
 *
 * @module
 */
import { isAbsolute } from "../path.ts";
import { parseShell } from "../shell/words.ts";

/** Every agent `git-kb setup` knows. */
export const AGENTS = ["claude", "codex", "gemini", "cursor", "opencode"] as const;
/** An agent `git-kb setup` knows. */
export type Agent = typeof AGENTS[number];

/** The agents with a pre-prompt hook that setup writes into a settings file. */
export const HOOK_AGENTS = ["claude", "codex", "gemini"] as const;
/** An agent whose settings file setup edits. */
export type HookAgent = typeof HOOK_AGENTS[number];

/** One command hook (Claude Code's shape; Codex and Gemini CLI read the same fields). */
export interface CommandHook {
  type: "command";
  command: string;
  /** Seconds for Claude Code and Codex, milliseconds for Gemini CLI. */
  timeout?: number;
  /** Gemini CLI's handle for `/hooks enable|disable`. */
  name?: string;
  [field: string]: unknown;
}

/** A matcher group: the hooks that run for an event when the matcher fits. */
export interface MatcherGroup {
  matcher?: string;
  hooks: CommandHook[];
  [field: string]: unknown;
}

/** Matcher groups by event name, as under a settings file's `hooks` key. */
export type HookEvents = Record<string, MatcherGroup[]>;

/** The plugin's `hooks/hooks.json`. */
export interface PluginHooks {
  hooks: HookEvents;
}

/** A settings file's top-level object. */
export type Settings = Record<string, unknown>;

/** One of our hooks found in a settings file. */
export interface FoundHook {
  event: string;
  /** The launcher's hook verb: `prompt`, `judge`, … */
  verb: string;
  command: string;
}

/** Where each agent keeps its hooks, below the home folder (user scope) or the project. */
export const SETTINGS_FILES: Readonly<
  Record<HookAgent, { label: string; dir: string; file: string }>
> = {
  claude: { label: "Claude Code", dir: ".claude", file: "settings.json" },
  codex: { label: "Codex", dir: ".codex", file: "hooks.json" },
  gemini: { label: "Gemini CLI", dir: ".gemini", file: "settings.json" },
};

/** How the plugin's hook commands name the launcher; a settings file cannot use it. */
export const PLUGIN_LAUNCHER = "${CLAUDE_PLUGIN_ROOT}/bin/git-kb";

/** A settings file whose structure is not what the agent expects; the message names the key. */
export class SettingsShapeError extends TypeError {
  constructor(message: string) {
    super(message);
    this.name = "SettingsShapeError";
  }
}

const OUR_COMMAND = /(?:^|[\s"'/\\=])git-kb(?:\.cmd)?["']?\s+hook\s+([a-z][a-z-]*)(?=$|[\s"';&|)])/;

/**
 * The hook verb when `command` runs a git-kb launcher (`… git-kb hook prompt` → `prompt`),
 * else undefined.
 *
 * @example
 * ```ts
 * ourVerb('"/opt/kb/plugin/bin/git-kb" hook judge'); // "judge"
 * ourVerb("prettier --write"); // undefined
 * ```
 */
export function ourVerb(command: string): string | undefined {
  return OUR_COMMAND.exec(command)?.[1];
}

/**
 * The launcher a hook command runs when its first word (after an `exec`), read as sh reads it, is
 * an absolute path (as `git-kb setup` writes it); undefined for the plugin's
 * `${CLAUDE_PLUGIN_ROOT}` form, a bare `git-kb` looked up on PATH, or an empty command.
 *
 * @example
 * ```ts
 * absoluteLauncher('"/opt/kb/plugin/bin/git-kb" hook prompt'); // "/opt/kb/plugin/bin/git-kb"
 * absoluteLauncher('"${CLAUDE_PLUGIN_ROOT}/bin/git-kb" hook prompt'); // undefined
 * ```
 */
export function absoluteLauncher(command: string): string | undefined {
  const words = parseShell(command)[0]?.words ?? [];
  // The SessionStart hooks setup writes run the launcher through `exec`.
  const program = words[0] === "exec" ? words[1] : words[0];
  return program !== undefined && isAbsolute(program) ? program : undefined;
}

/** `text` made safe inside a double-quoted POSIX shell word. */
export function escapeDoubleQuoted(text: string): string {
  return text.replace(/["$`\\]/g, "\\$&");
}

/**
 * The event an agent runs a plugin event's hooks on, or undefined when that agent gets no such
 * hook. Claude Code takes every plugin event. Codex takes the prompt hook only: its PreToolUse
 * sees shell commands, `apply_patch` patches and MCP calls, not the Write/Edit inputs the judge
 * reads. Gemini CLI's pre-prompt event is BeforeAgent.
 */
export function agentEvent(agent: HookAgent, pluginEvent: string): string | undefined {
  if (agent === "claude") return pluginEvent;
  if (pluginEvent !== "UserPromptSubmit") return undefined;
  return agent === "gemini" ? "BeforeAgent" : pluginEvent;
}

function agentHook(hook: CommandHook, agent: HookAgent, launcher: string): CommandHook {
  const verb = ourVerb(hook.command);
  if (!hook.command.includes(PLUGIN_LAUNCHER) || !verb) {
    throw new SettingsShapeError(
      `plugin hook command ${JSON.stringify(hook.command)} does not run ` +
        `"${PLUGIN_LAUNCHER}" hook <verb>`,
    );
  }
  const command = hook.command.replaceAll(PLUGIN_LAUNCHER, escapeDoubleQuoted(launcher));
  const named = agent === "gemini" ? { name: `git-kb-${verb}` } : {};
  const timeout = hook.timeout === undefined
    ? {}
    : { timeout: agent === "gemini" ? hook.timeout * 1000 : hook.timeout };
  return { ...named, ...hook, command, ...timeout };
}

/**
 * The hook groups git-kb wants in `agent`'s settings: the plugin's groups for the events that
 * agent runs, with the plugin-root launcher replaced by the absolute `launcher` path (quoted for
 * the shell) and timeouts in the agent's unit.
 */
export function desiredHooks(plugin: PluginHooks, agent: HookAgent, launcher: string): HookEvents {
  const events: HookEvents = {};
  for (const [pluginEvent, groups] of Object.entries(plugin.hooks)) {
    const event = agentEvent(agent, pluginEvent);
    if (!event) continue;
    events[event] = groups.map((group) => ({
      ...group,
      hooks: group.hooks.map((hook) => agentHook(hook, agent, launcher)),
    }));
  }
  return events;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "a list";
  return typeof value === "object" ? "an object" : `a ${typeof value}`;
}

/** Whether `value` is a JSON object: not null, not a list. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A settings file's text as its top-level object; empty text is an empty object. Throws
 * SyntaxError when the text is not JSON and {@link SettingsShapeError} when it is not an object.
 */
export function parseSettings(text: string): Settings {
  if (!text.trim()) return {};
  const value: unknown = JSON.parse(text);
  if (!isObject(value)) {
    throw new SettingsShapeError(`the file holds ${describe(value)}, not a JSON object`);
  }
  return value;
}

function hooksOf(settings: Settings): Record<string, unknown> {
  const hooks = settings.hooks;
  if (hooks === undefined) return {};
  if (!isObject(hooks)) {
    throw new SettingsShapeError(`"hooks" is ${describe(hooks)}, not an object of events`);
  }
  return hooks;
}

function isGroup(value: unknown): value is { hooks: unknown[] } & Record<string, unknown> {
  return isObject(value) && Array.isArray(value.hooks);
}

function hookVerb(hook: unknown): string | undefined {
  return isObject(hook) && typeof hook.command === "string" ? ourVerb(hook.command) : undefined;
}

/** What tells our hooks apart within an event: the verb and the `if` rule; undefined if not ours. */
function hookKey(hook: unknown): string | undefined {
  const verb = hookVerb(hook);
  if (verb === undefined) return undefined;
  const rule = (hook as CommandHook).if;
  return typeof rule === "string" ? `${verb} if ${rule}` : verb;
}

/**
 * Whether Claude Code settings enable a git-kb plugin (`"enabledPlugins": {"git-kb@git-kb": true}`,
 * from any marketplace), whose hooks then run beside any in the settings' own `hooks`.
 */
export function enablesOurPlugin(settings: Settings): boolean {
  const enabled = settings.enabledPlugins;
  return isObject(enabled) &&
    Object.entries(enabled).some(([plugin, on]) => on === true && plugin.startsWith("git-kb@"));
}

/** Every git-kb hook in `settings`, in file order. Values that are not hook groups are skipped. */
export function findOurHooks(settings: Settings): FoundHook[] {
  const found: FoundHook[] = [];
  for (const [event, groups] of Object.entries(hooksOf(settings))) {
    if (!Array.isArray(groups)) continue;
    for (const group of groups.filter(isGroup)) {
      for (const hook of group.hooks) {
        const verb = hookVerb(hook);
        if (verb) found.push({ event, verb, command: (hook as CommandHook).command });
      }
    }
  }
  return found;
}

/**
 * Whether two JSON values are equal, ignoring the order of object keys.
 *
 * @example
 * ```ts
 * sameJson({ a: 1, b: [2] }, { b: [2], a: 1 }); // true
 * ```
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length &&
      a.every((item, index) => sameJson(item, b[index]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length &&
      keys.every((key) => Object.hasOwn(b, key) && sameJson(a[key], b[key]));
  }
  return a === b;
}

/** The groups with our hooks taken out, except those of a key in `keep`; emptied groups go. */
function withoutOurs(groups: unknown[], keep: ReadonlySet<string> = new Set()): unknown[] {
  const drop = (hook: unknown) => {
    const key = hookKey(hook);
    return key !== undefined && !keep.has(key);
  };
  return groups.flatMap((group) => {
    if (!isGroup(group) || !group.hooks.some(drop)) return [group];
    const kept = group.hooks.filter((hook) => !drop(hook));
    return kept.length ? [{ ...group, hooks: kept }] : [];
  });
}

function sameMatcher(a: unknown, b: string | undefined): boolean {
  return (a ?? "") === (b ?? "");
}

function newGroup(matcher: string | undefined, hook: CommandHook): MatcherGroup {
  return matcher === undefined ? { hooks: [hook] } : { matcher, hooks: [hook] };
}

function regroup(group: Record<string, unknown>, matcher: string | undefined, hooks: unknown[]) {
  const { matcher: _old, hooks: _hooks, ...rest } = group;
  return matcher === undefined ? { ...rest, hooks } : { matcher, ...rest, hooks };
}

/**
 * `groups` with our hook of `key` set to `hook` under `matcher`: the first one found is
 * replaced where it stands (kept as is when already equal) when its group has that matcher or
 * holds nothing else; other copies are dropped; with none, it joins the last group of that
 * matcher holding one of ours, or a new group is appended.
 */
function placeHook(
  groups: unknown[],
  matcher: string | undefined,
  hook: CommandHook,
  key: string,
): unknown[] {
  const mine = (candidate: unknown) => hookKey(candidate) === key;
  let placed = false;
  const out: unknown[] = [];
  for (const group of groups) {
    if (!isGroup(group) || !group.hooks.some(mine)) {
      out.push(group);
      continue;
    }
    const others = group.hooks.filter((candidate) => !mine(candidate));
    const here = !placed && (sameMatcher(group.matcher, matcher) || others.length === 0);
    if (!here) {
      if (others.length) out.push({ ...group, hooks: others });
      continue;
    }
    placed = true;
    const first = group.hooks.findIndex(mine);
    const hooks = group.hooks.flatMap((candidate, index) => {
      if (index === first) return [sameJson(candidate, hook) ? candidate : hook];
      return mine(candidate) ? [] : [candidate];
    });
    out.push(
      sameMatcher(group.matcher, matcher) ? { ...group, hooks } : regroup(group, matcher, hooks),
    );
  }
  if (placed) return out;
  const ours = out.findLastIndex((group) =>
    isGroup(group) && sameMatcher(group.matcher, matcher) && group.hooks.some(hookKey)
  );
  if (ours < 0) return [...out, newGroup(matcher, hook)];
  const group = out[ours] as MatcherGroup;
  return out.with(ours, { ...group, hooks: [...group.hooks, hook] });
}

function eventGroups(hooks: Record<string, unknown>, event: string): unknown[] {
  const groups = hooks[event];
  if (groups === undefined) return [];
  if (!Array.isArray(groups)) {
    throw new SettingsShapeError(
      `"hooks.${event}" is ${describe(groups)}, not a list of matcher groups`,
    );
  }
  return groups;
}

/**
 * `hooks` with our hooks taken out of every event except, per event, those of a key `wanted`
 * there; events left empty by that go unless wanted.
 */
function pruneHooks(hooks: Record<string, unknown>, wanted: Map<string, Set<string>>) {
  const out: Record<string, unknown> = {};
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) {
      out[event] = groups;
      continue;
    }
    const pruned = withoutOurs(groups, wanted.get(event));
    if (pruned.length || !groups.length || wanted.has(event)) out[event] = pruned;
  }
  return out;
}

function keysByEvent(desired: HookEvents): Map<string, Set<string>> {
  return new Map(
    Object.entries(desired).map(([event, groups]) => [
      event,
      new Set(groups.flatMap((group) => group.hooks.map((hook) => hookKey(hook)!))),
    ]),
  );
}

/**
 * `settings` with git-kb's hooks set to exactly `desired`: each of our hooks is updated in
 * place (whatever launcher path it had), missing ones are appended as new groups, and ours
 * anywhere `desired` does not put them (another event, a second copy) are taken out. Every other key, group and hook is kept.
 * The input is not changed.
 */
export function mergeHooks(settings: Settings, desired: HookEvents): Settings {
  let hooks = pruneHooks(hooksOf(settings), keysByEvent(desired));
  for (const [event, groups] of Object.entries(desired)) {
    let list = eventGroups(hooks, event);
    for (const group of groups) {
      for (const hook of group.hooks) {
        list = placeHook(list, group.matcher, hook, hookKey(hook)!);
      }
    }
    hooks = { ...hooks, [event]: list };
  }
  return { ...settings, hooks };
}

/**
 * `settings` without any git-kb hook: groups and events left empty by that go, and so does the
 * `hooks` key when nothing else was in it. Everything else is kept. The input is not changed.
 */
export function removeHooks(settings: Settings): Settings {
  if (!findOurHooks(settings).length) return settings;
  const hooks = pruneHooks(hooksOf(settings), new Map());
  if (Object.keys(hooks).length) return { ...settings, hooks };
  const { hooks: _removed, ...rest } = settings;
  return rest;
}

/** The indentation unit of a JSON text (its first indented line), two spaces by default. */
export function detectIndent(text: string): string {
  return /^([ \t]+)\S/m.exec(text)?.[1] ?? "  ";
}

/** `settings` as file text, indented like `previous`, with a final newline. */
export function formatSettings(settings: Settings, previous = ""): string {
  return `${JSON.stringify(settings, null, detectIndent(previous))}\n`;
}

/**
 * The instruction for agents without a usable pre-prompt hook (Cursor, OpenCode), to put in
 * their AGENTS.md: run `git-kb context` on the task before starting it.
 */
export function agentsRule(launcher: string): string {
  const cli = `"${escapeDoubleQuoted(launcher)}"`;
  return `## Knowledge base (git-kb)

Before you start a task, run \`${cli} context "<the task in a few words>"\` and read
what it prints: rules that always apply, and pointers (id, title, why) to entries in my
knowledge base. Fetch the ones that matter with \`${cli} get <id>\` before you act.
It prints nothing when nothing in the knowledge base applies.`;
}

/**
 * The launcher an instruction file (AGENTS.md, a Cursor rule) tells the agent to run `context`
 * with, as {@link agentsRule} writes it (`"<launcher>" context …`, its escapes read) or by hand
 * (`` `git-kb context` ``); undefined when the text holds no such command.
 *
 * @example
 * ```ts
 * agentsRuleLauncher('run `"/opt/kb/bin/git-kb" context "<task>"`'); // "/opt/kb/bin/git-kb"
 * agentsRuleLauncher("Run `git-kb context` first."); // "git-kb"
 * ```
 */
export function agentsRuleLauncher(text: string): string | undefined {
  const quoted = /"((?:[^"\\\n]|\\.)*git-kb(?:\.cmd)?)"\s+context\b/.exec(text);
  if (quoted) return quoted[1].replace(/\\(.)/g, "$1");
  return /(?<![^\s`'(])([^\s`'"(]*git-kb(?:\.cmd)?)\s+context\b/.exec(text)?.[1];
}
