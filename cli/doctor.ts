/**
 * `git-kb doctor`: every check is a function returning findings ({@link Check}); doctor runs
 * them in order, prints one line per finding and exits 1 when any is an error. Checks that live
 * beside what they check (git state, the save lock, index damage) plug in as one more
 * {@link Check} in {@link CHECKS}.
 *
 * @module
 */
import { checkAgainstKb, parseEntryText } from "../core/entry/entry.ts";
import { idFromPath, isEntryId, nameWithId } from "../core/entry/identity.ts";
import { readEntryForgivingly } from "../core/entry/repair.ts";
import type { Finding } from "../core/setup/finding.ts";
import type { IndexReader, KernelRule } from "../core/index/reader.ts";
import { pendingSummary } from "../core/kernel/acceptance.ts";
import { join } from "../core/path.ts";
import { kernelRuleCost, LIMITS } from "../core/entry/schema.ts";
import { shellCommand, shellQuote } from "../core/shell/quote.ts";
import { displaySafe, terminalSafe } from "../core/text/display.ts";
import { configCandidates, type KbLocation, resolveKbNamed, resolveKbs } from "../io/config.ts";
import { idCollisionFindings } from "../io/kbs/collisions.ts";
import { git, gitReason, identityArgs, networkTimeoutMs } from "../io/git.ts";
import { type OpenIndex, openIndex } from "../io/index/store.ts";
import { ENTRIES_DIR, readKbFile } from "../io/kb.ts";
import {
  AcceptanceRecordError,
  pendingMentions,
  readAcceptedRules,
} from "../io/kernel/acceptance.ts";
import { cacheFindings } from "../io/cache_health.ts";
import { indexFindings as indexHealthFindings } from "../io/index/health.ts";
import { indexDir } from "../io/paths.ts";
import {
  checkGitLocks,
  checkOrphans,
  checkRepoState,
  repoState,
  uncommittedFiles,
} from "../io/save/repo_state.ts";
import { checkSaveLock, syncCommand } from "../io/save/save.ts";
import { type RemoteStatus, remoteStatus } from "../io/sync/remote_status.ts";
import { type CommandSpec, helpText, parseCommand, UsageError } from "./args.ts";
import { fixedText, fixEntries, repairableEntries, type RepairableEntry } from "../io/repairs.ts";
import { printWarnings, saveSummary } from "./save_report.ts";
import { missingPermissionFlag } from "./errors.ts";
import { green, plural, printJson, red, yellow } from "./output.ts";
import { isFolder, lstatOf, pathExists } from "../io/disk.ts";
import { kbCommand } from "../io/self_command.ts";

/** The command: its usage, options and positionals. */
export const command = {
  usage: ["doctor [<name>] [options]"],
  about: `Check the setup and the knowledge base, one line per finding:
config (which source won, disagreements), git (and the identity commits get),
the remote (fetched first, bounded, so ahead/behind/diverged are the remote's as it
is; nothing else touches the network), index
freshness, every file under entries/ (each one the index left out, with why and
how to fix it), every entry against the contract (links included), and the
kernel budget and the kernel rules waiting for your acceptance, and the cache's folders (yours alone, no links). Every fix is a
command to paste. With several knowledge bases configured, each is checked in
turn (or only the one named), and ids held by two are named. Exit 1 when any
check fails.`,
  options: {
    offline: { type: "boolean", help: "do not fetch: ahead/behind as of the last fetch" },
    fix: {
      type: "boolean",
      help: "show how each entry read forgivingly is rewritten to the contract",
    },
    write: { type: "boolean", help: "with --fix: write the rewrites, in one commit" },
    json: { type: "boolean", help: "print findings as JSON" },
  },
  positionals: { name: "<name>", max: 1 },
} as const satisfies CommandSpec;

/** Help text. */
export const help: string = helpText(command);

export type { Finding };

/** What a check is given: the knowledge base, how it was found, and the index on demand. */
export interface DoctorContext {
  location: KbLocation;
  kbDir: string;
  /** Skip everything that touches the network. */
  offline: boolean;
  /** The index, brought up to date on first call (every file checked), then the same one. */
  index(): Promise<OpenIndex>;
  /** The entries served only through a repair, read on first call, then the same list. */
  repairable(): Promise<RepairableEntry[]>;
}

/** One check: findings about one part of the setup. */
export type Check = (context: DoctorContext) => Finding[] | Promise<Finding[]>;

/** `text`, then the command that fixes it. */
function withFix(text: string, command: string): string {
  return `${text}; fix: ${command}`;
}

/** A command that moves `from` to `to`, or that compares the two when `to` exists already. */
function moveCommand(from: string, to: string): string {
  return pathExists(to)
    ? shellCommand(["diff", "--", from, to])
    : shellCommand(["mv", "--", from, to]);
}

/** A command that opens `path` in the user's editor, safe to paste. */
function editCommand(path: string): string {
  return `\${VISUAL:-\${EDITOR:-vi}} ${shellQuote(path)}`;
}

/** Which knowledge base was chosen and whether a config file names another one. */
export function configFindings({ location }: DoctorContext): Finding[] {
  const findings: Finding[] = [{
    level: "ok",
    check: "config",
    message: `knowledge base ${location.kbDir} (from ${location.source})`,
  }];
  for (const candidate of configCandidates()) {
    if (candidate.kbDir && candidate.kbDir !== location.kbDir) {
      findings.push({
        level: "warn",
        check: "config",
        message: `${candidate.file} names another knowledge base: ${candidate.kbDir}`,
      });
    }
  }
  return findings;
}

/** Whether git runs and the knowledge base is a work tree; the other git checks need both. */
async function gitUsable(kbDir: string): Promise<Finding> {
  if (!isFolder(kbDir)) {
    return {
      level: "error",
      check: "git",
      message: withFix(`${kbDir} does not exist`, kbCommand("init", "--dir", kbDir)),
    };
  }
  const version = await git(kbDir, ["--version"]).catch(() => undefined);
  if (!version || version.code !== 0) {
    return { level: "error", check: "git", message: "git is not installed or not on PATH" };
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
  const set = [
    shellCommand(["git", "config", "--global", "user.name", "Your Name"]),
    shellCommand(["git", "config", "--global", "user.email", "you@example.com"]),
  ].join(" && ");
  return {
    level: "warn",
    check: "identity",
    message: withFix(
      `git has no ${missing}: commits would be made as ${madeUp}`,
      set,
    ),
  };
}

/** How many uncommitted files a finding names; the rest are counted. */
const NAMED_FILES = 5;

/**
 * Changes under entries/ that no commit holds yet, each file named (up to {@link NAMED_FILES}):
 * hand edits, or the files of an import or save that was stopped before its commit.
 */
async function uncommittedFindings(kbDir: string): Promise<Finding[]> {
  const dirty = (await uncommittedFiles(kbDir, [ENTRIES_DIR])).map(({ path }) => path);
  if (!dirty.length) return [];
  const named = dirty.length > NAMED_FILES
    ? `${dirty.slice(0, NAMED_FILES).join(", ")} and ${dirty.length - NAMED_FILES} more`
    : dirty.join(", ");
  const changes = `${plural(dirty.length, "uncommitted change", "uncommitted changes")} under ` +
    `${ENTRIES_DIR}/ (${named})`;
  if ((await repoState(kbDir)).state !== "branch") {
    // Committing now would commit into the operation under way (conflict markers included).
    return [{ level: "warn", check: "git", message: `${changes}; finish the git operation first` }];
  }
  const commit = [
    shellCommand(["git", "-C", kbDir, "add", "--", ENTRIES_DIR]),
    shellCommand(["git", "-C", kbDir, "commit", "-m", "kb: commit hand edits"]),
  ].join(" && ");
  return [{
    level: "warn",
    check: "git",
    message: withFix(`${changes}; saves through git-kb commit only their own entry`, commit),
  }];
}

/** How long doctor waits for the remote branch to be fetched. */
const REMOTE_TIMEOUT_MS = 10_000;

/** Whether the fetch reached the remote, as a finding. */
function reachFinding(kbDir: string, status: RemoteStatus): Finding {
  const { remote, fetch } = status;
  if (fetch.state === "fetched") {
    return {
      level: "ok",
      check: "remote",
      message: `${remote} is reachable; fetched ${status.upstream}`,
    };
  }
  if (fetch.skipped) {
    return {
      level: "warn",
      check: "remote",
      message: `${remote} was not fetched: ${fetch.reason}; run doctor again once it is done`,
    };
  }
  if (!fetch.timedOut) {
    return {
      level: "error",
      check: "remote",
      message: `${remote} is not reachable: ${fetch.reason}`,
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
  if (status.fetch.state === "fetched") return "";
  const when = status.lastFetch
    ? `the last fetch, ${status.lastFetch.toISOString().slice(0, 16).replace("T", " ")} UTC`
    : "the clone (never fetched since)";
  const why = status.fetch.skipped ? status.fetch.reason : "this fetch failed";
  return ` (as of ${when}: ${why})`;
}

/** How far the branch is from the remote branch, as a finding with the sync that closes it. */
function distanceFinding(kbDir: string, status: RemoteStatus): Finding {
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
  return { level: "warn", check: "remote", message: withFix(`${distance}${note}`, sync) };
}

/**
 * Whether the remote answers, and how far the branch is from it: fetched first (bounded), so
 * ahead, behind and diverged are the remote's as it is, or say they are from the last fetch.
 */
async function remoteFindings(kbDir: string, offline: boolean): Promise<Finding[]> {
  const remotes = (await git(kbDir, ["remote"])).stdout.split("\n").filter(Boolean);
  if (!remotes.length) {
    return [{
      level: "warn",
      check: "remote",
      message: "NO_REMOTE: saves are committed but not pushed anywhere",
    }];
  }
  const status = await remoteStatus(kbDir, {
    offline,
    timeoutMs: networkTimeoutMs(REMOTE_TIMEOUT_MS),
  });
  if (!status) return [];
  return [
    ...(offline ? [] : [reachFinding(kbDir, status)]),
    distanceFinding(kbDir, status),
  ];
}

/** git itself, then (when it works) the identity, hand changes and the remote. */
export async function gitFindings({ kbDir, offline }: DoctorContext): Promise<Finding[]> {
  const usable = await gitUsable(kbDir);
  if (usable.level === "error") return [usable];
  return [
    usable,
    await identityFinding(kbDir),
    ...await uncommittedFindings(kbDir),
    ...await remoteFindings(kbDir, offline),
  ];
}

/** Whether the index was up to date, and where it is. */
export async function indexFindings(context: DoctorContext): Promise<Finding[]> {
  const health = await indexHealthFindings(context.kbDir);
  if (health.some((finding) => finding.level !== "ok")) return health;
  const { report } = await context.index();
  const entries = plural(report.docCount, "entry", "entries");
  return [{
    level: "ok",
    check: "index",
    message: report.mode === "fresh"
      ? `up to date: ${entries} at ${indexDir(context.kbDir)}`
      : `was stale (${report.added} added, ${report.changed} changed, ${report.removed} removed); ` +
        `updated in ${Math.round(report.ms)} ms: ${entries}`,
  }];
}

/** The id a file's frontmatter declares, when it can be read and looks like one. */
function declaredId(kbDir: string, path: string): string | undefined {
  try {
    const id = parseEntryText(readKbFile(kbDir, path), path).fields.id;
    return isEntryId(id) ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The command that fixes a file the index left out: move it where the index reads it (into
 * entries/, to a name ending in `.md` or starting with its id; a file too large to be an entry
 * out of it), remove what is not a regular file (a FIFO, a symlink), else open it in the editor.
 */
function leftOutFix(kbDir: string, path: string): string {
  const full = join(kbDir, path);
  const info = lstatOf(full);
  if (!info || !info.isFile) return shellCommand(["rm", "--", full]);
  const name = path.slice(path.lastIndexOf("/") + 1);
  // Too large to be an entry (never read whole): out of entries/, for the user to look at.
  if (info.size > LIMITS.maxEntryFileBytes) return moveCommand(full, join(kbDir, name));
  if (!name.endsWith(".md")) {
    const entryLike = idFromPath(name) !== undefined;
    return moveCommand(full, entryLike ? `${full}.md` : join(kbDir, name));
  }
  const id = declaredId(kbDir, path);
  const inEntries = path.startsWith(`${ENTRIES_DIR}/`) && !path.split("/").includes("..");
  if (id && !name.startsWith(`${id}-`)) {
    const renamed = `${ENTRIES_DIR}/${nameWithId(name, id)}`;
    return moveCommand(full, join(kbDir, renamed));
  }
  if (!inEntries) return moveCommand(full, join(kbDir, ENTRIES_DIR, name));
  return editCommand(full);
}

/** Every entry file the index left out, with the index's reason and a fix. */
export async function leftOutFindings(context: DoctorContext): Promise<Finding[]> {
  const { report } = await context.index();
  if (!report.invalid.length) return [];
  const total = report.docCount + report.invalid.length;
  return [
    {
      level: "error",
      check: "entries",
      message: `${report.invalid.length} of ${plural(total, "file", "files")} under ` +
        `${ENTRIES_DIR}/ left out of the index, each below`,
    },
    ...report.invalid.map((file): Finding => ({
      level: "error",
      check: "entries",
      message: withFix(
        `${displaySafe(file.path)} is left out of the index: ` +
          file.message.replace(/\n\s*/g, "; "),
        leftOutFix(context.kbDir, file.path),
      ),
    })),
  ];
}

/** The id → path of every entry in the index. */
function indexedIds(reader: IndexReader): Map<string, string> {
  const ids = new Map<string, string>();
  for (const [path, [ord]] of reader.files()) {
    const doc = ord >= 0 ? reader.doc(ord) : undefined;
    if (doc) ids.set(doc.id, path);
  }
  return ids;
}

/** Every indexed entry against the rules that need the rest of the knowledge base (links). */
export async function contractFindings(context: DoctorContext): Promise<Finding[]> {
  const { reader, report } = await context.index();
  const ids = indexedIds(reader);
  const findings: Finding[] = [];
  let sound = 0;
  for (const path of [...ids.values()].sort()) {
    const problems = (() => {
      try {
        const { entry, problems } = readEntryForgivingly(readKbFile(context.kbDir, path), {
          path,
          fallbackDate: () => "1970-01-01",
        });
        return entry ? checkAgainstKb(entry, { ids, path }) : problems;
      } catch (error) {
        return [{ field: "file", message: error instanceof Error ? error.message : String(error) }];
      }
    })();
    if (!problems.length) sound++;
    for (const problem of problems) {
      findings.push({
        level: "error",
        check: "entries",
        message: withFix(
          `${path}: ${problem.field}: ${problem.message}`,
          editCommand(join(context.kbDir, path)),
        ),
      });
    }
  }
  const broken = ids.size - sound;
  if (broken) {
    findings.unshift({
      level: "error",
      check: "entries",
      message: `${plural(broken, "indexed entry breaks", "indexed entries break")} the ` +
        `contract (of ${ids.size}), each below`,
    });
  } else if (ids.size || !report.invalid.length) {
    findings.push({
      level: "ok",
      check: "entries",
      message: ids.size
        ? `${plural(ids.size, "indexed entry follows", "indexed entries follow")} the contract`
        : "no entries yet",
    });
  }
  return findings;
}

/** Entries the index serves only by reading them forgivingly, each with what was read. */
export async function repairFindings(context: DoctorContext): Promise<Finding[]> {
  const repairable = await context.repairable();
  if (!repairable.length) return [];
  return [
    {
      level: "warn",
      check: "entries",
      message: withFix(
        `${plural(repairable.length, "entry is", "entries are")} served as read forgivingly, ` +
          "not as written; doctor --fix shows the rewrite to the contract",
        kbCommand("doctor", "--fix", "--kb", context.kbDir),
      ),
    },
    ...repairable.map((item): Finding => ({
      level: "warn",
      check: "entries",
      message: `${item.path}: ${
        item.repairs.map((repair) => `${repair.field} ${repair.message}`).join("; ")
      }`,
    })),
  ];
}

/** The kernel rules against the budget the prompt hook inlines them in. */
export async function kernelFindings(context: DoctorContext): Promise<Finding[]> {
  const { kernel } = (await context.index()).reader.manifest;
  const chars = kernel.reduce((sum, rule) => sum + kernelRuleCost(rule), 0);
  const findings: Finding[] = [{
    level: chars > LIMITS.kernelBudgetChars ? "error" : "ok",
    check: "kernel",
    message: `${plural(kernel.length, "kernel rule", "kernel rules")}, ${chars} of ` +
      `${LIMITS.kernelBudgetChars} characters`,
  }];
  for (const rule of kernel) {
    if (kernelRuleCost(rule) > LIMITS.kernelBudgetChars) {
      findings.push({
        level: "warn",
        check: "kernel",
        message: withFix(
          `${rule.id} alone is over the budget; the prompt hook lists it as a pointer instead`,
          kbCommand("edit", rule.id, "--no-kernel", "--kb", context.kbDir),
        ),
      });
    }
  }
  return [...findings, ...acceptanceFindings(context.kbDir, kernel)];
}

/** The kernel rules waiting for this user's acceptance, which apply to no prompt until then. */
function acceptanceFindings(kbDir: string, kernel: readonly KernelRule[]): Finding[] {
  const review = kbCommand("kernel", "--kb", kbDir);
  try {
    readAcceptedRules();
  } catch (error) {
    if (!(error instanceof AcceptanceRecordError)) throw error;
    return [{ level: "error", check: "kernel", message: error.message }];
  }
  const pending = pendingMentions(kernel);
  if (!pending.length) return [];
  return [{ level: "warn", check: "kernel", message: withFix(pendingSummary(pending), review) }];
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

/** The checks doctor runs, in the order their findings are printed. */
/** The checks of the setup as a whole, run once however many knowledge bases it names. */
export const SETUP_CHECKS: readonly Check[] = [
  configFindings,
  ({ location }) => idCollisionFindings(location),
];

/** The checks of one knowledge base, run for each. */
export const KB_CHECKS: readonly Check[] = [
  gitFindings,
  saveStateFindings,
  ({ kbDir }) => cacheFindings(kbDir),
  indexFindings,
  contractFindings,
  repairFindings,
  leftOutFindings,
  kernelFindings,
];

/**
 * Run `checks` in order and gather their findings. A check that throws becomes one error finding
 * (once, however many checks hit the same error: the index's, say); a missing permission is
 * thrown on, for the CLI to name the flag.
 */
export async function gatherFindings(
  context: DoctorContext,
  checks: readonly Check[] = [...SETUP_CHECKS, ...KB_CHECKS],
): Promise<Finding[]> {
  const findings: Finding[] = [];
  for (const check of checks) {
    try {
      findings.push(...await check(context));
    } catch (error) {
      if (missingPermissionFlag(error)) throw error;
      const message = error instanceof Error ? error.message : String(error);
      if (!findings.some((finding) => finding.message === message)) {
        findings.push({ level: "error", check: "doctor", message });
      }
    }
  }
  return findings;
}

function printFindings(findings: Finding[]): void {
  const mark = { ok: green("ok  "), warn: yellow("warn"), error: red("FAIL") };
  for (const finding of findings) {
    console.log(`${mark[finding.level]} ${finding.check}: ${terminalSafe(finding.message)}`);
  }
}

/** The context of the checks of one knowledge base; the index and repairs read once each. */
function contextFor(location: KbLocation, offline: boolean): DoctorContext {
  let index: Promise<OpenIndex> | undefined;
  let repairable: Promise<RepairableEntry[]> | undefined;
  return {
    location,
    kbDir: location.kbDir,
    offline,
    index: () => index ??= openIndex(location.kbDir),
    repairable: () => repairable ??= repairableEntries(location.kbDir),
  };
}

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, command.options, command);
  if (values.write && !values.fix) throw new UsageError("--write goes with --fix");
  const [name] = positionals;
  if (values.fix) {
    const { kbDir } = resolveKbNamed(name, values.kb);
    return await fix(kbDir, values.write === true, values.json === true);
  }
  const offline = values.offline ?? false;
  const { kbs, source } = resolveKbs(values.kb);
  const chosen = name === undefined ? kbs : [resolveKbNamed(name, values.kb)];
  const contexts = chosen.map((kb) =>
    contextFor({ kbDir: kb.kbDir, source, name: kb.name }, offline)
  );
  const setup = name === undefined ? await gatherFindings(contexts[0], SETUP_CHECKS) : [];
  const sections: { name?: string; kbDir: string; findings: Finding[] }[] = [];
  for (const context of contexts) {
    const { name, kbDir } = context.location;
    // A folder that is not there gets the git check alone, which names it and how to make it:
    // every other check would fail on the missing folder, each in its own words.
    const checks = isFolder(kbDir) ? KB_CHECKS : [gitFindings];
    sections.push({ name, kbDir, findings: await gatherFindings(context, checks) });
  }
  const several = sections.length > 1;
  if (values.json) {
    printJson([
      ...setup,
      ...sections.flatMap((section) =>
        section.findings.map((finding) => several ? { kb: section.name, ...finding } : finding)
      ),
    ]);
  } else {
    printFindings(setup);
    for (const section of sections) {
      if (several) console.log(`== ${section.name} (${section.kbDir})`);
      printFindings(section.findings);
    }
  }
  const all = [...setup, ...sections.flatMap((section) => section.findings)];
  return all.some((finding) => finding.level === "error") ? 1 : 0;
}

/**
 * `doctor --fix`: show each repairable entry's rewrite (lines that go, lines that come), or with
 * `write` make them all in one commit through the save pipeline.
 */
async function fix(kbDir: string, write: boolean, json: boolean): Promise<number> {
  const repairable = await repairableEntries(kbDir);
  if (!repairable.length) {
    if (json) printJson({ repaired: [] });
    else console.log(green("Every entry is written to the contract; nothing to fix."));
    return 0;
  }
  if (!write) {
    if (json) {
      printJson({
        repairable: repairable.map((item) => ({
          ...item,
          text: undefined,
          fixed: fixedText(item),
        })),
      });
      return 0;
    }
    for (const item of repairable) printRewrite(item);
    console.log(
      `\n${plural(repairable.length, "entry", "entries")} to rewrite. Write them in one commit:\n` +
        `  ${kbCommand("doctor", "--fix", "--write", "--kb", kbDir)}`,
    );
    return 0;
  }
  const result = await fixEntries(kbDir, repairable);
  printWarnings(result);
  if (json) printJson({ repaired: repairable.map((item) => item.fixedPath), ...result });
  else {
    console.log(
      `${green("Rewrote")} ${plural(repairable.length, "entry", "entries")} to the contract ` +
        `(${saveSummary(result)})`,
    );
  }
  return 0;
}

/** The frontmatter lines an entry's rewrite removes and adds, the file's path above them. */
function printRewrite(item: RepairableEntry): void {
  const before = item.text.split("\n");
  const after = fixedText(item).split("\n");
  const kept = new Set(after);
  const had = new Set(before);
  const moved = item.fixedPath === item.path ? "" : ` → ${item.fixedPath}`;
  console.log(`\n${item.path}${moved}`);
  for (const line of before) if (!kept.has(line)) console.log(red(`- ${line}`));
  for (const line of after) if (!had.has(line)) console.log(green(`+ ${line}`));
}
