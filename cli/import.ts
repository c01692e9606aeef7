/**
 * `git-kb import <folder>`: bring a folder of notes (an Obsidian vault, a folder of markdown)
 * into the knowledge base in one commit, and report what came in, what was updated, what was
 * left out and why. A second import of the same folder updates instead of duplicating.
 *
 * @module
 */
import { resolveKb } from "../io/config.ts";
import { importFolder, type ImportReport } from "../io/import/import.ts";
import { NOT_MARKDOWN } from "../io/import/source.ts";
import { oneOf, parseCommand, UsageError } from "./args.ts";
import { cyan, green, plural, printJson, yellow } from "./output.ts";
import { printWarnings, saveSummary } from "./save_report.ts";

/** Help text. */
export const help = `Usage: git-kb import <folder> [options]

Bring the notes of a folder into the knowledge base, in one commit (one push, one
reindex). Each markdown file becomes an entry: its title from the frontmatter,
the first # heading or the file name; its tags from the frontmatter, inline
#tags and the folders it sits in; its dates from the frontmatter, else the
file's git history, else its modification time. [[Wikilinks]] to other notes
(by file name, title or alias) become [[kb-id]] mentions and related links.
A note that holds a credential is left out. Importing the same folder again
updates the entries it made (the imported_from field) and adds no duplicates.

Options:
  --from <kind>  obsidian or markdown (default: obsidian when the folder has
                 an .obsidian folder)
  --dry-run      report what would be imported; write nothing
  --json         print the report as JSON
  --kb <dir>     the knowledge base folder

Example:
  git-kb import ~/vault --dry-run

Exit codes: 0 imported (or nothing to do), 1 failed, 2 usage error,
3 committed locally but not pushed (the message says how to finish).`;

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, {
    from: { type: "string", check: oneOf(["obsidian", "markdown"]) },
    "dry-run": { type: "boolean" },
    json: { type: "boolean" },
  });
  if (positionals.length !== 1) throw new UsageError("give one folder to import, like ~/vault");
  const { kbDir } = resolveKb(values.kb);
  const report = await importFolder({
    kbDir,
    folder: positionals[0],
    kind: values.from as "obsidian" | "markdown" | undefined,
    dryRun: values["dry-run"],
  });
  if (report.save) printWarnings(report.save);
  if (values.json) {
    printJson({ ...report, changes: report.changes.map((change) => change.path) });
    return 0;
  }
  printReport(report, positionals[0], values["dry-run"] === true);
  return 0;
}

function printReport(report: ImportReport, folder: string, dryRun: boolean): void {
  const verb = dryRun ? "Would import" : report.save ? green("Imported") : "Nothing to import";
  console.log(
    `${verb} from ${folder} (${report.kind}): ${report.added.length} added, ` +
      `${report.updated.length} updated, ${report.unchanged.length} unchanged` +
      (report.save ? ` (${saveSummary(report.save)})` : ""),
  );
  for (const change of report.changes) {
    console.log(`  ${cyan(change.entry.id)} ${change.entry.title}`);
  }
  console.log(`${plural(report.linksResolved, "wikilink", "wikilinks")} resolved`);
  if (report.kernel.length) {
    console.log(`Made kernel rules (alwaysApply): ${report.kernel.join(", ")}`);
  }
  if (report.kernelOverBudget.length) {
    console.log(yellow(
      `Left as plain rules, the kernel budget being full: ${report.kernelOverBudget.join(", ")}`,
    ));
  }
  if (report.unresolved.length) {
    console.log(
      yellow(`${plural(report.unresolved.length, "wikilink names", "wikilinks name")} no note:`),
    );
    for (const { sourcePath, name } of report.unresolved) {
      console.log(yellow(`  ${sourcePath}: [[${name}]]`));
    }
  }
  const others = report.leftOut.filter((file) => file.reason === NOT_MARKDOWN).length;
  if (others) {
    console.log(
      `${plural(others, "file that is not markdown", "files that are not markdown")} left out`,
    );
  }
  const leftOut = report.leftOut.filter((file) => file.reason !== NOT_MARKDOWN);
  if (leftOut.length) {
    console.log(yellow(`${plural(leftOut.length, "note", "notes")} left out:`));
    for (const { path, reason } of leftOut) console.log(yellow(`  ${path}: ${reason}`));
  }
}
