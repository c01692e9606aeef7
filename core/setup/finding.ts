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

/** The findings of one part of doctor's report: the setup's, or one knowledge base's by name. */
export interface FindingGroup {
  /** The knowledge base's name, when several are checked; none for the setup or a single one. */
  name?: string;
  findings: readonly Finding[];
}

/**
 * The finding that ends doctor's report when not every check passed: each check that failed,
 * then each that only warned, by name (`<kb>: <check>` where several knowledge bases are
 * checked), each once, in the order the report gives them. Undefined when every check passed.
 *
 * @example
 * ```ts
 * findingsSummary([{ findings: [
 *   { level: "error", check: "cache", message: "cannot write…" },
 *   { level: "warn", check: "git", message: "1 uncommitted change…" },
 * ] }]); // { level: "error", check: "doctor", message: "failed: cache; warned: git; …" }
 * ```
 */
export function findingsSummary(groups: readonly FindingGroup[]): Finding | undefined {
  const names = { error: new Set<string>(), warn: new Set<string>() };
  for (const { name, findings } of groups) {
    for (const { level, check } of findings) {
      if (level !== "ok") names[level].add(name === undefined ? check : `${name}: ${check}`);
    }
  }
  const warned = [...names.warn].filter((check) => !names.error.has(check));
  const parts = [
    ...names.error.size ? [`failed: ${[...names.error].join(", ")}`] : [],
    ...warned.length ? [`warned: ${warned.join(", ")}`] : [],
  ];
  if (!parts.length) return undefined;
  return {
    level: names.error.size ? "error" : "warn",
    check: "doctor",
    message: `${parts.join("; ")}; each is named above with what to do`,
  };
}
