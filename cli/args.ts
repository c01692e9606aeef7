/**
 * Argument parsing shared by every command: long options (`--name value`, `--name=value`),
 * one-letter aliases, repeatable options, positionals and `--`. Mistakes become
 * {@link UsageError} (exit 2). Written here rather than taken from `node:util`, whose Node
 * compatibility layer costs about 14 ms of start-up on every command.
 *
 * @module
 */

/** A mistake in how a command was called; the CLI exits 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

/** One option a command accepts. */
export interface OptionSpec {
  type: "string" | "boolean";
  /** May be given several times; the values come back as a list. */
  multiple?: boolean;
  /** A one-letter alias, used as `-x`. */
  short?: string;
}

type ValueOf<S extends OptionSpec> = S["type"] extends "string"
  ? (S["multiple"] extends true ? string[] : string)
  : (S["multiple"] extends true ? boolean[] : boolean);

/** The parsed values of a set of options; options not given are absent. */
export type OptionValues<T extends Record<string, OptionSpec>> = {
  [K in keyof T]?: ValueOf<T[K]>;
};

/** Options every command accepts. */
export const COMMON_OPTIONS = {
  kb: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const satisfies Record<string, OptionSpec>;

/**
 * Parse `args` against `options` plus the common ones.
 *
 * @example
 * ```ts
 * parseCommand(["rotate token", "--limit", "3"], { limit: { type: "string" } });
 * // { values: { limit: "3" }, positionals: ["rotate token"] }
 * ```
 */
export function parseCommand<T extends Record<string, OptionSpec>>(
  args: string[],
  options: T,
): { values: OptionValues<T & typeof COMMON_OPTIONS>; positionals: string[] } {
  const specs: Record<string, OptionSpec> = { ...COMMON_OPTIONS, ...options };
  const shorts = new Map(
    Object.entries(specs).filter(([, spec]) => spec.short).map((
      [name, spec],
    ) => [spec.short, name]),
  );
  const values: Record<string, string | boolean | (string | boolean)[]> = {};
  const positionals: string[] = [];
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
    if (!spec) throw new UsageError(`unknown option "${arg.split("=")[0]}"`);
    const inline = arg.startsWith("--") && equals > 0 ? arg.slice(equals + 1) : undefined;
    let value: string | boolean = true;
    if (spec.type === "boolean") {
      if (inline !== undefined) throw new UsageError(`--${name} takes no value`);
    } else {
      const next = inline ?? args[++index];
      if (next === undefined) throw new UsageError(`--${name} needs a value`);
      value = next;
    }
    if (spec.multiple) {
      const list = (values[name] ??= []) as (string | boolean)[];
      list.push(value);
    } else values[name] = value;
  }
  return { values: values as OptionValues<T & typeof COMMON_OPTIONS>, positionals };
}

/** Parse a whole number option, or throw a usage error naming it. */
export function positiveInt(value: string | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) {
    throw new UsageError(`--${name} takes a whole number of at least 1, not "${value}"`);
  }
  return number;
}
