/**
 * Whether the hooks `git-kb setup` wrote into an agent's settings still run: each names the
 * launcher by its absolute path, so a clone moved or deleted since leaves every hook failing,
 * and the agent goes on without the knowledge base and without saying why. And whether they run
 * beside the git-kb plugin's, which makes every hook run twice. And whether the `git-kb` command
 * `setup --path` linked still runs: a link to a launcher no longer there fails the same way.
 *
 * @module
 */
import {
  absoluteLauncher,
  HOOK_AGENTS,
  type HookAgent,
  SETTINGS_FILES,
} from "../../core/setup/agent_settings.ts";
import type { Finding } from "../../core/setup/finding.ts";
import { join } from "../../core/path.ts";
import { shellQuote } from "../../core/shell/quote.ts";
import { displaySafe } from "../../core/text/display.ts";
import { COMMAND_NAME, isLauncherTarget, userBinDir } from "../../core/setup/command_link.ts";
import { homeDir } from "../paths.ts";
import { isFile, lstatOf } from "../disk.ts";
import { ourWiringIn } from "../setup/wiring.ts";
import { kbCommand } from "../self_command.ts";
import { withFix } from "./context.ts";

/** A folder whose agent settings are read, and how `setup` is told about it. */
interface Scope {
  base: string;
  /** The words `setup` needs for this scope, after `--agent <agent>`. */
  flags: string[];
}

/**
 * The `setup` of `agent`'s hooks in `scope`, run from its folder: with no `more`, it points them
 * at the launcher running now; with `--remove`, it takes them out.
 */
function setupIn(agent: HookAgent, scope: Scope, ...more: string[]): string {
  const setup = kbCommand("setup", "--agent", agent, ...scope.flags, ...more);
  return scope.flags.length ? `cd ${shellQuote(scope.base)} && ${setup}` : setup;
}

/** The findings of one agent's settings file in one scope: one per launcher that is gone. */
async function settingsFindings(agent: HookAgent, scope: Scope): Promise<Finding[]> {
  const { label, dir, file } = SETTINGS_FILES[agent];
  const path = join(scope.base, dir, file);
  const { hooks: found } = await ourWiringIn(path);
  const verbsByLauncher = new Map<string, Set<string>>();
  for (const hook of found) {
    const launcher = absoluteLauncher(hook.command);
    if (launcher === undefined || isFile(launcher)) continue;
    verbsByLauncher.set(launcher, (verbsByLauncher.get(launcher) ?? new Set()).add(hook.verb));
  }
  return [...verbsByLauncher].map(([launcher, verbs]): Finding => {
    const hooks = `git-kb's ${label} hooks (${[...verbs].join(", ")})`;
    const problem = `${path} runs ${hooks} through ${displaySafe(launcher)}, which is not ` +
      `there (the clone moved or was deleted?), so ${label} runs none of them`;
    return { level: "warn", check: "agent", message: withFix(problem, setupIn(agent, scope)) };
  });
}

/**
 * A warning for each Claude Code settings file of `scopes` holding git-kb's hooks while a settings
 * file of them enables the git-kb plugin: Claude Code runs both, so every prompt gets each pointer
 * twice and every prose check asks the model twice. The fix removes the file's hooks.
 */
async function doubleWiringFindings(scopes: readonly Scope[]): Promise<Finding[]> {
  const { dir, file } = SETTINGS_FILES.claude;
  const files = await Promise.all(scopes.map(async (scope) => {
    const path = join(scope.base, dir, file);
    return { scope, path, ...await ourWiringIn(path) };
  }));
  const pluginAt = files.find((item) => item.plugin);
  if (!pluginAt) return [];
  return files.filter((item) => item.hooks.length).map(({ scope, path }): Finding => {
    const problem = `${path} holds git-kb's Claude Code hooks and ${pluginAt.path} enables the ` +
      "git-kb plugin, whose hooks run as well: every hook runs twice (each pointer injected " +
      "twice, each prose check asked of the model twice); keep one (or remove the plugin: " +
      "claude plugin uninstall git-kb@git-kb)";
    const fix = setupIn("claude", scope, "--remove");
    return { level: "warn", check: "agent", message: withFix(problem, fix) };
  });
}

/**
 * A warning when the `git-kb` command in `home`'s folder of commands links to a git-kb launcher
 * that is not there, with the `setup --path` that links it to the launcher running now. A link
 * elsewhere, or a file, is the user's own (setup leaves it alone), and says nothing.
 */
function commandLinkFindings(home: string): Finding[] {
  const link = join(userBinDir(home), COMMAND_NAME);
  if (!lstatOf(link)?.isSymlink) return [];
  const target = Deno.readLinkSync(link);
  const resolved = target.startsWith("/") ? target : join(userBinDir(home), target);
  if (!isLauncherTarget(target) || isFile(resolved)) return [];
  const problem = `${link} links to ${displaySafe(target)}, which is not there (the clone moved ` +
    "or was deleted?), so the git-kb command fails";
  return [{
    level: "warn",
    check: "command",
    message: withFix(problem, kbCommand("setup", "--path")),
  }];
}

/**
 * A warning for each agent settings file, in the home folder or the current folder, whose git-kb
 * hooks run a launcher that is not there, with the `setup` command that repoints them, or that run
 * beside the git-kb plugin's; and for a `git-kb` command that links to a launcher not there. Files
 * that are missing or do not parse say nothing: `setup` reports those when it edits them.
 */
export async function agentFindings(): Promise<Finding[]> {
  const home = homeDir();
  const scopes: Scope[] = home ? [{ base: home, flags: [] }] : [];
  const here = Deno.cwd();
  if (here !== home) scopes.push({ base: here, flags: ["--scope", "project"] });
  const findings: Finding[] = [];
  for (const scope of scopes) {
    for (const agent of HOOK_AGENTS) findings.push(...await settingsFindings(agent, scope));
  }
  return [
    ...findings,
    ...await doubleWiringFindings(scopes),
    ...home ? commandLinkFindings(home) : [],
  ];
}
