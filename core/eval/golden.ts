/**
 * The golden file of `git-kb eval`: one JSON object per line, a real prompt and the entry ids
 * that should surface for it (none: the prompt must surface nothing).
 *
 * ```jsonl
 * {"prompt": "how do I rotate the leaked npm token?", "expect": ["kb-7q2mx"]}
 * {"prompt": "thanks, that works", "expect": []}
 * ```
 *
 * @module
 */
import { isEntryId } from "../entry/identity.ts";

/** One prompt of a golden file. */
export interface GoldenCase {
  /** 1-based line number in the file. */
  line: number;
  prompt: string;
  /** Entry ids that should surface, best first; empty when nothing should. */
  expect: string[];
}

/** A line of a golden file that cannot be used, and why. */
export interface GoldenProblem {
  line: number;
  message: string;
}

/** Check one parsed line; returns the case or what is wrong with it. */
function toCase(value: unknown, line: number): GoldenCase | string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return 'not a JSON object; write {"prompt": "…", "expect": ["kb-…"]}';
  }
  const { prompt, expect } = value as Record<string, unknown>;
  if (typeof prompt !== "string" || !prompt.trim()) {
    return '"prompt" must be a non-empty string';
  }
  if (!Array.isArray(expect)) {
    return '"expect" must be a list of entry ids, [] when nothing should surface';
  }
  const bad = expect.find((id) => !isEntryId(id));
  if (bad !== undefined) {
    return `"expect" holds ${JSON.stringify(bad)}, which is not an entry id like kb-7q2mx`;
  }
  return { line, prompt, expect: [...new Set(expect as string[])] };
}

/**
 * Parse a golden file. A byte-order mark at its start (as some editors save UTF-8) and blank
 * lines are skipped; every other line must be a case, and each one that is not is reported with
 * its line number.
 *
 * @example
 * ```ts
 * parseGolden('{"prompt": "rotate the npm token", "expect": ["kb-7q2mx"]}\n');
 * // { cases: [{ line: 1, prompt: "rotate the npm token", expect: ["kb-7q2mx"] }], problems: [] }
 * ```
 */
export function parseGolden(text: string): { cases: GoldenCase[]; problems: GoldenProblem[] } {
  const cases: GoldenCase[] = [];
  const problems: GoldenProblem[] = [];
  text.replace(/^\uFEFF/, "").split("\n").forEach((raw, index) => {
    const line = index + 1;
    if (!raw.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      problems.push({ line, message: "not valid JSON" });
      return;
    }
    const parsed = toCase(value, line);
    if (typeof parsed === "string") problems.push({ line, message: parsed });
    else cases.push(parsed);
  });
  return { cases, problems };
}

/** One golden line for `prompt` and `expect`, as {@link parseGolden} reads it. */
export function goldenLine(prompt: string, expect: string[]): string {
  return JSON.stringify({ prompt, expect });
}
