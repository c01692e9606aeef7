/**
 * A finding about the setup or the knowledge base, as `git-kb doctor` prints it. Checks live
 * beside what they check (git state in the save pipeline's modules, index health in the index
 * store) and return findings; doctor only gathers and prints them.
 *
 * @module
 */

/** One finding: how bad it is, which check made it, and what to do. */
export interface Finding {
  /** `ok` is a passed check, `warn` something to look at, `error` something broken. */
  level: "ok" | "warn" | "error";
  /** The short name of the check, e.g. `git`, `index`, `entries`. */
  check: string;
  /** One line saying what was found and, when it is not ok, the next step (pasteable). */
  message: string;
}
