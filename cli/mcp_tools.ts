/**
 * The tools `git-kb mcp` serves, as data: each one's name, the description that tells a model
 * when to use it, its input schema (strict: an argument it does not know is refused, naming
 * it) and its handler. Every handler reuses what the CLI runs: search and get from io/kbs/,
 * context from io/hook/prompt_context.ts (no session, so no ledger is written), add and edit
 * through the save pipeline with every check it makes. A handler never prints: stdout is the
 * protocol's.
 *
 * @module
 */
import { z } from "zod";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { EntryEdits } from "../core/entry/edit.ts";
import { formatListChanges, listChanges } from "../core/entry/edit.ts";
import { linkLine } from "../core/entry/links.ts";
import type { Entry } from "../core/entry/entry.ts";
import { tagsShown } from "../core/text/display.ts";
import { pendingSummary } from "../core/kernel/acceptance.ts";
import { pendingMentions } from "../io/kernel/acceptance.ts";
import { typedIds } from "../core/kbs/qualified.ts";
import { ACTIVITIES, ENTRY_TYPES, LINK_RELS, STATUSES } from "../core/entry/schema.ts";
import { distinctTerms } from "../core/text/tokenize.ts";
import { resolveKbNamed } from "../io/config.ts";
import { contextForPrompt } from "../io/hook/prompt_context.ts";
import { getEntries, MCP_STEPS } from "../io/kbs/get.ts";
import { locateEntry } from "../io/kbs/locate.ts";
import { leftOutNote, searchKbs } from "../io/kbs/search.ts";
import { noMatchLine } from "./search.ts";
import { kbCommand } from "../io/self_command.ts";
import type { SaveResult } from "../io/save/request.ts";
import { bodyText } from "./entry_flags.ts";
import { saveEntry } from "../io/save/save.ts";
import { ValidationError } from "../io/save/validate.ts";
import { missingPermissionFlag } from "./errors.ts";
import {
  checkAndSave,
  editProblems,
  entryToEdit,
  newEntry,
  newEntryRequest,
  planFieldEdit,
  supersededNotes,
  vainRemovalNotes,
} from "./entry_save.ts";

/** What a tool call is given: the `--kb` the server was started with, and whom to tell of a save. */
export interface ToolContext {
  /** The knowledge base folder `--kb` named, if any (else KB_DIR, else the config). */
  kbFlag?: string;
  /** Called when the call committed a change to an entry (the list of entries may differ). */
  committed?(): void;
}

/** One tool the server offers. */
export interface KbTool<Shape extends z.ZodRawShape = z.ZodRawShape> {
  /** How a client calls it. */
  name: string;
  /** A short human title. */
  title: string;
  /** When a model should use it, and what it gives back. */
  description: string;
  /** Its arguments; unknown ones are refused. */
  input: z.ZodObject<Shape>;
  /** Whether it changes the knowledge base (commits, pushes): left out by `--read-only`. */
  writes: boolean;
  /** Run it on arguments that passed `input`. */
  run(args: z.infer<z.ZodObject<Shape>>, context: ToolContext): Promise<CallToolResult>;
}

/** `tool` with its arguments' type checked against its schema, as the list holds it. */
function defineTool<Shape extends z.ZodRawShape>(tool: KbTool<Shape>): KbTool {
  return tool as unknown as KbTool;
}

/** A tool result of plain text, without the tag characters a model reads and nobody sees. */
function text(value: string): CallToolResult {
  return { content: [{ type: "text", text: tagsShown(value) }] };
}

/** A tool result of JSON, indented for a model to read. */
function json(value: unknown): CallToolResult {
  return text(JSON.stringify(value, null, 2));
}

/** A tool error: the message, and nothing else happened. */
export function toolError(message: string): CallToolResult {
  return { ...text(message), isError: true };
}

/** The message of a failed call: the error's own, or the permission the server lacks. */
export function errorMessage(error: unknown): string {
  const flag = missingPermissionFlag(error);
  if (flag) {
    return `the git-kb MCP server may not do this (${(error as Error).message.split(",")[0]}); ` +
      `it needs ${flag} (git-kb mcp has it; git-kb mcp --read-only does not)`;
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * A list of at most `max` strings, advertised as an array; one string given instead is read as a
 * list of it (read forgivingly: models often pass one phrasing or one tag bare).
 */
function oneOrMore(max: number, item = z.string()) {
  return z.preprocess(
    (value) => typeof value === "string" ? [value] : value,
    z.array(item).max(max),
  );
}

/**
 * The longest search query taken: a phrasing of a topic is a few words, and search's time grows
 * with the words it is given (twenty queries of 400 KB held the server for 20 s).
 */
const MAX_QUERY_CHARS = 2000;

const typeArg = z.enum(ENTRY_TYPES);
const statusArg = z.enum(STATUSES);
const activityArg = z.enum(ACTIVITIES);
const linkArg = z.strictObject({
  rel: z.enum(LINK_RELS).describe("how this entry relates to the other one"),
  id: z.string().min(1).describe("the other entry's id, kb-xxxxx"),
});
const words = (what: string) => oneOrMore(100, z.string().min(1)).describe(what);
const toArg = z.string().min(1).describe(
  "the configured knowledge base to write to, by name, where several are configured",
);

const search = defineTool({
  name: "search",
  title: "Search the knowledge base",
  description:
    "Search the user's personal knowledge base (their own notes, decisions, rules, how-tos and " +
    "conventions kept in git). Use it before answering questions about how the user does " +
    "things, their past decisions, the commands and setup of their projects, or anything they " +
    "may have written down before; and before adding an entry, to find one to edit instead. " +
    "Pass several phrasings at once (synonyms, the abbreviation and the long form): they are " +
    "fused into one ranking. Returns ids, titles, types, a snippet and each hit's links; read " +
    "the entries that matter in full with the get tool.",
  input: z.strictObject({
    queries: oneOrMore(
      20,
      z.string().max(
        MAX_QUERY_CHARS,
        `a query is at most ${MAX_QUERY_CHARS} characters: give the words that name the topic`,
      ),
    ).describe(
      'one or more phrasings of what you look for, e.g. ["rotate npm token", "leaked credentials"]',
    ),
    type: typeArg.optional().describe("only entries of this type"),
    tag: z.string().min(1).optional().describe("only entries with this tag (or one under it)"),
    limit: z.coerce.number().int().min(1).max(50).optional().describe(
      "at most this many hits (10)",
    ),
  }),
  writes: false,
  async run(args, { kbFlag }) {
    const queries = args.queries.map((query) => query.trim()).filter(Boolean);
    if (!queries.length) {
      return toolError(
        'queries: every query is blank; give at least one phrasing, e.g. ["rotate npm token"]',
      );
    }
    if (queries.every((query) => !distinctTerms(query).length)) {
      return toolError(
        "queries: made only of common words, single letters or signs, which search skips; " +
          "use the words that name the topic",
      );
    }
    const { hits, skipped, leftOut, readFromFiles } = await searchKbs(kbFlag, queries, {
      limit: args.limit ?? 10,
      type: args.type,
      tag: args.tag,
    });
    // Why the answer was slow, and what makes the next one fast: the CLI says it on stderr.
    const warnings = readFromFiles ? [readFromFiles] : [];
    if (!hits.length && !skipped.length) {
      const line = noMatchLine(queries.map((query) => JSON.stringify(query)), args);
      const filtered = args.type !== undefined || args.tag !== undefined;
      const none = filtered ? `${line} Search again without type and tag for any.` : line;
      return text([none, ...leftOut.map(leftOutNote), ...warnings].join("\n\n"));
    }
    return json({
      hits: hits.map(({ id, kb, title, type, status, tags, snippet, links }) => ({
        id,
        ...kb ? { kb } : {},
        title,
        type,
        status,
        tags,
        snippet,
        links,
      })),
      ...skipped.length ? { skipped } : {},
      ...warnings.length ? { warnings } : {},
    });
  },
});

const get = defineTool({
  name: "get",
  title: "Read entries",
  description:
    "Read entries of the user's knowledge base in full, by id (kb-xxxxx, or name:kb-xxxxx " +
    "where several knowledge bases are configured), with the entries each one links to and is " +
    "linked from. Use it on the ids that search or context return before you rely on them.",
  input: z.strictObject({
    ids: oneOrMore(100).describe(
      'the entry ids, e.g. ["kb-7q2mx", "kb-r4b9t"]',
    ),
  }),
  writes: false,
  async run(args, { kbFlag }) {
    const ids = typedIds(args.ids);
    if (!ids.length) return toolError('ids: no id given; pass entry ids, e.g. ["kb-7q2mx"]');
    const { found, reasons, skipped, readFromFiles } = await getEntries(kbFlag, ids, {
      links: true,
      steps: MCP_STEPS,
    });
    const entries = found.map((item) => {
      const links = item.links?.length
        ? `Links of ${item.id}:\n${item.links.map((link) => `  ${linkLine(link)}`).join("\n")}`
        : "";
      return `${item.text.replace(/\n?$/, "\n")}${links}`;
    });
    const problems = [...reasons, ...skipped, ...readFromFiles ? [readFromFiles] : []];
    const result = text([...entries, ...problems].join("\n\n"));
    return found.length ? result : { ...result, isError: true };
  },
});

const context = defineTool({
  name: "context",
  title: "Knowledge for a task",
  description:
    "What the user's knowledge base has for a task, before you start it: the rules that " +
    "always apply, in full, and pointers (id, title, why) to entries worth reading. Call it " +
    "with the task in a few words at the start of each new task; then read the pointed " +
    "entries with the get tool. Says so when nothing applies.",
  input: z.strictObject({
    task: z.string().describe('the task in a few words, e.g. "rotate the npm token in CI"'),
  }),
  writes: false,
  async run(args, { kbFlag }) {
    if (!args.task.trim()) {
      return toolError('task: it is blank; describe the task, e.g. "rotate the npm token"');
    }
    const { decision } = await contextForPrompt({
      prompt: args.task,
      kbFlag,
      fetch: (ids) => `the get tool with ids ${JSON.stringify(ids)}`,
    });
    if (decision.assembly) return text(decision.assembly.text);
    return text(
      decision.outcome === "skipped"
        ? `Nothing looked up: ${decision.skipReason ?? "the task gives nothing to look for"}.`
        : "Nothing in the knowledge base applies to this task.",
    );
  },
});

/** The fields add and edit both set, described once. */
const FIELD_ARGS = {
  title: z.string().describe("one-line summary"),
  type: typeArg.describe(
    "decision (a choice and why), rule (always/never), howto (steps), concept (what a thing " +
      "is), bookmark (a link worth keeping), note (anything else)",
  ),
  body: z.string().describe("the markdown body"),
  status: statusArg.describe("active; superseded or archived take it out of the hooks"),
  source: z.string().describe("where it came from (a URL)"),
  kernel: z.boolean().describe(
    "a rule whose body goes into every prompt; only for short rules that always apply",
  ),
};

/** What add and edit report: the save, its warnings, and what the user may want to do next. */
function saved(result: SaveResult, notes: string[], extra: Record<string, unknown> = {}) {
  return json({
    id: result.id,
    path: result.path,
    commit: result.commit,
    push: result.push,
    ...extra,
    ...result.warnings.length ? { warnings: result.warnings } : {},
    ...notes.length ? { notes } : {},
  });
}

const add = defineTool({
  name: "add",
  title: "Add an entry",
  description:
    "Add an entry to the user's knowledge base when they ask you to remember something, or " +
    "confirm that a decision, rule, command or fix is worth keeping: it is validated, " +
    "committed and pushed to their git repository. Search first and edit the entry that " +
    "exists instead of adding a second one. Credentials are refused, never stored. Returns " +
    "the new id, or every problem with the entry (nothing is written then).",
  input: z.strictObject({
    title: FIELD_ARGS.title,
    type: FIELD_ARGS.type,
    body: FIELD_ARGS.body.optional(),
    tags: words('tags, e.g. ["git", "ci/cd"]').optional(),
    aliases: words("extra keywords: abbreviations and synonyms").optional(),
    applies_to: z.array(activityArg).optional().describe(
      "the kinds of work it applies to, for rules",
    ),
    links: z.array(linkArg).optional().describe("entries it relates to"),
    status: FIELD_ARGS.status.optional(),
    source: FIELD_ARGS.source.optional(),
    kernel: FIELD_ARGS.kernel.optional(),
    to: toArg.optional(),
  }),
  writes: true,
  async run(args, { kbFlag, committed }) {
    const { kbDir } = resolveKbNamed(args.to, kbFlag);
    const entry = newEntry(kbDir, {
      ...scalarEdits(args),
      tags: { add: args.tags },
      aliases: { add: args.aliases },
      appliesTo: { add: args.applies_to },
      links: { add: args.links?.map(({ rel, id }) => ({ rel, to: id })) },
    });
    const request = {
      ...newEntryRequest(kbDir, entry, false),
      keepSecret: kbCommand("add", "--edit", "--allow-secret", "--kb", kbDir),
      findIds: MCP_STEPS.search,
      othersWords: true,
    };
    const result = await checkAndSave(request, `Entry ${entry.id}`);
    if (result.commit) committed?.();
    const noBody = entry.body.trim()
      ? []
      : [`${entry.id} has a title and no body; write one with the edit tool (body)`];
    return saved(result, [
      ...noBody,
      ...kernelWaitingNotes(kbDir, entry),
      ...supersededNotes(kbDir, entry, markSuperseded),
    ]);
  },
});

const edit = defineTool({
  name: "edit",
  title: "Edit an entry",
  description:
    "Change an entry of the user's knowledge base: set its title, type, body, status, source " +
    "or kernel flag, and add or remove tags, aliases, kinds of work and links; everything " +
    "else is kept. Use it when an entry is out of date or the user corrects it; mark an entry " +
    "that no longer holds as superseded or archived rather than rewriting its history. The " +
    "change is validated, committed and pushed; credentials are refused. Read the entry with " +
    "get first.",
  input: z.strictObject({
    id: z.string().min(1).describe("the entry's id, kb-xxxxx (or name:kb-xxxxx)"),
    title: FIELD_ARGS.title.optional(),
    type: FIELD_ARGS.type.optional(),
    body: FIELD_ARGS.body.optional().describe("the new markdown body, whole"),
    status: FIELD_ARGS.status.optional(),
    source: FIELD_ARGS.source.optional(),
    kernel: FIELD_ARGS.kernel.optional(),
    add_tags: words("tags to add").optional(),
    remove_tags: words("tags to take out").optional(),
    add_aliases: words("aliases to add").optional(),
    remove_aliases: words("aliases to take out").optional(),
    add_applies_to: z.array(activityArg).optional().describe("kinds of work to add"),
    remove_applies_to: z.array(activityArg).optional().describe("kinds of work to take out"),
    add_links: z.array(linkArg).optional().describe("links to add"),
    remove_links: z.array(z.string().min(1)).optional().describe(
      "ids whose links to take out (every relation to each)",
    ),
    to: toArg.optional().describe(
      "the configured knowledge base the entry is in, by name (by default the one that holds it)",
    ),
  }),
  writes: true,
  async run(args, { kbFlag, committed }) {
    const { location, id } = locateEntry(args.id, {
      to: args.to,
      kb: kbFlag,
      command: (qualified) => `the edit tool with id "${qualified}"`,
      toName: "the to argument",
      findIds: MCP_STEPS.search,
    });
    const edits: EntryEdits = {
      ...scalarEdits(args),
      tags: { add: args.add_tags, remove: args.remove_tags },
      aliases: { add: args.add_aliases, remove: args.remove_aliases },
      appliesTo: { add: args.add_applies_to, remove: args.remove_applies_to },
      links: {
        add: args.add_links?.map((link) => ({ rel: link.rel, to: link.id })),
        remove: args.remove_links?.map((to) => ({ to })),
      },
    };
    const target = entryToEdit(location.kbDir, id, MCP_STEPS.search);
    const planned = planFieldEdit(target, edits, false);
    const vain = planned.before
      ? vainRemovalNotes(id, planned.before, edits, (field) => `remove_${field}`)
      : [];
    const unchanged = () => text([`No changes to ${id}; nothing committed.`, ...vain].join("\n"));
    if (!planned.changed.length) return unchanged();
    const keepSecret = kbCommand("edit", id, "--allow-secret", "--kb", location.kbDir);
    const request = {
      ...planned.request,
      keepSecret,
      findIds: MCP_STEPS.search,
      othersWords: true,
    };
    const plan = { ...planned, request };
    const { problems, gone } = await editProblems(plan);
    if (problems.length) {
      // Links `rm --force` left: this tool's own remove_links takes them out, no command needed.
      const fix = gone.length
        ? { lead: `Take them out with remove_links: ${JSON.stringify(gone)}.`, commands: [] }
        : undefined;
      throw new ValidationError(`Entry ${id}`, problems, fix);
    }
    const result = await saveEntry(plan.request);
    if (!result.commit) return unchanged();
    committed?.();
    const lists = plan.before
      ? formatListChanges(listChanges(plan.before, plan.request.entry))
      : [];
    const notes = [
      ...vain,
      ...kernelWaitingNotes(location.kbDir, plan.request.entry),
      ...supersededNotes(location.kbDir, plan.request.entry, markSuperseded),
    ];
    return saved(result, notes, { changed: plan.changed, ...lists.length ? { lists } : {} });
  },
});

/**
 * A note when `entry`, just saved by the model, is an active kernel rule the user has not
 * accepted as it reads now: a rule goes into every prompt, so one a model wrote waits for the
 * user's word, as a teammate's does, and the note names the command the user runs.
 */
function kernelWaitingNotes(kbDir: string, entry: Entry): string[] {
  if (!entry.kernel || entry.status !== "active") return [];
  const waiting = pendingMentions([entry]);
  if (!waiting.length) return [];
  return [
    `${pendingSummary(waiting)}; a rule the model writes applies once the user (not the model) ` +
    `accepts it; ask them to run: ${kbCommand("kernel", "--kb", kbDir)}`,
  ];
}

/** What marks entry `older` superseded, over MCP: this server's edit tool. */
function markSuperseded(older: string): string {
  return `the edit tool with ${JSON.stringify({ id: older, status: "superseded" })}`;
}

/** The single-valued fields of add's or edit's arguments, as edits. */
function scalarEdits(args: {
  title?: string;
  type?: string;
  body?: string;
  status?: string;
  source?: string;
  kernel?: boolean;
}): EntryEdits {
  const { title, type, status, source, kernel, body } = args;
  return { title, type, status, source, kernel, body: body === undefined ? body : bodyText(body) };
}

/** Every tool, the read-only ones first. */
export const TOOLS: readonly KbTool[] = [search, get, context, add, edit];
