/**
 * The checks `git-kb doctor` runs, each a function returning findings ({@link Check}), and
 * running them: the setup's once, each knowledge base's in turn. A check that lives beside what
 * it checks (git state, the save lock, index damage) plugs in as one more entry of
 * {@link KB_CHECKS}.
 *
 * @module
 */
import type { Finding } from "../../core/setup/finding.ts";
import { configCandidates, relativeKbDir } from "../config.ts";
import { idCollisionFindings } from "../kbs/collisions.ts";
import { cacheFindings } from "../cache_health.ts";
import { checkGitLocks, checkOrphans, checkRepoState } from "../save/repo_state.ts";
import { checkSaveLock } from "../save/repo_state.ts";
import { type Check, type DoctorContext, withFix } from "./context.ts";
import { shellQuote } from "../../core/shell/quote.ts";
import { displaySafe } from "../../core/text/display.ts";
import { isFolder } from "../disk.ts";
import { kbCommand } from "../self_command.ts";
import { gitFindings } from "./git_checks.ts";
import { agentFindings } from "./agent_checks.ts";
import {
  contractFindings,
  indexFindings,
  kernelFindings,
  leftOutFindings,
  repairFindings,
} from "./entry_checks.ts";

/**
 * Which knowledge base was chosen, whether a config file names others but not it (one the config
 * names beside the default, chosen with `--kb`, is no surprise), and every folder named
 * relative: a relative `KB_DIR` names another folder wherever a command runs, and with one the
 * model's fetch lines are never free of an approval.
 */
export function configFindings({ location }: DoctorContext): Finding[] {
  const findings: Finding[] = [{
    level: "ok",
    check: "config",
    message: `knowledge base ${location.kbDir} (from ${location.source})`,
  }];
  const relative = relativeKbDir(location.source);
  if (relative !== undefined) {
    findings.push({
      level: "warn",
      check: "config",
      message: withFix(
        `KB_DIR is a relative folder (${displaySafe(relative)}), read from the current one: ` +
          "each command and agent shell started elsewhere reads another folder, and the model " +
          "needs an approval for every fetch",
        `export KB_DIR=${shellQuote(location.kbDir)}`,
      ),
    });
  }
  for (const candidate of configCandidates()) {
    if (candidate.kbDir && !candidate.kbs.some((kb) => kb.kbDir === location.kbDir)) {
      findings.push({
        level: "warn",
        check: "config",
        message: `${candidate.file} names another knowledge base: ${candidate.kbDir}`,
      });
    }
    for (const { name, kbDir, written } of candidate.relative) {
      const problem = `${candidate.file} names the knowledge base ${name} by a relative folder ` +
        `(${displaySafe(written)}), read from the config file's folder as ${kbDir}`;
      const rewrite = (folder: string) => kbCommand("init", folder, "--name", name);
      findings.push({
        level: "warn",
        check: "config",
        message: isFolder(kbDir)
          ? withFix(`${problem}; write it absolute`, rewrite(kbDir))
          : `${problem}, which is not there; write the folder you meant absolute: ` +
            `${rewrite("<folder>")}, with your folder in place of <folder>`,
      });
    }
  }
  return findings;
}

/** The repository's state as a save sees it: git operations under way, locks, orphan files. */
export async function saveStateFindings(context: DoctorContext): Promise<Finding[]> {
  const { kbDir } = context;
  return [
    await checkRepoState(kbDir),
    await checkGitLocks(kbDir),
    await checkSaveLock(kbDir),
    await checkOrphans(kbDir),
  ];
}

/** A check, and the name its findings go by: one that cannot run is reported under it. */
export interface NamedCheck {
  name: string;
  run: Check;
}

/** The checks of the setup as a whole, run once however many knowledge bases it names. */
export const SETUP_CHECKS: readonly NamedCheck[] = [
  { name: "config", run: configFindings },
  { name: "kbs", run: ({ location }) => idCollisionFindings(location) },
  { name: "agent", run: agentFindings },
];

/** The check of git alone: all doctor runs for a knowledge base folder that is not there. */
export const GIT_CHECK: NamedCheck = { name: "git", run: gitFindings };

/** The checks of one knowledge base, run for each. */
export const KB_CHECKS: readonly NamedCheck[] = [
  GIT_CHECK,
  { name: "git", run: saveStateFindings },
  { name: "cache", run: ({ kbDir }) => cacheFindings(kbDir) },
  { name: "index", run: indexFindings },
  { name: "entries", run: contractFindings },
  { name: "entries", run: repairFindings },
  { name: "entries", run: leftOutFindings },
  { name: "kernel", run: kernelFindings },
];

/**
 * Run `checks` in order and gather their findings; each runs whatever the others found. A check
 * that throws becomes one error finding under its name; one that throws what an earlier finding
 * says (the cache's error, say, for every check that reads the index) is named as not checked,
 * for the reason given above, once per name. `thrownOn` picks the errors thrown on instead (the
 * CLI's: a missing permission, for it to name the flag).
 */
export async function gatherFindings(
  context: DoctorContext,
  checks: readonly NamedCheck[],
  thrownOn: (error: unknown) => boolean,
): Promise<Finding[]> {
  const findings: Finding[] = [];
  const notChecked = new Set<string>();
  for (const { name, run } of checks) {
    try {
      findings.push(...await run(context));
    } catch (error) {
      if (thrownOn(error)) throw error;
      const message = error instanceof Error ? error.message : String(error);
      const first = findings.find((finding) => finding.message === message)?.check;
      if (first === undefined) {
        notChecked.add(name);
        findings.push({ level: "error", check: name, message });
      } else if (!notChecked.has(name)) {
        notChecked.add(name);
        findings.push({
          level: "error",
          check: name,
          message: `not checked, for the reason given under ${first} above`,
        });
      }
    }
  }
  return findings;
}
