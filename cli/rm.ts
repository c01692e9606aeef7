/**
 * `git-kb rm <id>…`: delete entries through the save pipeline, in one commit. Refuses while
 * other entries link to them, unless `--force`, which names the links it leaves dangling.
 *
 * @module
 */
import { parseEntryText } from "../core/entry/entry.ts";
import { commandLines, EXIT, KbError } from "../core/exit.ts";
import { type Backlink, linksTo, type Mention } from "../io/save/backlinks.ts";
import { resolveKb } from "../io/config.ts";
import { type LocatedEntry, locateEntry } from "../io/kbs/locate.ts";
import { entryPathOf } from "../io/save/entry_files.ts";
import { saveChanges } from "../io/save/save.ts";
import { type CommandSpec, helpText, nonBlank, parseCommand, refuseBlankIds } from "./args.ts";
import { cyan, green, plural, printJson, yellow } from "./output.ts";
import {
  indexJson,
  indexSummary,
  printingUnpushed,
  printWarnings,
  saveSummary,
} from "./save_report.ts";
import type { ChangesResult } from "../io/save/request.ts";
import { readKbFile } from "../io/kb.ts";
import { kbCommand, removeLinksCommand } from "../io/self_command.ts";

/** The command: its usage, options and positionals. */
export const command = {
  usage: ["rm <id>... [options]"],
  about: `Delete entries: remove their files in one commit, push when there is a remote
and update the index. While other entries link to one of them, nothing is
removed unless --force, which deletes anyway and lists the links left dangling
(an entry with a dangling link must lose it before its next edit). A [[kb-…]]
mention of a deleted entry in another entry's text does not stop it (mentions
are plain text), but each is named, to edit by hand. Where several knowledge
bases are configured, the one that holds the ids is used (team:kb-7q2mx names
it); an id two of them hold is refused, and so are ids of different ones (one
commit holds one knowledge base's files).`,
  options: {
    force: { type: "boolean", help: "delete even when other entries link to it" },
    to: {
      type: "string",
      value: "<name>",
      help: "the configured knowledge base the entries are in (by default, the one that " +
        "holds them)",
      check: nonBlank("a knowledge base's name"),
    },
    json: {
      type: "boolean",
      help: "print {ids, paths, commit, push, index, dangling, mentions, warnings, kb?} as " +
        'JSON (commit "" and push null when no file was in git; kb {name, dir} when not ' +
        "the default; committed but not pushed, exit 3: {ids, paths, commit, push: " +
        '"not-pushed"})',
    },
  },
  positionals: { name: "<id>", min: 1 },
  notes: `Example:
  git-kb rm kb-7q2mx

Exit codes: 0 deleted, 1 unknown id, linked to (nothing removed) or failed,
2 usage error, 3 committed locally but not pushed (the message says how to finish).`,
} as const satisfies CommandSpec;

/** Help text. */
export const help: string = helpText(command);

/** Raised when other entries link to what would be deleted; nothing was removed. */
class LinkedError extends KbError {
  constructor(ids: string[], links: Backlink[], kbFlag: string[]) {
    super(
      `not removed: ${plural(links.length, "link points", "links point")} at ${ids.join(", ")}:` +
        describeLinks(links) +
        "\nRemove those links first, then delete:" +
        commandLines([...unlinkCommands(links, kbFlag), kbCommand("rm", ...ids, ...kbFlag)]) +
        "\nor delete anyway and leave them dangling:" +
        commandLines([kbCommand("rm", ...ids, "--force", ...kbFlag)]),
      EXIT.failed,
    );
    this.name = "LinkedError";
  }
}

/** One `edit` a linking entry, taking out its links to the entries being deleted. */
function unlinkCommands(links: Backlink[], kbFlag: string[]): string[] {
  const targetsByEntry = Map.groupBy(links, (link) => link.from);
  return [...targetsByEntry].map(([from, held]) =>
    removeLinksCommand(from, held.map((link) => link.to), kbFlag)
  );
}

function describeLinks(links: Backlink[]): string {
  return links.map(({ from, path, rel, to }) => `\n  ${from} (${path}) ${rel} ${to}`).join("");
}

function titleOf(text: string, path: string): string {
  try {
    return String(parseEntryText(text, path).fields.title ?? "");
  } catch {
    return "";
  }
}

/**
 * The knowledge base that holds every one of `typed` (ids, or `name:id`) and their plain ids.
 * Ids of different knowledge bases are refused: one commit holds the files of one repo.
 */
function locateAll(
  typed: readonly string[],
  args: readonly string[],
  options: { to?: string; kb?: string },
): { location: LocatedEntry["location"]; ids: string[]; named: boolean } {
  const located = typed.map((one) =>
    locateEntry(one, {
      ...options,
      command: (qualified) => kbCommand("rm", ...args.map((arg) => arg === one ? qualified : arg)),
    })
  );
  const byKb = Map.groupBy(located, (entry) => entry.location.kbDir);
  if (byKb.size > 1) {
    const groups = [...byKb.values()];
    throw new KbError(
      "not removed: the ids are in different knowledge bases (" +
        groups.map((group) =>
          `${group.map((entry) => entry.id).join(", ")} in ${group[0].location.name}`
        ).join("; ") +
        "), and one rm deletes in one commit of one of them; remove them one knowledge base " +
        "at a time:",
      EXIT.failed,
      groups.map((group) =>
        kbCommand("rm", ...group.map((entry) => entry.id), "--to", group[0].location.name!)
      ),
    );
  }
  return {
    location: located[0].location,
    ids: [...new Set(located.map((entry) => entry.id))],
    named: options.to !== undefined || located.some((entry, at) => entry.id !== typed[at]),
  };
}

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, command.options, command);
  const typed = [...new Set(positionals)];
  refuseBlankIds(typed);
  const { location: { kbDir, name }, ids, named } = locateAll(typed, args, values);
  const elsewhere = name !== undefined && kbDir !== resolveKb(values.kb).kbDir;
  const kbFlag = values.kb !== undefined
    ? ["--kb", kbDir]
    : named || elsewhere
    ? ["--to", name!]
    : [];
  const paths = ids.map((id) => entryPathOf(kbDir, id));
  const { links: dangling, mentions } = linksTo(kbDir, new Set(ids));
  if (dangling.length && !values.force) throw new LinkedError(ids, dangling, kbFlag);
  const changes = paths.map((path) => ({
    path,
    previousText: readKbFile(kbDir, path),
  }));
  const titles = changes.map(({ path, previousText }, at) =>
    `${ids[at]}: ${titleOf(previousText, path)}`
  );
  const place = elsewhere || named ? { kb: { name, dir: kbDir } } : {};
  const result = await printingUnpushed(
    values.json,
    { ids, paths, ...place },
    () => saveChanges({ kbDir, message: `kb: rm ${titles.join("; ")}`, changes }),
  );
  printWarnings(result);
  if (values.json) {
    printJson({
      ids,
      ...result,
      push: result.commit ? result.push : null,
      index: indexJson(result.index),
      dangling,
      mentions,
      ...place,
    });
    return 0;
  }
  if (dangling.length) {
    console.error(
      yellow(
        `warning: left ${plural(dangling.length, "dangling link", "dangling links")}:${
          describeLinks(dangling)
        }\nAn entry's next edit is refused until it loses the link; take them out with:`,
      ) + commandLines(unlinkCommands(dangling, kbFlag)),
    );
  }
  if (mentions.length) console.error(yellow(mentionsWarning(mentions)));
  const where = elsewhere || named ? ` from the knowledge base "${name}" (${kbDir})` : "";
  console.log(
    `${green("Removed")} ${ids.map((id) => cyan(id)).join(", ")}${where} (${
      result.commit ? saveSummary(result) : neverCommitted(paths, result)
    })`,
  );
  return 0;
}

/**
 * The line's part for a delete that made no commit: no file was in git (written by hand and never
 * committed), so git holds no copy and there was nothing to commit or push.
 */
function neverCommitted(paths: readonly string[], result: ChangesResult): string {
  return `${paths.length === 1 ? "its file was" : "their files were"} never committed, so ` +
    `git keeps no copy and there was nothing to commit or push; ${indexSummary(result.index)}`;
}

/** The mentions left naming no entry, one a line, with the file to edit. */
function mentionsWarning(mentions: Mention[]): string {
  return `warning: ${
    plural(mentions.length, "mention", "mentions")
  } in the text of other entries now ${mentions.length === 1 ? "names" : "name"} no entry:` +
    mentions.map(({ from, path, to }) => `\n  ${from} (${path}) mentions [[${to}]]`).join("");
}
