/**
 * Make or remove the `git-kb` link in the user's folder of commands (see
 * core/setup/command_link.ts): the folder is created when missing, the link is replaced
 * atomically, and nothing that is not a link to a git-kb launcher is ever replaced or removed.
 *
 * @module
 */
import { COMMAND_NAME, isLauncherTarget } from "../../core/setup/command_link.ts";
import { join } from "../../core/path.ts";
import { lstatOf } from "../disk.ts";
import { kbCommand } from "../self_command.ts";

/** What linking or unlinking did (or, in a dry run, would do). */
export type LinkAction = "created" | "updated" | "unchanged" | "removed" | "absent";

/** Something at the link's name that setup will not touch: a file, or a link elsewhere. */
export class ForeignCommandError extends Error {}

function linkTarget(path: string): string | undefined {
  return lstatOf(path)?.isSymlink ? Deno.readLinkSync(path) : undefined;
}

function refuseForeign(path: string, what: string): never {
  const target = linkTarget(path);
  throw new ForeignCommandError(
    target === undefined
      ? `${path} exists and is not a link to a git-kb launcher, so setup leaves it alone; ${what}`
      : `${path} links to ${target}, not to a git-kb launcher, so setup leaves it alone; ${what}`,
  );
}

/** Link `<binDir>/git-kb` to `launcher`, creating `binDir` when missing. */
export function linkCommand(binDir: string, launcher: string, dryRun: boolean): LinkAction {
  const path = join(binDir, COMMAND_NAME);
  const info = lstatOf(path);
  const target = linkTarget(path);
  if (target === launcher) return "unchanged";
  if (info && (target === undefined || !isLauncherTarget(target))) {
    refuseForeign(path, `move it away, then run ${kbCommand("setup", "--path")} again`);
  }
  if (dryRun) return info ? "updated" : "created";
  Deno.mkdirSync(binDir, { recursive: true });
  const temporary = join(binDir, `.${COMMAND_NAME}.${crypto.randomUUID()}`);
  Deno.symlinkSync(launcher, temporary);
  try {
    Deno.renameSync(temporary, path);
  } catch (error) {
    Deno.removeSync(temporary);
    throw error;
  }
  return info ? "updated" : "created";
}

/** Remove `<binDir>/git-kb` when it is a link to a git-kb launcher. */
export function unlinkCommand(binDir: string, dryRun: boolean): LinkAction {
  const path = join(binDir, COMMAND_NAME);
  if (!lstatOf(path)) return "absent";
  const target = linkTarget(path);
  if (target === undefined || !isLauncherTarget(target)) {
    refuseForeign(path, "remove it yourself if it is no longer wanted");
  }
  if (!dryRun) Deno.removeSync(path);
  return "removed";
}
