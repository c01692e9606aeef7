/**
 * `git-kb doctor`: runs the checks (io/doctor/checks.ts), the setup's once and each knowledge
 * base's in turn, prints one line per finding and exits 1 when any is an error; `--fix` shows
 * or writes the rewrites of entries read forgivingly (io/repairs.ts).
 *
 * @module
 */
import { EXIT } from "../core/exit.ts";
import { type Finding, findingsSummary } from "../core/setup/finding.ts";
import { displaySafe, terminalSafe } from "../core/text/display.ts";
import { dropFromConfig, type KbLocation, resolveKbNamed, resolveKbs } from "../io/config.ts";
import { gatherFindings, GIT_CHECK, KB_CHECKS, SETUP_CHECKS } from "../io/doctor/checks.ts";
import { doctorContext } from "../io/doctor/context.ts";
import { type CommandSpec, helpText, parseCommand, UsageError } from "./args.ts";
import { fixedText, fixEntries, repairableEntries, type RepairableEntry } from "../io/repairs.ts";
import { printWarnings, saveSummary } from "./save_report.ts";
import { missingPermissionFlag } from "./errors.ts";
import { green, plural, printJson, red, yellow } from "./output.ts";
import { isFolder } from "../io/disk.ts";
import { kbCommand } from "../io/self_command.ts";

/** The command: its usage, options and positionals. */
export const command = {
  usage: ["doctor [<name>] [options]"],
  about: `Check the setup and the knowledge base, one line per finding:
config (which source won, disagreements), git (and the identity commits get),
the remote (fetched first, bounded, so ahead/behind/diverged are the remote's
as it is; nothing else touches the network), index freshness, every file under
entries/ (each one the index left out, with why and how to fix it), every entry
against the contract (links included), the kernel budget and the kernel rules
waiting for your acceptance, and the cache's folders (yours alone, no links).
Every fix is a command to paste. With several knowledge bases configured, each
is checked in turn (or only the one named), and ids held by two are named.
Exit 1 when any check fails.`,
  options: {
    offline: { type: "boolean", help: "do not fetch: ahead/behind as of the last fetch" },
    fix: {
      type: "boolean",
      help: "show how each entry read forgivingly is rewritten to the contract; for a " +
        "configured knowledge base whose folder is gone, that it is dropped from the config",
    },
    write: {
      type: "boolean",
      help: "with --fix: write the rewrites, in one commit (or drop the one whose folder is gone)",
    },
    json: { type: "boolean", help: "print findings as JSON" },
  },
  positionals: { name: "<name>", max: 1 },
} as const satisfies CommandSpec;

/** Help text. */
export const help: string = helpText(command);

function printFindings(findings: Finding[]): void {
  const mark = { ok: green("ok  "), warn: yellow("warn"), error: red("FAIL") };
  for (const finding of findings) {
    console.log(`${mark[finding.level]} ${finding.check}: ${terminalSafe(finding.message)}`);
  }
}

/** Whether doctor stops on `error` instead of reporting it: a missing permission, named. */
function isMissingPermission(error: unknown): boolean {
  return missingPermissionFlag(error) !== undefined;
}

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, command.options, command);
  if (values.write && !values.fix) throw new UsageError("--write goes with --fix");
  const [name] = positionals;
  if (values.fix) {
    const location = resolveKbNamed(name, values.kb);
    // A configured knowledge base whose folder is gone: the fix is to drop it from the config.
    if (location.name !== undefined && !isFolder(location.kbDir)) {
      return dropGone(
        location as Required<KbLocation>,
        values.write === true,
        values.json === true,
      );
    }
    return await fix(location.kbDir, values.write === true, values.json === true);
  }
  const offline = values.offline ?? false;
  const { kbs, source } = resolveKbs(values.kb);
  const chosen = name === undefined ? kbs : [resolveKbNamed(name, values.kb)];
  const contexts = chosen.map((kb) =>
    doctorContext({ kbDir: kb.kbDir, source, name: kb.name }, offline)
  );
  const setup = name === undefined
    ? await gatherFindings(contexts[0], SETUP_CHECKS, isMissingPermission)
    : [];
  const sections: { name?: string; kbDir: string; findings: Finding[] }[] = [];
  for (const context of contexts) {
    const { name, kbDir } = context.location;
    // A folder that is not there gets the git check alone, which names it and how to make it:
    // every other check would fail on the missing folder, each in its own words.
    const checks = isFolder(kbDir) ? KB_CHECKS : [GIT_CHECK];
    sections.push({
      name,
      kbDir,
      findings: await gatherFindings(context, checks, isMissingPermission),
    });
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
    const summary = findingsSummary([
      { findings: setup },
      ...sections.map(({ name, findings }) => ({ name: several ? name : undefined, findings })),
    ]);
    if (summary) printFindings([summary]);
  }
  const all = [...setup, ...sections.flatMap((section) => section.findings)];
  return all.some((finding) => finding.level === "error") ? EXIT.failed : EXIT.ok;
}

/**
 * `doctor --fix`: show each repairable entry's rewrite (lines that go, lines that come), or with
 * `write` make them all in one commit through the save pipeline.
 */
async function fix(kbDir: string, write: boolean, json: boolean): Promise<number> {
  const repairable = await repairableEntries(kbDir);
  if (!repairable.length) {
    if (json) printJson({ repaired: [] });
    else {
      // Only entries served through a repair get a rewrite; doctor names every other problem.
      console.log(
        `No entry is served through a repair, so there is nothing to rewrite; every other ` +
          `problem, with its fix: ${kbCommand("doctor", "--kb", kbDir)}`,
      );
    }
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

/**
 * `doctor <name> --fix` of a configured knowledge base whose folder is gone: say what dropping it
 * from the config file does, or with `write` drop it (the others kept, the next one the default
 * when it was).
 */
function dropGone(location: Required<KbLocation>, write: boolean, json: boolean): number {
  const { name, kbDir, source } = location;
  if (!write) {
    const command = kbCommand("doctor", name, "--fix", "--write");
    if (json) printJson({ gone: { name, dir: kbDir }, config: source, command });
    else {
      console.log(
        `${name}'s folder, ${kbDir}, does not exist. Drop ${name} from ${source} (the other ` +
          `knowledge bases stay):\n  ${command}`,
      );
    }
    return 0;
  }
  const now = dropFromConfig(source, name);
  if (json) printJson({ dropped: { name, dir: kbDir }, config: source, default: now ?? null });
  else {
    const next = now === undefined
      ? `no knowledge base is configured now; connect one with ${kbCommand("init")}`
      : `the default is ${now}`;
    console.log(`${green("Dropped")} ${name} (${kbDir}) from ${source}; ${next}`);
  }
  return 0;
}

/** The frontmatter lines an entry's rewrite removes and adds, the file's path above them. */
function printRewrite(item: RepairableEntry): void {
  const before = item.text.split("\n");
  const after = fixedText(item).split("\n");
  const kept = new Set(after);
  const had = new Set(before);
  const moved = item.fixedPath === item.path ? "" : ` → ${displaySafe(item.fixedPath)}`;
  // One line, whatever the name holds (a teammate's file named with a newline).
  console.log(`\n${displaySafe(item.path)}${moved}`);
  for (const line of before) if (!kept.has(line)) console.log(red(`- ${line}`));
  for (const line of after) if (!had.has(line)) console.log(green(`+ ${line}`));
}
