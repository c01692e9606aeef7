/**
 * `git-kb add`: create an entry through the save pipeline, from flags or in the editor.
 *
 * @module
 */
import { entryTemplate, readDraft } from "../core/entry/draft.ts";
import type { Entry } from "../core/entry/entry.ts";
import { resolveKbNamed } from "../io/config.ts";
import { editUntilValid } from "../io/editor.ts";
import type { SaveRequest } from "../io/save/request.ts";
import { ValidationError } from "../io/save/validate.ts";
import { filesOfId } from "../io/save/entry_files.ts";
import { type CommandSpec, helpText, parseCommand, UsageError } from "./args.ts";
import {
  checkAndSave,
  entryProblems,
  keepingStdin,
  newEntry,
  newEntryRequest,
  printSameTitleNotes,
  printSupersededNotes,
  saveDraft,
} from "./entry_save.ts";
import {
  allowSecretArgs,
  allowSecretFlag,
  bodyFromFlags,
  editsFromFlags,
  ENTRY_OPTIONS,
  type FromBodyFile,
  fromBodyFile,
  hasFieldFlags,
  readTextArgument,
} from "./entry_flags.ts";
import { reportingUnpushed, reportSave } from "./save_report.ts";
import { kbCommand } from "../io/self_command.ts";

/** The command: its usage, options and positionals. */
export const command = {
  usage: ["add --title <text> --type <type> [options]", "add --edit [options]"],
  about: `Create an entry: validate it, write entries/<id>-<slug>.md, commit it, push when
there is a remote (NO_REMOTE otherwise) and update the index. Invalid input is
reported field by field and nothing is written.

With --edit, $VISUAL/$EDITOR opens on a template of the whole entry (the flags
fill it in; every flag is checked before the editor opens). When what you saved
is not valid, the editor reopens with the problems at the top (on a terminal);
otherwise your text is kept in a draft file and the command to carry on is
printed: git-kb add --from-draft <file>. A body piped on stdin (--body-file -)
is kept in a draft too when the save fails.

A --body-file that opens with a frontmatter block (--- lines) gives the entry's
fields the flags leave out (a flag given wins); the body is the text after it.

After the save, a note: line on stderr names each other active entry with the
same title, with the rm and edit lines for when the new one repeats it; another
says so when the entry has no body, with the edit that writes one.`,
  options: {
    ...ENTRY_OPTIONS,
    id: {
      type: "string",
      value: "<id>",
      help: "use this id instead of a new random one (kb-xxxxx)",
    },
    edit: {
      type: "boolean",
      help: "write the entry in $VISUAL/$EDITOR (--title, --type optional)",
    },
    to: {
      type: "string",
      value: "<name>",
      help: "save to the configured knowledge base of this name (default: " +
        "the default one; see git-kb init --name)",
    },
    "from-draft": {
      type: "string",
      value: "<file>",
      help: "carry on with a draft kept by an earlier --edit (no field flags)",
    },
  },
  notes: `Example:
  git-kb add --title "Rotate a leaked npm token" --type howto --tag security,npm \\
    --alias "token leak" --body-file notes.md

Exit codes: 0 saved, 1 invalid or failed (nothing written), 2 usage error,
3 committed locally but not pushed (the message says how to finish).`,
} as const satisfies CommandSpec;

/** Help text. */
export const help: string = helpText(command);

/** The title checked before the editor opens when the flags give none: the template asks. */
const TITLE_TO_FILL_IN = "Title to fill in";

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, command.options);
  if (positionals.length) {
    throw new UsageError(
      `unexpected argument "${positionals[0]}"; the title goes in --title "<text>"`,
    );
  }
  const fromDraft = values["from-draft"];
  if (fromDraft !== undefined && (hasFieldFlags(values) || values.id !== undefined)) {
    throw new UsageError("--from-draft takes the whole entry from the draft; give no field flags");
  }
  const editing = values.edit || fromDraft !== undefined;
  const body = await bodyFromFlags(values);
  // A body file that opens with frontmatter gives the fields the command line leaves out.
  const file = values["body-file"] === undefined || body === undefined
    ? undefined
    : fromBodyFile(values, body);
  const given = file?.values ?? values;
  if (!editing && !given.title) throw new UsageError("--title is required (or use --edit)");
  if (!editing && !given.type) {
    throw new UsageError("--type is required (decision, rule, howto, concept, bookmark, note)");
  }
  if (file?.note) console.error(file.note);
  const { kbDir, name } = resolveKbNamed(values.to, values.kb);
  // Named with --to: the line and the JSON say which knowledge base the entry went to.
  const place = values.to === undefined ? undefined : `the knowledge base "${name}" (${kbDir})`;
  const placeDetails = values.to === undefined ? {} : { kb: { name, dir: kbDir } };
  const kbFlag = values.kb !== undefined
    ? ["--kb", kbDir]
    : values.to !== undefined
    ? ["--to", values.to]
    : [];
  const allowSecret = await allowSecretFlag(kbDir, values["allow-secret"]);
  const edits = editsFromFlags(given, file?.body ?? body);
  const chosenId = file ? file.entry.id : values.id;
  const entry = withFileFields(newEntry(kbDir, edits, chosenId), file);
  // An id the user chose may be held by a file whose name does not carry it (a note written by
  // hand): the save checks names only, and the index would serve neither.
  const holder = chosenId === undefined ? undefined : filesOfId(kbDir, chosenId)[0];
  if (holder !== undefined) {
    throw new ValidationError(`Entry ${chosenId}`, [{
      field: "id",
      message: `${chosenId} is already used by ${holder}; ids are never reused`,
    }]);
  }
  const resume = (path: string) =>
    kbCommand("add", "--from-draft", path, ...kbFlag, ...allowSecretArgs(allowSecret));
  if (!editing) {
    const request = newEntryRequest(kbDir, entry, allowSecret);
    const saved = await reportingUnpushed(
      values.json,
      request,
      () =>
        keepingStdin(
          values["body-file"] === "-",
          // An id the user did not choose would only puzzle them.
          () =>
            checkAndSave(
              request,
              chosenId === undefined ? "The new entry" : `Entry ${entry.id}`,
            ),
          { name: entry.id, text: () => entryTemplate(entry), resume },
        ),
    );
    reportSave("Added", saved, values.json, placeDetails, place);
    printEmptyBodyNote(entry, kbFlag);
    printSupersededNotes(kbDir, entry, kbFlag);
    await printSameTitleNotes(kbDir, entry, kbFlag);
    return 0;
  }
  const placeholder = { ...entry, title: entry.title || TITLE_TO_FILL_IN };
  const flagProblems = await entryProblems(newEntryRequest(kbDir, placeholder, allowSecret));
  if (flagProblems.length) {
    throw new ValidationError(
      "The entry the flags describe (the editor was not opened)",
      flagProblems,
    );
  }
  const draft = await editUntilValid<SaveRequest>({
    text: fromDraft === undefined
      ? entryTemplate(entry)
      : await readTextArgument(fromDraft, "--from-draft"),
    from: fromDraft,
    name: entry.id,
    what: "The new entry",
    check: async (text) => {
      const { entry: typed, problems } = readDraft(text, "the new entry");
      if (!typed) return { problems };
      const request = newEntryRequest(kbDir, typed, allowSecret);
      return { value: request, problems: await entryProblems(request) };
    },
    resume,
  });
  const saved = await reportingUnpushed(
    values.json,
    draft.value,
    () => saveDraft(draft, draft.value),
  );
  reportSave("Added", saved, values.json, placeDetails, place);
  printEmptyBodyNote(draft.value.entry, kbFlag);
  printSupersededNotes(kbDir, draft.value.entry, kbFlag);
  await printSameTitleNotes(kbDir, draft.value.entry, kbFlag);
  return 0;
}

/**
 * A `note:` line on stderr when `entry` was saved with no body, only its title: kept (a title may
 * say it all), but said, with the edit that writes one.
 */
function printEmptyBodyNote(entry: Entry, kbFlag: string[]): void {
  if (entry.body.trim()) return;
  console.error(
    `note: ${entry.id} has a title and no body; write one in your editor: ` +
      kbCommand("edit", entry.id, ...kbFlag),
  );
}

/** `entry` with the dates and the fields outside the contract a body file's frontmatter gave. */
function withFileFields(entry: Entry, file: FromBodyFile | undefined): Entry {
  if (!file) return entry;
  const { created, updated, extra } = file.entry;
  return {
    ...entry,
    created: created ?? entry.created,
    updated: updated ?? entry.updated,
    extra: { ...extra, ...entry.extra },
  };
}
