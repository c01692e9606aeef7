/**
 * `git-kb get <id>…`: entries verbatim, several at once; unknown ids are reported and the
 * others still printed.
 *
 * @module
 */
import { join } from "../core/path.ts";
import { openKb } from "../io/open.ts";
import { READ_TRUST_MS } from "../io/index_store.ts";
import { parseCommand, UsageError } from "./args.ts";
import { printJson, red } from "./output.ts";
import { linkViews } from "./search.ts";

/** Help text. */
export const help = `Usage: git-kb get <id>... [options]

Print entries exactly as stored, several at once. An unknown id is reported on
stderr (exit 1) and the other entries are still printed.

Options:
  --links       after each entry, list its linked entries (both directions) with titles
  --json        print [{id, path, text, links?}] as JSON
  --kb <dir>    the knowledge base folder`;

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, {
    links: { type: "boolean" },
    json: { type: "boolean" },
  });
  const ids = positionals.flatMap((arg) => arg.split(/[\s,]+/)).filter(Boolean);
  if (!ids.length) throw new UsageError("give at least one entry id, like kb-7q2mx");
  const { reader, location } = await openKb(values.kb, { trustStampMs: READ_TRUST_MS });
  const found: { id: string; path: string; text: string; links?: ReturnType<typeof linkViews> }[] =
    [];
  let missing = 0;
  for (const id of new Set(ids)) {
    const doc = reader.docById(id);
    if (!doc) {
      console.error(red(`git-kb get: no entry ${id}; find ids with git-kb search <words>`));
      missing++;
      continue;
    }
    const text = Deno.readTextFileSync(join(location.kbDir, doc.path));
    found.push({
      id,
      path: doc.path,
      text,
      links: values.links ? linkViews(reader, id) : undefined,
    });
  }
  if (values.json) printJson(found);
  else {
    found.forEach((item, index) => {
      if (index) console.log();
      Deno.stdout.writeSync(
        new TextEncoder().encode(item.text.endsWith("\n") ? item.text : `${item.text}\n`),
      );
      if (item.links?.length) {
        console.log(`Links of ${item.id}:`);
        for (const link of item.links) {
          console.log(
            `  ${link.direction === "out" ? "→" : "←"} ${link.rel} ${link.id} ${
              link.title ?? "(missing)"
            }`,
          );
        }
      }
    });
  }
  return missing ? 1 : 0;
}
