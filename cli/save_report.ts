/**
 * How `add` and `edit` report a save.
 *
 * @module
 */
import type { SaveResult } from "../io/save.ts";
import { cyan, green, printJson, yellow } from "./output.ts";

/** Print what a save did, as a line or as JSON (with `details` added to the JSON). */
export function reportSave(
  verb: string,
  result: SaveResult,
  json: boolean | undefined,
  details: Record<string, unknown> = {},
): void {
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
  const push = result.push === "NO_REMOTE"
    ? yellow("NO_REMOTE: no git remote, not pushed")
    : result.push === "pushed"
    ? "pushed"
    : "remote had moved: rebased and pushed";
  console.log(
    `${green(verb)} ${cyan(result.id)} ${result.path} (commit ${
      result.commit.slice(0, 7)
    }, ${push}; ` +
      `index ${result.index.mode}, ${result.index.docCount} entries)`,
  );
}
