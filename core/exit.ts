/**
 * The exit codes every command ends with, in one table (spec/cli.md's "Exit codes" table says the
 * same, and tests/exit_codes_test.ts holds the two together), and {@link KbError}, the error that
 * carries one of them with the commands that get the user out of what happened.
 *
 * @module
 */

/** Each exit code by what it means. */
export const EXIT = {
  /** The command did what was asked (or there was nothing to change). */
  ok: 0,
  /** It failed at run time: the message names the cause and what to run. */
  failed: 1,
  /** The call itself was wrong: an unknown command or flag, a missing argument. */
  usage: 2,
  /** The change was committed locally but not pushed. */
  notPushed: 3,
  /** `sync` stopped on a conflict: both sides changed the same entries. */
  conflict: 4,
} as const;

/** One of the {@link EXIT} codes. */
export type ExitCode = typeof EXIT[keyof typeof EXIT];

/** How spec/cli.md's row for each exit code begins: the one-phrase meaning. */
export const EXIT_MEANINGS: Readonly<Record<ExitCode, string>> = {
  [EXIT.ok]: "success",
  [EXIT.failed]: "runtime error",
  [EXIT.usage]: "usage error",
  [EXIT.notPushed]: "the change was committed locally but not pushed",
  [EXIT.conflict]: "`sync` stopped on a conflict",
};

/**
 * What stops a step, said once for every command that meets it: the reason, a phrase that sits
 * in the command's own sentence, and the commands that get out of it, each pasteable.
 */
export interface Refusal {
  /** What stands in the way and what to do, without a final period. */
  reason: string;
  /** The commands, in order. */
  commands: string[];
}

/** The commands of a message, one a line, indented under it. */
export function commandLines(commands: readonly string[]): string {
  return commands.map((command) => `\n  ${command}`).join("");
}

/**
 * Where an error keeps the brands of its classes (see {@link KbError.brand}): a key every copy
 * of this module shares, as `Symbol.for` gives one key for a name to the whole process.
 */
const BRANDS = Symbol.for("git-kb.error-brands");

/**
 * An error a command ends with: the message says what happened and why, then lists the commands
 * that get out of it (each pasteable, one a line, indented), and the command exits with
 * `exitCode`.
 *
 * A command with a bundle of its own (`ownBundle` in app/registry.ts: review, mcp, init, setup,
 * import) has its own copy of this class, and the CLI's bundle, which turns the error its `run`
 * throws into a message and an exit code, has another: `instanceof` also knows an instance of
 * a copy by its brand, so a usage error of `review` exits 2 and a commit not pushed exits 3.
 */
export class KbError extends Error {
  /**
   * The name every copy of this class knows it by; a subclass that `instanceof` must know across
   * bundles gives its own (the minifier renames classes, so their names cannot serve).
   */
  static readonly brand: string = "KbError";

  /**
   * Whether `value` is an instance of this class: by its prototype, or by the brand of this class
   * among those it carries, when this class has a brand of its own.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    if (Function.prototype[Symbol.hasInstance].call(this, value)) return true;
    if (!Object.hasOwn(this, "brand") || typeof value !== "object" || value === null) {
      return false;
    }
    const brands = (value as { [BRANDS]?: unknown })[BRANDS];
    return Array.isArray(brands) && brands.includes(this.brand);
  }

  /** The exit code the command ends with. */
  readonly exitCode: ExitCode;
  /** The commands the message lists, in order, each pasteable. */
  readonly commands: readonly string[];
  /** The brands of its class and of the classes it extends. */
  readonly [BRANDS]: readonly string[];
  /** `message`, followed by `commands` one a line; the command exits with `exitCode`. */
  constructor(message: string, exitCode: ExitCode, commands: readonly string[] = []) {
    super(`${message}${commandLines(commands)}`);
    this.name = "KbError";
    this.exitCode = exitCode;
    this.commands = commands;
    const brands: string[] = [];
    for (let of: object = new.target; of !== Error; of = Object.getPrototypeOf(of)) {
      if (Object.hasOwn(of, "brand")) brands.push((of as typeof KbError).brand);
    }
    this[BRANDS] = brands;
  }
}
