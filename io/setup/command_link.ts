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
import { shellCommand } from "../../core/shell/quote.ts";

/** What linking or unlinking did (or, in a dry run, would do). */
export type LinkAction = "created" | "updated" | "unchanged" | "removed" | "absent";

/** Something at the link's name that setup will not touch: a file, or a link elsewhere. */
export class ForeignCommandError extends Error {}

/** Where the link at `path` points, as `info` (its lstat) describes it; undefined if not a link. */
function linkTarget(path: string, info: Deno.FileInfo | undefined): string | undefined {
  return info?.isSymlink ? Deno.readLinkSync(path) : undefined;
}

/** Refuse to touch `path`, not a link to a launcher (`target`: where it links, if anywhere). */
function refuseForeign(path: string, target: string | undefined, what: string): never {
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
  const target = linkTarget(path, info);
  if (target === launcher) return "unchanged";
  if (info && (target === undefined || !isLauncherTarget(target))) {
    // By the launcher's own path: git-kb is not on PATH before its first link, as when the
    // README's `./deno task setup --path` runs this.
    const again = shellCommand([launcher, "setup", "--path"]);
    refuseForeign(path, target, `move it away, then run ${again} again`);
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
  const info = lstatOf(path);
  if (!info) return "absent";
  const target = linkTarget(path, info);
  if (target === undefined || !isLauncherTarget(target)) {
    refuseForeign(path, target, "remove it yourself if it is no longer wanted");
  }
  if (!dryRun) Deno.removeSync(path);
  return "removed";
}
