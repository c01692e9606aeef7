/**
 * `git-kb selftest`: the whole tool, tested end to end on a throwaway knowledge base, with the
 * real CLI and hook as subprocesses; `--setup-only`, `--verify` and `--teardown` are its parts
 * on their own, for `/git-kb:test-skill`, whose agents do the tasks in between.
 *
 * @module
 */
import { EXIT } from "../core/exit.ts";
import { taskBriefs } from "../core/setup/selftest_plan.ts";
import { createScratch, loadScratch, type Scratch, snapshotUser } from "../io/selftest/scratch.ts";
import {
  checkIsolation,
  runSelftest,
  type SelfLauncher,
  type StepResult,
  teardown,
  verify,
} from "../io/selftest/run.ts";
import { resolvePath } from "../io/paths.ts";
import { type CommandSpec, helpText, NO_POSITIONALS, parseCommand, UsageError } from "./args.ts";
import { bold, dim, green, printJson, red } from "./output.ts";
import { selfCommand } from "../io/self_command.ts";

/** The command: its usage, options and positionals. */
export const command = {
  usage: ["selftest [options]"],
  about: `Test git-kb end to end without touching your own knowledge base: make a scratch
knowledge base (a git repo with three entries and no remote, its own config and
cache, under the cache folder), then run the real CLI and prompt hook as
subprocesses with their own permission flags. A writer adds a decision, adds a
bookmark and edits an entry, in order; meanwhile readers search by keyword and
by type, fire the hook with a matching and a non-matching prompt, and show that
a session's ledger drops a repeat and that the edited entry comes back. Then it
verifies the final state itself (git log, the entry files, search and the hook
again), removes the scratch folder whatever happened, and checks that your
config files and knowledge base did not change. One line per step, with why.`,
  options: {
    json: {
      type: "boolean",
      help: "print {ok, entry, scratch, kept?, steps: [{group, name, ok, detail, ms}]} as " +
        "JSON (--verify, --teardown: no entry; --setup-only: {scratch, kbDir, tasks, verify, " +
        "teardown})",
    },
    keep: { type: "boolean", help: "keep the scratch folder to look at (its path is printed)" },
    "setup-only": {
      type: "boolean",
      help:
        "make the scratch knowledge base and print the tasks in words, for agents to do (/git-kb:test-skill)",
    },
    verify: {
      type: "string",
      value: "<folder>",
      help: "verify a scratch folder's final state after the tasks",
    },
    teardown: {
      type: "string",
      value: "<folder>",
      help: "remove a scratch folder; check your setup is unchanged",
    },
  },
  positionals: NO_POSITIONALS,
  kb: "your knowledge base, to prove it is left alone",
  notes: "Exit codes: 0 every step passed, 1 a step failed, 2 usage error.",
} as const satisfies CommandSpec;

/** Help text. */
export const help: string = helpText(command);

function report(
  steps: StepResult[],
  json: boolean | undefined,
  entry: SelfLauncher["entry"],
  extra: Record<string, unknown>,
) {
  const ok = steps.every((item) => item.ok);
  if (json) {
    printJson({ ok, ...extra, steps });
    return ok ? EXIT.ok : EXIT.failed;
  }
  console.log(`${bold("git-kb selftest")} ${dim(`(${entry.kind}: ${entry.path})`)}`);
  const width = Math.max(...steps.map((item) => item.name.length));
  for (const item of steps) {
    const mark = item.ok ? green("ok  ") : red("FAIL");
    console.log(
      `${item.group.padEnd(9)} ${mark}  ${item.name.padEnd(width)}  ${item.detail} ${
        dim(`(${item.ms} ms)`)
      }`,
    );
  }
  const passed = steps.filter((item) => item.ok).length;
  const line = `${passed} of ${steps.length} steps passed.`;
  console.log(ok ? green(line) : red(line));
  if (extra.kept) console.log(`Scratch folder kept: ${extra.kept}`);
  return ok ? EXIT.ok : EXIT.failed;
}

/** Print the scratch folder and the tasks in words. */
function printSetup(scratch: Scratch, json: boolean | undefined): void {
  const briefs = taskBriefs();
  const verifyArgs = ["selftest", "--verify", scratch.dir];
  const teardownArgs = ["selftest", "--teardown", scratch.dir];
  if (json) {
    printJson({
      scratch: scratch.dir,
      kbDir: scratch.kbDir,
      tasks: briefs,
      verify: verifyArgs,
      teardown: teardownArgs,
    });
    return;
  }
  const numbered = (role: string) =>
    briefs.map((brief, index) => ({ ...brief, number: index + 1 })).filter((brief) =>
      brief.role === role
    );
  console.log(`Scratch knowledge base: ${scratch.kbDir}`);
  console.log(`Scratch folder: ${scratch.dir}`);
  console.log(
    `\nEvery command of these tasks names the scratch knowledge base: --kb ${scratch.kbDir}`,
  );
  console.log("\nWriter, in this order:");
  for (const brief of numbered("writer")) console.log(`  ${brief.number}. ${brief.task}`);
  console.log("Readers, while the writer works:");
  for (const brief of numbered("reader")) console.log(`  ${brief.number}. ${brief.task}`);
  console.log("\nExpected (for checking the reports, not for the agents):");
  for (const brief of numbered("writer").concat(numbered("reader"))) {
    console.log(`  ${brief.number}. ${brief.expect}`);
  }
  console.log(`\nAfterwards: ${selfCommand()} ${verifyArgs.join(" ")}`);
  console.log(`Always, last: ${selfCommand()} ${teardownArgs.join(" ")}`);
}

/** Run the command; `launcher` starts git-kb itself (given by the dispatcher). */
export async function run(args: string[], launcher: SelfLauncher): Promise<number> {
  const cliFor = (scratch: Scratch) => launcher.cliFor(scratch.env, scratch.dir);
  const { entry } = launcher;
  const { values } = parseCommand(args, command.options, command);
  const modes = [values["setup-only"], values.verify, values.teardown].filter((mode) =>
    mode !== undefined
  );
  if (modes.length > 1) throw new UsageError("give one of --setup-only, --verify, --teardown");
  if (values.keep && modes.length) throw new UsageError("--keep goes with a whole run only");
  if (values["setup-only"]) {
    printSetup(await createScratch(await snapshotUser(values.kb)), values.json);
    return 0;
  }
  if (values.verify !== undefined) {
    const scratch = loadScratch(resolvePath(values.verify));
    return report(await verify(scratch, cliFor(scratch)), values.json, entry, {
      scratch: scratch.dir,
    });
  }
  if (values.teardown !== undefined) {
    const scratch = loadScratch(resolvePath(values.teardown));
    const steps = [...await teardown(scratch), ...await checkIsolation(scratch.user)];
    return report(steps, values.json, entry, { scratch: scratch.dir });
  }
  const run = await runSelftest(cliFor, { kbFlag: values.kb, keep: values.keep });
  return report(run.steps, values.json, entry, {
    entry,
    scratch: run.scratch ?? null,
    kept: values.keep ? run.scratch : undefined,
  });
}
