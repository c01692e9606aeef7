/**
 * What `git-kb selftest` does and expects, as data: the three entries a scratch knowledge base
 * starts with, the writer's tasks in order, the readers' queries and prompts, and the checks of
 * the final state (history, entry files, working tree). `/git-kb:test-skill` gives its agents
 * the same tasks in words and verifies them with the same checks. Pure.
 *
 * @module
 */
import { blankEntry, type Entry, parseEntryText, serializeEntry, toEntry } from "../entry/entry.ts";

const DATE = "2026-01-01";

/** The entries a scratch knowledge base starts with, committed before any task runs. */
export const SEEDS: readonly Entry[] = [
  {
    ...blankEntry("kb-st001", DATE),
    title: "Rotate a leaked npm token",
    type: "howto",
    tags: ["security", "npm"],
    aliases: ["token leak"],
    body: "Revoke the token on npmjs.com, create a new automation token, update the CI secret.\n",
  },
  {
    ...blankEntry("kb-st002", DATE),
    title: "Size the Postgres connection pool",
    type: "concept",
    tags: ["postgres", "database"],
    body: "A pool larger than max_connections on the server only queues; start from cores x 2.\n",
  },
  {
    ...blankEntry("kb-st003", DATE),
    title: "Squash merge pull requests into main",
    type: "decision",
    tags: ["git", "github"],
    body: "One commit per pull request keeps main bisectable.\n",
  },
];

/** The writer's first task: add a decision. */
export const NEW_DECISION = {
  title: "Use Deno for command line tools",
  type: "decision",
  tags: ["deno", "cli"],
  body: "Deno runs TypeScript as it is and grants each permission by a flag.\n",
} as const;

/** The writer's second task: add a bookmark. */
export const NEW_BOOKMARK = {
  title: "Deno permissions manual",
  type: "bookmark",
  tags: ["deno", "security"],
  source: "https://docs.deno.com/runtime/fundamentals/security/",
  body: "Every --allow flag and what it grants, with examples.\n",
} as const;

/** The writer's third task: edit a seeded entry (a new tag and a new body). */
export const EDIT = {
  id: "kb-st003",
  addTag: "merge-queue",
  body: "One commit per pull request keeps main bisectable. The merge queue squashes as well.\n",
} as const;

/** What the readers look for while the writer works, and what they must find. */
export const READS = {
  /** Search by keyword: the best hit. */
  keyword: { query: "leaked npm token", expect: "kb-st001" },
  /** Search with --type: found with the entry's type, not with another. */
  typed: { query: "connection pool", type: "concept", otherType: "howto", expect: "kb-st002" },
  /** The prompt hook lists this entry for this prompt. */
  matching: { prompt: "how do I rotate the leaked npm token?", expect: "kb-st001" },
  /** The prompt hook adds nothing for this prompt. */
  silent: { prompt: "my sourdough starter smells of acetone this morning" },
  /** Twice in one session: listed the first time only; again once the writer edited it. */
  ledger: { prompt: "should we squash merge this pull request into main?", expect: EDIT.id },
} as const;

/** What the final state must answer, re-asked by verify. */
export const FINAL_READS = {
  bookmark: { query: "deno permissions manual" },
  decision: { query: "command line tools", type: "decision" },
  hook: { prompt: "should we use deno for our command line tools?" },
} as const;

/** The outcome of one check. */
export interface Check {
  name: string;
  ok: boolean;
  detail: string;
}

/** The knowledge base as git and the file system show it after the tasks. */
export interface FinalState {
  /** `git log --format=%s`, oldest first. */
  subjects: string[];
  /** Entry files, path relative to the knowledge base → text. */
  files: Map<string, string>;
  /** `git status --porcelain`. */
  status: string;
  /** `git remote`. */
  remotes: string;
}

/** The seeds as files, path → text, as the scratch knowledge base starts. */
export function seedFiles(): Map<string, string> {
  return new Map(SEEDS.map((entry) => [seedPath(entry), serializeEntry(entry)]));
}

function seedPath(entry: Entry): string {
  return `entries/${entry.id}-${entry.title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}.md`;
}

/** The valid entries among `files`. */
function entriesOf(files: Map<string, string>): Entry[] {
  const entries: Entry[] = [];
  for (const [path, text] of files) {
    try {
      const { entry } = toEntry(parseEntryText(text, path));
      if (entry) entries.push(entry);
    } catch { /* reported by checkEntries */ }
  }
  return entries;
}

/** The id of the entry titled `title` in `files`, if one is. */
export function idByTitle(files: Map<string, string>, title: string): string | undefined {
  return entriesOf(files).find((entry) => entry.title === title)?.id;
}

/** History: the seed commit, then add decision, add bookmark, edit, in that order. */
export function checkHistory(state: FinalState, ids: { decision?: string; bookmark?: string }) {
  const expected = [
    `kb: add ${ids.decision ?? "<decision id>"}: ${NEW_DECISION.title}`,
    `kb: add ${ids.bookmark ?? "<bookmark id>"}: ${NEW_BOOKMARK.title}`,
    `kb: edit ${EDIT.id}: `,
  ];
  const after = state.subjects.slice(1);
  const ok = after.length === expected.length &&
    expected.every((subject, index) => after[index].startsWith(subject));
  return {
    name: "git log: seed, add, add, edit",
    ok,
    detail: ok
      ? `${state.subjects.length} commits in order`
      : `expected after the seed: ${expected.map((line) => JSON.stringify(line)).join(", ")}; ` +
        `found: ${after.map((line) => JSON.stringify(line)).join(", ") || "nothing"}`,
  };
}

/** Entry files: five valid entries, the new ones as asked, the edit applied, the rest as seeded. */
export function checkEntries(state: FinalState): Check {
  const problems: string[] = [];
  const entries = entriesOf(state.files);
  if (entries.length !== state.files.size) {
    problems.push(`${state.files.size - entries.length} entry file(s) break the contract`);
  }
  if (state.files.size !== SEEDS.length + 2) {
    problems.push(`${state.files.size} entry files, expected ${SEEDS.length + 2}`);
  }
  const byTitle = (title: string) => entries.find((entry) => entry.title === title);
  const decision = byTitle(NEW_DECISION.title);
  if (!decision) problems.push(`no entry titled "${NEW_DECISION.title}"`);
  else if (decision.type !== "decision" || decision.body.trim() !== NEW_DECISION.body.trim()) {
    problems.push(`${decision.id} is not the decision asked for (type ${decision.type})`);
  }
  const bookmark = byTitle(NEW_BOOKMARK.title);
  if (!bookmark) problems.push(`no entry titled "${NEW_BOOKMARK.title}"`);
  else if (bookmark.type !== "bookmark" || bookmark.source !== NEW_BOOKMARK.source) {
    problems.push(`${bookmark.id} is not a bookmark of ${NEW_BOOKMARK.source}`);
  }
  const edited = entries.find((entry) => entry.id === EDIT.id);
  if (!edited?.tags.includes(EDIT.addTag) || edited.body.trim() !== EDIT.body.trim()) {
    problems.push(`${EDIT.id} lacks the edit (tag ${EDIT.addTag} and the new body)`);
  }
  const seeds = seedFiles();
  for (const seed of SEEDS.filter((entry) => entry.id !== EDIT.id)) {
    if (state.files.get(seedPath(seed)) !== seeds.get(seedPath(seed))) {
      problems.push(`${seed.id} changed, and no task changes it`);
    }
  }
  return {
    name: "entry files as asked",
    ok: !problems.length,
    detail: problems.join("; ") || `${entries.length} valid entries`,
  };
}

/** Working tree: everything committed, and no remote to push to. */
export function checkTree(state: FinalState): Check {
  const problems = [
    ...(state.status.trim() ? [`uncommitted: ${state.status.trim().split("\n").join(", ")}`] : []),
    ...(state.remotes.trim() ? [`has a remote (${state.remotes.trim()})`] : []),
  ];
  return {
    name: "clean tree, no remote",
    ok: !problems.length,
    detail: problems.join("; ") || "nothing uncommitted, nothing pushed",
  };
}

/** One task in words, for an agent that knows only the skill's docs, and its expected answer. */
export interface TaskBrief {
  role: "writer" | "reader";
  task: string;
  /** What a correct run shows (for whoever checks the report, not for the agent). */
  expect: string;
}

/** A body as a task quotes it: one line, in double quotes. */
function quoted(body: string): string {
  return `"${body.trim()}"`;
}

/** The self-test's tasks in words, in order: the writer's three, then the readers'. */
export function taskBriefs(): TaskBrief[] {
  const { keyword, typed, matching, silent, ledger } = READS;
  return [
    {
      role: "writer",
      task: `Save a decision titled "${NEW_DECISION.title}" with the body ${
        quoted(NEW_DECISION.body)
      }, tagged ${NEW_DECISION.tags.join(" and ")}.`,
      expect: "committed, NO_REMOTE",
    },
    {
      role: "writer",
      task: `Save a bookmark titled "${NEW_BOOKMARK.title}" with the body ${
        quoted(NEW_BOOKMARK.body)
      }, tagged ${NEW_BOOKMARK.tags.join(" and ")}, for ${NEW_BOOKMARK.source}.`,
      expect: "committed, NO_REMOTE",
    },
    {
      role: "writer",
      task: `Change entry ${EDIT.id}: add the tag ${EDIT.addTag}, keep its other tags, and ` +
        `replace its body with ${quoted(EDIT.body)}.`,
      expect: "committed, NO_REMOTE",
    },
    {
      role: "reader",
      task: `Search for "${keyword.query}" and say which entry ranks first.`,
      expect: keyword.expect,
    },
    {
      role: "reader",
      task: `Search for "${typed.query}" among entries of type ${typed.type} only, then among ` +
        `entries of type ${typed.otherType} only.`,
      expect: `${typed.expect} with ${typed.type}, not with ${typed.otherType}`,
    },
    {
      role: "reader",
      task: `Show what the prompt hook would add for the prompt "${matching.prompt}", and for ` +
        `"${silent.prompt}".`,
      expect: `${matching.expect} listed; nothing for the second`,
    },
    {
      role: "reader",
      task: `In one session of your own, show what the hook adds for "${ledger.prompt}" twice: ` +
        `the second time an entry already listed must not be listed again.`,
      expect: `${ledger.expect}, then not again`,
    },
    {
      role: "reader",
      task: `Once the writer has changed ${EDIT.id}, ask the same prompt in the same session: ` +
        `the changed entry must be listed again.`,
      expect: `${ledger.expect} again`,
    },
  ];
}
