/**
 * `git-kb edit <id>`: change an entry through the save pipeline, by flags or in the editor.
 * Unknown frontmatter fields and the body's formatting are kept as they are.
 *
 * @module
 */
import {
  type Entry,
  EntryParseError,
  parseEntryText,
  serializeEntry,
  toEntry,
} from "../core/entry/entry.ts";
import { problemNotes, readDraft, withNotes } from "../core/entry/draft.ts";
import { formatListChanges, listChanges, type ListField } from "../core/entry/edit.ts";
import { locateEntry } from "../io/kbs/locate.ts";
import { type DraftCheck, editUntilValid } from "../io/editor.ts";
import { entryPaths } from "../io/save/entry_files.ts";
import type { SaveResult } from "../io/save/request.ts";
import {
  type CommandSpec,
  helpText,
  nonBlank,
  parseCommand,
  refuseBlankIds,
  UsageError,
} from "./args.ts";
import {
  checkEditAndSave,
  editProblems,
  entryToEdit,
  keepingStdin,
  planEdit,
  planFieldEdit,
  type PlannedEdit,
  printSupersededNotes,
  readRepairable,
  saveDraft,
  vainRemovalNotes,
  withoutGoneLinks,
} from "./entry_save.ts";
import {
  allowSecretArgs,
  allowSecretFlag,
  bodyFromFlags,
  editFromBodyFile,
  editsFromFlags,
  ENTRY_OPTIONS,
  hasFieldFlags,
  LIST_EDIT_OPTIONS,
  readTextArgument,
} from "./entry_flags.ts";
import { printJson } from "./output.ts";
import { reportingUnpushed, reportSave } from "./save_report.ts";
import { kbCommand } from "../io/self_command.ts";

/** The command: its usage, options and positionals. */
export const command = {
  usage: ["edit <id> [options]"],
  about: `Change an entry. Flags set the fields they name; list flags (--tag, --alias,
--applies-to, --link) ADD to the entry's list, --remove-… and --clear-… take
out; everything else is kept, unknown frontmatter fields included. The output
names the list items added (+) and removed (-).

With no field flags, the whole file opens in $VISUAL/$EDITOR (any program that
edits the file it is given, terminal or not); a hand-written entry with a
repairable problem opens repaired, the repairs noted at the top, so saving it
saves them. When what you saved is not valid,
the editor reopens with the problems at the top (on a terminal); otherwise your
text is kept in a draft file and the command to carry on is printed:
git-kb edit <id> --from-draft <file>. With no editor set: exit 2. An entry
removed while it was open is not brought back: the draft is kept, and the
command printed is git-kb add --from-draft <file>. A body piped on stdin
(--body-file -) is kept in a draft too when the save fails.

A --body-file that opens with a frontmatter block (the entry as get prints it,
edited) sets each field it gives that no flag touches, a list whole; the body is
the text after it. A block of another entry's id is refused.

The result goes through the same save pipeline as add: validate, write, commit,
push, reindex.`,
  options: {
    ...ENTRY_OPTIONS,
    ...LIST_EDIT_OPTIONS,
    to: {
      type: "string",
      value: "<name>",
      help: "the configured knowledge base the entry is in (by default, the " +
        "one that holds the id; team:kb-xxxxx names it too)",
      check: nonBlank("a knowledge base's name"),
    },
    "from-draft": {
      type: "string",
      value: "<file>",
      help: "carry on with a draft kept by an earlier edit (no field flags)",
    },
  },
  positionals: { name: "<id>", min: 1, max: 1 },
  notes: `Exit codes: 0 saved or nothing to change, 1 invalid or failed, 2 usage error,
3 committed locally but not pushed.`,
} as const satisfies CommandSpec;

/** Help text. */
export const help: string = helpText(command);

/** The entry as it is on disk, or undefined when the file is not a valid entry. */
function readCurrent(text: string, path: string): Entry | undefined {
  try {
    return toEntry(parseEntryText(text, path)).entry;
  } catch (error) {
    if (error instanceof EntryParseError) return undefined;
    throw error;
  }
}

/**
 * The text the editor opens on: the file as it is when it follows the contract, or when it
 * cannot be read as an entry at all (the person fixes it); else the entry written to the
 * contract, with the repairs named in notes at the top, so saving it unchanged saves them.
 */
function editorText(text: string, path: string, id: string, current: Entry | undefined): string {
  if (current) return text;
  const { entry, repairs } = readRepairable(text, path, id);
  if (!entry) return text;
  const heading = `${id} was repaired to the entry contract; saving keeps these repairs:`;
  return withNotes(serializeEntry(entry), problemNotes(heading, repairs));
}

function report(
  plan: PlannedEdit,
  result: SaveResult,
  json: boolean | undefined,
  kbFlag: string[],
): void {
  const lists = plan.before ? listChanges(plan.before, plan.request.entry) : [];
  reportSave("Edited", result, json, { changed: plan.changed, lists });
  if (!json && result.commit) {
    for (const line of formatListChanges(lists)) console.log(`  ${line}`);
  }
  if (result.commit) printSupersededNotes(plan.request.kbDir, plan.request.entry, kbFlag);
}

/** The flag that takes an item out of each list field. */
const REMOVE_FLAGS: Record<ListField, string> = {
  tags: "--remove-tag",
  aliases: "--remove-alias",
  applies_to: "--remove-applies-to",
  links: "--remove-link",
};

function reportNoChange(id: string, path: string, json: boolean | undefined): number {
  if (json) printJson({ id, path, changed: false });
  else console.log(`No changes to ${id}; nothing committed.`);
  return 0;
}

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, command.options, command);
  const [typed] = positionals;
  refuseBlankIds(positionals);
  const fromDraft = values["from-draft"];
  const fieldFlags = hasFieldFlags(values);
  if (fromDraft !== undefined && fieldFlags) {
    throw new UsageError("--from-draft takes the whole entry from the draft; give no field flags");
  }
  const { location: { kbDir, name }, id } = locateEntry(typed, {
    to: values.to,
    kb: values.kb,
    command: (qualified) =>
      kbCommand("edit", ...args.map((arg) => arg === typed ? qualified : arg)),
  });
  const kbFlag = values.kb !== undefined
    ? ["--kb", kbDir]
    : values.to !== undefined || typed !== id
    ? ["--to", name!]
    : [];
  const allowSecret = await allowSecretFlag(kbDir, values["allow-secret"]);
  const target = entryToEdit(kbDir, id);
  const { path, previousText } = target;
  // An entry removed meanwhile is no longer there to edit: adding the draft brings it back.
  const resume = (draftPath: string) => {
    const command = entryPaths(kbDir).has(id) ? ["edit", id] : ["add"];
    return kbCommand(
      ...command,
      "--from-draft",
      draftPath,
      ...kbFlag,
      ...allowSecretArgs(allowSecret),
    );
  };
  if (fieldFlags) {
    const body = await bodyFromFlags(values);
    // A body file that opens with frontmatter (an entry as get prints it) gives its fields too.
    const file = values["body-file"] === undefined || body === undefined
      ? undefined
      : editFromBodyFile(values, body, id);
    if (file?.note) console.error(file.note);
    const edits = editsFromFlags(file?.values ?? values, file?.body ?? body);
    const plan = planFieldEdit(target, edits, allowSecret);
    if (plan.before) {
      const notes = vainRemovalNotes(id, plan.before, edits, (field) => REMOVE_FLAGS[field]);
      for (const note of notes) console.error(`note: ${note}`);
    }
    if (!plan.changed.length) return reportNoChange(id, path, values.json);
    const saved = await reportingUnpushed(
      values.json,
      plan.request,
      () =>
        keepingStdin(
          values["body-file"] === "-",
          () => checkEditAndSave(plan, `Entry ${id}`, kbFlag),
          { name: id, text: () => serializeEntry(withoutGoneLinks(plan)), resume },
        ),
    );
    report(plan, saved, values.json, kbFlag);
    return 0;
  }
  const before = readCurrent(previousText, path);
  const draft = await editUntilValid<PlannedEdit | undefined>({
    text: fromDraft === undefined
      ? editorText(previousText, path, id, before)
      : await readTextArgument(fromDraft, "--from-draft"),
    from: fromDraft,
    name: id,
    what: `Entry ${id}`,
    check: async (text): Promise<DraftCheck<PlannedEdit | undefined>> => {
      const { entry, problems } = readDraft(text, path);
      if (!entry) return { problems };
      if (entry.id !== id) {
        return { problems: [{ field: "id", message: `ids never change; keep id: ${id}` }] };
      }
      const plan = planEdit(kbDir, path, previousText, before, entry, allowSecret);
      if (!plan.changed.length) return { value: undefined, problems: [] };
      return { value: plan, problems: (await editProblems(plan)).problems };
    },
    resume,
  });
  const plan = draft.value;
  if (!plan) {
    draft.discard();
    return reportNoChange(id, path, values.json);
  }
  const saved = await reportingUnpushed(
    values.json,
    plan.request,
    () => saveDraft(draft, plan.request),
  );
  report(plan, saved, values.json, kbFlag);
  return 0;
}
