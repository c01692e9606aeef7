/**
 * The system `git` binary as a subprocess. Every git call in git-kb goes through here.
 *
 * @module
 */
import { type ProcessOutput, runProcess } from "./process.ts";

/** What a git command printed and how it exited. */
export type GitResult = ProcessOutput;

/** Raised when a git command fails; carries git's own words. */
export class GitError extends Error {
  readonly result: GitResult;
  constructor(args: string[], result: GitResult) {
    const detail = (result.stderr || result.stdout).trim().split("\n").slice(-3).join("\n");
    super(`git ${args.join(" ")} failed (exit ${result.code}): ${detail}`);
    this.name = "GitError";
    this.result = result;
  }
}

/**
 * The line of git's stderr that says what went wrong: the first `fatal:` or `error:` line
 * without its prefix, else the first line; no trailing period, so it can sit in a sentence.
 */
export function gitReason(stderr: string): string {
  const lines = stderr.split("\n").map((line) => line.trim()).filter(Boolean);
  const line = lines.find((item) => /^(fatal|error):/.test(item)) ?? lines[0] ?? "no message";
  return line.replace(/^(fatal|error):\s*/, "").replace(/\.+$/, "");
}

/** Environment that keeps git from prompting or paging inside a tool. */
const QUIET_ENV = {
  GIT_TERMINAL_PROMPT: "0",
  GIT_PAGER: "cat",
  GIT_EDITOR: "true",
  LC_ALL: "C",
};

/** Run `git args…` in `cwd` and return its output, whatever the exit code. */
export function git(cwd: string, args: string[], stdin?: string): Promise<GitResult> {
  return runProcess("git", args, { cwd, env: QUIET_ENV, stdin });
}

/** Run `git args…` in `cwd`; throw {@link GitError} unless it exits 0. Returns stdout. */
export async function gitOk(cwd: string, args: string[], stdin?: string): Promise<string> {
  const result = await git(cwd, args, stdin);
  if (result.code !== 0) throw new GitError(args, result);
  return result.stdout;
}

let identityCache: Promise<string[]> | undefined;

/**
 * `-c user.name=… -c user.email=…` for what git's own config lacks, so commits work on a
 * machine where no identity was ever set; empty when both are configured. Asked once per
 * process.
 */
export function identityArgs(cwd: string): Promise<string[]> {
  identityCache ??= git(cwd, ["config", "--get-regexp", "^user\\.(name|email)$"]).then(
    ({ stdout }) => {
      const has = (key: string) => stdout.split("\n").some((line) => line.startsWith(`${key} `));
      return [
        ...(has("user.name") ? [] : ["-c", "user.name=git-kb"]),
        ...(has("user.email") ? [] : ["-c", "user.email=git-kb@localhost"]),
      ];
    },
  );
  return identityCache;
}
