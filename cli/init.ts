/**
 * `git-kb init [<clone-url|path>]`: connect a knowledge base (clone a remote, adopt an existing
 * clone, or create a new repo), record it in the config and build the index. What to do and
 * whether it may is decided in io/init/plan.ts, the git work done in io/init/repo.ts.
 *
 * @module
 */
import { kbNameProblem, resolveKb, writeConfig } from "../io/config.ts";
import { commitIdentity, fallbackIdentityWarning, gitOk } from "../io/git.ts";
import { addRemoteCommand } from "../io/remote/target.ts";
import { openIndex } from "../io/index/store.ts";
import { pendingMentions } from "../io/kernel/acceptance.ts";
import { pendingNotice } from "../core/kernel/acceptance.ts";
import { KB_SETTINGS_FILE } from "../io/kb_settings.ts";
import { ENTRIES_DIR } from "../io/kb.ts";
import {
  defaultFolder,
  guardConfig,
  guardName,
  guardSameRemote,
  InitRefusal,
  planInit,
} from "../io/init/plan.ts";
import {
  carryOut,
  commitScaffold,
  FirstPushError,
  publishToEmptyRemote,
  strayMarkdown,
} from "../io/init/repo.ts";
import { type CommandSpec, helpText, parseCommand, UsageError } from "./args.ts";
import { green, plural, printJson, yellow } from "./output.ts";
import { kbCommand, selfCommand } from "../io/self_command.ts";
import { agentsRunningGitKb } from "../io/setup/wiring.ts";
import { shellCommand } from "../core/shell/quote.ts";

/** The command: its usage, options and positionals. */
export const command = {
  usage: ["init [<clone-url | path>] [options]"],
  about: `Connect git-kb to a knowledge base repo, write the config, build the index.

  git-kb init git@github.com:me/kb.git    clone a remote (a local bare repo path works too)
  git-kb init ~/notes/kb                  use an existing local clone, or create a new repo
                                          there when the folder does not exist or is empty
  git-kb init                             create a new repo in the default folder
  git-kb init <url> --name team           add a second knowledge base beside the first`,
  options: {
    dir: {
      type: "string",
      value: "<path>",
      help: "where to clone to, or create the new repo " +
        "(default: $CLAUDE_PLUGIN_DATA/personal, else " +
        "~/.local/share/git-kb/personal, whose name, personal, the " +
        "knowledge base takes; with --name, the name instead)",
    },
    name: {
      type: "string",
      value: "<name>",
      help: "add this knowledge base to the config under this name, beside " +
        "the ones there (search, get, context and the hooks read them all)",
    },
    default: {
      type: "boolean",
      help: "make this knowledge base the default, the one saves go to " +
        "(the first one configured is the default)",
    },
    force: {
      type: "boolean",
      help: "point the config at this knowledge base although it names " +
        "another one, or make a project's repo one (without it init refuses, " +
        "exit 2, and changes nothing)",
    },
    shared: {
      type: "boolean",
      help: "mark a team's knowledge base: commit git-kb.json saying so, " +
        "and every clone refuses --allow-secret",
    },
    json: { type: "boolean", help: "print what was done as JSON" },
  },
  positionals: { name: "<clone-url or path>", max: 1 },
  kb: false,
  notes: `Markdown files outside entries/ are not read; init names them.

The config goes to $CLAUDE_PLUGIN_DATA/config.json when that is set, else to
$XDG_CONFIG_HOME/git-kb/config.json (~/.config/git-kb/config.json).`,
} as const satisfies CommandSpec;

/** Help text. */
export const help: string = helpText(command);

/** What `decide` returns; a refusal of init's becomes the usage error it is (exit 2). */
async function refusedAsUsage<T>(decide: () => Promise<T>): Promise<T> {
  try {
    return await decide();
  } catch (error) {
    if (error instanceof InitRefusal) throw new UsageError(error.message);
    throw error;
  }
}

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, command.options, command);
  const problem = values.name === undefined ? undefined : kbNameProblem(values.name);
  if (problem) throw new UsageError(problem);
  const rerun = ["init", ...positionals, ...values.dir ? ["--dir", values.dir] : []];
  const { planned, replaced } = await refusedAsUsage(async () => {
    const folder = defaultFolder(values.name, values.dir !== undefined);
    const planned = await planInit(positionals[0], values.dir, folder, {
      force: values.force,
      again: ["init", ...args.filter((arg) => arg !== "--json" && arg !== "--force")],
    });
    await guardSameRemote(planned, values.force, { source: positionals[0], ...values });
    const replaced = values.name === undefined
      ? guardConfig(planned.kbDir, values.force, rerun)
      : guardName(planned.kbDir, values.name, values.force);
    return { planned, replaced };
  });
  const { kbDir, mode } = planned;
  const steps: string[] = [];
  await carryOut(planned, steps, kbCommand("init", ...args));
  const scaffold = await commitScaffold(
    kbDir,
    "kb: set up the knowledge base",
    values.shared === true,
  );
  if (scaffold.length) steps.push(`Committed ${scaffold.join(", ")}`);
  const warnings = (await commitIdentity(kbDir)).fallback
    ? [fallbackIdentityWarning(scaffold.length > 0)]
    : [];
  if (values.shared) steps.push(`Shared: ${KB_SETTINGS_FILE} says so; --allow-secret is refused`);
  const configFile = writeConfig(kbDir, { name: values.name, makeDefault: values.default });
  steps.push(`Wrote the config ${configFile}`);
  if (replaced) steps.push(replaced);
  // A first push that failed is said after the report (exit 3), the rest being done.
  let notPushed: FirstPushError | undefined;
  const published = await publishToEmptyRemote(kbDir).catch((error) => {
    if (!(error instanceof FirstPushError)) throw error;
    notPushed = error;
    return undefined;
  });
  if (published) steps.push(published);
  const { report, reader } = await openIndex(kbDir, { full: true });
  const waiting = pendingMentions(reader.manifest.kernel);
  steps.push(
    `Indexed ${plural(report.docCount, "entry", "entries")} in ${Math.round(report.ms)} ms`,
  );
  const notRead = await strayMarkdown(kbDir);
  if (values.json) {
    printJson({
      kbDir,
      mode,
      configFile,
      entries: report.docCount,
      invalid: report.invalid,
      notRead,
      warnings,
      kernelWaiting: waiting,
    });
    if (notPushed) throw notPushed;
    return 0;
  }
  for (const step of steps) console.log(`${green("✓")} ${step}`);
  for (const warning of warnings) console.log(`${yellow("!")} ${warning}`);
  if (!(await gitOk(kbDir, ["remote"])).trim()) {
    console.log(
      `${yellow("!")} No remote yet: saves are committed here but not pushed (NO_REMOTE). ` +
        `To add one, with your repo's URL in place of <url>: ${addRemoteCommand(kbDir)}`,
    );
  }
  if (waiting.length) {
    console.log(`${yellow("!")} ${pendingNotice(waiting, kbCommand("kernel", "--kb", kbDir))}`);
  }
  if (report.invalid.length) {
    console.log(
      `${yellow("!")} ${plural(report.invalid.length, "file", "files")} under ${ENTRIES_DIR}/ ` +
        `left out: run ${kbCommand("doctor", "--kb", kbDir)}`,
    );
  }
  const here = kbFlagFor(kbDir);
  if (notRead.length) {
    const shown = notRead.slice(0, 5).join(", ") + (notRead.length > 5 ? ", …" : "");
    console.log(
      `${yellow("!")} ${
        plural(notRead.length, "markdown file", "markdown files")
      } outside ${ENTRIES_DIR}/ ` +
        `are not read by git-kb (${shown}): move them into ${ENTRIES_DIR}/, or bring a folder of ` +
        `notes in with ${selfCommand()} import <folder>${here} (--dry-run first to see the report)`,
    );
  }
  const add = `add an entry (${kbCommand("add", "--edit")}${here})`;
  const importNotes = `(${selfCommand()} import <folder>${here})`;
  const running = await agentsRunningGitKb();
  console.log(
    running.length
      ? `Next: ${add} or bring notes in ${importNotes}; ${running.join(", ")} ` +
        `${running.length > 1 ? "run" : "runs"} git-kb already.`
      : `Next: ${add}, bring notes in ${importNotes}, or wire your agent (${selfCommand()} ` +
        "setup --agent claude, or the Claude Code plugin: see the README)",
  );
  if (notPushed) throw notPushed;
  return 0;
}

/**
 * ` --kb <dir>` (quoted) when a command given no knowledge base would act on another one than
 * `kbDir` (a knowledge base added beside the default one, or `KB_DIR` naming another), else "".
 */
function kbFlagFor(kbDir: string): string {
  let current: string | undefined;
  try {
    current = resolveKb().kbDir;
  } catch {
    current = undefined;
  }
  return current === kbDir ? "" : ` ${shellCommand(["--kb", kbDir])}`;
}
