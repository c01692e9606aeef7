/**
 * Whether an agent already runs git-kb: git-kb's hooks in its settings file or its MCP server in
 * its MCP configuration (in the home folder or the current one), through a launcher that is there;
 * the git-kb plugin enabled in Claude Code's settings; or the rule `git-kb setup` prints for
 * AGENTS.md, in the current folder's AGENTS.md, its Cursor rule or OpenCode's own AGENTS.md. Read
 * by `doctor` (hooks whose launcher is gone, hooks beside the plugin) and by `init` (no setup to
 * offer an agent that runs git-kb already).
 *
 * @module
 */
import {
  absoluteLauncher,
  agentsRuleLauncher,
  enablesOurPlugin,
  findOurHooks,
  type FoundHook,
  HOOK_AGENTS,
  parseSettings,
  SETTINGS_FILES,
} from "../../core/setup/agent_settings.ts";
import {
  MCP_AGENTS,
  MCP_CONFIG_FILES,
  ourMcpCommand,
  ourTomlMcpCommand,
} from "../../core/setup/mcp_config.ts";
import { AGENT_FILES } from "../../core/export/agent_files.ts";
import { isAbsolute, join } from "../../core/path.ts";
import { isFile } from "../disk.ts";
import { homeDir, xdgFolder } from "../paths.ts";
import { readSettingsFile } from "./settings_file.ts";

/**
 * git-kb's hooks in the settings file at `path`, and whether it enables the git-kb plugin; none
 * and no when it is missing, does not parse, or is not shaped as settings.
 */
export async function ourWiringIn(path: string): Promise<{ hooks: FoundHook[]; plugin: boolean }> {
  try {
    const settings = parseSettings((await readSettingsFile(path)).text);
    return { hooks: findOurHooks(settings), plugin: enablesOurPlugin(settings) };
  } catch {
    return { hooks: [], plugin: false };
  }
}

/**
 * The Claude Code settings file that enables the git-kb plugin, which runs git-kb's hooks on its
 * own: the home folder's, else the current folder's (shared, then local); undefined when none
 * does.
 */
export async function claudePluginEnabledIn(): Promise<string | undefined> {
  const { dir, file } = SETTINGS_FILES.claude;
  const home = homeDir();
  const files = [
    ...home === undefined ? [] : [join(home, dir, file)],
    join(Deno.cwd(), dir, file),
    join(Deno.cwd(), dir, "settings.local.json"),
  ];
  for (const path of new Set(files)) {
    if ((await ourWiringIn(path)).plugin) return path;
  }
  return undefined;
}

/**
 * Each agent that runs git-kb already, as a user reads it (`Claude Code (its plugin)`,
 * `Codex (hooks)`, `Cursor (MCP server)`, `the git-kb rule in /p/AGENTS.md`), once each, from the
 * files in the home folder and the current one: hooks, a server and a rule count when their
 * launcher is there (or named through the plugin's root, or looked up on PATH).
 */
export async function agentsRunningGitKb(): Promise<string[]> {
  const bases = [...new Set([homeDir(), Deno.cwd()].filter((base) => base !== undefined))];
  const running = new Set<string>();
  for (const base of bases) {
    for (const agent of HOOK_AGENTS) {
      const { label, dir, file } = SETTINGS_FILES[agent];
      const { hooks, plugin } = await ourWiringIn(join(base, dir, file));
      if (plugin) running.add(`${label} (its plugin)`);
      if (hooks.some((hook) => launcherThere(absoluteLauncher(hook.command)))) {
        running.add(`${label} (hooks)`);
      }
    }
  }
  for (const agent of MCP_AGENTS) {
    const { label, user, project } = MCP_CONFIG_FILES[agent];
    const files = [
      ...homeDir() === undefined ? [] : [join(homeDir()!, ...user)],
      join(Deno.cwd(), ...project),
    ];
    for (const file of new Set(files)) {
      const command = await ourMcpCommandIn(file);
      if (command !== undefined && launcherThere(command)) running.add(`${label} (MCP server)`);
    }
  }
  for (const file of ruleFiles()) {
    const launcher = await textOf(file).then((text) => text && agentsRuleLauncher(text));
    if (launcher && launcherThere(launcher)) running.add(`the git-kb rule in ${file}`);
  }
  return [...running];
}

/** Whether a launcher named by a path is there; one named otherwise (on PATH, the plugin's) is. */
function launcherThere(launcher: string | undefined): boolean {
  return launcher === undefined || !isAbsolute(launcher) || isFile(launcher);
}

/** The text of the file at `path`; undefined when it cannot be read. */
async function textOf(path: string): Promise<string | undefined> {
  try {
    return (await readSettingsFile(path)).text;
  } catch {
    return undefined;
  }
}

/** The command git-kb's server entry starts in the MCP configuration at `path`, if it has one. */
async function ourMcpCommandIn(path: string): Promise<string | undefined> {
  const text = await textOf(path);
  if (!text) return undefined;
  if (path.endsWith(".toml")) return ourTomlMcpCommand(text);
  try {
    return ourMcpCommand(parseSettings(text));
  } catch {
    return undefined;
  }
}

/** OpenCode's AGENTS.md for every project, under the XDG config folder; undefined without HOME. */
export function openCodeRulesFile(): string | undefined {
  const config = xdgFolder("XDG_CONFIG_HOME", ".config");
  return config === undefined ? undefined : join(config, "opencode", "AGENTS.md");
}

/** Where the rule `git-kb setup` prints for Cursor and OpenCode is put, for this folder. */
function ruleFiles(): string[] {
  const here = Deno.cwd();
  const openCode = openCodeRulesFile();
  return [
    join(here, AGENT_FILES.agents.path),
    join(here, AGENT_FILES.cursor.path),
    ...openCode === undefined ? [] : [openCode],
  ];
}
