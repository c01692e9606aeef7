/**
 * `git-kb add`: create an entry through the save pipeline.
 *
 * @module
 */
import { blankEntry } from "../core/entry.ts";
import { resolveKb } from "../io/config.ts";
import { editInEditor } from "../io/editor.ts";
import { entryPaths, newId, saveEntry, slugify } from "../io/save.ts";
import { parseCommand, UsageError } from "./args.ts";
import {
  applyFieldFlags,
  bodyFromFlags,
  ENTRY_FLAGS_HELP,
  ENTRY_OPTIONS,
  today,
} from "./entry_flags.ts";
import { reportSave } from "./save_report.ts";

/** Help text. */
export const help = `Usage: git-kb add --title <text> --type <type> [options]

Create an entry: validate it, write entries/<id>-<slug>.md, commit it, push when
there is a remote (NO_REMOTE otherwise) and update the index. Invalid input is
reported field by field and nothing is written.

Options:
${ENTRY_FLAGS_HELP}
  --id <id>              use this id instead of a new random one (kb-xxxxx)
  --edit                 write the body in $VISUAL/$EDITOR
  --kb <dir>             the knowledge base folder

Example:
  git-kb add --title "Rotate a leaked npm token" --type howto --tag security,npm \\
    --alias "token leak" --body-file notes.md

Exit codes: 0 saved, 1 invalid or failed (nothing written), 2 usage error,
3 committed locally but not pushed (the message says how to finish).`;

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, {
    ...ENTRY_OPTIONS,
    id: { type: "string" },
    edit: { type: "boolean" },
  });
  if (positionals.length) {
    throw new UsageError(
      `unexpected argument "${positionals[0]}"; the title goes in --title "<text>"`,
    );
  }
  if (!values.title) throw new UsageError("--title is required");
  if (!values.type) {
    throw new UsageError("--type is required (decision, rule, howto, concept, bookmark, note)");
  }
  const { kbDir } = resolveKb(values.kb);
  let body = await bodyFromFlags(values);
  if (values.edit) body = await editInEditor(body ?? "", "new-entry.md");
  const paths = entryPaths(kbDir);
  const id = values.id ?? newId(paths);
  const blank = blankEntry(id, today());
  const entry = applyFieldFlags(blank, values, body ?? "");
  const path = `entries/${id}-${slugify(entry.title)}.md`;
  const result = await saveEntry({ kbDir, entry, path, message: `kb: add ${id}: ${entry.title}` });
  reportSave("Added", result, values.json);
  return 0;
}
