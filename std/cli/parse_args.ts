/**
 * `@std/cli/parse-args`: command-line arguments parsed into flags and positionals. A stand-in for
 * the JSR module of that name (see std/README.md): the options below, as the real one reads them.
 *
 * @module
 */

/** The parsed arguments: each flag by name, the positionals in `_`, and what followed `--`. */
export type Args = {
  /** The positional arguments; those that look like numbers are numbers. */
  _: Array<string | number>;
  /** The arguments after `--`, when {@link ParseOptions} `"--"` is set. */
  "--"?: string[];
  /** Each flag's value. */
  [flag: string]: unknown;
};

/** How {@link parseArgs} reads the arguments. */
export interface ParseOptions {
  /** Put the arguments after `--` in `"--"` rather than in `_`. */
  "--"?: boolean;
  /** Other names of a flag: `{ help: "h" }`. */
  alias?: Record<string, string | readonly string[]>;
  /** Flags that take no value; `true` makes every `--flag` without `=` one. */
  boolean?: boolean | string | readonly string[];
  /** Values of flags that are not given. */
  default?: Record<string, unknown>;
  /** Stop at the first positional: it and everything after go to `_`. */
  stopEarly?: boolean;
  /** Flags whose values stay strings. */
  string?: string | readonly string[];
  /** Flags that may be given several times: their values come back as a list. */
  collect?: string | readonly string[];
  /** Boolean or string flags that `--no-<flag>` sets to false. */
  negatable?: string | readonly string[];
  /** Called with each flag not declared; returning false leaves it out. */
  unknown?: (arg: string, key?: string, value?: unknown) => unknown;
}

const NUMBER = /^(?:-?(?:0x[0-9a-f]+|\d*\.?\d+(?:e[-+]?\d+)?))$/i;

function list(value: string | readonly string[] | undefined): string[] {
  return value === undefined ? [] : typeof value === "string" ? [value] : [...value];
}

/** `value` as a number when it reads as one, else as it is. */
function numeric(value: string): string | number {
  return NUMBER.test(value) ? Number(value) : value;
}

/**
 * Parse command-line `args` (`Deno.args`) into an {@link Args} object.
 *
 * @example
 * ```ts
 * parseArgs(["--check", "x"], { boolean: ["check"] }); // { _: ["x"], check: true }
 * ```
 */
export function parseArgs(args: string[], options: ParseOptions = {}): Args {
  const aliases = new Map<string, string[]>();
  for (const [name, others] of Object.entries(options.alias ?? {})) {
    const names = [name, ...list(others)];
    for (const one of names) aliases.set(one, names.filter((other) => other !== one));
  }
  const expand = (names: string[]) =>
    new Set(names.flatMap((name) => [name, ...aliases.get(name) ?? []]));
  const allBoolean = options.boolean === true;
  const booleans = expand(typeof options.boolean === "boolean" ? [] : list(options.boolean));
  const strings = expand(list(options.string));
  const collected = expand(list(options.collect));
  const negatable = expand(list(options.negatable));
  const declared = (name: string) =>
    booleans.has(name) || strings.has(name) || collected.has(name) || aliases.has(name) ||
    Object.hasOwn(options.default ?? {}, name);
  const result: Args = { _: [] };
  const given = new Set<string>();
  const set = (name: string, value: unknown, arg: string) => {
    if (!declared(name) && options.unknown?.(arg, name, value) === false) return;
    for (const key of [name, ...aliases.get(name) ?? []]) {
      given.add(key);
      if (collected.has(key)) result[key] = [...(result[key] as unknown[] ?? []), value];
      else result[key] = value;
    }
  };
  const valueFor = (name: string, raw: string) => strings.has(name) ? raw : numeric(raw);
  /** The value of flag `name` given without `=`: the next argument when it takes one. */
  const nextValue = (name: string, index: number): [unknown, number] => {
    const takesValue = !booleans.has(name) && !(allBoolean && !strings.has(name));
    if (takesValue && index + 1 < args.length && !args[index + 1].startsWith("-")) {
      return [valueFor(name, args[index + 1]), index + 1];
    }
    return [strings.has(name) ? "" : true, index];
  };
  for (let index = 0; index < args.length; index++) {
    const arg = args[index];
    if (arg === "--") {
      const rest = args.slice(index + 1);
      if (options["--"]) result["--"] = rest;
      else result._.push(...rest.map(numeric));
      break;
    }
    const long = /^--([^=]+)(?:=([\s\S]*))?$/.exec(arg);
    const short = long ? null : /^-([^-\d][\s\S]*)$/.exec(arg);
    if (long) {
      const [, name, inline] = long;
      const negated = /^no-(.+)$/.exec(name);
      if (negated && negatable.has(negated[1]) && inline === undefined) {
        set(negated[1], false, arg);
      } else if (inline !== undefined) {
        set(name, booleans.has(name) ? inline !== "false" : valueFor(name, inline), arg);
      } else {
        const [value, last] = nextValue(name, index);
        set(name, value, arg);
        index = last;
      }
    } else if (short) {
      const letters = [...short[1]];
      const last = letters.pop()!;
      for (const letter of letters) set(letter, strings.has(letter) ? "" : true, arg);
      const [value, at] = nextValue(last, index);
      set(last, value, arg);
      index = at;
    } else if (options.stopEarly) {
      result._.push(...args.slice(index).map(numeric));
      break;
    } else if (options.unknown?.(arg) !== false) result._.push(numeric(arg));
  }
  for (const name of [...booleans].filter((name) => !given.has(name))) result[name] = false;
  for (const name of [...collected].filter((name) => !given.has(name))) result[name] = [];
  for (const [name, value] of Object.entries(options.default ?? {})) {
    for (const key of [name, ...aliases.get(name) ?? []]) if (!given.has(key)) result[key] = value;
  }
  return result;
}
