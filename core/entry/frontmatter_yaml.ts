/**
 * The YAML of an entry's frontmatter, parsed with the core schema and with anchors refused,
 * whichever `@std/yaml` parser reads it: the refusal asks nothing of the parser but two parses.
 *
 * An anchor (`&name`) is written where a value starts; elsewhere an `&` is text. So each `&` is
 * replaced by a character YAML gives no meaning to and the text parsed again: when every `&` was
 * text, the second value is the first with that character in place of each `&`; when one was an
 * anchor, its name became text (or its aliases lost their anchor), and the values differ. The
 * comparison walks the second value, which has no aliases, so it ends quickly even when the first
 * is a "billion laughs" of aliases that no walk could finish.
 *
 * @module
 */
import { parse } from "@std/yaml";
import { EntryParseError } from "./frontmatter.ts";

/** What each `&` becomes in the second parse: a private-use character the text does not hold. */
function markFor(text: string): string {
  let code = 0xe000;
  while (text.includes(String.fromCharCode(code))) code++;
  return String.fromCharCode(code);
}

/** The first `&name` where a value can start, for the refusal to name. */
const ANCHOR = /(?:^|[\s[{,])&([^\s,[\]{}]+)/;

function refusal(frontmatter: string, source: string): EntryParseError {
  const found = ANCHOR.exec(frontmatter)?.[1];
  const name = found ? ` &${found.slice(0, 40).replace(/[^\w.-]/g, "?")}` : "";
  return new EntryParseError(
    source,
    `the frontmatter uses the YAML anchor${name}; anchors and aliases ` +
      "(&name, *name) are not allowed, write the value out in full",
  );
}

/** Whether `marked` is `value` with `mark` in place of each `&`, walking `marked` only. */
function sameButMarked(value: unknown, marked: unknown, mark: string): boolean {
  if (typeof marked === "string") {
    return typeof value === "string" && value.replaceAll("&", mark) === marked;
  }
  if (Array.isArray(marked)) {
    return Array.isArray(value) && value.length === marked.length &&
      marked.every((item, at) => sameButMarked(value[at], item, mark));
  }
  if (marked === null || typeof marked !== "object") return Object.is(value, marked);
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  const markedKeys = Object.keys(marked);
  return keys.length === markedKeys.length &&
    keys.every((key, at) =>
      key.replaceAll("&", mark) === markedKeys[at] &&
      sameButMarked(
        (value as Record<string, unknown>)[key],
        (marked as Record<string, unknown>)[markedKeys[at]],
        mark,
      )
    );
}

/**
 * Parse `frontmatter` (of the entry file `source`) as YAML with the core schema. Throws
 * {@link EntryParseError} when it is not valid YAML or uses an anchor.
 */
export function parseFrontmatterYaml(frontmatter: string, source: string): unknown {
  let value: unknown;
  try {
    value = parse(frontmatter, { schema: "core" });
  } catch (error) {
    const reason = error instanceof Error ? error.message.split("\n")[0] : String(error);
    throw new EntryParseError(source, `the frontmatter is not valid YAML (${reason})`);
  }
  // Without an `&` there is no anchor, and an alias without one fails to parse.
  if (!frontmatter.includes("&")) return value;
  const mark = markFor(frontmatter);
  let marked: unknown;
  try {
    marked = parse(frontmatter.replaceAll("&", mark), { schema: "core" });
  } catch {
    throw refusal(frontmatter, source);
  }
  if (!sameButMarked(value, marked, mark)) throw refusal(frontmatter, source);
  return value;
}
