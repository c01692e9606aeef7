/**
 * `git-kb setup`: wire git-kb into a coding agent. For Claude Code, Codex and Gemini CLI, merge
 * git-kb's hook entries (derived from the plugin's `hooks/hooks.json`, with the absolute path of
 * the launcher) into the agent's settings file, keeping everything else, with a backup and a
 * diff; `--remove` takes them out again. For Cursor and OpenCode, which have no pre-prompt hook
 * that can add context, print the AGENTS.md rule instead and write nothing.
 *
 * @module
 */
import pluginHooks from "../plugin/hooks/hooks.json" with { type: "json" };
import {
  type Agent,
  AGENTS,
  agentsRule,
  desiredHooks,
  findOurHooks,
  formatSettings,
  type FoundHook,
  HOOK_AGENTS,
  type HookAgent,
  mergeHooks,
  parseSettings,
  type PluginHooks,
  removeHooks,
  sameJson,
  type Settings,
  SETTINGS_FILES,
  SettingsShapeError,
} from "../core/setup/agent_settings.ts";
import {
  MCP_AGENTS,
  MCP_CONFIG_FILES,
  MCP_SERVER_NAME,
  type McpAgent,
  mcpServerEntry,
  mergeMcpServer,
  removeMcpServer,
  removeTomlMcpServer,
  setTomlMcpServer,
} from "../core/setup/mcp_config.ts";
import { unifiedDiff } from "../core/text/unified_diff.ts";
import { join } from "../core/path.ts";
import { isOneOf } from "../core/entry/schema.ts";
import { isFile } from "../io/disk.ts";
import { claudePluginEnabledIn, openCodeRulesFile } from "../io/setup/wiring.ts";
import {
  readSettingsFile,
  type SettingsFile,
  writeSettingsFile,
} from "../io/setup/settings_file.ts";
import { homeDir, resolvePath } from "../io/paths.ts";
import { type CommandSpec, helpText, NO_POSITIONALS, parseCommand, UsageError } from "./args.ts";
import { bold, dim, green, printJson, red, yellow } from "./output.ts";
import { kbCommand, selfCommand } from "../io/self_command.ts";
import { COMMAND_NAME, isOnPath, pathSetupLine, userBinDir } from "../core/setup/command_link.ts";
import { type LinkAction, linkCommand, unlinkCommand } from "../io/setup/command_link.ts";
import { shellCommand, shellQuote } from "../core/shell/quote.ts";

/** The command: its usage, options and positionals. */
export const command = {
  usage: ["setup [options]"],
  about: `Wire git-kb into a coding agent. For agents with a pre-prompt hook, merge
git-kb's hook entries into the agent's settings file, keeping every other key
and hook; for the others, print the AGENTS.md rule to add by hand.

  claude     .claude/settings.json   UserPromptSubmit (pointers), PreToolUse (judge,
                                     search augment, subagent memory), PostToolUse
                                     (delivery receipts)
  codex      .codex/hooks.json       UserPromptSubmit
  gemini     .gemini/settings.json   BeforeAgent
  cursor     prints the AGENTS.md rule, writes nothing
  opencode   prints the AGENTS.md rule, writes nothing

With --mcp, add the git-kb MCP server (git-kb mcp) to the agent's MCP
servers instead, as "git-kb", keeping every other server and key:

  claude     ~/.claude.json (project: .mcp.json)    mcpServers
  codex      ~/.codex/config.toml                   [mcp_servers.git-kb]
  cursor     ~/.cursor/mcp.json                     mcpServers
  gemini     ~/.gemini/settings.json                mcpServers
  (project scope: the same path under the current folder, except Claude Code's)

The hooks and the server run the launcher by its absolute path (KB_CLI when set
by the plugin launcher, else this checkout's plugin/bin/git-kb). Running setup
again changes nothing; after the launcher moved, it updates the entries in
place. Before a write the previous file is copied to <file>.bak, and the change
is shown as a diff.`,
  options: {
    agent: {
      type: "string",
      value: "<name>",
      help: "claude (default), codex, gemini, cursor or opencode",
    },
    scope: {
      type: "string",
      value: "<scope>",
      help: "user: under your home folder (default); project: under the\ncurrent folder",
    },
    path: {
      type: "boolean",
      help:
        "put a git-kb command on your PATH instead: a link in ~/.local/bin to this launcher (with --remove: take it out again)",
    },
    mcp: {
      type: "boolean",
      help:
        "add the git-kb MCP server (git-kb mcp) to the agent's MCP configuration instead: claude, codex, cursor or gemini",
    },
    "read-only": {
      type: "boolean",
      help: "with --mcp: the server offers no tool that writes (mcp --read-only)",
    },
    "dry-run": { type: "boolean", help: "show the diff, write nothing" },
    remove: { type: "boolean", help: "take git-kb's entries out again (nothing else is touched)" },
    json: { type: "boolean", help: "print what was done as JSON" },
  },
  positionals: NO_POSITIONALS,
  kb: false,
} as const satisfies CommandSpec;

/** Help text. */
export const help: string = helpText(command);

const SCOPES = ["user", "project"] as const;
type Scope = typeof SCOPES[number];
/** The agents that get the AGENTS.md rule instead of a hook. */
type RuleAgent = Exclude<Agent, HookAgent>;

interface SetupOptions {
  agent: Agent;
  scope: Scope;
  mcp: boolean;
  readOnly: boolean;
  dryRun: boolean;
  remove: boolean;
  json: boolean;
  path: boolean;
}

/** Why a file that does not parse cannot be edited, per agent. */
const JSON_HINTS: Record<HookAgent, string> = {
  claude: "Claude Code settings are strict JSON: no comments, no trailing commas.",
  codex: "Codex reads hooks.json as strict JSON: no comments, no trailing commas.",
  gemini: "Gemini CLI allows comments in settings.json, but git-kb setup cannot keep them.",
};

function parseOptions(args: string[]): SetupOptions {
  const { values } = parseCommand(args, command.options, command);
  const agent = values.agent ?? "claude";
  if (!isOneOf(AGENTS, agent)) {
    throw new UsageError(`--agent "${agent}" is not known; use one of ${AGENTS.join(", ")}`);
  }
  const scope = values.scope ?? "user";
  if (!isOneOf(SCOPES, scope)) {
    throw new UsageError(`--scope "${scope}" is not a scope; use user or project`);
  }
  if (values["read-only"] && !values.mcp) {
    throw new UsageError("--read-only goes with --mcp (the server offers no tool that writes)");
  }
  if (values.mcp && !isOneOf(MCP_AGENTS, agent)) {
    throw new UsageError(
      `--mcp knows ${MCP_AGENTS.join(", ")}; ${agent} takes the AGENTS.md rule: ` +
        `${selfCommand()} setup --agent ${agent}`,
    );
  }
  return {
    agent,
    scope,
    mcp: values.mcp ?? false,
    readOnly: values["read-only"] ?? false,
    dryRun: values["dry-run"] ?? false,
    remove: values.remove ?? false,
    json: values.json ?? false,
    path: values.path ?? false,
  };
}

/** This checkout's launcher, `<repo>/plugin/bin/git-kb`, from where this module lives. */
function checkoutLauncher(): string {
  const url = new URL("../plugin/bin/git-kb", import.meta.url);
  if (url.protocol !== "file:") {
    throw new Error(
      `git-kb was loaded from ${url.origin}, not from a folder; set KB_CLI to the absolute ` +
        `path of the plugin/bin/git-kb launcher`,
    );
  }
  const path = decodeURIComponent(url.pathname);
  return /^\/[A-Za-z]:/.test(path) ? path.slice(1) : path;
}

/**
 * A word quoted as core/shell/quote.ts quotes it (plain characters, `'…'`, `\'`) read back as sh
 * reads it; undefined when it is not one such word (a space, `$`, a double quote outside `'…'`).
 */
function unquoteShellWord(word: string): string | undefined {
  let text = "";
  for (let index = 0; index < word.length; index++) {
    const character = word[index];
    if (character === "'") {
      const end = word.indexOf("'", index + 1);
      if (end < 0) return undefined;
      text += word.slice(index + 1, end);
      index = end;
    } else if (character === "\\" && index + 1 < word.length) {
      text += word[++index];
    } else if (/[\s"$`\\|&;<>()*?[\]#~{}]/.test(character)) {
      return undefined;
    } else text += character;
  }
  return text;
}

/** `path` made absolute against the current folder, with nothing else changed (a `\` stays). */
function absolute(path: string): string {
  if (Deno.build.os === "windows") return resolvePath(path);
  return path.startsWith("/") ? path : `${Deno.cwd()}/${path}`;
}

/**
 * The launcher the hooks run: KB_CLI (set by the plugin launcher as one sh word, read back; or a
 * plain path), else this checkout's.
 */
function launcherPath(): string {
  const fromEnv = Deno.env.get("KB_CLI");
  if (!fromEnv) return existingLauncher(checkoutLauncher());
  const candidates = [unquoteShellWord(fromEnv), fromEnv].filter((path) => path !== undefined);
  return existingLauncher(candidates.map(absolute).find(isFile) ?? absolute(candidates[0]));
}

function existingLauncher(path: string): string {
  if (!isFile(path)) {
    throw new Error(
      `cannot find the git-kb launcher at ${path}; run setup through the launcher ` +
        `(plugin/bin/git-kb setup) or set KB_CLI to its absolute path`,
    );
  }
  return path;
}

function baseDir(scope: Scope): string {
  if (scope === "project") return Deno.cwd();
  const home = homeDir();
  if (!home) {
    throw new Error(
      "cannot find your home folder (HOME is not set); set it or use --scope project",
    );
  }
  return home;
}

/** What setup would change in one settings file. */
interface Change {
  before: Settings;
  after: Settings;
  /** The file's new text (its current text when nothing changes). */
  text: string;
  changed: boolean;
}

function planChange(
  current: SettingsFile,
  agent: HookAgent,
  launcher: string,
  options: SetupOptions,
): Change {
  const { remove } = options;
  const wanted = desiredHooks(pluginHooks as PluginHooks, agent, launcher);
  const byHand = `Or add git-kb's entries by hand under "hooks": ${JSON.stringify(wanted)}`;
  const hint = JSON_HINTS[agent];
  return explainingSettings(current.path, { hint, byHand, rerun: sameSetup(options) }, () => {
    const before = parseSettings(current.text);
    const after = remove ? removeHooks(before) : mergeHooks(before, wanted);
    const changed = !sameJson(before, after);
    return {
      before,
      after,
      text: changed ? formatSettings(after, current.text) : current.text,
      changed,
    };
  });
}

/**
 * The setup `options` ask for, as a line to paste that runs it again: the same agent, scope and
 * flags (`--json` aside).
 */
function sameSetup(options: SetupOptions): string {
  return kbCommand(
    "setup",
    "--agent",
    options.agent,
    ...options.scope === "project" ? ["--scope", "project"] : [],
    ...options.mcp ? ["--mcp"] : [],
    ...options.readOnly ? ["--read-only"] : [],
    ...options.dryRun ? ["--dry-run"] : [],
    ...options.remove ? ["--remove"] : [],
  );
}

/** What a refusal to edit a settings file adds to the cause. */
interface SettingsAdvice {
  /** Why the file cannot be parsed, for this agent ("" when the cause says it). */
  hint: string;
  /** What to write by hand instead. */
  byHand: string;
  /** The same setup, to run once the file is fixed. */
  rerun: string;
}

/**
 * `plan()`, with a file that does not parse, or holds the wrong shape, turned into one error
 * naming `path`, what is wrong, and the advice: the hint, the setup to run again once the file is
 * fixed, and what to write by hand instead.
 */
function explainingSettings<T>(
  path: string,
  { hint, byHand, rerun }: SettingsAdvice,
  plan: () => T,
): T {
  try {
    return plan();
  } catch (error) {
    if (error instanceof SyntaxError) {
      throw new Error(
        `cannot parse ${path}: ${error.message}. ${hint}${hint ? " " : ""}Fix the file (nothing ` +
          `was written), then run the same setup again: ${rerun}\n${byHand}`,
      );
    }
    if (error instanceof SettingsShapeError) {
      throw new Error(
        `cannot update ${path}: ${error.message}. Fix the file (nothing was written), then run ` +
          `the same setup again: ${rerun}\n${byHand}`,
      );
    }
    throw error;
  }
}

/** Settings in the file that stop the agent from running any hook. */
function hookSwitchWarnings(agent: HookAgent, settings: Settings): string[] {
  if (agent === "claude" && settings.disableAllHooks === true) {
    return ["disableAllHooks is true in this file: Claude Code runs no hooks until you remove it."];
  }
  const config = settings.hooksConfig as { enabled?: unknown } | undefined;
  if (agent === "gemini" && config?.enabled === false) {
    return [
      "hooksConfig.enabled is false in this file: Gemini CLI runs no hooks until it is true.",
    ];
  }
  return [];
}

/**
 * The line that takes git-kb's hooks out of Claude Code's settings of `scope` again: run by the
 * launcher the hooks run, the project's from its folder, as doctor says.
 */
function removeClaudeHooksLine(scope: Scope, launcher: string): string {
  const words = ["setup", "--agent", "claude", ...scope === "project" ? ["--scope", scope] : []];
  const from = scope === "project" ? `cd ${shellQuote(baseDir(scope))} && ` : "";
  return `${from}${shellQuote(launcher)} ${shellCommand([...words, "--remove"])}`;
}

/**
 * What setup says instead of writing Claude Code hooks where the git-kb plugin, enabled in the
 * settings file `plugin`, runs them already (hooks in settings too would run each one twice):
 * that nothing was written, the line that takes out hooks the file holds already, and how to run
 * git-kb from settings hooks instead.
 */
function pluginRunsTheHooks(
  plugin: string,
  file: string,
  held: FoundHook[],
  options: SetupOptions,
  launcher: string,
): string[] {
  return [
    `The git-kb plugin is enabled in ${plugin} (enabledPlugins) and runs git-kb's hooks already: ` +
    `nothing was written to ${file}, where they would run a second time.`,
    ...held.length
      ? [
        `${file} holds git-kb's hooks already, so each runs twice; take them out: ` +
        `${removeClaudeHooksLine(options.scope, launcher)}`,
      ]
      : [],
    "To run git-kb from settings hooks instead of the plugin: claude plugin uninstall git-kb, " +
    `then run the same setup again: ${sameSetup(options)}`,
  ];
}

/**
 * What to do after the hooks were written, per agent: reload, trust, switches, duplicates.
 */
function installAdvice(agent: HookAgent, scope: Scope, launcher: string): string[] {
  const notes = [`Start a new ${SETTINGS_FILES[agent].label} session to load the hooks.`];
  if (agent === "claude") {
    notes.push(
      "If the git-kb plugin is installed as well, its hooks run too: keep one of the two " +
        `(claude plugin uninstall git-kb, or ${removeClaudeHooksLine(scope, launcher)}).`,
    );
  }
  if (agent === "codex") {
    notes.push(
      "Codex runs a new or changed hook only once you trust it: start Codex and review it in /hooks.",
      "Codex versions from before hooks were on by default also need, in ~/.codex/config.toml " +
        "(newer ones call it hooks and warn that codex_hooks is deprecated):\n" +
        "      [features]\n      codex_hooks = true",
      "Codex gets the prompt hook only: its PreToolUse sees shell commands and patches, not the " +
        "file writes the judge checks.",
    );
    if (scope === "project") {
      notes.push("Codex reads .codex/hooks.json only in projects it trusts.");
    }
  }
  if (agent === "gemini") {
    notes.push(
      'If the hook does not run, switch hooks on in /settings (older versions: "tools": ' +
        '{"enableHooks": true} and "hooks": {"enabled": true}).',
    );
    notes.push(geminiTrustNote("runs hooks"));
  }
  if (scope === "project") {
    notes.push(
      "The entries hold this machine's launcher path: do not commit them to a shared repository.",
    );
  }
  return notes;
}

function colourDiff(diff: string): string {
  return diff.split("\n").map((line) => {
    if (line.startsWith("+++") || line.startsWith("---") || line.startsWith("@@")) return dim(line);
    if (line.startsWith("+")) return green(line);
    return line.startsWith("-") ? red(line) : line;
  }).join("\n");
}

/** One line saying what was (or, in a dry run, would be) done to the file. */
function outcome(change: Change, file: string, options: SetupOptions): string {
  if (!change.changed) {
    return options.remove
      ? `No git-kb hooks in ${file}; nothing changed.`
      : `The git-kb hooks in ${file} are up to date; nothing changed.`;
  }
  const listed = findOurHooks(options.remove ? change.before : change.after);
  const what = `the git-kb hooks (${[...new Set(listed.map((hook) => hook.event))].join(", ")})`;
  const [verb, done, preposition] = options.remove
    ? ["remove", "Removed", "from"]
    : findOurHooks(change.before).length
    ? ["update", "Updated", "in"]
    : ["add", "Added", "to"];
  return options.dryRun
    ? `Would ${verb} ${what} ${preposition} ${file}.`
    : `${done} ${what} ${preposition} ${file}.`;
}

async function setupHooks(
  agent: HookAgent,
  options: SetupOptions,
  launcher: string,
): Promise<number> {
  const { dir, file } = SETTINGS_FILES[agent];
  const current = await readSettingsFile(join(baseDir(options.scope), dir, file));
  const change = planChange(current, agent, launcher, options);
  const plugin = agent === "claude" && !options.remove ? await claudePluginEnabledIn() : undefined;
  if (plugin !== undefined) {
    const held = findOurHooks(change.before);
    const notes = pluginRunsTheHooks(plugin, current.path, held, options, launcher);
    if (options.json) {
      const unchanged = { changed: false };
      printJson({
        ...changeReport(options, current.path, unchanged, { diff: "", write: false }, launcher),
        action: "none",
        plugin,
        hooks: held,
        diff: "",
        notes,
      });
    } else console.log(notes.join("\n"));
    return 0;
  }
  const applied = applyChange(current, change, options);
  const notes = options.remove ? [] : [
    ...hookSwitchWarnings(agent, change.after),
    ...(change.changed ? installAdvice(agent, options.scope, launcher) : []),
  ];
  if (options.json) {
    printJson({
      ...changeReport(options, current.path, change, applied, launcher),
      action: options.remove ? "remove" : "install",
      hooks: findOurHooks(change.after),
      diff: applied.diff,
      notes,
    });
    return 0;
  }
  printChange(applied, outcome(change, current.path, options), change, {
    options,
    notes,
  });
  return 0;
}

/** What writing a planned change did (or, in a dry run, would do). */
interface Applied {
  /** The change as a unified diff; empty when nothing changes. */
  diff: string;
  /** Whether the file was written. */
  write: boolean;
  /** Where the previous file was copied before the write. */
  backup?: string;
}

/** Write `change` to `current`'s file unless nothing changes or it is a dry run. */
function applyChange(
  current: SettingsFile,
  change: { text: string; changed: boolean },
  options: SetupOptions,
): Applied {
  const diff = unifiedDiff(current.text, change.text, {
    from: current.exists ? current.path : "/dev/null",
    to: current.path,
  });
  const write = change.changed && !options.dryRun;
  return { diff, write, backup: write ? writeSettingsFile(current, change.text) : undefined };
}

/** What every `--json` report of a settings file's change starts with. */
function changeReport(
  options: SetupOptions,
  file: string,
  change: { changed: boolean },
  applied: Applied,
  launcher: string,
): Record<string, unknown> {
  return {
    agent: options.agent,
    scope: options.scope,
    file,
    changed: change.changed,
    written: applied.write,
    dryRun: options.dryRun,
    backup: applied.backup ?? null,
    launcher,
  };
}

/** Print the diff, the line saying what was done, where the backup is, and the notes. */
function printChange(
  { diff, write, backup }: Applied,
  line: string,
  change: { changed: boolean },
  { options, notes }: { options: SetupOptions; notes: string[] },
): void {
  if (diff) console.log(colourDiff(diff.trimEnd()));
  console.log(`${write ? green("✓ ") : ""}${line}`);
  if (backup) console.log(dim(`  the previous file is kept as ${backup}`));
  if (options.dryRun && change.changed) {
    console.log(yellow("Dry run: nothing was written. Run it again without --dry-run to apply."));
  }
  if (notes.length) {
    // A dry run wrote nothing: what follows a write is for once it is applied.
    const heading = options.dryRun && change.changed ? "Once applied:" : "Next:";
    console.log(`${bold(heading)}\n${notes.map((note) => `  - ${note}`).join("\n")}`);
  }
}

/** The MCP configuration `current` of `agent` with our server set (or, `remove`, taken out). */
function planMcpChange(
  current: SettingsFile,
  agent: McpAgent,
  launcher: string,
  options: SetupOptions,
): { text: string; changed: boolean } {
  const entry = mcpServerEntry(launcher, options.readOnly);
  const { extra, env } = MCP_CONFIG_FILES[agent];
  const rerun = sameSetup(options);
  if (agent === "codex") {
    const table = setTomlMcpServer("", entry);
    const byHand = `Or add the server by hand:\n${table}`;
    return explainingSettings(current.path, { hint: "", byHand, rerun }, () => {
      const text = options.remove
        ? removeTomlMcpServer(current.text)
        : setTomlMcpServer(current.text, entry);
      return { text, changed: text !== current.text };
    });
  }
  const byHand = `Or add the server by hand under "mcpServers": ${
    JSON.stringify({ [MCP_SERVER_NAME]: { ...extra, ...entry, ...env && { env } } })
  }`;
  const hint = agent === "gemini" ? JSON_HINTS.gemini : "The file must be strict JSON.";
  return explainingSettings(current.path, { hint, byHand, rerun }, () => {
    const before = parseSettings(current.text);
    const after = options.remove
      ? removeMcpServer(before)
      : mergeMcpServer(before, entry, extra, env);
    const changed = !sameJson(before, after);
    return { text: changed ? formatSettings(after, current.text) : current.text, changed };
  });
}

/**
 * Gemini CLI's folder trust (on by default; checked: 0.61.0): in a folder not trusted it `does`
 * nothing, the user's own settings' included.
 */
function geminiTrustNote(does: string): string {
  return `Gemini CLI ${does}, yours included, only in folders you trust (folder trust is on by ` +
    "default): trust a folder when Gemini CLI asks, or later with /permissions; for gemini -p, " +
    "pass --skip-trust or set GEMINI_CLI_TRUST_WORKSPACE=true.";
}

/** What to do after the server was added: reload, approve, trust. */
function mcpAdvice(agent: McpAgent, scope: Scope, readOnly: boolean): string[] {
  const tools = readOnly
    ? "search, get and context (read-only)"
    : "search, get, context, add and edit";
  const notes = [
    `Start a new ${MCP_CONFIG_FILES[agent].label} session to load the server; it offers ${tools}.`,
  ];
  if (agent === "claude") {
    notes.push(
      scope === "project"
        ? "Claude Code asks you to approve a server from .mcp.json the first time."
        : "Check it with: claude mcp list (a Claude Code session open meanwhile may write " +
          "~/.claude.json from memory; if git-kb is missing, run setup again with it closed).",
    );
  }
  if (agent === "codex" && scope === "project") {
    notes.push("Codex reads .codex/config.toml only in projects it trusts.");
  }
  if (agent === "gemini") {
    notes.push(
      geminiTrustNote("starts MCP servers"),
      "Check it with: gemini mcp list, in a folder you trust (elsewhere it says Disabled).",
    );
  }
  if (scope === "project") {
    notes.push(
      "The entry holds this machine's launcher path: do not commit it to a shared repository.",
    );
  }
  return notes;
}

/** One line saying what was (or, in a dry run, would be) done to the MCP configuration. */
function mcpOutcome(changed: boolean, path: string, options: SetupOptions): string {
  const what = `the ${MCP_SERVER_NAME} MCP server`;
  if (!changed) {
    return options.remove
      ? `No ${what} in ${path}; nothing changed.`
      : `The ${MCP_SERVER_NAME} MCP server in ${path} is up to date; nothing changed.`;
  }
  const [verb, done, preposition] = options.remove
    ? ["remove", "Removed", "from"]
    : ["set", "Set", "in"];
  return options.dryRun
    ? `Would ${verb} ${what} ${preposition} ${path}.`
    : `${done} ${what} ${preposition} ${path}.`;
}

async function setupMcp(agent: McpAgent, options: SetupOptions, launcher: string): Promise<number> {
  const file = join(baseDir(options.scope), ...MCP_CONFIG_FILES[agent][options.scope]);
  const current = await readSettingsFile(file);
  const change = planMcpChange(current, agent, launcher, options);
  const applied = applyChange(current, change, options);
  const notes = change.changed && !options.remove
    ? mcpAdvice(agent, options.scope, options.readOnly)
    : [];
  if (options.json) {
    printJson({
      ...changeReport(options, current.path, change, applied, launcher),
      action: options.remove ? "remove-mcp" : "install-mcp",
      server: options.remove ? null : mcpServerEntry(launcher, options.readOnly),
      diff: applied.diff,
      notes,
    });
    return 0;
  }
  printChange(applied, mcpOutcome(change.changed, current.path, options), change, {
    options,
    notes,
  });
  return 0;
}

/** Where the AGENTS.md rule goes for an agent without a usable pre-prompt hook. */
function ruleLocation(agent: RuleAgent, scope: Scope): string {
  if (scope === "project") {
    const agentsMd = join(Deno.cwd(), "AGENTS.md");
    return agent === "cursor"
      ? `${agentsMd} (or .cursor/rules/git-kb.mdc with "alwaysApply: true" in its front matter)`
      : agentsMd;
  }
  if (agent === "cursor") return "Cursor Settings → Rules → User Rules (paste it there)";
  return openCodeRulesFile() ?? join(baseDir("user"), ".config", "opencode", "AGENTS.md");
}

function printRule(agent: RuleAgent, options: SetupOptions, launcher: string): number {
  const label = agent === "cursor" ? "Cursor" : "OpenCode";
  const where = ruleLocation(agent, options.scope);
  const rule = agentsRule(launcher);
  if (options.json) {
    printJson({ agent, scope: options.scope, written: false, launcher, where, rule });
    return 0;
  }
  if (options.remove) {
    console.log(
      `git-kb setup wrote nothing for ${label}. To undo it, delete the ` +
        `"Knowledge base (git-kb)" section from ${where}.`,
    );
    return 0;
  }
  console.log(
    `${label} has no pre-prompt hook that can add context, so nothing was written.\n` +
      `Add this rule to ${where}:\n`,
  );
  console.log(rule);
  return 0;
}

/** What `--path` says after linking: where the link is, whether it is on PATH, how to undo it. */
function linkReport(
  binDir: string,
  launcher: string,
  action: LinkAction,
  dryRun: boolean,
): string[] {
  const link = join(binDir, COMMAND_NAME);
  const undo = `${shellQuote(link)} setup --path --remove`;
  const lines = [
    action === "unchanged"
      ? `${link} already runs this launcher; nothing changed.`
      : `${dryRun ? "Would link" : `${green("✓ ")}Linked`} ${link} → ${launcher}${
        action === "updated" ? " (it ran another launcher before)" : ""
      }.`,
  ];
  if (isOnPath(binDir, Deno.env.get("PATH"))) {
    lines.push(`${binDir} is on your PATH: git-kb runs from any folder.`);
  } else {
    lines.push(
      `${binDir} is not on your PATH yet. Add it for new shells with:\n  ` +
        `${pathSetupLine(Deno.env.get("SHELL"))}\n` +
        `then open a new terminal (until then, run ${shellQuote(link)}).`,
    );
  }
  lines.push(`To undo: ${undo}`);
  return lines;
}

/** `--path`: make (or with --remove, take out) the `git-kb` link in ~/.local/bin. */
function setupCommandLink(options: SetupOptions): number {
  if (Deno.build.os === "windows") {
    throw new Error(
      "setup --path links into ~/.local/bin, which Windows does not use; add the folder of " +
        "plugin\\bin\\git-kb.cmd to your Path instead",
    );
  }
  const binDir = userBinDir(baseDir("user"));
  const link = join(binDir, COMMAND_NAME);
  const launcher = options.remove ? "" : launcherPath();
  const action = options.remove
    ? unlinkCommand(binDir, options.dryRun)
    : linkCommand(binDir, launcher, options.dryRun);
  if (options.json) {
    printJson({ link, launcher: launcher || null, action, dryRun: options.dryRun });
    return 0;
  }
  if (options.remove) {
    const done = action === "absent"
      ? `No git-kb link at ${link}; nothing changed.`
      : `${options.dryRun ? "Would remove" : `${green("✓ ")}Removed`} ${link}.`;
    console.log(done);
    return 0;
  }
  console.log(linkReport(binDir, launcher, action, options.dryRun).join("\n"));
  return 0;
}

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const options = parseOptions(args);
  if (options.path) return setupCommandLink(options);
  const launcher = launcherPath();
  const agent = options.agent;
  if (options.mcp && isOneOf(MCP_AGENTS, agent)) return await setupMcp(agent, options, launcher);
  if (isOneOf(HOOK_AGENTS, agent)) return await setupHooks(agent, options, launcher);
  return printRule(agent, options, launcher);
}
