/**
 * `git-kb doctor`: one line per finding about the config, git, the remote, the index, the
 * entries and the kernel budget. Exit 1 when any finding is an error.
 *
 * @module
 */
import { checkAgainstKb, parseEntryText, toEntry } from "../core/entry.ts";
import type { Finding } from "../core/finding.ts";
import { LIMITS } from "../core/schema.ts";
import { configCandidates, resolveKb } from "../io/config.ts";
import { git, gitReason } from "../io/git.ts";
import { openIndex } from "../io/index_store.ts";
import { readKbFile } from "../io/kb.ts";
import { indexDir } from "../io/paths.ts";
import { entryPaths } from "../io/save.ts";
import { parseCommand } from "./args.ts";
import { green, printJson, red, yellow } from "./output.ts";

/** Help text. */
export const help = `Usage: git-kb doctor [options]

Check the setup and the knowledge base, one line per finding:
config (which source won, disagreements), git, the remote (git's own ls-remote,
nothing else touches the network), index freshness, every entry against the
contract (links included), and the kernel budget. Exit 1 when any check fails.

Options:
  --offline     skip the remote reachability check
  --json        print findings as JSON
  --kb <dir>    the knowledge base folder`;

export type { Finding };

async function gitChecks(kbDir: string, offline: boolean, add: (f: Finding) => void) {
  const version = await git(kbDir, ["--version"]).catch(() => undefined);
  if (!version || version.code !== 0) {
    add({ level: "error", check: "git", message: "git is not installed or not on PATH" });
    return;
  }
  const inside = await git(kbDir, ["rev-parse", "--is-inside-work-tree"]);
  if (inside.stdout.trim() !== "true") {
    add({
      level: "error",
      check: "git",
      message: `${kbDir} is not a git work tree; run git-kb init`,
    });
    return;
  }
  add({ level: "ok", check: "git", message: version.stdout.trim() });
  const dirty = (await git(kbDir, ["status", "--porcelain", "--", "entries"])).stdout.trim();
  if (dirty) {
    const count = dirty.split("\n").length;
    add({
      level: "warn",
      check: "git",
      message: `${count} uncommitted change(s) under entries/; commit them or save through git-kb`,
    });
  }
  const remotes = (await git(kbDir, ["remote"])).stdout.split("\n").filter(Boolean);
  if (!remotes.length) {
    add({
      level: "warn",
      check: "remote",
      message: "NO_REMOTE: saves are committed but not pushed anywhere",
    });
    return;
  }
  const remote = remotes.includes("origin") ? "origin" : remotes[0];
  if (!offline) {
    const reach = await git(kbDir, ["ls-remote", "--exit-code", "-q", remote, "HEAD"]);
    add(
      reach.code === 0 || reach.code === 2
        ? { level: "ok", check: "remote", message: `${remote} is reachable` }
        : {
          level: "error",
          check: "remote",
          message: `${remote} is not reachable: ${gitReason(reach.stderr)}`,
        },
    );
  }
  const counts = await git(kbDir, ["rev-list", "--left-right", "--count", "HEAD...@{u}"]);
  if (counts.code === 0) {
    const [ahead, behind] = counts.stdout.trim().split(/\s+/).map(Number);
    if (ahead || behind) {
      add({
        level: "warn",
        check: "remote",
        message:
          `${ahead} commit(s) not pushed, ${behind} not pulled; run git pull --rebase && git push`,
      });
    }
  }
}

function entryChecks(kbDir: string, add: (f: Finding) => void): void {
  const ids = entryPaths(kbDir);
  let problems = 0;
  for (const path of ids.values()) {
    try {
      const { entry, problems: own } = toEntry(parseEntryText(readKbFile(kbDir, path), path));
      const all = entry ? checkAgainstKb(entry, { ids, path }) : own;
      for (const problem of all) {
        problems++;
        add({
          level: "error",
          check: "entry",
          message: `${path}: ${problem.field}: ${problem.message}`,
        });
      }
    } catch (error) {
      problems++;
      add({
        level: "error",
        check: "entry",
        message: error instanceof Error ? error.message : String(error),
      });
    }
  }
  if (!problems) {
    add({ level: "ok", check: "entries", message: `${ids.size} entries follow the contract` });
  }
}

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const { values } = parseCommand(args, {
    offline: { type: "boolean" },
    json: { type: "boolean" },
  });
  const findings: Finding[] = [];
  const add = (finding: Finding) => findings.push(finding);
  const location = resolveKb(values.kb);
  add({
    level: "ok",
    check: "config",
    message: `knowledge base ${location.kbDir} (from ${location.source})`,
  });
  for (const candidate of configCandidates()) {
    if (candidate.kbDir && candidate.kbDir !== location.kbDir) {
      add({
        level: "warn",
        check: "config",
        message: `${candidate.file} names another knowledge base: ${candidate.kbDir}`,
      });
    }
  }
  const { kbDir } = location;
  await gitChecks(kbDir, values.offline ?? false, add);
  const before = performance.now();
  const { report, reader } = await openIndex(kbDir);
  add({
    level: "ok",
    check: "index",
    message: report.mode === "fresh"
      ? `up to date: ${report.docCount} entries at ${indexDir(kbDir)}`
      : `was stale (${report.added} added, ${report.changed} changed, ${report.removed} removed); updated in ${
        Math.round(performance.now() - before)
      } ms`,
  });
  entryChecks(kbDir, add);
  const kernelChars = reader.manifest.kernel.reduce((sum, rule) => sum + rule.body.length, 0);
  add({
    level: kernelChars > LIMITS.kernelBudgetChars ? "error" : "ok",
    check: "kernel",
    message:
      `${reader.manifest.kernel.length} kernel rule(s), ${kernelChars} of ${LIMITS.kernelBudgetChars} characters`,
  });
  for (const rule of reader.manifest.kernel) {
    if (rule.body.length > LIMITS.kernelBudgetChars) {
      add({
        level: "warn",
        check: "kernel",
        message:
          `${rule.id} alone is over the budget; the prompt hook lists it as a pointer instead`,
      });
    }
  }
  if (values.json) printJson(findings);
  else {
    const mark = { ok: green("ok  "), warn: yellow("warn"), error: red("FAIL") };
    for (const finding of findings) {
      console.log(`${mark[finding.level]} ${finding.check}: ${finding.message}`);
    }
  }
  return findings.some((finding) => finding.level === "error") ? 1 : 0;
}
