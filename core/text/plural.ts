/**
 * A count with its noun, for messages.
 *
 * @module
 */

/**
 * A count with its noun in the right number.
 *
 * @example
 * ```ts
 * plural(1, "entry", "entries"); // "1 entry"
 * plural(2, "entry", "entries"); // "2 entries"
 * ```
 */
export function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}
