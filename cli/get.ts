/**
 * `git-kb get <id>…`: entries verbatim (on a terminal, without the escape sequences and controls
 * it would act on), several at once; an id that is not served is reported with the reason (left
 * out, in conflict, or no such id) and the others still printed.
 *
 * @module
 */
import { EXIT } from "../core/exit.ts";
import { linkLine } from "../core/entry/links.ts";
import { typedIds } from "../core/kbs/qualified.ts";
import { terminalSafe } from "../core/text/display.ts";
import { type Found, getEntries } from "../io/kbs/get.ts";
import { type CommandSpec, helpText, parseCommand, refuseBlankIds } from "./args.ts";
import { printJson, printStored, red, yellow } from "./output.ts";

/** The command: its usage, options and positionals. */
export const command = {
  usage: ["get <id>... [options]"],
  about: `Print entries exactly as stored, several at once. An id that is not served is
reported on stderr with the reason (exit 1) and the other entries are still
printed: the file was left out of the index (two files with one id, or a file
that breaks the contract), it is in a merge or rebase conflict, or no entry has it.
Where several knowledge bases are configured, every one is looked in; name one
with <name>:<id> (team:kb-7q2mx), as an id two of them hold must be. When the
index cannot be brought up to date because the cache takes no write (a read-only
cache, as in an agent's sandbox), entries are read from their files, and a
warning says why.`,
  options: {
    links: {
      type: "boolean",
      help: "after each entry, list its linked entries (both directions) with titles",
    },
    json: {
      type: "boolean",
      help: "print [{id, path, text, links?}] as JSON, links (with --links) as " +
        "[{rel, id, direction, title?}], no title where no entry has the id",
    },
  },
  positionals: { name: "<id>", min: 1 },
} as const satisfies CommandSpec;

/** Help text. */
export const help: string = helpText(command);

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, command.options, command);
  const ids = typedIds(positionals);
  refuseBlankIds(ids);
  const { found, reasons, skipped, readFromFiles } = await getEntries(values.kb, ids, {
    links: values.links,
  });
  if (readFromFiles) console.error(yellow(`git-kb get: ${readFromFiles}`));
  for (const line of skipped) console.error(yellow(`git-kb get: ${line}`));
  for (const reason of reasons) console.error(red(`git-kb get: ${terminalSafe(reason)}`));
  if (values.json) printJson(found);
  else printEntries(found);
  return reasons.length ? EXIT.failed : EXIT.ok;
}

function printEntries(found: Found[]): void {
  found.forEach((item, index) => {
    if (index) console.log();
    printStored(item.text);
    if (item.links?.length) {
      console.log(`Links of ${item.id}:`);
      for (const link of item.links) console.log(`  ${linkLine(link)}`);
    } else if (item.links) {
      console.log(`No links to or from ${item.id}.`);
    }
  });
}
