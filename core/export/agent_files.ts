/**
 * The knowledge base written into agents' own instruction files, for agents without hooks, pure:
 * the kernel rules and the rule to ask `git-kb context` before a task, as one block between
 * markers. A rerun replaces only that block and leaves the user's own text alone. Each file's
 * block stays inside the size its agent reads: kernel rules that do not fit are left out, last
 * first, and named.
 *
 * @module
 */
import { shellQuote } from "../shell/quote.ts";
import { displaySafe, withoutTags } from "../text/display.ts";

/** The agent files git-kb can write, by the name `--to` takes. */
export const AGENT_FILES = {
  /** Codex and other AGENTS.md readers: Codex reads the first 32 KiB. */
  agents: { path: "AGENTS.md", limit: { bytes: 32 * 1024 } },
  /** Claude Code's project memory: best kept under 200 lines. */
  claude: { path: "CLAUDE.md", limit: { lines: 200 } },
  /** Cursor's project rules: a file of git-kb's own, applied to every request. */
  cursor: { path: ".cursor/rules/git-kb.mdc", limit: { bytes: 32 * 1024 } },
  /** Windsurf's workspace rules: 12,000 characters a rule file. */
  windsurf: { path: ".windsurf/rules/git-kb.md", limit: { chars: 12_000 } },
} as const;

/** The name of an agent file (`agents`, `claude`, `cursor`, `windsurf`). */
export type AgentFileName = keyof typeof AGENT_FILES;

/** The line that opens git-kb's block. */
export const BEGIN_MARKER =
  "<!-- git-kb:begin (written by git-kb export: change the knowledge base, not this block) -->";
/** The line that closes git-kb's block. */
export const END_MARKER = "<!-- git-kb:end -->";

/** A kernel rule as the block shows it. */
export interface ExportedRule {
  id: string;
  title: string;
  body: string;
}

/** A file's new text, and the rules that did not fit in its limit. */
export interface ExportedFile {
  text: string;
  leftOut: string[];
}

/** Where the cursor rule's frontmatter asks to be applied to every request. */
const CURSOR_FRONTMATTER = "---\ndescription: Rules and lookup from the git-kb knowledge base\n" +
  "alwaysApply: true\n---\n";

/**
 * The block of git-kb's text: kernel rules, then how to look up the rest. Each rule reads as the
 * prompt hook inlines it: its title on one line, and neither holds the tag characters that show
 * as nothing and that an agent reads as words (core/text/display.ts). With `kbDir`, a knowledge
 * base git-kb reads only when told (`--kb`), every command the block gives names it.
 */
export function exportBlock(rules: readonly ExportedRule[], kbDir?: string): string {
  const kb = kbDir === undefined ? "" : ` --kb ${shellQuote(kbDir)}`;
  const parts = [
    BEGIN_MARKER,
    "## Knowledge base (git-kb)",
    "",
    `Before a task, run \`git-kb context${kb} "<the task in a few words>"\` and read what it ` +
    `prints; fetch an entry it points at with \`git-kb get <id>${kb}\`. Search with ` +
    `\`git-kb search <words>${kb}\`.`,
  ];
  if (rules.length) parts.push("", "Rules that always apply:");
  for (const rule of rules) {
    parts.push(
      "",
      `### ${withoutMarkers(displaySafe(rule.title))} (${rule.id})`,
      "",
      withoutMarkers(withoutTags(rule.body).trim()),
    );
  }
  parts.push(END_MARKER);
  return `${parts.join("\n")}\n`;
}

/** Text with git-kb's markers defused, so that a rule's text cannot end the block early. */
function withoutMarkers(text: string): string {
  return text.replaceAll("<!-- git-kb:", "<!-- git-kb (quoted):");
}

/**
 * A begin marker's line: git-kb's own, or one whose words were changed by hand or by another
 * version (`<!-- git-kb:begin -->`), read as one all the same. A rule's text never holds one
 * ({@link withoutMarkers}).
 */
const BEGIN_LINE = /^\uFEFF?(<!-- git-kb:begin\b[^\n]*-->)[ \t\r]*$/gm;

/** Where each begin marker's line starts in `text` (after a byte-order mark). */
function beginsIn(text: string): number[] {
  return [...text.matchAll(BEGIN_LINE)].map((match) => match.index + match[0].indexOf("<"));
}

/** Where git-kb's block stands in `text`: from its opening marker to past its closing line. */
function blockSpan(text: string): [number, number] | undefined {
  const begin = beginsIn(text)[0] ?? -1;
  const end = begin < 0 ? -1 : text.indexOf(END_MARKER, begin);
  if (end < 0) return undefined;
  const after = end + END_MARKER.length;
  return [begin, text[after] === "\n" ? after + 1 : after];
}

/** Why git-kb's block in a file cannot be replaced safely, and what the user does about it. */
export interface BlockDamage {
  /** What is wrong, as the end of "the file …": `has two git-kb blocks`. */
  reason: string;
  /** What to do before exporting again. */
  fix: string;
}

/** How often `marker` occurs in `text`. */
function count(text: string, marker: string): number {
  return text.split(marker).length - 1;
}

/**
 * What makes git-kb's block in `text` unsafe to replace, or undefined when there is no block or
 * exactly one whole one. A begin marker without its end marker would have the next run replace
 * the user's text after it; a second block (two branches merged) would keep a rule the first no
 * longer has; in both cases which text is git-kb's is a guess, and git-kb does not guess.
 */
export function blockDamage(text: string): BlockDamage | undefined {
  const beginAt = beginsIn(text);
  const begins = beginAt.length;
  const ends = count(text, END_MARKER);
  if (begins === 0 && ends === 0) return undefined;
  if (begins > 1 || ends > 1) {
    return {
      reason: `has ${Math.max(begins, ends)} git-kb blocks (a merge can double it)`,
      fix: `delete every git-kb block, from each <!-- git-kb:begin … --> line through its ` +
        `${END_MARKER} line`,
    };
  }
  if (ends === 0) {
    return {
      reason: "has a git-kb begin marker without an end marker",
      fix: `put the line ${END_MARKER} where git-kb's block ends and your own text starts`,
    };
  }
  if (begins === 0 || text.indexOf(END_MARKER) < beginAt[0]) {
    return {
      reason: "has a git-kb end marker without a begin marker before it",
      fix: `delete git-kb's old block up to and including its ${END_MARKER} line`,
    };
  }
  return undefined;
}

/** `current` with git-kb's block replaced by `block`, or `block` added at its end. */
export function withBlock(current: string, block: string): string {
  const span = blockSpan(current);
  if (span) return current.slice(0, span[0]) + block + current.slice(span[1]);
  if (!current.trim()) return block;
  return `${current.replace(/\n*$/, "\n\n")}${block}`;
}

/** `text` without git-kb's block, as the user wrote it. */
export function withoutBlock(text: string): string {
  const span = blockSpan(text);
  return span ? text.slice(0, span[0]) + text.slice(span[1]) : text;
}

/**
 * Whether `text` is git-kb's block and nothing more but blanks and a frontmatter before it: a
 * file `git-kb export` wrote whole (`.cursor/rules/git-kb.mdc`, `.windsurf/rules/git-kb.md`, an
 * AGENTS.md of the block alone), which an import leaves out, since its rules are the knowledge
 * base's own.
 */
export function onlyBlock(text: string): boolean {
  const span = blockSpan(text);
  if (!span) return false;
  const before = text.slice(0, span[0]).replace(/^\uFEFF?---\r?\n[\s\S]*?\r?\n---[ \t]*\r?\n/, "");
  return !before.trim() && !text.slice(span[1]).trim();
}

/** Whether `text` is within `limit`. */
function fits(text: string, limit: { bytes?: number; lines?: number; chars?: number }): boolean {
  if (limit.bytes !== undefined && new TextEncoder().encode(text).length > limit.bytes) {
    return false;
  }
  if (limit.lines !== undefined && text.split("\n").length - 1 > limit.lines) return false;
  return limit.chars === undefined || text.length <= limit.chars;
}

/**
 * The new text of agent file `name`, given its `current` text ("" when it does not exist):
 * git-kb's block with as many of `rules` as fit the file's limit, in order, its commands naming
 * `kbDir` when given (see {@link exportBlock}). `current` must have no {@link blockDamage}: the
 * caller refuses such a file instead.
 */
export function exportedFile(
  name: AgentFileName,
  current: string,
  rules: readonly ExportedRule[],
  kbDir?: string,
): ExportedFile {
  const { limit } = AGENT_FILES[name];
  const base = name === "cursor" && !current.trim() ? CURSOR_FRONTMATTER : current;
  let kept = rules.length;
  let text = withBlock(base, exportBlock(rules, kbDir));
  while (kept > 0 && !fits(text, limit)) {
    kept--;
    text = withBlock(base, exportBlock(rules.slice(0, kept), kbDir));
  }
  return { text, leftOut: rules.slice(kept).map((rule) => rule.id) };
}
