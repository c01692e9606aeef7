/**
 * Reading one environment variable where a process may not be allowed to: hooks run with
 * `--allow-env` naming only the variables git-kb reads.
 *
 * @module
 */

/** The variable `name`, or undefined when unset or not readable under the granted flags. */
export function envVar(name: string): string | undefined {
  try {
    return Deno.env.get(name);
  } catch {
    return undefined;
  }
}
