/**
 * The `git-kb` command on PATH, as `git-kb setup --path` makes it: a symbolic link in the user's
 * own folder of commands (`~/.local/bin`) to a git-kb launcher. What counts as such a link, whether
 * a folder is on PATH, and the line that puts it there.
 *
 * @module
 */
import { join } from "../path.ts";

/** The name of the command the link makes. */
export const COMMAND_NAME = "git-kb";

/** The user's own folder of commands, below the home folder (the XDG base directory one). */
export function userBinDir(home: string): string {
  return join(home, ".local", "bin");
}

/**
 * Whether a link's target is a git-kb launcher (`…/bin/git-kb`: a checkout's `plugin/bin` or an
 * installed plugin's `bin`), so that setup may replace or remove the link. Anything else at that
 * name is the user's own and is left alone.
 */
export function isLauncherTarget(target: string): boolean {
  return /(^|[\\/])bin[\\/]git-kb$/.test(target);
}

/** Whether `dir` is one of the folders listed in a PATH value (`:`-separated; `;` on Windows). */
export function isOnPath(dir: string, pathValue: string | undefined, separator = ":"): boolean {
  const wanted = dir.replace(/[\\/]+$/, "");
  return (pathValue ?? "").split(separator).some((entry) =>
    entry.replace(/[\\/]+$/, "") === wanted
  );
}

/**
 * The line that puts `~/.local/bin` on PATH in the new terminals of the user's `shell` (its path,
 * from `SHELL`), to paste: zsh reads `~/.zshrc` and bash `~/.bashrc` when a terminal opens, which
 * `~/.profile` is not (a login shell's, read again only at the next login); fish has its own
 * command; any other shell gets `~/.profile`.
 */
export function pathSetupLine(shell: string | undefined): string {
  const name = shell?.split("/").pop();
  if (name === "fish") return "fish_add_path $HOME/.local/bin";
  const file = name === "zsh" ? "~/.zshrc" : name === "bash" ? "~/.bashrc" : "~/.profile";
  return `echo 'export PATH="$HOME/.local/bin:$PATH"' >> ${file}`;
}
