/**
 * `git-kb doctor`'s git checks: whether git runs and the knowledge base is a work tree, the
 * identity commits get, changes no commit holds yet, and the remote (fetched first, bounded).
 *
 * @module
 */
import type { Finding } from "../../core/setup/finding.ts";
import { plural } from "../../core/text/plural.ts";
import { gitCommand, shellCommand } from "../../core/shell/quote.ts";
import {
  git,
  GitMissingError,
  gitReason,
  identityArgs,
  networkTimeoutMs,
  SET_IDENTITY_COMMAND,
} from "../git.ts";
import { gitDir, repoState, uncommittedEntryChanges } from "../save/repo_state.ts";
import { writeRefusal } from "../fs.ts";
import { addRemoteCommand, syncCommand } from "../remote/target.ts";
import { type RemoteStatus, remoteStatus } from "../sync/remote_status.ts";
import { isFolder } from "../disk.ts";
import { kbCommand } from "../self_command.ts";
import { isConfigFile, type KbLocation } from "../config.ts";
import { type DoctorContext, withFix } from "./context.ts";

/** The finding of a knowledge base whose folder does not exist, with the command that mends it. */
function goneFolder({ kbDir, name, source }: KbLocation): Finding {
  // One the config lists is dropped from it; one --kb or KB_DIR names is made anew.
  const message = name === undefined || !isConfigFile(source)
    ? withFix(`${kbDir} does not exist`, kbCommand("init", "--dir", kbDir))
    : withFix(
      `${kbDir}, the folder of ${name} in the config, does not exist (to make it anew there ` +
        `instead: ${kbCommand("init", "--dir", kbDir, "--name", name)})`,
      kbCommand("doctor", name, "--fix", "--write"),
    );
  return { level: "error", check: "git", message };
}

/** Whether git runs and the knowledge base is a work tree; the other git checks need both. */
async function gitUsable(location: KbLocation): Promise<Finding> {
  const { kbDir } = location;
  if (!isFolder(kbDir)) return goneFolder(location);
  const version = await git(kbDir, ["--version"]).catch(() => undefined);
  if (!version || version.code !== 0) {
    // In the words of every git call that stops on it, so the checks after it are not checked.
    return { level: "error", check: "git", message: new GitMissingError().message };
  }
  const inside = await git(kbDir, ["rev-parse", "--is-inside-work-tree"]);
  if (inside.stdout.trim() !== "true") {
    return {
      level: "error",
      check: "git",
      message: withFix(
        `${kbDir} is not a git work tree`,
        shellCommand(["git", "-C", kbDir, "init"]),
      ),
    };
  }
  return { level: "ok", check: "git", message: version.stdout.trim() };
}

/** The value a `-c key=value` list gives `key`, if any. */
function settingOf(args: string[], key: string): string | undefined {
  const setting = args.find((arg) => arg.startsWith(`${key}=`));
  return setting?.slice(key.length + 1);
}

/** The author and committer a save would commit as, warning when either is git-kb's stand-in. */
async function identityFinding(kbDir: string): Promise<Finding> {
  const fallback = await identityArgs(kbDir);
  const standIn = {
    name: settingOf(fallback, "user.name"),
    email: settingOf(fallback, "user.email"),
  };
  const idents: string[] = [];
  for (const role of ["GIT_AUTHOR_IDENT", "GIT_COMMITTER_IDENT"]) {
    const ident = await git(kbDir, [...fallback, "var", role]);
    if (ident.code !== 0) {
      return { level: "error", check: "identity", message: gitReason(ident.stderr) };
    }
    idents.push(ident.stdout.trim().replace(/ \d+ [+-]\d{4}$/, ""));
  }
  const madeUp = idents.find((who) => {
    const [, name, email] = /^(.*) <(.*)>$/.exec(who) ?? [];
    return name === standIn.name || email === standIn.email;
  });
  const who = [...new Set(idents)].join(" and ");
  if (!madeUp) return { level: "ok", check: "identity", message: `commits are made as ${who}` };
  const missing = [standIn.name && "user.name", standIn.email && "user.email"].filter(Boolean)
    .join(" or ");
  return {
    level: "warn",
    check: "identity",
    message: withFix(
      `git has no ${missing}: commits would be made as ${madeUp}`,
      SET_IDENTITY_COMMAND,
    ),
  };
}

/**
 * Changes under entries/ that no commit holds yet, each file named (see `uncommittedEntryChanges`
 * in io/save/repo_state.ts): hand edits, or the files of an import or save that was stopped before
 * its commit; and, outside a git operation, changes git's index alone holds.
 */
async function uncommittedFindings(kbDir: string, busy: boolean): Promise<Finding[]> {
  const { edits, staged } = await uncommittedEntryChanges(kbDir);
  // What an operation under way staged is its own.
  const unstage: Finding[] = staged && !busy
    ? [{ level: "warn", check: "git", message: withFix(staged.summary, staged.unstage) }]
    : [];
  if (!edits) return unstage;
  if (busy) {
    // Committing now would commit into the operation under way (conflict markers included).
    return [{
      level: "warn",
      check: "git",
      message: `${edits.summary}; finish the git operation first`,
    }];
  }
  return [{
    level: "warn",
    check: "git",
    message: withFix(
      `${edits.summary}; saves through git-kb commit only their own entry`,
      edits.commit,
    ),
  }, ...unstage];
}

/** How long doctor waits for the remote branch to be fetched. */
const REMOTE_TIMEOUT_MS = 10_000;

/** Whether the fetch reached the remote, as a finding. */
function reachFinding(kbDir: string, status: RemoteStatus, gitFolder: string): Finding {
  const { remote, fetch } = status;
  if (fetch.state === "fetched") {
    return {
      level: "ok",
      check: "remote",
      message: `${remote} is reachable; fetched ${status.upstream}`,
    };
  }
  if (fetch.state === "gone") {
    return {
      level: "error",
      check: "remote",
      message: withFix(
        `${remote} no longer has the branch ${status.upstream.slice(remote.length + 1)} (it ` +
          "was deleted or renamed there), so saves are not pushed; sync prints the commands " +
          "that follow the remote's default branch or publish this one again",
        syncCommand(kbDir),
      ),
    };
  }
  if (fetch.skipped) {
    return {
      level: "warn",
      check: "remote",
      message: `${remote} was not fetched: ${fetch.reason}; run doctor again once it is done`,
    };
  }
  // The remote answered: what it sent could not be written here (no room, or a folder of git's
  // that takes no write), which no network or address explains.
  const refusal = writeRefusal(gitFolder, fetch.reason);
  if (refusal) {
    const problem = `${remote} could not be fetched: ${refusal.reason}`;
    const [fix] = refusal.commands;
    return { level: "error", check: "remote", message: fix ? withFix(problem, fix) : problem };
  }
  if (!fetch.timedOut) {
    return {
      level: "error",
      check: "remote",
      message: withFix(
        `${remote} is not reachable: ${fetch.reason}; check the network and its address ` +
          `(${gitCommand(kbDir, "remote", "-v")}), and if the repository moved, put its new ` +
          "URL in place of <url>",
        `${gitCommand(kbDir, "remote", "set-url", remote)} <url>`,
      ),
    };
  }
  return {
    level: "error",
    check: "remote",
    message: `${remote} did not answer: ${fetch.reason}; check the network, or run ` +
      `${kbCommand("doctor", "--offline", "--kb", kbDir)}`,
  };
}

/** Where figures not fetched now come from: the last fetch, when it was, and why not now. */
function staleNote(status: RemoteStatus): string {
  if (status.fetch.state !== "not-fetched") return "";
  const when = status.lastFetch
    ? `the last fetch, ${status.lastFetch.toISOString().slice(0, 16).replace("T", " ")} UTC`
    : "the clone, with no fetch since";
  const why = status.fetch.skipped ? status.fetch.reason : "this fetch failed";
  return ` (as of ${when}: ${why})`;
}

/**
 * How far the branch is from the remote branch, as a finding with the sync that closes it; while
 * the repo is off its branch or in an operation (`busy`), which the sync refuses, that sync waits
 * for the git check's error to be fixed, and the finding says so.
 */
function distanceFinding(kbDir: string, status: RemoteStatus, busy: boolean): Finding {
  const { upstream, counts } = status;
  const sync = syncCommand(kbDir);
  const note = staleNote(status);
  if (!counts) {
    return {
      level: "warn",
      check: "remote",
      message: withFix(`${upstream} does not exist yet${note}; nothing is pushed there`, sync),
    };
  }
  const { ahead, behind } = counts;
  if (!ahead && !behind) {
    return { level: "ok", check: "remote", message: `in step with ${upstream}${note}` };
  }
  const unpushed = `${plural(ahead, "commit", "commits")} not pushed`;
  const unpulled = `${plural(behind, "commit", "commits")} of ${upstream} not pulled`;
  const distance = ahead && behind
    ? `diverged from ${upstream}: ${unpushed}, ${plural(behind, "commit", "commits")} not pulled`
    : ahead
    ? `${unpushed} to ${upstream}`
    : unpulled;
  const message = busy
    ? `${distance}${note}; sync once the git check's error is fixed: ${sync}`
    : withFix(`${distance}${note}`, sync);
  return { level: "warn", check: "remote", message };
}

/**
 * Whether the remote answers, and how far the branch is from it: fetched first (bounded), so
 * ahead, behind and diverged are the remote's as it is, or say they are from the last fetch.
 */
async function remoteFindings(
  kbDir: string,
  offline: boolean,
  busy: boolean,
): Promise<Finding[]> {
  const remotes = (await git(kbDir, ["remote"])).stdout.split("\n").filter(Boolean);
  if (!remotes.length) {
    return [{
      level: "warn",
      check: "remote",
      message: withFix(
        "NO_REMOTE: saves are committed but not pushed anywhere",
        addRemoteCommand(kbDir),
      ),
    }];
  }
  const status = await remoteStatus(kbDir, {
    offline,
    timeoutMs: networkTimeoutMs(REMOTE_TIMEOUT_MS),
  });
  if (!status) return [];
  const gitFolder = await gitDir(kbDir);
  // A branch gone from the remote leaves no distance to tell: its last fetched tip is stale.
  if (status.fetch.state === "gone") return [reachFinding(kbDir, status, gitFolder)];
  return [
    ...(offline ? [] : [reachFinding(kbDir, status, gitFolder)]),
    distanceFinding(kbDir, status, busy),
  ];
}

/** git itself, then (when it works) the identity, hand changes and the remote. */
export async function gitFindings(
  { location, kbDir, offline }: DoctorContext,
): Promise<Finding[]> {
  const usable = await gitUsable(location);
  if (usable.level === "error") return [usable];
  // Off the branch, or a rebase, merge or the like under way: the git check says how to fix it.
  const busy = (await repoState(kbDir)).state !== "branch";
  return [
    usable,
    await identityFinding(kbDir),
    ...await uncommittedFindings(kbDir, busy),
    ...await remoteFindings(kbDir, offline, busy),
  ];
}
