/**
 * The `git-kb` command line: parse the subcommand, load only its module, run it, and turn any
 * error into one clear line and an exit code (0 ok, 1 runtime error, 2 usage error, 3 saved
 * locally but not pushed). The only place that calls `Deno.exit`.
 *
 * @module
 */
import { UsageError } from "./args.ts";
import { describeError, exitCodeOf } from "./errors.ts";
import { bold } from "./output.ts";
import denoConfig from "../deno.json" with { type: "json" };

/** What every command module exports. */
export interface CommandModule {
  help: string;
  run(args: string[]): Promise<number>;
}

/** The commands, loaded lazily so `--help` and small commands start fast. */
export const COMMANDS: Record<string, { summary: string; load: () => Promise<CommandModule> }> = {
  init: { summary: "connect or create a knowledge base repo", load: () => import("./init.ts") },
  add: {
    summary: "add an entry (validate, write, commit, push, reindex)",
    load: () => import("./add.ts"),
  },
  edit: {
    summary: "change an entry through the same save pipeline",
    load: () => import("./edit.ts"),
  },
  rm: { summary: "delete entries through the save pipeline", load: () => import("./rm.ts") },
  search: {
    summary: "ranked lexical search, several queries fused",
    load: () => import("./search.ts"),
  },
  get: { summary: "print entries verbatim by id", load: () => import("./get.ts") },
  index: { summary: "bring the index up to date and report", load: () => import("./index_cmd.ts") },
  context: {
    summary: "what the prompt hook would add for a prompt",
    load: () => import("./context.ts"),
  },
  stats: { summary: "summarise the prompt hook's debug log", load: () => import("./stats.ts") },
  eval: {
    summary: "score the hook and search against a golden file of prompts",
    load: () => import("./eval.ts"),
  },
  doctor: {
    summary: "check config, git, remote, index and entries",
    load: () => import("./doctor.ts"),
  },
  selftest: {
    summary: "test git-kb end to end on a throwaway knowledge base",
    load: () => import("./selftest.ts"),
  },
  setup: {
    summary: "wire git-kb's hooks into Claude Code, Codex or Gemini CLI",
    load: () => import("./setup.ts"),
  },
};

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((name) => name.length));
  const lines = Object.entries(COMMANDS).map(([name, { summary }]) =>
    `  ${name.padEnd(width)}  ${summary}`
  );
  return `${
    bold("git-kb")
  } ${denoConfig.version}: a personal knowledge base in git, for coding agents

Usage: git-kb <command> [options]

Commands:
${lines.join("\n")}

Options for every command:
  --kb <dir>   the knowledge base folder (else KB_DIR, else the config file)
  -h, --help   help for the command

Run git-kb <command> --help for a command's options.`;
}

/** Run the CLI with `args` and return the exit code. */
export async function main(args: string[]): Promise<number> {
  const [name, ...rest] = args;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    console.log(usage());
    return name ? 0 : 2;
  }
  if (name === "--version" || name === "-V") {
    console.log(`git-kb ${denoConfig.version}`);
    return 0;
  }
  const command = COMMANDS[name];
  try {
    if (!command) throw new UsageError(`unknown command "${name}"; run git-kb --help`);
    const module = await command.load();
    if (rest.includes("--help") || rest.includes("-h")) {
      console.log(module.help);
      return 0;
    }
    return await module.run(rest);
  } catch (error) {
    console.error(describeError(error, name));
    return exitCodeOf(error);
  }
}

if (import.meta.main) Deno.exit(await main(Deno.args));
