/**
 * The `git-kb` MCP server in an agent's configuration, for `git-kb setup --mcp`: the entry it
 * wants, set in (or taken out of) a JSON settings object under `mcpServers`, or a TOML file's
 * `[mcp_servers.git-kb]` table (Codex). Pure: no I/O.
 *
 * The TOML is edited, not rewritten: only the lines of our table change (its `command`, `args`
 * and `env_vars`, every other key of it kept), so the rest of the file keeps its comments, order
 * and layout. A line is read as a table header only where it starts outside any multi-line string,
 * array or inline table.
 *
 * @module
 */
import { basicStringText } from "../import/toml.ts";
import { isObject, type Settings, SettingsShapeError } from "./agent_settings.ts";

/** The agents whose MCP configuration `setup --mcp` writes. */
export const MCP_AGENTS = ["claude", "codex", "cursor", "gemini"] as const;
/** An agent whose MCP configuration `setup --mcp` writes. */
export type McpAgent = typeof MCP_AGENTS[number];

/** The name the server is configured under in every agent. */
export const MCP_SERVER_NAME = "git-kb";

/** How an agent starts the server: the launcher and its arguments. */
export interface McpServerEntry {
  command: string;
  args: string[];
}

/**
 * The variables the server needs from the agent's environment, which Codex (checked: 0.171.0)
 * withholds from an MCP server unless its table lists them in `env_vars`: where the knowledge
 * base, git-kb's config and cache are (and the Deno the launcher looks for), the ssh agent and ssh
 * command git pushes with, a commit identity set in the environment, and the proxy git reaches
 * the remote through. A name that is not set is passed as not set.
 */
export const SERVER_ENV_VARS: readonly string[] = [
  "KB_DIR",
  "XDG_CONFIG_HOME",
  "XDG_CACHE_HOME",
  "XDG_DATA_HOME",
  "SSH_AUTH_SOCK",
  "GIT_SSH_COMMAND",
  "GIT_AUTHOR_NAME",
  "GIT_AUTHOR_EMAIL",
  "GIT_COMMITTER_NAME",
  "GIT_COMMITTER_EMAIL",
  "https_proxy",
  "HTTPS_PROXY",
  "http_proxy",
  "all_proxy",
  "ALL_PROXY",
  "no_proxy",
  "NO_PROXY",
];

/**
 * What Gemini CLI's server entry sets in its `env`: Gemini CLI (checked: 0.61.0) redacts from an
 * MCP server's environment every variable whose name holds AUTH, KEY, TOKEN and the like, which
 * takes the ssh agent git pushes with, unless the entry's `env` names it; `$NAME` there is
 * Gemini CLI's own value, empty when unset (which ssh reads as no agent). GIT_AUTHOR_NAME and
 * GIT_AUTHOR_EMAIL are redacted too but not set here: empty, git would refuse to commit.
 */
export const GEMINI_SERVER_ENV: Readonly<Record<string, string>> = {
  SSH_AUTH_SOCK: "$SSH_AUTH_SOCK",
};

/**
 * Where each agent keeps its MCP servers, below the home folder (`user`) or the project, and
 * what else its entry holds.
 */
export const MCP_CONFIG_FILES: Readonly<
  Record<
    McpAgent,
    {
      label: string;
      user: string[];
      project: string[];
      extra?: Record<string, unknown>;
      /** Variables the entry's `env` sets where it has none of the name. */
      env?: Readonly<Record<string, string>>;
    }
  >
> = {
  // Claude Code: user scope is the top level of ~/.claude.json; project scope is .mcp.json.
  claude: {
    label: "Claude Code",
    user: [".claude.json"],
    project: [".mcp.json"],
    extra: { type: "stdio" },
  },
  codex: { label: "Codex", user: [".codex", "config.toml"], project: [".codex", "config.toml"] },
  cursor: { label: "Cursor", user: [".cursor", "mcp.json"], project: [".cursor", "mcp.json"] },
  gemini: {
    label: "Gemini CLI",
    user: [".gemini", "settings.json"],
    project: [".gemini", "settings.json"],
    env: GEMINI_SERVER_ENV,
  },
};

/** The server entry for `launcher` (an absolute path), read-only or not. */
export function mcpServerEntry(launcher: string, readOnly: boolean): McpServerEntry {
  return { command: launcher, args: readOnly ? ["mcp", "--read-only"] : ["mcp"] };
}

function serversOf(settings: Settings): Record<string, unknown> {
  const servers = settings.mcpServers;
  if (servers === undefined) return {};
  if (!isObject(servers)) throw new SettingsShapeError(`"mcpServers" is not an object of servers`);
  return servers;
}

/**
 * `settings` with `mcpServers["git-kb"]` starting `entry`: the keys of an entry already there
 * that say how to start it are set, every other key of it (trust, timeouts) and of the file
 * kept. `extra` goes in too (Claude Code's `"type": "stdio"`), and each variable of `env` into
 * the entry's `env` where that has none of the name (the user's own value stays). The input is
 * not changed.
 */
export function mergeMcpServer(
  settings: Settings,
  entry: McpServerEntry,
  extra: Record<string, unknown> = {},
  env: Readonly<Record<string, string>> = {},
): Settings {
  const servers = serversOf(settings);
  const current = servers[MCP_SERVER_NAME];
  if (current !== undefined && !isObject(current)) {
    throw new SettingsShapeError(`"mcpServers.${MCP_SERVER_NAME}" is not an object`);
  }
  const currentEnv = current?.env;
  if (currentEnv !== undefined && !isObject(currentEnv)) {
    throw new SettingsShapeError(`"mcpServers.${MCP_SERVER_NAME}.env" is not an object`);
  }
  const withEnv = Object.keys(env).length ? { env: { ...env, ...currentEnv } } : {};
  const server = {
    ...extra,
    ...current,
    ...extra,
    command: entry.command,
    args: entry.args,
    ...withEnv,
  };
  return { ...settings, mcpServers: { ...servers, [MCP_SERVER_NAME]: server } };
}

/** `settings` without our server; `mcpServers` goes when nothing else was in it. */
export function removeMcpServer(settings: Settings): Settings {
  const servers = serversOf(settings);
  if (!Object.hasOwn(servers, MCP_SERVER_NAME)) return settings;
  const { [MCP_SERVER_NAME]: _ours, ...others } = servers;
  if (Object.keys(others).length) return { ...settings, mcpServers: others };
  const { mcpServers: _servers, ...rest } = settings;
  return rest;
}

/** One line of a TOML text and whether it starts outside any multi-line value. */
interface TomlLine {
  text: string;
  /** Not inside a multi-line string, array or inline table: a header or a key may start here. */
  topLevel: boolean;
}

/**
 * The lines of a TOML text, each marked {@link TomlLine.topLevel}: strings (basic, literal and
 * their multi-line forms) and comments are skipped while brackets are counted.
 */
function tomlLines(text: string): TomlLine[] {
  const lines: TomlLine[] = [];
  let depth = 0;
  let multiline: string | undefined;
  for (const line of text.split("\n")) {
    lines.push({ text: line, topLevel: depth === 0 && multiline === undefined });
    for (let at = 0; at < line.length; at++) {
      if (multiline) {
        if (multiline === '"""' && line[at] === "\\") at++;
        else if (line.startsWith(multiline, at)) {
          at += 2;
          multiline = undefined;
        }
        continue;
      }
      const character = line[at];
      if (character === "#") break;
      if (line.startsWith('"""', at) || line.startsWith("'''", at)) {
        multiline = line.slice(at, at + 3);
        at += 2;
      } else if (character === '"' || character === "'") {
        for (at++; at < line.length && line[at] !== character; at++) {
          if (character === '"' && line[at] === "\\") at++;
        }
      } else if (character === "[" || character === "{") depth++;
      else if (character === "]" || character === "}") depth = Math.max(0, depth - 1);
    }
  }
  return lines;
}

/** A table header's dotted name with each part unquoted (`[a."b c"]` → `a.b c`), if a header. */
function headerName(line: string): string | undefined {
  const match = /^\s*\[\[?\s*([^\]]*?)\s*\]\]?\s*(?:#.*)?$/.exec(line);
  if (!match) return undefined;
  return match[1].split(/\s*\.\s*/).map((part) => part.replace(/^(["'])(.*)\1$/, "$2")).join(".");
}

const OUR_TABLE = `mcp_servers.${MCP_SERVER_NAME}`;

/** Where our table sits: its header line, and the line after its last key or value line. */
interface TableSpan {
  start: number;
  end: number;
}

/**
 * Our tables (`[mcp_servers.git-kb]` and its sub-tables), each up to its last line that is not
 * blank or a comment (those go with the next table). Throws when the server is defined some
 * other way (dotted keys, an inline table), which this editor does not change.
 */
function ourTables(lines: TomlLine[]): TableSpan[] {
  const spans: TableSpan[] = [];
  let table = "";
  for (let index = 0; index < lines.length; index++) {
    const { text, topLevel } = lines[index];
    if (!topLevel) continue;
    const name = headerName(text);
    if (name !== undefined) {
      table = name;
      if (name === OUR_TABLE || name.startsWith(`${OUR_TABLE}.`)) {
        spans.push({ start: index, end: index + 1 });
      }
      continue;
    }
    const key = /^\s*([^=#\s][^=#]*?)\s*=/.exec(text)?.[1]?.replace(/\s*\.\s*/g, ".")
      .replace(/["']/g, "");
    const ours = spans.at(-1);
    if (ours && table !== "" && (table === OUR_TABLE || table.startsWith(`${OUR_TABLE}.`))) {
      if (text.trim() && !text.trim().startsWith("#")) ours.end = index + 1;
      else continue;
    }
    const full = key === undefined ? "" : table ? `${table}.${key}` : key;
    if (full === OUR_TABLE || full.startsWith(`${OUR_TABLE}.`)) {
      if (table !== OUR_TABLE && !table.startsWith(`${OUR_TABLE}.`)) {
        throw new SettingsShapeError(
          `the ${MCP_SERVER_NAME} server is defined on line ${index + 1} in a way setup does not ` +
            `edit (a dotted key or an inline table); make it a [${OUR_TABLE}] table`,
        );
      }
    }
  }
  // A multi-line value's lines after its first are inside the table too.
  for (const span of spans) {
    while (span.end < lines.length && !lines[span.end].topLevel) span.end++;
  }
  return spans;
}

/** A TOML basic string: JSON's escapes are all valid TOML. */
function tomlString(value: string): string {
  return JSON.stringify(value);
}

/** A TOML array of basic strings, on one line. */
function tomlStrings(values: readonly string[]): string {
  return `[${values.map(tomlString).join(", ")}]`;
}

/** The key lines our table holds for `entry`. */
function entryLines(entry: McpServerEntry): Map<string, string> {
  return new Map([
    ["command", `command = ${tomlString(entry.command)}`],
    ["args", `args = ${tomlStrings(entry.args)}`],
    ["env_vars", `env_vars = ${tomlStrings(SERVER_ENV_VARS)}`],
  ]);
}

/**
 * The strings a TOML value's text holds (`["A", 'B'] # "not C"` → A, B): basic strings with
 * their escapes read, literal strings as they are; comments skipped.
 */
function stringsIn(value: string): string[] {
  const strings: string[] = [];
  for (const match of value.matchAll(/"((?:[^"\\\n]|\\.)*)"|'([^'\n]*)'|#[^\n]*/g)) {
    if (match[2] !== undefined) strings.push(match[2]);
    else if (match[1] !== undefined) {
      try {
        strings.push(basicStringText(match[1]));
      } catch { /* an escape TOML does not have: not one of ours */ }
    }
  }
  return strings;
}

/**
 * The `env_vars` lines of our table given the ones there (`value`): kept as they are when they
 * list every variable of {@link SERVER_ENV_VARS}, else one line listing those and then the
 * user's others.
 */
function envVarsLines(value: string[]): string[] {
  const listed = stringsIn(value.join("\n").replace(/^[^=]*=/, ""));
  if (SERVER_ENV_VARS.every((name) => listed.includes(name))) return value;
  const others = listed.filter((name) => !SERVER_ENV_VARS.includes(name));
  return [`env_vars = ${tomlStrings([...SERVER_ENV_VARS, ...new Set(others)])}`];
}

/** The key a line of our table sets, when it is one of ours to write (`command`, `args`). */
function ourKey(line: string, keys: ReadonlyMap<string, string>): string | undefined {
  const key = /^\s*["']?([A-Za-z0-9_-]+)["']?\s*=/.exec(line)?.[1];
  return key !== undefined && keys.has(key) ? key : undefined;
}

/**
 * `text` (a TOML file) with `[mcp_servers.git-kb]` starting `entry` with
 * {@link SERVER_ENV_VARS} passed on: in an existing table, the `command` and `args` lines are
 * replaced (a multi-line value whole), `env_vars` too unless it lists them all already (the
 * user's other names kept after ours), and missing ones added after the header, every other line
 * kept; otherwise the table is appended. Unchanged when it already says so.
 */
export function setTomlMcpServer(text: string, entry: McpServerEntry): string {
  const lines = tomlLines(text);
  const wanted = entryLines(entry);
  const main = ourTables(lines).find((span) => headerName(lines[span.start].text) === OUR_TABLE);
  if (!main) {
    const table = [`[${OUR_TABLE}]`, ...wanted.values()].join("\n");
    const body = text.replace(/\n*$/, "");
    return body ? `${body}\n\n${table}\n` : `${table}\n`;
  }
  const missing = new Map(wanted);
  const body: string[] = [];
  for (let index = main.start + 1; index < main.end; index++) {
    const key = lines[index].topLevel ? ourKey(lines[index].text, wanted) : undefined;
    if (key === undefined) {
      body.push(lines[index].text);
      continue;
    }
    // The key's value, on as many lines as it takes, gives way to ours (a second copy goes);
    // the user's own names in env_vars stay.
    const first = index;
    while (index + 1 < main.end && !lines[index + 1].topLevel) index++;
    const line = missing.get(key);
    if (line === undefined) continue;
    missing.delete(key);
    const value = lines.slice(first, index + 1).map((item) => item.text);
    body.push(...key === "env_vars" ? envVarsLines(value) : [line]);
  }
  return [
    ...lines.slice(0, main.start + 1).map((line) => line.text),
    ...missing.values(),
    ...body,
    ...lines.slice(main.end).map((line) => line.text),
  ].join("\n");
}

/** `text` without our tables (`[mcp_servers.git-kb]` and its sub-tables); unchanged without. */
export function removeTomlMcpServer(text: string): string {
  const lines = tomlLines(text);
  const spans = ourTables(lines);
  if (!spans.length) return text;
  const blank = (index: number) => index < lines.length && !lines[index]?.text.trim();
  const dropped = new Set<number>();
  for (const { start, end } of spans) {
    for (let index = start; index < end; index++) dropped.add(index);
    // The blank line that set the table apart goes with it.
    if (blank(end) || end >= lines.length - 1) {
      if (start > 0 && blank(start - 1)) dropped.add(start - 1);
    }
  }
  return lines.filter((_, index) => !dropped.has(index)).map((line) => line.text).join("\n");
}

/**
 * The command our server entry in an agent's JSON MCP configuration starts
 * (`mcpServers["git-kb"].command`); undefined when there is none.
 */
export function ourMcpCommand(settings: Settings): string | undefined {
  const servers = settings.mcpServers;
  const ours = isObject(servers) ? servers[MCP_SERVER_NAME] : undefined;
  return isObject(ours) && typeof ours.command === "string" ? ours.command : undefined;
}

/**
 * The command of the `[mcp_servers.git-kb]` table of a TOML text (Codex's configuration);
 * undefined when it has no such table (or names no command, or the server is defined some way
 * setup does not write).
 */
export function ourTomlMcpCommand(text: string): string | undefined {
  const lines = tomlLines(text);
  let spans: TableSpan[];
  try {
    spans = ourTables(lines);
  } catch {
    return undefined;
  }
  const main = spans.find((span) => headerName(lines[span.start].text) === OUR_TABLE);
  for (let index = (main?.start ?? 0) + 1; main && index < main.end; index++) {
    const value = /^\s*["']?command["']?\s*=(.*)$/.exec(lines[index].text)?.[1];
    if (lines[index].topLevel && value !== undefined) return stringsIn(value)[0];
  }
  return undefined;
}
