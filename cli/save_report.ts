/**
 * How `add`, `edit` and `rm` report a save.
 *
 * @module
 */
import type { ChangesResult, PushOutcome, SaveResult } from "../io/save/save.ts";
import { cyan, green, plural, printJson, yellow } from "./output.ts";

/** The push outcome as the line says it. */
function pushText(push: PushOutcome): string {
  return push === "NO_REMOTE"
    ? yellow("NO_REMOTE: no git remote, not pushed")
    : push === "pushed"
    ? "pushed"
    : "remote had moved: rebased and pushed";
}

/** The save's warnings, one line each on stderr (stdout stays the result alone). */
export function printWarnings(result: Pick<ChangesResult, "warnings">): void {
  for (const warning of result.warnings) console.error(yellow(`warning: ${warning}`));
}

/** The commit, push and index part of a save's line. */
export function saveSummary(result: Omit<ChangesResult, "paths">): string {
  return `commit ${result.commit.slice(0, 7)}, ${pushText(result.push)}; ` +
    `index ${result.index.mode}, ${plural(result.index.docCount, "entry", "entries")}`;
}

/**
 * Print what a save did, as a line or as JSON (with `details` added), and its warnings. `place`,
 * when given, names the knowledge base it went to (`in "team" (/abs/dir)`), after the path.
 */
export function reportSave(
  verb: string,
  result: SaveResult,
  json: boolean | undefined,
  details: Record<string, unknown> = {},
  place?: string,
): void {
  printWarnings(result);
  if (json) {
    printJson({
      ...result,
      ...details,
      index: { ...result.index, ms: Math.round(result.index.ms) },
    });
    return;
  }
  if (!result.commit) {
    console.log(`No changes to ${cyan(result.id)}; nothing committed.`);
    return;
  }
  const where = place ? ` in ${place}` : "";
  console.log(`${green(verb)} ${cyan(result.id)} ${result.path}${where} (${saveSummary(result)})`);
}
