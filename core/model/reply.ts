/**
 * Reading what a model printed through `claude -p --output-format json`, forgivingly: the JSON
 * envelope Claude Code wraps the reply in, and the reply's own JSON, given bare or as the one
 * fenced block of a text. Shared by the prose judge (core/judge/verdict.ts) and the capture of
 * knowledge from sessions (core/capture/candidates.ts).
 *
 * @module
 */
import { clippedLine } from "../text/display.ts";
import { scrubSecrets } from "../text/secrets.ts";

/** Whether `value` is a plain JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** `text` parsed as JSON, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The JSON in a model's reply text: all of it, or its one fenced block; else undefined. */
export function replyJson(text: string): unknown {
  const whole = parseJson(text.trim());
  if (whole !== undefined) return whole;
  const fences = [...text.matchAll(/```[a-zA-Z]*[ \t]*\n([\s\S]*?)\n[ \t]*```/g)];
  return fences.length === 1 ? parseJson(fences[0][1].trim()) : undefined;
}

/**
 * The JSON reply in a model's output: the reply itself, or the reply inside Claude Code's
 * `--output-format json` envelope (`{"type":"result","result":"<reply>"}`). Undefined when there
 * is none, or when the envelope reports an error.
 */
export function modelReply(output: string): unknown {
  const reply = replyJson(output);
  if (!isRecord(reply) || reply.type !== "result") return reply;
  if (reply.is_error === true || typeof reply.result !== "string") return undefined;
  return replyJson(reply.result);
}

/** The reply text of a model's output: the envelope's `result` when there is one, else all of it. */
export function replyText(output: string): string {
  const envelope = parseJson(output.trim());
  return isRecord(envelope) && typeof envelope.result === "string" ? envelope.result : output;
}

/** How much of a model's stderr or reply a debug record keeps. */
export const EXCERPT_CHARS = 80;

/**
 * The start of a model's output for a debug record: its first non-blank line, credentials
 * masked, at most {@link EXCERPT_CHARS} characters. The reply inside Claude Code's JSON envelope
 * is taken instead of the envelope.
 */
export function outputExcerpt(output: string): string {
  const line = replyText(output).split("\n").find((item) => item.trim()) ?? "";
  return clippedLine(scrubSecrets(line), EXCERPT_CHARS) || "(empty)";
}
