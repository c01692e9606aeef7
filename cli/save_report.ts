/**
 * How `add`, `edit` and `rm` report a save.
 *
 * @module
 */
import type { ChangesResult, PushOutcome, SaveRequest, SaveResult } from "../io/save/request.ts";
import { PushError } from "../io/save/publish.ts";
import type { RefreshReport } from "../io/index/store.ts";
import { cyan, green, plural, printJson, yellow } from "./output.ts";

/** The push outcome as the line says it. */
function pushText(push: PushOutcome): string {
  return push === "NO_REMOTE"
    ? yellow("NO_REMOTE: no git remote, not pushed")
    : push === "pushed"
    ? "pushed"
    : push === "held"
    ? "to be pushed with the others"
    : "remote had moved: rebased and pushed";
}

/** The save's warnings, one line each on stderr (stdout stays the result alone). */
export function printWarnings(result: Pick<ChangesResult, "warnings">): void {
  for (const warning of result.warnings) console.error(yellow(`warning: ${warning}`));
}

/** The index part of a report's line: how it was brought up to date, or that it was not. */
export function indexSummary(index: RefreshReport | undefined): string {
  return index
    ? `index ${index.mode}, ${plural(index.docCount, "entry", "entries")}`
    : yellow("index not updated (see the warning)");
}

/** The index report as JSON prints it: whole milliseconds; null when it was not updated. */
export function indexJson(index: RefreshReport | undefined): RefreshReport | null {
  return index ? { ...index, ms: Math.round(index.ms) } : null;
}

/** The commit, push and index part of a save's line. */
export function saveSummary(result: Omit<ChangesResult, "paths">): string {
  return `commit ${result.commit.slice(0, 7)}, ${pushText(result.push)}; ` +
    indexSummary(result.index);
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
      index: indexJson(result.index),
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

/**
 * The result of `save`, which saves `request`. When it commits but cannot push (exit 3) and
 * `json` is set, what it committed is printed on stdout first, as a save that pushed prints it
 * but with `push: "not-pushed"`, so a script learns the id and the commit; the error then says
 * why on stderr and sets the exit code.
 */
export function reportingUnpushed<T>(
  json: boolean | undefined,
  request: SaveRequest,
  save: () => Promise<T>,
): Promise<T> {
  const { entry: { id }, path } = request;
  return printingUnpushed(json, { id, path }, save);
}

/**
 * {@link reportingUnpushed} for any save: `saved` (what the save is of: `{ids, paths}` for `rm`)
 * is printed with the commit and `push: "not-pushed"` when it commits but cannot push.
 */
export async function printingUnpushed<T>(
  json: boolean | undefined,
  saved: Record<string, unknown>,
  save: () => Promise<T>,
): Promise<T> {
  try {
    return await save();
  } catch (error) {
    if (json && error instanceof PushError) {
      printJson({ ...saved, commit: error.commit, push: "not-pushed" });
    }
    throw error;
  }
}
