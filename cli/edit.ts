/**
 * `git-kb edit <id>`: change an entry through the save pipeline. Unknown frontmatter fields and
 * the body's formatting are kept as they are.
 *
 * @module
 */
import { join } from "../core/path.ts";
import { type Entry, parseEntryText, toEntry } from "../core/entry.ts";
import { resolveKb } from "../io/config.ts";
import { editInEditor } from "../io/editor.ts";
import { entryPaths, saveEntry, ValidationError } from "../io/save.ts";
import { parseCommand, UsageError } from "./args.ts";
import {
  applyFieldFlags,
  bodyFromFlags,
  ENTRY_FLAGS_HELP,
  ENTRY_OPTIONS,
  hasFieldFlags,
  today,
} from "./entry_flags.ts";
import { printJson } from "./output.ts";
import { reportSave } from "./save_report.ts";

/** Help text. */
export const help = `Usage: git-kb edit <id> [options]

Change an entry: flags replace the fields they name (lists are replaced whole),
everything else is kept, unknown frontmatter fields included. With no field flags
the whole file opens in $VISUAL/$EDITOR. The result goes through the same save
pipeline as add: validate, write, commit, push, reindex.

Options:
${ENTRY_FLAGS_HELP}
  --add-tag <tag>        add a tag, keeping the others (repeatable)
  --remove-tag <tag>     remove a tag (repeatable)
  --kb <dir>             the knowledge base folder

Exit codes: 0 saved or nothing to change, 1 invalid or failed, 2 usage error,
3 committed locally but not pushed.`;

function changedFields(before: Entry, after: Entry): string[] {
  const fields = [
    "title",
    "type",
    "tags",
    "aliases",
    "appliesTo",
    "kernel",
    "status",
    "source",
    "links",
    "body",
    "extra",
  ] as const;
  return fields.filter((field) => JSON.stringify(before[field]) !== JSON.stringify(after[field]));
}

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, {
    ...ENTRY_OPTIONS,
    "add-tag": { type: "string", multiple: true },
    "remove-tag": { type: "string", multiple: true },
  });
  if (positionals.length !== 1) throw new UsageError("give exactly one entry id, like kb-7q2mx");
  const [id] = positionals;
  const { kbDir } = resolveKb(values.kb);
  const path = entryPaths(kbDir).get(id);
  if (!path) throw new Error(`no entry ${id} in ${kbDir}; find ids with git-kb search <words>`);
  const previousText = Deno.readTextFileSync(join(kbDir, path));
  let raw = parseEntryText(previousText, path);
  const fieldFlags = hasFieldFlags(values) || values["add-tag"] || values["remove-tag"];
  if (!fieldFlags) {
    if (!Deno.stdin.isTerminal()) {
      throw new UsageError(
        "nothing to change: give field flags, or run on a terminal to use $EDITOR",
      );
    }
    raw = parseEntryText(await editInEditor(previousText, `${id}.md`), path);
  }
  const { entry: current, problems } = toEntry(raw);
  if (!current) throw new ValidationError(`Entry ${id} (${path})`, problems);
  const body = await bodyFromFlags(values);
  let next = applyFieldFlags(current, values, body);
  const removed = new Set(values["remove-tag"] ?? []);
  next = {
    ...next,
    tags: [...new Set([...next.tags, ...(values["add-tag"] ?? [])])].filter((tag) =>
      !removed.has(tag)
    ),
  };
  if (next.id !== id) {
    throw new ValidationError(`Entry ${id}`, [{ field: "id", message: "ids never change" }]);
  }
  const before = fieldFlags ? current : toEntry(parseEntryText(previousText, path)).entry;
  const changes = before ? changedFields(before, next) : ["all"];
  if (!changes.length) {
    if (values.json) printJson({ id, path, changed: false });
    else console.log(`No changes to ${id}; nothing committed.`);
    return 0;
  }
  next.updated = today() > next.created ? today() : next.created;
  const message = `kb: edit ${id}: ${next.title} (${changes.join(", ")})`;
  const result = await saveEntry({ kbDir, entry: next, path, message, previousText });
  reportSave("Edited", result, values.json);
  return 0;
}
