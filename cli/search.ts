/**
 * `git-kb search <query>…`: ranked lexical search; each argument is one query, and several
 * queries (a model's own expansions) are fused into one ranking.
 *
 * @module
 */
import { ENTRY_TYPES, type EntryType } from "../core/entry/schema.ts";
import { leftOutNote, searchKbs } from "../io/kbs/search.ts";
import { distinctTerms } from "../core/text/tokenize.ts";
import { displaySafe } from "../core/text/display.ts";
import {
  type CommandSpec,
  helpText,
  oneOf,
  parseCommand,
  positiveInt,
  UsageError,
  wholeNumberFrom,
} from "./args.ts";
import { bold, cyan, dim, printJson, yellow } from "./output.ts";
import { kbCommand } from "../io/self_command.ts";

/** The command: its usage, options and positionals. */
export const command = {
  usage: ["search <query>... [options]"],
  about: `Ranked lexical search over titles, tags, aliases and bodies (title weighs most).
Each argument is one query; pass several phrasings at once and they are fused
into one ranking: git-kb search "rotate token" "leaked credentials" "cf api key"
Every configured knowledge base is searched; with more than one, ids read
team:kb-7q2mx and the rankings are merged by rank.`,
  options: {
    type: {
      type: "string",
      check: oneOf(ENTRY_TYPES, "type"),
      value: "<type>",
      help: `only entries of this type (${ENTRY_TYPES.join(", ")})`,
    },
    tag: {
      type: "string",
      value: "<tag>",
      help: "only entries with this tag (or a tag under it: ci keeps ci/cd)",
    },
    limit: {
      type: "string",
      check: wholeNumberFrom(1),
      value: "<n>",
      help: "at most n hits (default 10)",
    },
    json: { type: "boolean", help: "print hits as JSON" },
  },
  positionals: { name: "<query>", min: 1 },
} as const satisfies CommandSpec;

/** Help text. */
export const help: string = helpText(command);

/** The type and tag a search keeps to, when given. */
export interface SearchFilters {
  type?: string;
  tag?: string;
}

/**
 * The line for a search that found nothing: the queries (each quoted by the caller), and the
 * type and tag it kept to, when given, since they may be what left every match out.
 */
export function noMatchLine(quoted: readonly string[], { type, tag }: SearchFilters): string {
  const kept = [type && `of type ${type}`, tag && `tagged ${tag}`].filter(Boolean).join(" ");
  return `No entries ${kept ? `${kept} ` : ""}match ${quoted.join(", ")}.`;
}

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, command.options, command);
  const queries = positionals.map((query) => query.trim()).filter(Boolean);
  if (!queries.length) throw new UsageError("every query is blank; give at least one word");
  const limit = positiveInt(values.limit, "limit", 10);
  const options = { limit, type: values.type as EntryType, tag: values.tag };
  const { hits: views, skipped, leftOut, readFromFiles } = await searchKbs(
    values.kb,
    queries,
    options,
  );
  if (readFromFiles) console.error(yellow(`git-kb search: ${readFromFiles}`));
  for (const line of skipped) console.error(yellow(`git-kb search: ${line}`));
  if (queries.every((query) => !distinctTerms(query).length)) {
    if (values.json) printJson([]);
    const quoted = queries.map((query) => `"${displaySafe(query)}"`).join(", ");
    (values.json ? console.error : console.log)(
      `${quoted} ${queries.length > 1 ? "are" : "is"} made only of common words, single ` +
        "letters or signs, which search skips; try the words that name the topic, for example: " +
        kbCommand("search", "rotate token"),
    );
    return 0;
  }
  if (values.json) {
    printJson(views);
    return 0;
  }
  if (!views.length) {
    console.log(noMatchLine(queries.map((query) => `"${query}"`), options));
    if (options.type || options.tag) {
      const kb = values.kb === undefined ? [] : ["--kb", values.kb];
      console.log(`Of any type and tag: ${kbCommand("search", ...queries, ...kb)}`);
    }
    // An entry the index left out (a conflict, a broken file) may be the one looked for.
    for (const item of leftOut) console.log(yellow(leftOutNote(item)));
    return 0;
  }
  for (const view of views) {
    const state = view.status === "active" ? "" : `, ${yellow(view.status)}`;
    console.log(
      `${cyan(view.id)}  ${bold(displaySafe(view.title))}  ${dim(`[${view.type}${state}]`)}`,
    );
    if (view.snippet) console.log(`    ${displaySafe(view.snippet)}`);
    for (const link of view.links) {
      const arrow = link.direction === "out" ? "→" : "←";
      const title = link.title ? ` ${displaySafe(link.title)}` : "";
      console.log(dim(`    ${arrow} ${link.rel} ${link.id}${title}`));
    }
  }
  return 0;
}
