/**
 * `git-kb promote <id> --to <name>`: copy an entry into another configured knowledge base
 * through the save pipeline, then mark the original superseded by the copy (core/kbs/promote.ts
 * says what each side gets). Two saves, two commits, two pushes; a failure between them says
 * what was done and the command that finishes (promote again: it finds the copy it made).
 *
 * @module
 */
import {
  type Entry,
  type Link,
  linksToNoEntry,
  parseEntryText,
  toEntry,
} from "../core/entry/entry.ts";
import { commitMessage, entryFileName } from "../core/entry/edit.ts";
import {
  carriedLinks,
  embeddedAttachments,
  missingLinks,
  PROMOTED_FROM,
  promotedCopy,
  relinkedBody,
  SUPERSEDED_BY,
  supersededOriginal,
} from "../core/kbs/promote.ts";
import { qualifyId } from "../core/kbs/qualified.ts";
import { EXIT, KbError } from "../core/exit.ts";
import { displaySafe } from "../core/text/display.ts";
import { type KbLocation, nameFromDir, resolveKbNamed } from "../io/config.ts";
import { realPathOr } from "../io/disk.ts";
import { ENTRIES_DIR, readKbFile } from "../io/kb.ts";
import { waitsForAcceptance } from "../io/kernel/acceptance.ts";
import { locateEntry } from "../io/kbs/locate.ts";
import { attachmentsToCopy } from "../io/save/attachments.ts";
import { entryPathOf, entryPaths, newId } from "../io/save/entry_files.ts";
import { KEPT_TO_FINISH, PushError } from "../io/save/publish.ts";
import type { SaveResult } from "../io/save/request.ts";
import { ValidationError } from "../io/save/validate.ts";
import {
  type CommandSpec,
  helpText,
  nonBlank,
  parseCommand,
  refuseBlankIds,
  UsageError,
} from "./args.ts";
import { checkAndSave } from "./entry_save.ts";
import { today } from "./entry_flags.ts";
import { cyan, green, printJson, yellow } from "./output.ts";
import { indexJson, printWarnings, saveSummary } from "./save_report.ts";
import { kbCommand, removeLinksCommand } from "../io/self_command.ts";

/** The command: its usage, options and positionals. */
export const command = {
  usage: ["promote <id> --to <name> [options]"],
  about: `Copy an entry into another configured knowledge base (a personal note made a
team one), through the save pipeline: the copy gets a new id (so that no id is in
two knowledge bases), and links to entries the target lacks are dropped from it
and named; so are the [[id]] mentions of its body (left as plain name:id text).
The files under attachments/ it embeds are copied with it. Then the original is
marked superseded, with superseded_by naming the copy (and the copy's
promoted_from naming the original). Each side is its own commit and push.
Promoting it again, once a linked or mentioned entry has been promoted too, adds
those links to the copy and makes those plain ids mentions of their copies.`,
  options: {
    to: {
      type: "string",
      value: "<name>",
      help: "the configured knowledge base to copy the entry into (required)",
      check: nonBlank("a knowledge base's name"),
    },
    json: {
      type: "boolean",
      help: "print {from, copy, copied, relinked, marked, dropped, unlinked, " +
        "attachmentsLeft} as JSON (each of copied, relinked, marked: the save's {id, path, " +
        "commit, push, warnings, index}, or null when it had nothing to do; committed but " +
        'not pushed, exit 3: {id, path, commit, push: "not-pushed"})',
    },
  },
  positionals: { name: "<id>", min: 1, max: 1 },
  notes: `The id may name its knowledge base (personal:kb-7q2mx); by default the one
holding it is used. Exit codes: 0 promoted, 1 invalid or failed (the message says
what was saved and how to finish), 2 usage error, 3 committed but not pushed.`,
} as const satisfies CommandSpec;

/** Help text. */
export const help: string = helpText(command);

/** A link of the original that the copy does not carry, with its target's title. */
interface DroppedLink {
  rel: string;
  to: string;
  title?: string;
}

function readEntry(kbDir: string, path: string, what: string): { entry: Entry; text: string } {
  const text = readKbFile(kbDir, path);
  const { entry, problems } = toEntry(parseEntryText(text, path));
  if (!entry || problems.length) throw new ValidationError(what, problems);
  return { entry, text };
}

/** The copies in `kbDir`: the id of each entry promoted from another, by its `promoted_from`. */
function copiesIn(kbDir: string, paths: Map<string, string>): Map<string, string> {
  const copies = new Map<string, string>();
  for (const [id, path] of paths) {
    let text: string;
    try {
      text = readKbFile(kbDir, path);
    } catch {
      continue;
    }
    if (!text.includes(PROMOTED_FROM)) continue;
    try {
      const from = toEntry(parseEntryText(text, path)).entry?.extra[PROMOTED_FROM];
      if (typeof from === "string" && !copies.has(from)) copies.set(from, id);
    } catch { /* not an entry: doctor's to report */ }
  }
  return copies;
}

function nameOf(location: KbLocation): string {
  return location.name ?? nameFromDir(location.kbDir);
}

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, command.options, command);
  const to = values.to;
  if (!to) throw new UsageError("--to <name> is required: the knowledge base to copy it into");
  const [typed] = positionals;
  refuseBlankIds(positionals);
  const source = locateEntry(typed, {
    kb: values.kb,
    command: (qualified) => kbCommand("promote", qualified, "--to", to),
  });
  const target = resolveKbNamed(to, values.kb);
  const { kbDir } = source.location;
  if (realPathOr(kbDir) === realPathOr(target.kbDir)) {
    throw new UsageError(`${typed} is in ${to} already; name another knowledge base with --to`);
  }
  const sourceName = nameOf(source.location);
  const from = qualifyId(sourceName, source.id);
  const finish = kbCommand("promote", from, "--to", to);
  const path = entryPathOf(kbDir, source.id);
  const { entry: original, text } = readEntry(kbDir, path, `Entry ${from} (${path})`);
  const sourcePaths = entryPaths(kbDir);
  const targetPaths = entryPaths(target.kbDir);
  const copies = copiesIn(target.kbDir, targetPaths);
  const found = copies.get(from);
  // A link goes to the linked entry's copy when it was promoted, else to the same id there.
  const targetIdOf = (id: string) =>
    copies.get(qualifyId(sourceName, id)) ?? (targetPaths.has(id) ? id : undefined);
  if (!found && original.status !== "active") {
    throw new UsageError(
      `${from} is ${original.status}, not active; promote the entry that is in force instead`,
    );
  }
  // A link to an entry gone since (`rm --force`) would fail the original's save after the copy's:
  // refused before either, with the lines that take the link out and promote.
  const gone = [...linksToNoEntry(original, sourcePaths).values()];
  if (gone.length) {
    throw new KbError(
      `${from} links to ${gone.join(", ")}, which ${sourceName} has ` +
        "no entry of (deleted since?); nothing was changed. Take the links out, then promote:",
      EXIT.failed,
      [removeLinksCommand(from, gone), finish],
    );
  }
  // A new id: the original keeps its own, and an id held by two knowledge bases is ambiguous.
  const copyId = found ?? newId(new Map([...targetPaths, ...sourcePaths]));
  const copyName = qualifyId(to, copyId);
  const droppedOf = (links: Link[]): DroppedLink[] =>
    links.map((link) => ({ ...link, title: titleOf(kbDir, sourcePaths.get(link.to)) }));
  let dropped: DroppedLink[] = [];
  let unlinked: string[] = [];
  let attachmentsLeft: { path: string; reason: string }[] = [];
  let copied: SaveResult | undefined;
  let relinked: SaveResult | undefined;
  // With --json, a save committed but not pushed (exit 3) still prints what stands, as add does.
  const printNotPushed = (saves: { copied: object | null; marked: object | null }) => {
    if (!values.json) return;
    printJson({
      from,
      copy: copyName,
      copied: saves.copied,
      relinked: saveJson(relinked),
      marked: saves.marked,
      dropped,
      unlinked,
      attachmentsLeft,
    });
  };
  if (found) {
    const carried = carriedLinks(original.links, targetIdOf);
    dropped = droppedOf(carried.dropped);
    relinked = await carryNewLinks(target.kbDir, targetPaths, found, copyName, {
      links: carried.links,
      body: (body) => relinkedBody(body, sourceName, targetIdOf),
    });
  } else {
    const qualified = (id: string) => qualifyId(sourceName, id);
    const plan = promotedCopy(original, {
      id: copyId,
      from,
      today: today(),
      targetIdOf,
      qualified,
    });
    dropped = droppedOf(plan.dropped);
    unlinked = plan.unlinked.map(qualified);
    const attachments = attachmentsToCopy(
      kbDir,
      target.kbDir,
      embeddedAttachments(plan.copy.body),
    );
    attachmentsLeft = attachments.left;
    // The copy of a rule that waits for acceptance (a teammate's) waits too: its words are theirs.
    const waits = waitsForAcceptance(original);
    const request = {
      kbDir: target.kbDir,
      entry: plan.copy,
      path: `${ENTRIES_DIR}/${entryFileName(plan.copy)}`,
      message: `${commitMessage(plan.copy)} (promoted from ${from})`,
      files: attachments.files,
      othersWords: waits,
    };
    try {
      copied = await checkAndSave(request, `The copy of ${from} for ${to}`);
      if (waits) {
        copied.warnings.push(
          `${copyName} is a kernel rule that waits for your acceptance, as ${from} did: its body ` +
            `is words you have not accepted; read it, and accept it there: ${kbCommand("kernel")}`,
        );
      }
    } catch (error) {
      if (!(error instanceof PushError)) throw error;
      printNotPushed({
        copied: { id: copyId, path: request.path, commit: error.commit, push: "not-pushed" },
        marked: null,
      });
      // Said before the commands that finish, which follow the message's first line.
      const state = `The copy ${copyName} is committed in ${target.kbDir} but not pushed, and ` +
        `${from} is not marked superseded yet. ${KEPT_TO_FINISH}`;
      throw new PushError(
        error.message.split("\n")[0].replace(KEPT_TO_FINISH, state),
        error.commit,
        [...error.commands, finish],
      );
    }
  }
  let marked: SaveResult | undefined;
  if (original.extra[SUPERSEDED_BY] !== copyName || original.status !== "superseded") {
    const entry = supersededOriginal(original, copyName, today());
    const request = {
      kbDir,
      entry,
      path,
      previousText: text,
      message: `${commitMessage(entry, ["status", SUPERSEDED_BY])}: superseded by ${copyName}`,
    };
    const saved = `${copyName} is saved${copied ? ` (commit ${copied.commit.slice(0, 7)})` : ""}`;
    try {
      marked = await checkAndSave(request, `Entry ${from}`);
    } catch (error) {
      // Marked but not pushed: the message still says the copy is there.
      if (error instanceof PushError) {
        printNotPushed({
          copied: saveJson(copied),
          marked: { id: original.id, path, commit: error.commit, push: "not-pushed" },
        });
        throw new PushError(
          `${saved}; marking ${from} superseded by it: ${error.message.split("\n")[0]}`,
          error.commit,
          error.commands,
        );
      }
      throw new Error(
        `${saved}, but marking ${from} superseded by it failed: ${(error as Error).message}\n` +
          `Finish with: ${finish}`,
        { cause: error },
      );
    }
  }
  report({
    from,
    copyName,
    copied,
    relinked,
    marked,
    dropped,
    unlinked,
    attachmentsLeft,
    to,
    sourceName,
    sourceIds: sourcePaths,
    json: values.json,
  });
  return 0;
}

/**
 * Add to the copy `copyId` in the target the carried links it lacks (those to entries promoted
 * since it was made), and make the plain ids its body names of such entries mentions again
 * (`carried.body`); undefined when nothing changes.
 */
async function carryNewLinks(
  targetDir: string,
  targetPaths: Map<string, string>,
  copyId: string,
  copyName: string,
  carried: { links: Link[]; body: (body: string) => { body: string; relinked: string[] } },
): Promise<SaveResult | undefined> {
  const path = targetPaths.get(copyId) ?? entryPathOf(targetDir, copyId);
  const { entry: copy, text } = readEntry(targetDir, path, `The copy ${copyName} (${path})`);
  const added = missingLinks(copy.links, carried.links);
  const { body, relinked } = carried.body(copy.body);
  if (!added.length && !relinked.length) return undefined;
  const entry = { ...copy, links: [...copy.links, ...added], body, updated: today() };
  const fields = [...added.length ? ["links"] : [], ...relinked.length ? ["body"] : []];
  return await checkAndSave(
    {
      kbDir: targetDir,
      entry,
      path,
      previousText: text,
      message: `${commitMessage(entry, fields)}: link ${
        [...new Set([...added.map((link) => link.to), ...relinked])].join(", ")
      }`,
    },
    `The copy ${copyName}`,
  );
}

function titleOf(kbDir: string, path: string | undefined): string | undefined {
  if (!path) return undefined;
  try {
    return toEntry(parseEntryText(readKbFile(kbDir, path), path)).entry?.title;
  } catch {
    return undefined;
  }
}

/** A save as `--json` prints it (as add and edit print theirs), or null when none was made. */
function saveJson(result: SaveResult | undefined): object | null {
  return result ? { ...result, index: indexJson(result.index) } : null;
}

function report(done: {
  from: string;
  copyName: string;
  copied?: SaveResult;
  relinked?: SaveResult;
  marked?: SaveResult;
  dropped: DroppedLink[];
  /** Entries the body mentioned that the target lacks, now plain qualified ids. */
  unlinked: string[];
  /** Attachments the body embeds that were not copied, and why. */
  attachmentsLeft: { path: string; reason: string }[];
  to: string;
  sourceName: string;
  /** The ids the source knowledge base holds an entry of. */
  sourceIds: ReadonlyMap<string, string>;
  json?: boolean;
}): void {
  const { from, copyName, copied, relinked, marked, dropped, unlinked, attachmentsLeft, to } = done;
  if (done.json) {
    printJson({
      from,
      copy: copyName,
      copied: saveJson(copied),
      relinked: saveJson(relinked),
      marked: saveJson(marked),
      dropped,
      unlinked,
      attachmentsLeft,
    });
    return;
  }
  for (const result of [copied, relinked, marked]) if (result) printWarnings(result);
  console.log(
    copied
      ? `${green("Copied")} ${cyan(from)} to ${cyan(copyName)} ${copied.path} (${
        saveSummary(copied)
      })`
      : `${cyan(copyName)} is already the copy of ${cyan(from)}`,
  );
  if (relinked) {
    console.log(
      `${green("Linked")} ${cyan(copyName)} to the copies of entries promoted since (${
        saveSummary(relinked)
      })`,
    );
  }
  console.log(
    marked
      ? `${green("Marked")} ${cyan(from)} superseded by ${copyName} (${saveSummary(marked)})`
      : `${cyan(from)} is already marked superseded by ${copyName}`,
  );
  for (const link of dropped) {
    const title = link.title ? ` (${displaySafe(link.title)})` : "";
    console.log(
      `${yellow("!")} link ${link.rel} → ${link.to}${title} left out of the copy: ${to} has no ` +
        `copy of ${link.to}; to carry it, promote that entry too, then this one again (which ` +
        `adds the link): ${kbCommand("promote", qualifyId(done.sourceName, link.to), "--to", to)}` +
        ` && ${kbCommand("promote", from, "--to", to)}`,
    );
  }
  for (const name of unlinked) {
    const id = name.slice(done.sourceName.length + 1);
    if (!done.sourceIds.has(id)) {
      console.log(
        `${yellow("!")} the copy names ${name} as plain text: ${done.sourceName} has no entry ` +
          `${id} (deleted since?), so there is nothing of it to promote`,
      );
      continue;
    }
    const carriedBy = dropped.some((link) => qualifyId(done.sourceName, link.to) === name)
      ? "the line above"
      : `${kbCommand("promote", name, "--to", to)} && ${kbCommand("promote", from, "--to", to)}`;
    console.log(
      `${yellow("!")} the copy names ${name} as plain text, not as a [[mention]]: ${to} has no ` +
        `copy of it; promoting it, then this one again, makes it one: ${carriedBy}`,
    );
  }
  for (const { path, reason } of attachmentsLeft) {
    console.log(`${yellow("!")} ${displaySafe(path)} not copied: ${reason}`);
  }
}
