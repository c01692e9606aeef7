/**
 * `git-kb import <folder>`: bring a folder of notes (an Obsidian vault, a folder of markdown, a
 * `knowledge/` folder, Claude Code's memory folder, agent instruction files) into the knowledge base in one commit, and report what came in, what was updated, what was
 * left out and why. A second import of the same folder updates instead of duplicating.
 *
 * @module
 */
import { resolveKb } from "../io/config.ts";
import { userPath } from "../io/paths.ts";
import { type PendingMention, pendingNotice } from "../core/kernel/acceptance.ts";
import { pendingMentions } from "../io/kernel/acceptance.ts";
import { kbCommand } from "../io/self_command.ts";
import { importFolder, type ImportReport } from "../io/import/import.ts";
import { NOT_MARKDOWN } from "../io/import/source.ts";
import { SOURCE_KINDS, type SourceKind } from "../core/import/kinds.ts";
import { NOTE_FILE } from "../core/import/wikilinks.ts";
import { sourceFile } from "../core/import/plan.ts";
import { isAgentFile } from "../core/import/agent_rules.ts";
import { type CommandSpec, helpText, oneOf, parseCommand } from "./args.ts";
import { cyan, green, plural, printJson, yellow } from "./output.ts";
import { printWarnings, saveSummary } from "./save_report.ts";
import { allowSecretFlag } from "./entry_flags.ts";
import { SECRET_LABELS } from "../core/text/secrets.ts";
import { byteSize } from "../core/text/byte_size.ts";

/** The command: its usage, options and positionals. */
export const command = {
  usage: ["import <folder> [options]"],
  about: `Bring the notes of a folder into the knowledge base, in one commit (one push, one
reindex). Each markdown file (.md, .markdown, MDX's .mdx) becomes an entry (an
empty one is left out, named): its title from the frontmatter (YAML between ---
lines, or Hugo's TOML between +++ lines) (or a Logseq page's title:: property),
its only # heading if before its words (else a section) or the file name;
its tags from
the frontmatter, inline #tags and the folders it sits in; its dates from the
frontmatter, else the file's git history, else its modification time. Its other
frontmatter fields are kept as they are. [[Wikilinks]] to other notes
(by file name, title or alias) and relative [links](other.md) (Hugo's
{{< relref "other.md" >}} too) keep their words
followed by a [[kb-id]] mention, and become related links (a wikilink in a
property, up: "[[Parent]]", is a related link too, the property kept as written);
a note that supersedes another ("supersedes:", or a first line "Supersedes
[[X]]") links to it, and marks it superseded when it comes in too.
A file a note embeds (![[x.png]], ![alt](img/x.png)) or links ([[x.pdf]],
[text](x.pdf)) is copied under attachments/ and the embed or link points at
the copy; one not found, over 10 MiB or
a symbolic link is named and its embed made plain text.
A knowledge/ folder's concept files (status: and timestamp: lines at the
top) and a Claude Code memory folder's topic files (MEMORY.md listing them)
are entries each; the index is not, its link text and summary of a file go
to that entry's alias and first line, and a MEMORY.md section that is more
than links is an entry of its own. Each ## section of a CLAUDE.md or AGENTS.md, and each .cursor/rules/*.mdc, becomes
a rule; an alwaysApply rule becomes a kernel rule while the kernel budget has
room, and applies once you have read and accepted it (git-kb kernel), since
a project's rules are other people's words. A credential in a note is masked in the entry,
[REDACTED:<kind>], and named by file and line (--allow-secret-in <path> keeps one
note's, --allow-secret every note's, in a private knowledge base). Importing the same folder again updates the entries it
made (the imported_from field) and adds no duplicates; an entry edited in the
knowledge base since its last import is kept as it is and named
(--replace-edits takes the note instead). The folder itself is
never changed.`,
  options: {
    from: {
      type: "string",
      value: "<kind>",
      help: "obsidian, dendron, markdown, knowledge or claude-memory (default: " +
        "told from the folder: .obsidian/, root.schema.yml or dendron.yml,\n" +
        "MEMORY.md, an index.md with concept files)",
      check: oneOf(SOURCE_KINDS),
    },
    "dry-run": { type: "boolean", help: "report what would be imported; write nothing" },
    "replace-edits": {
      type: "boolean",
      help: "update an entry edited in the knowledge base since its last " +
        "import too, replacing those edits with the note (by default it is\nkept and named)",
    },
    "allow-secret": {
      type: "boolean",
      help: "keep the credentials of every note unmasked (a private " +
        "knowledge base only; refused where git-kb.json says shared)",
    },
    "allow-secret-in": {
      type: "string",
      value: "<path>",
      multiple: true,
      help: "keep the credentials of this note unmasked (its path inside " +
        "the folder; repeatable; a private knowledge base only)",
    },
    json: { type: "boolean", help: "print the report as JSON" },
  },
  positionals: { min: 1, max: 1, name: "<folder>" },
  notes: `Example:
  git-kb import ~/vault --dry-run

Exit codes: 0 imported (or nothing to do), 1 failed, 2 usage error,
3 committed locally but not pushed (the message says how to finish).`,
} as const satisfies CommandSpec;

/** Help text. */
export const help: string = helpText(command);

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, command.options, command);
  const { kbDir } = resolveKb(values.kb);
  const allowSecretIn = values["allow-secret-in"] ?? [];
  const report = await importFolder({
    kbDir,
    folder: userPath(positionals[0]),
    kind: values.from as SourceKind | undefined,
    dryRun: values["dry-run"],
    replaceEdits: values["replace-edits"],
    allowSecret: await allowSecretFlag(kbDir, values["allow-secret"]),
    allowSecretIn: await allowSecretFlag(kbDir, allowSecretIn.length > 0) ? allowSecretIn : [],
  });
  if (report.save) printWarnings(report.save);
  const { notPushed, ...rest } = report;
  const waiting = report.save || notPushed ? importedWaiting(report) : [];
  if (values.json) {
    printJson({
      ...rest,
      changes: report.changes.map((change) => change.path),
      kernelWaiting: waiting,
      ...notPushed ? { notPushed: { commit: notPushed.commit } } : {},
    });
  } else {
    const kbFlag = values.kb === undefined ? [] : ["--kb", kbDir];
    const from = values.from === undefined ? [] : ["--from", String(values.from)];
    const commands = {
      replacing: kbCommand("import", positionals[0], ...kbFlag, ...from, "--replace-edits"),
      listing: kbCommand("import", positionals[0], ...kbFlag, ...from, "--dry-run", "--json"),
    };
    printReport(report, positionals[0], values["dry-run"] === true, commands);
    if (waiting.length) {
      const review = kbCommand("kernel", ...kbFlag);
      console.log(yellow(pendingNotice(waiting, review)));
    }
  }
  // The report stands (what came in, what was masked or left out); then why the push failed.
  if (notPushed) throw notPushed;
  return 0;
}

/**
 * The kernel rules the import wrote that wait for acceptance: a project's always-apply rules are
 * other people's words, so they apply once the user has read and accepted them, as a
 * teammate's would (re-importing a rule unchanged keeps it accepted).
 */
function importedWaiting(report: ImportReport): PendingMention[] {
  const written = report.changes.map((change) => change.entry)
    .filter((entry) => entry.kernel && entry.status === "active");
  return pendingMentions(written);
}

/** The most links of one kind the report lists; `--json` lists them all. */
const MAX_LISTED_LINKS = 20;

/**
 * Print the lines of `items` (at most {@link MAX_LISTED_LINKS}), then how many more there are and
 * the command (`listing`) that lists them all.
 */
function printCapped(items: readonly string[], listing: string): void {
  for (const item of items.slice(0, MAX_LISTED_LINKS)) console.log(yellow(`  ${item}`));
  const more = items.length - MAX_LISTED_LINKS;
  if (more > 0) console.log(yellow(`  … and ${more} more; every one: ${listing}`));
}

function printReport(
  report: ImportReport,
  folder: string,
  dryRun: boolean,
  { replacing, listing }: { replacing: string; listing: string },
): void {
  const { save, notPushed } = report;
  const verb = dryRun
    ? "Would import"
    : save || notPushed
    ? green("Imported")
    : "Nothing to import";
  const saved = save
    ? ` (${saveSummary(save)})`
    : notPushed
    ? ` (commit ${notPushed.commit.slice(0, 7)}, not pushed: see below)`
    : "";
  console.log(
    `${verb} from ${folder} (${report.kind}): ${report.added.length} added, ` +
      `${report.updated.length} updated, ${report.unchanged.length} unchanged${saved}`,
  );
  // A new entry's id is drawn when it is written, so a dry run has none to show yet: such an
  // entry is named by its title.
  const undrawn = new Map(
    dryRun
      ? report.changes.filter((change) => change.previousText === undefined)
        .map((change) => [change.entry.id, change.entry.title])
      : [],
  );
  const named = (ids: readonly string[]) =>
    ids.map((id) => undrawn.has(id) ? `"${undrawn.get(id)}"` : id).join(", ");
  for (const change of report.changes) {
    const drawn = !undrawn.has(change.entry.id);
    console.log(`  ${cyan(drawn ? change.entry.id : "new")} ${change.entry.title}`);
  }
  if (report.recovered.length) {
    console.log(yellow(
      `${dryRun ? "Would commit" : "Committed"} ` +
        `${plural(report.recovered.length, "entry", "entries")} an earlier import wrote but ` +
        `never committed (it was stopped): ${report.recovered.join(", ")}`,
    ));
  }
  if (report.editedHere.length) {
    const one = report.editedHere.length === 1;
    console.log(yellow(
      `${plural(report.editedHere.length, "entry", "entries")} edited in the knowledge base ` +
        `since ${one ? "its" : "their"} last import ${dryRun ? "would be" : one ? "is" : "are"} ` +
        `kept as ${one ? "it is" : "they are"}, not replaced by ${
          one ? "its note" : "their notes"
        }:`,
    ));
    for (const { id, title } of report.editedHere) console.log(yellow(`  ${id} ${title}`));
    console.log(yellow(`To take ${one ? "the note" : "the notes"} instead: ${replacing}`));
  }
  if (report.linksResolved) {
    console.log(`${plural(report.linksResolved, "link", "links")} resolved`);
  }
  if (report.indexes.length) {
    console.log(`Read for the summaries it lists, not imported: ${report.indexes.join(", ")}`);
  }
  if (report.kernel.length) {
    console.log(
      `${dryRun ? "Would make" : "Made"} kernel rules (alwaysApply): ${named(report.kernel)}`,
    );
  }
  if (report.kernelOverBudget.length) {
    console.log(yellow(
      `${dryRun ? "Would leave" : "Left"} as plain rules, the kernel budget being full: ` +
        named(report.kernelOverBudget),
    ));
  }
  const unresolved = report.unresolved.filter((link) => link.leftOut === undefined);
  if (unresolved.length) {
    console.log(
      yellow(`${plural(unresolved.length, "link names", "links name")} no note:`),
    );
    printCapped(unresolved.map((link) => `${link.sourcePath}: ${asWritten(link)}`), listing);
  }
  const toLeftOut = report.unresolved.filter((link) => link.leftOut !== undefined);
  if (toLeftOut.length) {
    console.log(yellow(
      `${plural(toLeftOut.length, "link names a note", "links name notes")} left out ` +
        "(see below), kept as written:",
    ));
    printCapped(
      toLeftOut.map((link) => `${link.sourcePath}: ${asWritten(link)} (${link.leftOut})`),
      listing,
    );
  }
  const { brought, copied, copiedBytes, missing } = report.attachments;
  const same = brought.length - copied.length;
  if (brought.length) {
    // Committed, the files stay in the knowledge base's history: their size is said.
    const said = [
      ...(copied.length ? [byteSize(copiedBytes)] : []),
      ...(same ? [`${same} already there as ${same === 1 ? "it is" : "they are"}`] : []),
    ];
    console.log(
      `${plural(copied.length, "embedded file", "embedded files")} ` +
        `${dryRun ? "would be copied" : "copied"} to attachments/` +
        (said.length ? ` (${said.join("; ")})` : ""),
    );
  }
  const embeds = missing.filter((file) => !file.linked);
  const links = missing.filter((file) => file.linked);
  for (
    const [files, heading] of [
      [embeds, `${plural(embeds.length, "embed", "embeds")} made plain text:`],
      [links, `${plural(links.length, "link", "links")} to files not brought, kept as written:`],
    ] as const
  ) {
    if (files.length) console.log(yellow(heading));
    for (const { path, target, reason } of files) {
      console.log(yellow(`  ${path}: ${target} (${reason})`));
    }
  }
  if (report.warnings.length) {
    console.log(yellow("Changed to fit the entry format, or read in part:"));
    for (const { path, warning } of report.warnings) console.log(yellow(`  ${path}: ${warning}`));
  }
  if (report.masked.length) {
    console.log(yellow(
      `${plural(report.masked.length, "credential", "credentials")} masked as ` +
        "[REDACTED:<kind>] (--allow-secret-in <path> keeps a note's):",
    ));
    for (const { path, line, kind, masked } of report.masked) {
      console.log(yellow(`  ${path}:${line}: ${SECRET_LABELS[kind]} (${masked})`));
    }
  }
  const others = report.leftOut.filter((file) => file.reason === NOT_MARKDOWN);
  if (others.length) {
    console.log(
      `${plural(others.length, "file that is not markdown", "files that are not markdown")} ` +
        `left out: ${byKind(others.map((file) => file.path))} (--json names each)`,
    );
  }
  const leftOut = report.leftOut.filter((file) => file.reason !== NOT_MARKDOWN);
  const files = leftOut.filter((file) => !file.path.endsWith("/"));
  // A note's file, or a section of one (`CLAUDE.md#setup`); else a link to an image, a folder.
  const isNote = (path: string) => NOTE_FILE.test(sourceFile(path)) || isAgentFile(path);
  for (
    const [list, one, many] of [
      [files.filter((file) => isNote(file.path)), "note", "notes"],
      [files.filter((file) => !isNote(file.path)), "other file", "other files"],
    ] as const
  ) {
    if (list.length) console.log(yellow(`${plural(list.length, one, many)} left out:`));
    for (const { path, reason } of list) console.log(yellow(`  ${path}: ${reason}`));
  }
  const folders = leftOut.filter((file) => file.path.endsWith("/"));
  if (folders.length) {
    console.log(yellow(`${plural(folders.length, "folder", "folders")} not read:`));
    for (const { path, reason } of folders) console.log(yellow(`  ${path}: ${reason}`));
  }
}

/** The most file name endings {@link byKind} names; the rest are counted together. */
const KINDS_SHOWN = 6;

/**
 * How many of `paths` end in each file name ending, most first, the first {@link KINDS_SHOWN} of
 * them and then the rest together (`252 .json, 7 .mjs, 3 with no ending, 4 others`).
 */
function byKind(paths: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const path of paths) {
    const name = path.slice(path.lastIndexOf("/") + 1);
    const dot = name.lastIndexOf(".");
    const kind = dot > 0 ? name.slice(dot).toLowerCase() : "with no ending";
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  const sorted = [...counts].sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  const shown = sorted.slice(0, KINDS_SHOWN).map(([kind, count]) => `${count} ${kind}`);
  const rest = sorted.slice(KINDS_SHOWN).reduce((sum, [, count]) => sum + count, 0);
  return [...shown, ...rest ? [`${rest} ${rest === 1 ? "other" : "others"}`] : []].join(", ");
}

/**
 * An unresolved link as the note writes it, to find it there: `[[name]]`, or a markdown link's
 * target after its text (`[…](gone.md#part)`).
 */
function asWritten(link: ImportReport["unresolved"][number]): string {
  return link.markdown ? `[…](${link.name})` : `[[${link.name}]]`;
}
