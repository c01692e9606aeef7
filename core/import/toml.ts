/**
 * A note's TOML frontmatter, the `+++` block Hugo (and ox-hugo) writes, read as fields, pure. Only
 * what notes are written in: `key = value` lines (a bare, quoted or dotted key; a basic or literal
 * string, a number, `true` or `false`, a date or date-time kept as its text, or an array of these
 * on one line) and `[table]` headers, whose keys go under the table. Anything else (an array of
 * tables, an inline table, a string or array over several lines) throws, naming its line, so
 * that the note's reader can say why the block was not read.
 *
 * @module
 */

/** A table of fields, as the frontmatter nests them. */
type Table = Record<string, unknown>;

/** A date, a date-time or a time of day, as TOML writes them (`2020-07-21T11:34:11+08:00`). */
const DATE =
  /^(?:\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})?)?|\d{2}:\d{2}:\d{2}(?:\.\d+)?)/i;

/** A decimal number, with `_` between digits allowed. */
const NUMBER = /^[+-]?\d[\d_]*(?:\.\d[\d_]*)?(?:[eE][+-]?\d+)?/;

/** The escapes of a basic string, by the letter after the backslash. */
const ESCAPES: Record<string, string> = {
  b: "\b",
  t: "\t",
  n: "\n",
  f: "\f",
  r: "\r",
  '"': '"',
  "\\": "\\",
};

/** The fields of the TOML `text` (the lines between the `+++` lines); throws when not read. */
export function tomlFields(text: string): Table {
  const fields: Table = {};
  let table = fields;
  text.split(/\r?\n/).forEach((line, index) => {
    const at = `line ${index + 1} of it`;
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith("#")) return;
    if (trimmed.startsWith("[[")) throw new Error(`${at} starts an array of tables`);
    if (trimmed.startsWith("[")) {
      const header = /^\[([^\]]+)\]\s*(?:#.*)?$/.exec(trimmed);
      if (!header) throw new Error(`${at} is not a [table] header`);
      table = tableAt(fields, keyPath(header[1], at), at);
      return;
    }
    const [key, after] = readKey(trimmed, at);
    const [value, rest] = readValue(after, at);
    if (!/^\s*(?:#.*)?$/.test(rest)) throw new Error(`${at} goes on after its value`);
    const path = keyPath(key, at);
    const into = tableAt(table, path.slice(0, -1), at);
    const name = path[path.length - 1];
    if (Object.hasOwn(into, name)) throw new Error(`${at} gives ${name} a second time`);
    into[name] = value;
  });
  return fields;
}

/** The key of a `key = value` line and what follows its `=`. */
function readKey(line: string, at: string): [string, string] {
  const pair =
    /^((?:[A-Za-z0-9_-]+|"(?:[^"\\\n]|\\.)*"|'[^'\n]*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"(?:[^"\\\n]|\\.)*"|'[^'\n]*'))*)\s*=\s*/
      .exec(line);
  if (!pair) throw new Error(`${at} is not a key = value`);
  return [pair[1], line.slice(pair[0].length)];
}

/** A key's parts: `a."b.c".d` is `a`, `b.c`, `d`. */
function keyPath(key: string, at: string): string[] {
  const parts = key.match(/"(?:[^"\\\n]|\\.)*"|'[^'\n]*'|[^.\s"']+/g) ?? [];
  if (!parts.length) throw new Error(`${at} has an empty key`);
  return parts.map((part) =>
    part.startsWith('"')
      ? basicStringText(part.slice(1, -1), at)
      : part.startsWith("'")
      ? part.slice(1, -1)
      : part
  );
}

/** The table at `path` under `root`, made when missing; throws when a value is there instead. */
function tableAt(root: Table, path: readonly string[], at: string): Table {
  let table = root;
  for (const name of path) {
    const next = Object.hasOwn(table, name) ? table[name] : (table[name] = {});
    if (typeof next !== "object" || next === null || Array.isArray(next)) {
      throw new Error(`${at} makes ${name} a table, which an earlier line gave a value`);
    }
    table = next as Table;
  }
  return table;
}

/** The value at the start of `text`, and the text after it. */
function readValue(text: string, at: string): [unknown, string] {
  if (text.startsWith('"""') || text.startsWith("'''")) {
    throw new Error(`${at} starts a string over several lines`);
  }
  if (text.startsWith('"')) {
    const string = /^"((?:[^"\\]|\\.)*)"/.exec(text);
    if (!string) throw new Error(`${at} has a string with no end`);
    return [basicStringText(string[1], at), text.slice(string[0].length)];
  }
  if (text.startsWith("'")) {
    const string = /^'([^']*)'/.exec(text);
    if (!string) throw new Error(`${at} has a string with no end`);
    return [string[1], text.slice(string[0].length)];
  }
  if (text.startsWith("[")) return readArray(text.slice(1), at);
  if (text.startsWith("{")) throw new Error(`${at} holds an inline table`);
  const word = /^(?:true|false)(?![\w-])/.exec(text)?.[0];
  if (word) return [word === "true", text.slice(word.length)];
  const date = DATE.exec(text)?.[0];
  if (date) return [date, text.slice(date.length)];
  const number = NUMBER.exec(text)?.[0];
  if (number) return [Number(number.replace(/_/g, "")), text.slice(number.length)];
  throw new Error(`${at} holds a value that is not read: ${text.trim().slice(0, 40)}`);
}

/** The array whose `[` came just before `text`, and the text after its `]`. */
function readArray(text: string, at: string): [unknown[], string] {
  const items: unknown[] = [];
  let rest = text.trimStart();
  while (!rest.startsWith("]")) {
    if (!rest) throw new Error(`${at} starts an array over several lines`);
    const [item, after] = readValue(rest, at);
    items.push(item);
    rest = after.trimStart();
    if (rest.startsWith(",")) rest = rest.slice(1).trimStart();
    else if (!rest.startsWith("]")) throw new Error(`${at} has an array item with no comma after`);
  }
  return [items, rest.slice(1)];
}

/**
 * A basic string's text (between its quotes) with its escapes read (`\n`, `\"`, `\u00e9`);
 * throws, naming `at`, on an escape TOML does not have.
 */
export function basicStringText(text: string, at = "it"): string {
  return text.replace(/\\(?:u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|(.))/g, (_, four, eight, one) => {
    const code = four || eight ? parseInt(four ?? eight, 16) : undefined;
    if (code !== undefined && code <= 0x10ffff) return String.fromCodePoint(code);
    if (one !== undefined && one in ESCAPES) return ESCAPES[one];
    throw new Error(`${at} has an escape TOML does not have: \\${one ?? four ?? eight}`);
  });
}
