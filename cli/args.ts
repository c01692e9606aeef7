/**
 * Argument parsing shared by every command: long options (`--name value`, `--name=value`),
 * one-letter aliases, repeatable options, positionals and `--`. Every mistake of one call
 * (unknown options, missing values, a missing or stray positional, a value its check refuses) is
 * collected and thrown together as one {@link UsageError} (exit 2). Written here rather than taken
 * from `node:util`, whose Node compatibility layer costs about 14 ms of start-up on every command.
 *
 * @module
 */
import { closestWord } from "../core/text/closest.ts";
import { EXIT, KbError } from "../core/exit.ts";
import { shellQuote } from "../core/shell/quote.ts";

/** A mistake in how a command was called; the CLI exits 2. */
export class UsageError extends KbError {
  /** Known across bundles (see {@link KbError.brand}): describeError prints its usage lines. */
  static override readonly brand: string = "UsageError";

  /** Every mistake found in the call, one sentence each. */
  readonly problems: string[];

  /** @param problems one mistake, or every mistake of the call */
  constructor(problems: string | string[]) {
    const list = typeof problems === "string" ? [problems] : problems;
    super(list.join("\n"), EXIT.usage);
    this.name = "UsageError";
    this.problems = list;
  }
}

/** One option a command accepts. */
export interface OptionSpec {
  type: "string" | "boolean";
  /** May be given several times; the values come back as a list. */
  multiple?: boolean;
  /** A one-letter alias, used as `-x`. */
  short?: string;
  /** The command cannot run without it. */
  required?: boolean;
  /**
   * What is wrong with one value of a string option (a whole sentence naming `flag`, e.g.
   * `--limit takes a whole number…`), or undefined when it is fine.
   */
  check?: (value: string, flag: string) => string | undefined;
  /** What it does, for the command's help: one line. */
  help?: string;
  /** How the help names its value (`<n>`, `<dir>`); a string option without one shows `<value>`. */
  value?: string;
}

/** The positional arguments a command takes. */
export interface PositionalSpec {
  /** How messages name them, as the usage line does: `<id>`, `<query>`, `<golden.jsonl>`. */
  name: string;
  /** At least this many (default 0). */
  min?: number;
  /** At most this many (default: no limit). */
  max?: number;
}

/** What a command takes besides its options. */
export interface CommandShape {
  /** Without it any number of positionals is accepted; `{ name, max: 0 }` takes none. */
  positionals?: PositionalSpec;
}

type ValueOf<S extends OptionSpec> = S["type"] extends "string"
  ? (S["multiple"] extends true ? string[] : string)
  : (S["multiple"] extends true ? boolean[] : boolean);

/** The parsed values of a set of options; options not given are absent. */
export type OptionValues<T extends Record<string, OptionSpec>> = {
  [K in keyof T]?: ValueOf<T[K]>;
};

/**
 * A command declared once: its usage lines and description, its options with their help and its
 * positionals. Its `--help` is {@link helpText} of it and its arguments are parsed against it,
 * so the two cannot drift apart.
 */
export interface CommandSpec<T extends Record<string, OptionSpec> = Record<string, OptionSpec>>
  extends CommandShape {
  /** The usage lines, each after `git-kb ` (`search <query>... [options]`). */
  usage: readonly string[];
  /** What the command does: the paragraphs between the usage and the options. */
  about: string;
  /** Its own options, in the order its help lists them (the common ones follow). */
  options: T;
  /** Paragraphs after the options (examples, notes); none when unset. */
  notes?: string;
  /**
   * How the help describes `--kb`: `false` leaves it out (a command with no use for it, setup),
   * a string takes the place of the common line.
   */
  kb?: false | string;
}

/** Options every command accepts. */
export const COMMON_OPTIONS = {
  kb: {
    type: "string",
    value: "<dir>",
    help: "the knowledge base folder",
    check: nonBlank("a folder"),
  },
  help: { type: "boolean", short: "h" },
} as const satisfies Record<string, OptionSpec>;

/** How an option reads in a help text's list: `--limit <n>`, `-h, --help`, `--tag <tag>...`. */
function optionLabel(name: string, spec: OptionSpec): string {
  const short = spec.short ? `-${spec.short}, ` : "";
  const value = spec.type === "string" ? ` ${spec.value ?? "<value>"}` : "";
  return `${short}--${name}${value}`;
}

/** The width an option's help is wrapped to, with its label: a terminal's 80 columns. */
const HELP_COLUMNS = 80;

/** The fewest columns an option's help keeps beside a long label. */
const MIN_HELP_ROOM = 30;

/**
 * `text` with each run of lines that start with a word wrapped to `columns` as one paragraph;
 * blank lines and indented ones (examples) stay as they are.
 */
function reflowed(text: string, columns: number): string {
  const out: string[] = [];
  let paragraph: string[] = [];
  const flush = () => {
    if (paragraph.length) out.push(...wrappedLines(paragraph.join(" "), columns));
    paragraph = [];
  };
  for (const line of text.split("\n")) {
    if (line.trim() && !/^\s/.test(line)) paragraph.push(line.trim());
    else {
      flush();
      out.push(line);
    }
  }
  flush();
  return out.join("\n");
}

/**
 * `text` as lines of at most `columns` characters, broken between words (a word longer than a
 * line stands alone).
 */
function wrappedLines(text: string, columns: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > columns) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line];
}

/**
 * The help text of `command`: its usage lines, its description, every option it declares that
 * has help (then `--kb`, unless the command leaves it out) in one aligned column, its help's
 * further lines under its first, and its notes.
 */
export function helpText(command: CommandSpec): string {
  const usage = command.usage.map((line, index) =>
    `${index === 0 ? "Usage: " : "       "}git-kb ${line}`
  );
  const kb = command.kb === false
    ? {}
    : { kb: { ...COMMON_OPTIONS.kb, help: command.kb ?? COMMON_OPTIONS.kb.help } };
  const listed = Object.entries({ ...command.options, ...kb })
    .filter(([, spec]) => spec.help !== undefined)
    .map(([name, spec]) => [optionLabel(name, spec), spec.help!] as const);
  const width = Math.max(...listed.map(([label]) => label.length)) + 2;
  const room = Math.max(HELP_COLUMNS - 2 - width, MIN_HELP_ROOM);
  const options = listed.map(([label, help]) =>
    `  ${label.padEnd(width)}${wrappedLines(help, room).join(`\n  ${" ".repeat(width)}`)}`
  );
  const about = command.about && reflowed(command.about, HELP_COLUMNS);
  const notes = command.notes && reflowed(command.notes, HELP_COLUMNS);
  return [usage.join("\n"), about, `Options:\n${options.join("\n")}`, notes]
    .filter((part) => part !== undefined).join("\n\n");
}

/** The positionals of a command that takes none. */
export const NO_POSITIONALS: PositionalSpec = { name: "arguments", max: 0 };

/**
 * The problem with option `arg` nobody declared, with the nearest declared one when it is close;
 * else, for a word after one dash where a command takes `positionals`, how to give an argument
 * that starts with a dash.
 */
function unknownOption(
  arg: string,
  specs: Record<string, OptionSpec>,
  positionals: PositionalSpec | undefined,
): string {
  const flag = arg.split("=")[0];
  const near = flag.startsWith("--") ? closestWord(flag.slice(2), Object.keys(specs)) : undefined;
  if (near) return `unknown option "${flag}"; did you mean --${near}?`;
  // Options are --long or -x: a longer word after one dash is likelier a name (a folder `-notes`).
  const name = !arg.startsWith("--") && arg.length > 2 && positionals !== undefined &&
    (positionals.max ?? Infinity) > 0;
  return `unknown option "${flag}"${
    name ? `; an argument that starts with a dash goes after --: -- ${shellQuote(arg)}` : ""
  }`;
}

/** The problems with how many positionals were given. */
function positionalProblems(positionals: string[], spec: PositionalSpec | undefined): string[] {
  if (!spec) return [];
  const { name, min = 0, max = Infinity } = spec;
  if (positionals.length < min) {
    return [min === 1 ? `missing ${name}` : `missing ${name}: give at least ${min}`];
  }
  if (positionals.length <= max) return [];
  const stray = positionals.slice(max).map((arg) => `"${arg}"`).join(", ");
  return [`unexpected argument${positionals.length - max === 1 ? "" : "s"} ${stray}`];
}

/**
 * Parse `args` against `options` plus the common ones, and the positionals against `shape`.
 * Throws one {@link UsageError} listing every mistake.
 *
 * @example
 * ```ts
 * parseCommand(["rotate token", "--limit", "3"], { limit: { type: "string" } }, {
 *   positionals: { name: "<query>", min: 1 },
 * });
 * // { values: { limit: "3" }, positionals: ["rotate token"] }
 * ```
 */
export function parseCommand<T extends Record<string, OptionSpec>>(
  args: string[],
  options: T,
  shape: CommandShape | CommandSpec = {},
): { values: OptionValues<T & typeof COMMON_OPTIONS>; positionals: string[] } {
  const specs: Record<string, OptionSpec> = { ...COMMON_OPTIONS, ...options };
  const shorts = new Map(
    Object.entries(specs).filter(([, spec]) => spec.short).map((
      [name, spec],
    ) => [spec.short, name]),
  );
  const values: Record<string, string | boolean | (string | boolean)[]> = {};
  const positionals: string[] = [];
  const problems: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    if (arg === "--") {
      positionals.push(...args.slice(index + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positionals.push(arg);
      continue;
    }
    const equals = arg.indexOf("=");
    const name = arg.startsWith("--")
      ? arg.slice(2, equals > 0 ? equals : undefined)
      : shorts.get(arg.slice(1)) ?? arg;
    const spec = Object.hasOwn(specs, name) ? specs[name] : undefined;
    if (!spec) {
      problems.push(unknownOption(arg, specs, shape.positionals));
      continue;
    }
    const inline = arg.startsWith("--") && equals > 0 ? arg.slice(equals + 1) : undefined;
    let value: string | boolean = true;
    if (spec.type === "boolean") {
      if (inline !== undefined) problems.push(`--${name} takes no value`);
    } else {
      const next = inline ?? args[++index];
      if (next === undefined) {
        problems.push(`--${name} needs a value`);
        continue;
      }
      const problem = spec.check?.(next, `--${name}`);
      if (problem) problems.push(problem);
      value = next;
    }
    if (spec.multiple) {
      const list = (values[name] ??= []) as (string | boolean)[];
      list.push(value);
    } else values[name] = value;
  }
  for (const [name, spec] of Object.entries(specs)) {
    if (spec.required && values[name] === undefined) problems.push(`--${name} is required`);
  }
  problems.push(...positionalProblems(positionals, shape.positionals));
  if (problems.length) throw new UsageError(problems);
  return { values: values as OptionValues<T & typeof COMMON_OPTIONS>, positionals };
}

/**
 * A {@link OptionSpec.check} refusing a blank value: `--kb "$DIR"` with `DIR` unset names no
 * folder, and read as no `--kb` at all it would reach another knowledge base.
 */
export function nonBlank(what: string): (value: string, flag: string) => string | undefined {
  return (value, flag) =>
    value.trim()
      ? undefined
      : `${flag} needs ${what}, and the value given is blank (a variable not set?)`;
}

/**
 * Refuse entry ids given blank (`git-kb get "$ID"` with `ID` unset): none at all, or any that is
 * empty or only blanks, is a usage error rather than a call that reads or changes nothing.
 */
export function refuseBlankIds(ids: readonly string[]): void {
  if (!ids.length || ids.some((id) => !id.trim())) {
    throw new UsageError(
      "an <id> given is blank (a variable not set?); give entry ids, like kb-7q2mx",
    );
  }
}

/** A {@link OptionSpec.check} for a whole number of at least `min`. */
export function wholeNumberFrom(min: number): (value: string, flag: string) => string | undefined {
  return (value, flag) => {
    const number = Number(value);
    return value.trim() !== "" && Number.isInteger(number) && number >= min
      ? undefined
      : `${flag} takes a whole number of at least ${min}, not "${value}"`;
  };
}

/** A {@link OptionSpec.check} for one of a fixed list of words. */
export function oneOf(
  words: readonly string[],
  what = "value",
): (value: string, flag: string) => string | undefined {
  return (value, flag) =>
    words.includes(value)
      ? undefined
      : `${flag} "${value}" is not a ${what}; use one of ${words.join(", ")}`;
}

/** Parse a whole number option, or throw a usage error naming it. */
export function positiveInt(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const problem = wholeNumberFrom(1)(value, `--${name}`);
  if (problem) throw new UsageError(problem);
  return Number(value);
}
