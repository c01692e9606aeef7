/**
 * A Claude Code session transcript (JSONL, one record a line) read for what it taught: the turns
 * of its tail, the places where something failed and then worked, and a short excerpt of those
 * places for the model. Pure: the caller reads the file (io/capture/transcript_file.ts).
 *
 * Read forgivingly: a line that is not a JSON record (the cut first line of a tail, a record of
 * a kind not known here) is passed over.
 *
 * @module
 */
import { isRecord, parseJson } from "../model/reply.ts";
import { scrubSecrets } from "../text/secrets.ts";

/** One piece of a transcript: a message's text, a tool call, or a tool's result. */
export interface Turn {
  /** Its line in the transcript file, from 1. */
  line: number;
  /** Who said it: the user (or a tool result, which Claude Code files as the user's), or the model. */
  role: "user" | "assistant";
  /** What it is. */
  kind: "text" | "tool_use" | "tool_result";
  /** The text, the tool call's input (a Bash call's command), or the result's text. */
  text: string;
  /** The tool called, for a call; for a result, the tool of its call when the tail holds it. */
  tool?: string;
  /** A result: whether the tool reported a failure. */
  failed?: boolean;
  /** A call or its result: the call's id, which ties them. */
  callId?: string;
}

/** The text of a message content item or list, tool results' nested content included. */
function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((item) => isRecord(item) && typeof item.text === "string" ? item.text : "")
    .filter(Boolean).join("\n");
}

/** What a tool call did, in one text: a Bash command, else its input as JSON. */
function toolInput(input: unknown): string {
  if (isRecord(input) && typeof input.command === "string") return input.command;
  return JSON.stringify(input ?? {});
}

/** The turns of one transcript record. */
function recordTurns(record: Record<string, unknown>, line: number): Turn[] {
  const role = record.type;
  if ((role !== "user" && role !== "assistant") || record.isMeta === true) return [];
  if (record.isCompactSummary === true) return [];
  const message = record.message;
  if (!isRecord(message)) return [];
  if (typeof message.content === "string") {
    return message.content.trim() ? [{ line, role, kind: "text", text: message.content }] : [];
  }
  if (!Array.isArray(message.content)) return [];
  const turns: Turn[] = [];
  for (const block of message.content) {
    if (!isRecord(block)) continue;
    if (block.type === "text" && typeof block.text === "string" && block.text.trim()) {
      turns.push({ line, role, kind: "text", text: block.text });
    } else if (block.type === "tool_use" && typeof block.name === "string") {
      const callId = typeof block.id === "string" ? block.id : undefined;
      turns.push({
        line,
        role,
        kind: "tool_use",
        text: toolInput(block.input),
        tool: block.name,
        callId,
      });
    } else if (block.type === "tool_result") {
      const callId = typeof block.tool_use_id === "string" ? block.tool_use_id : undefined;
      turns.push({
        line,
        role,
        kind: "tool_result",
        text: contentText(block.content),
        failed: block.is_error === true,
        callId,
      });
    }
  }
  return turns;
}

/**
 * The turns of transcript text whose first line is line `firstLine` of the file. A result is
 * given its call's tool when the call is in the text.
 */
export function transcriptTurns(text: string, firstLine = 1): Turn[] {
  const turns: Turn[] = [];
  const tools = new Map<string, string>();
  text.split("\n").forEach((raw, index) => {
    if (!raw.trim()) return;
    const record = parseJson(raw);
    if (!isRecord(record)) return;
    for (const turn of recordTurns(record, firstLine + index)) {
      if (turn.kind === "tool_use" && turn.callId) tools.set(turn.callId, turn.tool!);
      if (turn.kind === "tool_result" && turn.callId) turn.tool = tools.get(turn.callId);
      turns.push(turn);
    }
  });
  return turns;
}

/** Something the session learned: a failure and what made it go away. */
export interface Lesson {
  /** `recovered`: a command failed, then the same command worked; `confirmed`: after a failure, the user said it works now. */
  kind: "recovered" | "confirmed";
  /** The transcript lines it spans, first and last. */
  from: number;
  to: number;
}

/**
 * Words by which a user says a problem is solved: "that fixed it", "works now", "it works",
 * "solved". Said after a failure, they mark what came before as worth keeping.
 */
const CONFIRMATION =
  /\b(that (fixed|did|solved) it|(it )?works now|now it works|it works|fixed it|(problem )?solved|that worked|that was it)\b/i;

/**
 * What a result's call is, to tell a retry of it: a Bash command's program and first word after
 * it, else the tool; the result's own `tool` when its call is not known.
 */
function callKey(call: Turn | undefined, tool: string | undefined): string | undefined {
  if (!call) return tool;
  if (call.tool !== "Bash") return call.tool;
  const words = call.text.trim().split(/\s+/).filter((word) => !/^[A-Z_][A-Z0-9_]*=/.test(word));
  return `Bash ${words.slice(0, 2).join(" ")}`;
}

/**
 * The lessons in `turns`: each failed tool result followed later by a result of the same call
 * (the same tool; for Bash, the same program and subcommand) that worked, from the failed call
 * to the result that worked; and each user message confirming a fix after a failure, from the
 * last failure before it. Cheap: one pass, no model. An empty or purely conversational session
 * has none.
 */
export function findLessons(turns: readonly Turn[]): Lesson[] {
  const calls = new Map<string, Turn>();
  const open = new Map<string, number>();
  const lessons: Lesson[] = [];
  let lastFailure: number | undefined;
  for (const turn of turns) {
    if (turn.kind === "tool_use" && turn.callId) calls.set(turn.callId, turn);
    if (turn.kind === "tool_result") {
      const call = turn.callId ? calls.get(turn.callId) : undefined;
      const key = callKey(call, turn.tool) ?? "?";
      if (turn.failed) {
        if (!open.has(key)) open.set(key, call?.line ?? turn.line);
        lastFailure = turn.line;
      } else if (open.has(key)) {
        lessons.push({ kind: "recovered", from: open.get(key)!, to: turn.line });
        open.delete(key);
      }
    } else if (
      turn.kind === "text" && turn.role === "user" && lastFailure !== undefined &&
      CONFIRMATION.test(turn.text)
    ) {
      lessons.push({ kind: "confirmed", from: lastFailure, to: turn.line });
      lastFailure = undefined;
    }
  }
  return lessons;
}

/** The bounds of an excerpt: its whole size, one turn's, and the turns of context before a lesson. */
export const EXCERPT_LIMITS = { chars: 24_000, turnChars: 1_500, before: 8, after: 2 };

function clipTurn(text: string, max: number): string {
  return text.length <= max
    ? text
    : `${text.slice(0, max)} [… ${text.length - max} more characters]`;
}

/**
 * One turn as a line of the excerpt, `L120 assistant Bash call: deno test`: credentials masked
 * first, then clipped, so that no clip leaves part of a credential unrecognised.
 */
function turnLine(turn: Turn, max: number): string {
  const what = turn.kind === "tool_use"
    ? ` ${turn.tool} call`
    : turn.kind === "tool_result"
    ? ` ${turn.tool ?? "tool"} ${turn.failed ? "FAILED" : "result"}`
    : "";
  return `L${turn.line} ${turn.role}${what}: ${clipTurn(scrubSecrets(turn.text.trim()), max)}`;
}

/** An excerpt for the model, and the transcript lines it spans. */
export interface Excerpt {
  /** The turns, one a line, each starting with its transcript line (`L120`). */
  text: string;
  /** The first and last transcript line shown. */
  first: number;
  last: number;
}

/**
 * The turns around `lessons` (a few before each, a couple after), each on its line with its
 * transcript line number, clipped, with every credential masked (`scrubSecrets`) before the text
 * leaves this machine; at most {@link EXCERPT_LIMITS}`.chars`, the latest turns kept when they do
 * not all fit. A gap between the parts shown is marked `[…]`.
 */
export function lessonExcerpt(
  turns: readonly Turn[],
  lessons: readonly Lesson[],
  limits = EXCERPT_LIMITS,
): Excerpt {
  const wanted = new Set<number>();
  for (const lesson of lessons) {
    const first = turns.findIndex((turn) => turn.line >= lesson.from);
    let last = turns.findLastIndex((turn) => turn.line <= lesson.to);
    if (first < 0 || last < 0) continue;
    last = Math.min(turns.length - 1, last + limits.after);
    for (let index = Math.max(0, first - limits.before); index <= last; index++) wanted.add(index);
  }
  const kept: { index: number; text: string }[] = [];
  let used = 0;
  for (const index of [...wanted].sort((a, b) => b - a)) {
    const text = turnLine(turns[index], limits.turnChars);
    if (used + text.length + 1 > limits.chars) break;
    kept.unshift({ index, text });
    used += text.length + 1;
  }
  const lines = kept.map(({ index, text }, at) =>
    (at > 0 && kept[at - 1].index !== index - 1 ? "[…]\n" : "") + text
  );
  return {
    text: lines.join("\n"),
    first: kept.length ? turns[kept[0].index].line : 0,
    last: kept.length ? turns[kept.at(-1)!.index].line : 0,
  };
}
