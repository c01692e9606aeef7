/**
 * `git-kb export`: write the knowledge base's kernel rules, and the rule to ask `git-kb context`
 * before a task, into a project's agent files (AGENTS.md, CLAUDE.md, Cursor and Windsurf rules)
 * for agents that run no hooks. `--check` exits 1 when a file is missing or stale, for a
 * pre-commit hook.
 *
 * @module
 */
import { EXIT } from "../core/exit.ts";
import { AGENT_FILES, type AgentFileName } from "../core/export/agent_files.ts";
import { exportAgentFiles } from "../io/export/agent_files.ts";
import { withKbs } from "../io/kbs/open.ts";
import { qualifyId } from "../core/kbs/qualified.ts";
import { pendingSummary } from "../core/kernel/acceptance.ts";
import { kernelInForce, pendingMentions } from "../io/kernel/acceptance.ts";
import {
  type CommandSpec,
  helpText,
  NO_POSITIONALS,
  nonBlank,
  oneOf,
  parseCommand,
} from "./args.ts";
import { cyan, green, onStderr, printJson, yellow } from "./output.ts";
import { kbCommand } from "../io/self_command.ts";
import { resolvePath, userPath } from "../io/paths.ts";
import { readWithoutFlag } from "../io/config.ts";

/** The command: its usage, options and positionals. */
export const command = {
  usage: ["export [options]"],
  about: `Write git-kb's block into the agent files of a project: the kernel rules (of
every knowledge base in use, as the hooks read them), and the rule to run git-kb
context before a task. The block sits between markers,
so a rerun replaces only it and leaves your own text alone. Each file stays
inside what its agent reads (AGENTS.md 32 KiB, CLAUDE.md 200 lines, a Windsurf
rule 12,000 characters): kernel rules that do not fit are left out and named.
Without --to: AGENTS.md, and CLAUDE.md, .cursor/rules/git-kb.mdc and
.windsurf/rules/git-kb.md where the project already has CLAUDE.md, .cursor/
or .windsurf/. A file that cannot be edited safely is left alone and named,
with what to do: a symbolic link (except one to another agent file, as
CLAUDE.md to AGENTS.md), a folder or FIFO, a hard-linked or non-UTF-8 file, a
begin marker without its end marker, or two blocks. Every byte outside the
block is kept, and so is the file's mode.`,
  options: {
    to: {
      type: "string",
      multiple: true,
      value: "<file>",
      help: "agents, claude, cursor or windsurf; repeat for several",
      check: oneOf(Object.keys(AGENT_FILES)),
    },
    dir: {
      type: "string",
      value: "<dir>",
      help: "the project folder (default: the current folder)",
      check: nonBlank("a folder"),
    },
    check: { type: "boolean", help: "write nothing; exit 1 when a file is missing or stale" },
    json: {
      type: "boolean",
      help: "print {files: [{name, path, state, leftOut, problem?, fix?}], rules, waiting} as " +
        "JSON; state: written, unchanged, missing, stale (--check) or refused",
    },
  },
  positionals: NO_POSITIONALS,
  notes: `Example:
  git-kb export --to agents --to cursor

Exit codes: 0 written or up to date, 1 a file is missing or stale (--check),
was left alone or failed, 2 usage error.`,
} as const satisfies CommandSpec;

/** Help text. */
export const help: string = helpText(command);

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const { values } = parseCommand(args, command.options, command);
  // Every knowledge base in use, as the hooks read them: their rules reach a prompt, so they go
  // in the block too, each id named `name:id` where several are read.
  const { rules, waiting, skipped } = await withKbs(values.kb, {}, ({ kbs, skipped, several }) => ({
    rules: kbs.flatMap(({ name, reader }) =>
      kernelInForce(reader.manifest.kernel).map(({ id, title, body }) => ({
        id: several ? qualifyId(name, id) : id,
        title,
        body,
      }))
    ),
    // A rule not accepted here is not written either, and is named: it may be the user's own,
    // saved on another machine, that they expect in the block.
    waiting: kbs.flatMap(({ name, reader }) =>
      pendingMentions(reader.manifest.kernel, several ? name : undefined)
    ),
    skipped,
  }));
  for (const line of skipped) console.error(yellow(`git-kb export: ${line}`));
  const files = values.to?.length ? [...new Set(values.to)] as AgentFileName[] : undefined;
  // An agent runs the block's commands as written: one for a knowledge base it reads only when
  // told must name it.
  const kbDir = values.kb !== undefined && !readWithoutFlag(values.kb)
    ? resolvePath(values.kb)
    : undefined;
  const reports = exportAgentFiles({
    projectDir: values.dir === undefined ? undefined : userPath(values.dir),
    rules,
    kbDir,
    files,
    check: values.check,
  });
  const outdated = reports.some(({ state }) => state === "stale" || state === "missing");
  const refused = reports.filter((report) => report.state === "refused");
  const failed = outdated || refused.length > 0;
  if (values.json) {
    printJson({ files: reports, rules: rules.length, waiting: waiting.map(({ id }) => id) });
    return failed ? EXIT.failed : EXIT.ok;
  }
  for (const { path, state, leftOut } of reports) {
    if (state === "refused") continue;
    const mark = state === "written"
      ? green("wrote")
      : state === "unchanged"
      ? "ok"
      : yellow(state);
    console.log(`${mark} ${cyan(path)}`);
    if (leftOut.length) {
      console.log(yellow(`  left out to stay inside its limit: ${leftOut.join(", ")}`));
    }
  }
  if (waiting.length) {
    const them = waiting.length === 1 ? "it" : "them";
    const review = kbCommand("kernel", ...(values.kb ? ["--kb", values.kb] : []));
    console.log(yellow(
      `Not in the block: ${pendingSummary(waiting)}. Accept ${them}, then export again; ` +
        `review ${them}: ${review}`,
    ));
  }
  // What to paste to export again: these arguments, writing.
  const again = kbCommand("export", ...args.filter((arg) => arg !== "--json" && arg !== "--check"));
  for (const { problem, fix } of refused) {
    console.error(
      onStderr.red(`git-kb export: left alone: ${problem}; ${fix}, then run ${again}.`),
    );
  }
  if (outdated) {
    console.error(onStderr.yellow(`Agent files are missing or stale: run ${again} to write them.`));
  }
  return failed ? EXIT.failed : EXIT.ok;
}
