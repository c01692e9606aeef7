/**
 * Whether an agent already runs git-kb: git-kb's hooks in its settings file (in the home folder or
 * the current one), through a launcher that is there, or the git-kb plugin enabled in Claude
 * Code's. Read by `doctor` (hooks whose launcher is gone, hooks beside the plugin) and by `init`
 * (no setup to offer an agent that runs git-kb already).
 *
 * @module
 */
import {
  absoluteLauncher,
  enablesOurPlugin,
  findOurHooks,
  type FoundHook,
  HOOK_AGENTS,
  parseSettings,
  SETTINGS_FILES,
} from "../../core/setup/agent_settings.ts";
import { join } from "../../core/path.ts";
import { isFile } from "../disk.ts";
import { homeDir } from "../paths.ts";
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
 * Each agent that runs git-kb already, as a user reads it (`Claude Code (its plugin)`,
 * `Codex (hooks)`), once each, from the settings files in the home folder and the current one:
 * hooks count when their launcher is there (or named through the plugin's root).
 */
export async function agentsRunningGitKb(): Promise<string[]> {
  const bases = [...new Set([homeDir(), Deno.cwd()].filter((base) => base !== undefined))];
  const running = new Set<string>();
  for (const base of bases) {
    for (const agent of HOOK_AGENTS) {
      const { label, dir, file } = SETTINGS_FILES[agent];
      const { hooks, plugin } = await ourWiringIn(join(base, dir, file));
      if (plugin) running.add(`${label} (its plugin)`);
      const runs = hooks.some((hook) => {
        const launcher = absoluteLauncher(hook.command);
        return launcher === undefined || isFile(launcher);
      });
      if (runs) running.add(`${label} (hooks)`);
    }
  }
  return [...running];
}
