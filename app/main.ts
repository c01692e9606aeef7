/**
 * The `git-kb` command line: parse the subcommand, load only its module, run it, and turn any
 * error into one clear line and an exit code (0 ok, 1 runtime error, 2 usage error, 3 saved
 * locally but not pushed). The only place that calls `Deno.exit`.
 *
 * @module
 */
import { EXIT } from "../core/exit.ts";
import { closestWord } from "../core/text/closest.ts";
import { describeError, exitCodeOf } from "../cli/errors.ts";
import { bold, onStderr } from "../cli/output.ts";
import denoConfig from "../deno.json" with { type: "json" };
import { type CommandModule, type CommandName, COMMANDS, isCommand } from "./registry.ts";
import { selfLauncher } from "./self_cli.ts";
import { selfCommand } from "../io/self_command.ts";

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, { summary }]) =>
    `  ${name.padEnd(width)}  ${summary}`
  );
  return `${
    bold("git-kb")
  } ${denoConfig.version}: a personal knowledge base in git, for coding agents

Usage: git-kb [--kb <dir>] <command> [options]
       git-kb help <command>

Commands:
${lines.join("\n")}

Options for every command (before or after it):
  --kb <dir>      the knowledge base folder (else KB_DIR, else the config file)
  -h, --help      help for the command
  -V, --version   git-kb's version

Run git-kb <command> --help for a command's options.`;
}

/** How the CLI was called: the options before the command, the command and what follows it. */
interface Invocation {
  kb?: string;
  help: boolean;
  version: boolean;
  command?: string;
  rest: string[];
  /** Mistakes before the command (unknown options, --kb without a folder). */
  problems: string[];
}

const GLOBAL_OPTIONS = ["kb", "help", "version"];

/** Read the options for every command that come before the command's name. */
function readInvocation(args: string[]): Invocation {
  const invocation: Invocation = { help: false, version: false, rest: [], problems: [] };
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    if (arg === "--kb" || arg.startsWith("--kb=")) {
      const value = arg === "--kb" ? args[++index] : arg.slice("--kb=".length);
      if (value === undefined) invocation.problems.push("--kb needs a value");
      else invocation.kb = value;
    } else if (arg === "--help" || arg === "-h") invocation.help = true;
    else if (arg === "--version" || arg === "-V") invocation.version = true;
    else if (arg.startsWith("-") && arg !== "-") {
      // -v is the version elsewhere (node, npm); here it is -V, as git's own is --version.
      const near = arg === "-v"
        ? "version"
        : closestWord(arg.replace(/^-+/, "").split("=")[0], GLOBAL_OPTIONS);
      invocation.problems.push(
        `unknown option "${arg.split("=")[0]}" before the command${
          near ? `; did you mean --${near}?` : ""
        } (a command's own options go after its name)`,
      );
    } else {
      invocation.command = arg;
      invocation.rest = args.slice(index + 1);
      break;
    }
  }
  return invocation;
}

/** The problem with a name that is not a command, with the nearest command when it is close. */
function unknownCommand(name: string): string {
  if (name === "version") return `unknown command "version"; did you mean --version?`;
  const near = closestWord(name, Object.keys(COMMANDS));
  return `unknown command "${name}"${near ? `; did you mean "${near}"?` : ""}`;
}

/** Print top-level usage mistakes on stderr and return the usage exit code. */
function reportTopLevel(problems: string[]): number {
  for (const problem of problems) console.error(onStderr.red(`git-kb: ${problem}`));
  console.error(`Run ${selfCommand()} --help for the commands and the options for every command.`);
  return EXIT.usage;
}

/** Whether `args` ask for help before any `--`. */
function asksForHelp(args: string[]): boolean {
  const end = args.indexOf("--");
  return (end < 0 ? args : args.slice(0, end)).some((arg) => arg === "--help" || arg === "-h");
}

/** Run the CLI with `args` and return the exit code. */
export async function main(args: string[]): Promise<number> {
  const invocation = readInvocation(args);
  let { command: name, rest, help } = invocation;
  if (name === "help") {
    [name, ...rest] = rest;
    help = true;
    if (rest.length) {
      invocation.problems.push(`help takes one command, not ${rest.length + 1} arguments`);
    }
  }
  if (!invocation.problems.length && name !== undefined && !isCommand(name)) {
    invocation.problems.push(unknownCommand(name));
  }
  if (invocation.problems.length) return reportTopLevel(invocation.problems);
  if (invocation.version) {
    console.log(`git-kb ${denoConfig.version}`);
    return 0;
  }
  if (name === undefined) {
    if (help) console.log(usage());
    else console.error(usage());
    return help ? EXIT.ok : EXIT.usage;
  }
  let module: CommandModule | undefined;
  try {
    module = await COMMANDS[name as CommandName].load();
    if (help || asksForHelp(rest)) {
      console.log(module.help);
      return 0;
    }
    const kb = invocation.kb === undefined ? [] : ["--kb", invocation.kb];
    return await module.run([...kb, ...rest], selfLauncher());
  } catch (error) {
    console.error(describeError(error, name, module?.help.split("\n")[0]));
    return exitCodeOf(error);
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
