/**
 * `@std/assert`: assertions for tests. A stand-in for the JSR package of that name (see
 * std/README.md) with the assertions git-kb's tests use, under the same names, signatures and
 * meaning: {@link assertEquals} compares deeply by value, {@link assertStrictEquals} by identity,
 * {@link assertThrows} and {@link assertRejects} return what was thrown.
 *
 * @module
 */

/** The error every failed assertion throws. */
export class AssertionError extends Error {
  /** @param message what failed */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "AssertionError";
  }
}

/** The values `if` treats as false. */
export type Falsy = false | 0 | 0n | "" | null | undefined;

/** A class that errors are instances of. */
// deno-lint-ignore no-explicit-any
type ErrorClass<E extends Error> = abstract new (...args: any[]) => E;

/** `msg` as the end of a failure's first sentence. */
function suffix(msg: string | undefined): string {
  return msg ? `: ${msg}` : ".";
}

/** A value as a failure message shows it. */
function shown(value: unknown): string {
  return Deno.inspect(value, {
    depth: Infinity,
    sorted: true,
    trailingComma: true,
    compact: false,
  });
}

/** Both values, one above the other, for a failure message. */
function sideBySide(actual: unknown, expected: unknown): string {
  return `\n\n    [Actual]\n${shown(actual)}\n\n    [Expected]\n${shown(expected)}\n`;
}

/** Whether `a` and `b` share a prototype, taking a null one and Object's as the same. */
function sameKind(a: object, b: object): boolean {
  const [pa, pb] = [Object.getPrototypeOf(a), Object.getPrototypeOf(b)];
  const plain = (proto: unknown) => proto === null || proto === Object.prototype;
  return pa === pb || (plain(pa) && plain(pb));
}

/** Own string and symbol keys of `value` and of its prototypes below Object's and Array's. */
function keysOf(value: object): Set<string | symbol> {
  const keys = new Set<string | symbol>();
  for (
    let at: object | null = value;
    at && at !== Object.prototype && at !== Array.prototype;
    at = Object.getPrototypeOf(at)
  ) {
    for (const key of Reflect.ownKeys(at)) keys.add(key);
  }
  return keys;
}

/**
 * Deep equality by value: primitives by SameValueZero, dates by time, regular expressions and
 * URLs by text, typed arrays, maps and sets by content, other objects by prototype and by every
 * own key, cycles included.
 *
 * @example
 * ```ts
 * equal({ a: [1, 2] }, { a: [1, 2] }); // true
 * ```
 */
export function equal(a: unknown, b: unknown): boolean {
  const seen = new Map<unknown, unknown>();
  const compare = (a: unknown, b: unknown): boolean => {
    if (a === b || Object.is(a, b)) return true;
    if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
    if (!sameKind(a, b)) return false;
    if (a instanceof Date) return Object.is(a.getTime(), (b as Date).getTime());
    if (a instanceof RegExp || a instanceof URL) return String(a) === String(b);
    if (ArrayBuffer.isView(a) && !(a instanceof DataView)) {
      const [x, y] = [a as unknown as ArrayLike<unknown>, b as unknown as ArrayLike<unknown>];
      return x.length === y.length && Array.from(x).every((item, at) => Object.is(item, y[at]));
    }
    if (seen.get(a) === b) return true;
    if (Object.keys(a).length !== Object.keys(b).length) return false;
    seen.set(a, b);
    if (a instanceof Map || a instanceof Set) {
      const other = b as Map<unknown, unknown> | Set<unknown>;
      if (a.size !== other.size) return false;
      const unmatched = [...other.entries()];
      return [...a.entries()].every(([key, value]) => {
        const at = unmatched.findIndex(([k, v]) => compare(key, k) && compare(value, v));
        return at >= 0 && unmatched.splice(at, 1).length === 1;
      });
    }
    const keys = new Set([...keysOf(a), ...keysOf(b)]);
    return [...keys].every((key) =>
      compare((a as Record<PropertyKey, unknown>)[key], (b as Record<PropertyKey, unknown>)[key])
    );
  };
  return compare(a, b);
}

/**
 * Assert that `expr` is truthy.
 *
 * @example
 * ```ts
 * assert(entries.length > 0, "the index lists entries");
 * ```
 */
export function assert(expr: unknown, msg = ""): asserts expr {
  if (!expr) throw new AssertionError(msg);
}

/** Assert that `expr` is falsy. */
export function assertFalse(expr: unknown, msg = ""): asserts expr is Falsy {
  if (expr) throw new AssertionError(msg);
}

/**
 * Assert that `actual` and `expected` are deeply equal by value ({@link equal}).
 *
 * @example
 * ```ts
 * assertEquals({ ids: ["kb-7q2mx"] }, { ids: ["kb-7q2mx"] });
 * ```
 */
export function assertEquals<T>(actual: T, expected: T, msg?: string): void {
  if (equal(actual, expected)) return;
  throw new AssertionError(`Values are not equal${suffix(msg)}${sideBySide(actual, expected)}`);
}

/** Assert that `actual` and `expected` are not deeply equal by value ({@link equal}). */
export function assertNotEquals<T>(actual: T, expected: T, msg?: string): void {
  if (!equal(actual, expected)) return;
  throw new AssertionError(
    `Expected actual: ${shown(actual)} not to be: ${shown(expected)}` +
      suffix(msg),
  );
}

/** Assert that `actual` is `expected` itself (`Object.is`). */
export function assertStrictEquals<T>(
  actual: unknown,
  expected: T,
  msg?: string,
): asserts actual is T {
  if (Object.is(actual, expected)) return;
  throw new AssertionError(
    `Values are not strictly equal${suffix(msg)}${sideBySide(actual, expected)}`,
  );
}

/** Assert that `actual` is not `expected` itself (`Object.is`). */
export function assertNotStrictEquals<T>(actual: T, expected: T, msg?: string): void {
  if (!Object.is(actual, expected)) return;
  throw new AssertionError(
    `Expected "actual" to not be strictly equal to: ${shown(actual)}` +
      suffix(msg),
  );
}

/** Assert that `actual` is neither null nor undefined. */
export function assertExists<T>(actual: T, msg?: string): asserts actual is NonNullable<T> {
  if (actual !== null && actual !== undefined) return;
  throw new AssertionError(
    `Expected actual: "${actual}" to not be null or undefined` + suffix(msg),
  );
}

/**
 * Assert that `actual` matches `expected`.
 *
 * @example
 * ```ts
 * assertMatch("kb-7q2mx", /^kb-[0-9a-z]{5}$/);
 * ```
 */
export function assertMatch(actual: string, expected: RegExp, msg?: string): void {
  if (expected.test(actual)) return;
  throw new AssertionError(`Expected actual: "${actual}" to match: "${expected}"` + suffix(msg));
}

/** Assert that `actual` does not match `expected`. */
export function assertNotMatch(actual: string, expected: RegExp, msg?: string): void {
  if (!expected.test(actual)) return;
  throw new AssertionError(
    `Expected actual: "${actual}" to not match: "${expected}"` +
      suffix(msg),
  );
}

/** Assert that `actual` holds `expected`. */
export function assertStringIncludes(actual: string, expected: string, msg?: string): void {
  if (actual.includes(expected)) return;
  throw new AssertionError(
    `Expected actual: "${actual}" to contain: "${expected}"` +
      suffix(msg),
  );
}

/** Assert that `actual` is an instance of `expectedType`. */
export function assertInstanceOf<T extends abstract new (...args: never[]) => unknown>(
  actual: unknown,
  expectedType: T,
  msg = "",
): asserts actual is InstanceType<T> {
  if (actual instanceof expectedType) return;
  throw new AssertionError(
    msg || `Expected object to be an instance of "${expectedType.name}" but was "${shown(actual)}"`,
  );
}

/**
 * Assert that `error` is an Error, of `ErrorClass` when given, whose message holds `msgIncludes`
 * when given.
 */
export function assertIsError<E extends Error = Error>(
  error: unknown,
  ErrorClass?: ErrorClass<E>,
  msgIncludes?: string,
  msg?: string,
): asserts error is E {
  if (!(error instanceof Error)) {
    throw new AssertionError(`Expected "error" to be an Error object${suffix(msg)}`);
  }
  if (ErrorClass && !(error instanceof ErrorClass)) {
    throw new AssertionError(
      `Expected error to be instance of "${ErrorClass.name}", but was "${error.constructor.name}"` +
        suffix(msg),
    );
  }
  if (msgIncludes !== undefined && !error.message.includes(msgIncludes)) {
    throw new AssertionError(
      `Expected error message to include ${JSON.stringify(msgIncludes)}, but got ` +
        `${JSON.stringify(error.message)}${suffix(msg)}`,
    );
  }
}

/** Whether `value` is a class of errors rather than a message. */
function isErrorClass<E extends Error>(value: unknown): value is ErrorClass<E> {
  return typeof value === "function" &&
    (value.prototype instanceof Error || value.prototype === Error.prototype);
}

/**
 * Call `fn`, expecting it to throw, and return what it threw.
 *
 * @example
 * ```ts
 * const error = assertThrows(() => JSON.parse("{"), SyntaxError);
 * ```
 */
export function assertThrows(fn: () => unknown, msg?: string): unknown;
/**
 * Call `fn`, expecting it to throw an instance of `ErrorClass` whose message holds
 * `msgIncludes` (when given), and return the error.
 */
export function assertThrows<E extends Error = Error>(
  fn: () => unknown,
  ErrorClass: ErrorClass<E>,
  msgIncludes?: string,
  msg?: string,
): E;
export function assertThrows<E extends Error = Error>(
  fn: () => unknown,
  errorClassOrMsg?: ErrorClass<E> | string,
  msgIncludesOrMsg?: string,
  msg?: string,
): E | unknown {
  const ErrorClass = isErrorClass<E>(errorClassOrMsg) ? errorClassOrMsg : undefined;
  const message = ErrorClass ? msg : (errorClassOrMsg as string | undefined) ?? msgIncludesOrMsg;
  try {
    fn();
  } catch (error) {
    if (ErrorClass) assertIsError(error, ErrorClass, msgIncludesOrMsg, message);
    return error;
  }
  throw new AssertionError(`Expected function to throw${suffix(message)}`);
}

/**
 * Call `fn`, expecting the promise it returns to reject, and resolve to the reason.
 *
 * @example
 * ```ts
 * await assertRejects(() => Deno.stat("/nowhere"), Deno.errors.NotFound);
 * ```
 */
export function assertRejects(fn: () => PromiseLike<unknown>, msg?: string): Promise<unknown>;
/**
 * Call `fn`, expecting the promise it returns to reject with an instance of `ErrorClass` whose
 * message holds `msgIncludes` (when given), and resolve to the error.
 */
export function assertRejects<E extends Error = Error>(
  fn: () => PromiseLike<unknown>,
  ErrorClass: ErrorClass<E>,
  msgIncludes?: string,
  msg?: string,
): Promise<E>;
export async function assertRejects<E extends Error = Error>(
  fn: () => PromiseLike<unknown>,
  errorClassOrMsg?: ErrorClass<E> | string,
  msgIncludesOrMsg?: string,
  msg?: string,
): Promise<E | unknown> {
  const ErrorClass = isErrorClass<E>(errorClassOrMsg) ? errorClassOrMsg : undefined;
  const message = ErrorClass ? msg : (errorClassOrMsg as string | undefined) ?? msgIncludesOrMsg;
  let promise: PromiseLike<unknown>;
  try {
    promise = fn();
  } catch (error) {
    throw new AssertionError(`Function throws when expected to reject${suffix(message)}`, {
      cause: error,
    });
  }
  try {
    await promise;
  } catch (error) {
    if (ErrorClass) assertIsError(error, ErrorClass, msgIncludesOrMsg, message);
    return error;
  }
  throw new AssertionError(`Expected function to reject${suffix(message)}`);
}

/** Fail at once. */
export function fail(msg?: string): never {
  throw new AssertionError(`Failed assertion${suffix(msg)}`);
}

/** Fail at once: code that should be unreachable was reached. */
export function unreachable(msg?: string): never {
  throw new AssertionError(msg ?? "Unreachable");
}
