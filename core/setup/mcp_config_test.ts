import { assert, assertEquals, assertMatch, assertThrows } from "@std/assert";
import { SettingsShapeError } from "./agent_settings.ts";
import {
  GEMINI_SERVER_ENV,
  mcpServerEntry,
  mergeMcpServer,
  ourMcpCommand,
  ourTomlMcpCommand,
  removeMcpServer,
  removeTomlMcpServer,
  SERVER_ENV_VARS,
  setTomlMcpServer,
} from "./mcp_config.ts";

const ENTRY = mcpServerEntry("/opt/kb/plugin/bin/git-kb", false);
const ENV_VARS = `env_vars = [${SERVER_ENV_VARS.map((name) => `"${name}"`).join(", ")}]`;
const TABLE = `[mcp_servers.git-kb]
command = "/opt/kb/plugin/bin/git-kb"
args = ["mcp"]
${ENV_VARS}
`;

const CODEX = `# my Codex settings
model = "o4"   # keep this comment

[features]
codex_hooks = true

[mcp_servers.docs]
command = "docs-mcp"
args = [
  "--port", "1", # a comment in an array
]
`;

Deno.test("toml: the table is appended to an empty file and after the rest, which stays as it was", () => {
  assertEquals(setTomlMcpServer("", ENTRY), TABLE);
  const written = setTomlMcpServer(CODEX, ENTRY);
  assertEquals(written, `${CODEX}\n${TABLE}`);
  assertEquals(setTomlMcpServer(written, ENTRY), written, "a second run changes nothing");
  assertEquals(setTomlMcpServer(CODEX.trimEnd(), ENTRY), `${CODEX}\n${TABLE}`);
});

Deno.test("toml: an existing table gets command and args, every other line of it is kept", () => {
  const before = `${CODEX}
[mcp_servers.git-kb]
# moved checkout
command = '/old/path/git-kb'
startup_timeout_sec = 20
args = [
  "mcp",
  "--read-only",
]

[mcp_servers.git-kb.env]
KB_DIR = "/home/me/kb"

[profiles.fast]
model = "o4-mini"
`;
  const after = setTomlMcpServer(before, ENTRY);
  assertEquals(
    after,
    `${CODEX}
[mcp_servers.git-kb]
${ENV_VARS}
# moved checkout
command = "/opt/kb/plugin/bin/git-kb"
startup_timeout_sec = 20
args = ["mcp"]

[mcp_servers.git-kb.env]
KB_DIR = "/home/me/kb"

[profiles.fast]
model = "o4-mini"
`,
  );
  assertEquals(setTomlMcpServer(after, ENTRY), after);
  const readOnly = setTomlMcpServer(after, mcpServerEntry("/opt/kb/plugin/bin/git-kb", true));
  assertMatch(readOnly, /^args = \["mcp", "--read-only"\]$/m);
});

Deno.test("toml: env_vars passes on what the server needs, keeping the user's own names", () => {
  // Codex gives an MCP server none of these unless env_vars lists them.
  for (const name of ["KB_DIR", "XDG_CONFIG_HOME", "SSH_AUTH_SOCK", "https_proxy"]) {
    assert(SERVER_ENV_VARS.includes(name), name);
  }
  const table = (envVars: string) =>
    `[mcp_servers.git-kb]\ncommand = "/opt/kb/plugin/bin/git-kb"\nargs = ["mcp"]\n${envVars}\n`;
  const mine = table(`env_vars = ["MY_VAR", 'KB_DIR'] # "NOT_A_NAME"`);
  const merged = setTomlMcpServer(mine, ENTRY);
  assertEquals(
    merged,
    table(ENV_VARS.replace(/\]$/, `, "MY_VAR"]`)),
    "ours first, then the user's others; a comment is not a name",
  );
  assertEquals(setTomlMcpServer(merged, ENTRY), merged, "a second run changes nothing");
  // Every name of ours listed already, on lines of the user's own layout: left as it is.
  const laidOut = table(
    `env_vars = [\n${SERVER_ENV_VARS.map((name) => `  "${name}",`).join("\n")}\n  "MY_VAR",\n]`,
  );
  assertEquals(setTomlMcpServer(laidOut, ENTRY), laidOut);
});

Deno.test("toml: a header-shaped line inside a multi-line string is not a table", () => {
  const text = `[notes]
text = """
[mcp_servers.git-kb]
command = "not this"
"""
other = '''
[x]'''
`;
  assertEquals(setTomlMcpServer(text, ENTRY), `${text}\n${TABLE}`);
});

Deno.test("toml: a path with quotes and backslashes is written as a valid basic string", () => {
  const entry = mcpServerEntry('C:\\kb "main"\\git-kb.cmd', false);
  assertMatch(setTomlMcpServer("", entry), /^command = "C:\\\\kb \\"main\\"\\\\git-kb\.cmd"$/m);
});

Deno.test("toml: a server defined by dotted keys or inline is refused, naming the line", () => {
  for (
    const text of [
      'mcp_servers.git-kb.command = "x"\n',
      '[mcp_servers]\ngit-kb = { command = "x" }\n',
      '[mcp_servers]\n"git-kb".command = "x"\n',
    ]
  ) {
    assertThrows(() => setTomlMcpServer(text, ENTRY), SettingsShapeError, undefined, text);
  }
});

Deno.test("toml: remove takes out our table and its sub-tables, nothing else", () => {
  const withOurs = setTomlMcpServer(CODEX, ENTRY);
  assertEquals(removeTomlMcpServer(withOurs), CODEX);
  assertEquals(removeTomlMcpServer(CODEX), CODEX);
  const middle = `a = 1\n\n${TABLE}\n[mcp_servers.git-kb.env]\nX = "1"\n\n[z]\nb = 2\n`;
  assertEquals(removeTomlMcpServer(middle), "a = 1\n\n[z]\nb = 2\n");
});

Deno.test("json: our server is set, other servers and the other keys of ours are kept", () => {
  const settings = {
    theme: "dark",
    mcpServers: {
      docs: { command: "docs-mcp" },
      "git-kb": { command: "/old/git-kb", args: ["mcp"], env: { KB_DIR: "/kb" }, trust: false },
    },
  };
  const merged = mergeMcpServer(settings, ENTRY, { type: "stdio" });
  assertEquals(merged, {
    theme: "dark",
    mcpServers: {
      docs: { command: "docs-mcp" },
      "git-kb": {
        type: "stdio",
        command: ENTRY.command,
        args: ["mcp"],
        env: { KB_DIR: "/kb" },
        trust: false,
      },
    },
  });
  assertEquals(mergeMcpServer(merged, ENTRY, { type: "stdio" }), merged);
  assertEquals(removeMcpServer(merged), {
    theme: "dark",
    mcpServers: { docs: { command: "docs-mcp" } },
  });
  assertEquals(removeMcpServer({ mcpServers: { "git-kb": {} } }), {});
  assertThrows(() => mergeMcpServer({ mcpServers: [] }, ENTRY), SettingsShapeError);
});

Deno.test("json: Gemini CLI's entry names the ssh agent in env, where the user has not", () => {
  // Gemini CLI redacts SSH_AUTH_SOCK from a server's environment unless env names it.
  assertEquals(GEMINI_SERVER_ENV, { SSH_AUTH_SOCK: "$SSH_AUTH_SOCK" });
  const added = mergeMcpServer({}, ENTRY, {}, GEMINI_SERVER_ENV);
  assertEquals(added, {
    mcpServers: {
      "git-kb": { command: ENTRY.command, args: ["mcp"], env: { SSH_AUTH_SOCK: "$SSH_AUTH_SOCK" } },
    },
  });
  assertEquals(mergeMcpServer(added, ENTRY, {}, GEMINI_SERVER_ENV), added);
  const own = { "git-kb": { command: "/old", env: { SSH_AUTH_SOCK: "/my/agent", KB_DIR: "/kb" } } };
  assertEquals(mergeMcpServer({ mcpServers: own }, ENTRY, {}, GEMINI_SERVER_ENV), {
    mcpServers: {
      "git-kb": {
        command: ENTRY.command,
        env: { SSH_AUTH_SOCK: "/my/agent", KB_DIR: "/kb" },
        args: ["mcp"],
      },
    },
  });
  assertThrows(
    () => mergeMcpServer({ mcpServers: { "git-kb": { env: [] } } }, ENTRY, {}, GEMINI_SERVER_ENV),
    SettingsShapeError,
    "git-kb.env",
  );
});

Deno.test("ourMcpCommand and ourTomlMcpCommand: the command our server entry starts, or none", () => {
  const entry = mcpServerEntry("/opt/kb/bin/git-kb", false);
  assertEquals(ourMcpCommand(mergeMcpServer({}, entry)), "/opt/kb/bin/git-kb");
  assertEquals(ourMcpCommand({ mcpServers: { other: { command: "x" } } }), undefined);
  assertEquals(ourMcpCommand({ mcpServers: "no" }), undefined);
  const toml = setTomlMcpServer('[mcp_servers.other]\ncommand = "x"\n', entry);
  assertEquals(ourTomlMcpCommand(toml), "/opt/kb/bin/git-kb");
  assertEquals(ourTomlMcpCommand('[mcp_servers.other]\ncommand = "x"\n'), undefined);
  assertEquals(ourTomlMcpCommand('s = """\n[mcp_servers.git-kb]\ncommand = "y"\n"""\n'), undefined);
});
