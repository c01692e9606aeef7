/**
 * Driving the real Claude Code CLI offline, shared by the end-to-end tests: a loopback mock of
 * the Anthropic Messages API (streamed or plain replies, every request recorded), the
 * environment that points the CLI at it with every proxy closed, and a temp HOME with the plugin
 * installed from this repo's marketplace.
 *
 * @module
 */
import { assertEquals } from "@std/assert";
import { runProcess } from "../../io/process.ts";
import { join } from "@std/path/posix/join";
import { shellQuote } from "../../core/shell/quote.ts";
import { denoDir, type Kb, ROOT } from "../helpers.ts";

/** A content block of a mocked assistant message. */
export type Block =
  | { type: "text"; text: string }
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };

/** One request the mock received, its body parsed. */
export interface Received {
  path: string;
  body: Record<string, unknown>;
}

/** What the mock answers one Messages request with. */
export interface Reply {
  blocks: Block[];
  /** `end_turn` unless given; `tool_use` when the blocks call a tool. */
  stop?: string;
}

/** A running mock: what it received, its port, and how to stop it. */
export interface MockApi {
  received: Received[];
  port: number;
  close(): Promise<void>;
  /** {@link MockApi.close}, so a test can hold it with `await using mock = startMockApi(…)`. */
  [Symbol.asyncDispose](): Promise<void>;
}

/** A tool_use block calling `name` with `input`, with a fresh id. */
export function toolUse(name: string, input: Record<string, unknown>): Block {
  return { type: "tool_use", id: `toolu_${crypto.randomUUID().replaceAll("-", "")}`, name, input };
}

/** A text-only reply that ends the turn. */
export function say(text: string): Reply {
  return { blocks: [{ type: "text", text }] };
}

/** The server-sent events of a streamed Messages API reply. */
function sse(model: string, blocks: Block[], stopReason: string): string {
  const events: [string, unknown][] = [[
    "message_start",
    {
      type: "message_start",
      message: {
        id: `msg_${crypto.randomUUID()}`,
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 1 },
      },
    },
  ]];
  for (const [index, block] of blocks.entries()) {
    const start = block.type === "text" ? { type: "text", text: "" } : { ...block, input: {} };
    const delta = block.type === "text"
      ? { type: "text_delta", text: block.text }
      : { type: "input_json_delta", partial_json: JSON.stringify(block.input) };
    events.push(
      ["content_block_start", { type: "content_block_start", index, content_block: start }],
      ["content_block_delta", { type: "content_block_delta", index, delta }],
      ["content_block_stop", { type: "content_block_stop", index }],
    );
  }
  events.push(
    ["message_delta", {
      type: "message_delta",
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: 5 },
    }],
    ["message_stop", { type: "message_stop" }],
  );
  return events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
    .join("");
}

/** All text in a request's system prompt and messages. */
export function textOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (Array.isArray(value)) return value.map(textOf).join("\n");
  if (typeof value === "object" && value !== null) {
    return Object.values(value).map(textOf).join("\n");
  }
  return "";
}

/** The tool_result blocks of the last user message of a request. */
export function toolResults(body: Record<string, unknown>): Record<string, unknown>[] {
  const messages = body.messages as { role: string; content: unknown }[] | undefined;
  const last = messages?.at(-1);
  if (last?.role !== "user" || !Array.isArray(last.content)) return [];
  return last.content.filter((block) => block?.type === "tool_result");
}

/**
 * Start a loopback Messages API on a free port. `respond` decides each `/v1/messages` reply from
 * the request body; token counting gets a fixed count and anything else a 404.
 */
export function startMockApi(respond: (body: Record<string, unknown>) => Reply): MockApi {
  const received: Received[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    const url = new URL(request.url);
    const text = await request.text();
    let body: Record<string, unknown> = {};
    try {
      body = JSON.parse(text);
    } catch { /* not JSON */ }
    received.push({ path: url.pathname, body });
    if (url.pathname.endsWith("/count_tokens")) return Response.json({ input_tokens: 10 });
    if (request.method !== "POST" || !url.pathname.endsWith("/v1/messages")) {
      return new Response("not found", { status: 404 });
    }
    const model = String(body.model ?? "claude-test");
    const { blocks, stop: given } = respond(body);
    const stop = given ??
      (blocks.some((block) => block.type === "tool_use") ? "tool_use" : "end_turn");
    if (!body.stream) {
      return Response.json({
        id: `msg_${crypto.randomUUID()}`,
        type: "message",
        role: "assistant",
        model,
        content: blocks,
        stop_reason: stop,
        stop_sequence: null,
        usage: { input_tokens: 10, output_tokens: 5 },
      });
    }
    return new Response(sse(model, blocks, stop), {
      headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
    });
  });
  const close = () => server.shutdown();
  return { received, port: server.addr.port, close, [Symbol.asyncDispose]: close };
}

/** The Claude Code CLI under test (`deno task test:e2e` sets it), and why tests skip without it. */
export const CLAUDE_CLI: string | undefined = Deno.env.get("CLAUDE_CLI");

/** The `ignore` of an end-to-end test: set when there is no CLI to run. */
export const SKIP: string | false = CLAUDE_CLI
  ? false
  : "CLAUDE_CLI is not set: run `deno task test:e2e`";

/**
 * Every proxy variable on a closed loopback port (only 127.0.0.1 bypasses it), no telemetry,
 * updates or error reports: a `claude` run with these cannot reach the network.
 */
export const OFFLINE: Readonly<Record<string, string>> = {
  HTTPS_PROXY: "http://127.0.0.1:9",
  HTTP_PROXY: "http://127.0.0.1:9",
  https_proxy: "http://127.0.0.1:9",
  http_proxy: "http://127.0.0.1:9",
  NO_PROXY: "127.0.0.1",
  no_proxy: "127.0.0.1",
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
  DISABLE_TELEMETRY: "1",
  DISABLE_AUTOUPDATER: "1",
  DISABLE_ERROR_REPORTING: "1",
};

/**
 * The whole environment of a `claude` run against the mock on `port`: a temp HOME and TMPDIR,
 * a dummy key, every proxy variable on a closed loopback port (only 127.0.0.1 bypasses it), no
 * telemetry or updates; `extra` is added last.
 */
export async function clientEnv(
  sandbox: { home: string; tmp: string },
  port: number,
  extra: Record<string, string> = {},
): Promise<Record<string, string>> {
  return {
    PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
    HOME: sandbox.home,
    TMPDIR: sandbox.tmp,
    DENO_DIR: await denoDir(),
    DENO_NO_UPDATE_CHECK: "1",
    ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}`,
    ANTHROPIC_API_KEY: "sk-ant-test-dummy",
    ...OFFLINE,
    ...extra,
  };
}

/** A shell loop that waits (at most `seconds`) until the shell test `ready` holds, else exits 1. */
export function waitScript(ready: string, seconds: number): string {
  return `i=0\nuntil ${ready}; do i=$((i+1)); [ $i -gt ${
    seconds * 10
  } ] && exit 1; sleep 0.1; done\n`;
}

/** A mock whose first turn runs a script, the client's environment for it, and its turns. */
export interface ScriptedClient {
  /** The mock of the Messages API. */
  mock: MockApi;
  /** The client's environment: the knowledge base's, its cache in its TMPDIR, debug records on. */
  env: Record<string, string>;
  /** How many requests the mock answered. */
  turns(): number;
  /** Stops the mock, so a test can hold the client with `await using`. */
  [Symbol.asyncDispose](): Promise<void>;
}

/**
 * A mock whose first turn runs `sh <script>` (written into the knowledge base's root) and whose
 * next ones say "done", with the client's environment for a knowledge base `kb` (`extra` last).
 */
export async function scriptedClient(
  kb: Kb,
  script: string,
  extra: Record<string, string> = {},
): Promise<ScriptedClient> {
  const path = join(kb.root, `turn-${crypto.randomUUID()}.sh`);
  await Deno.writeTextFile(path, script);
  let turns = 0;
  const mock = startMockApi(() =>
    turns++ === 0
      ? { blocks: [toolUse("Bash", { command: `sh ${shellQuote(path)}`, description: "wait" })] }
      : say("done")
  );
  const env = await clientEnv(kb, mock.port, {
    ...kb.env,
    XDG_CACHE_HOME: kb.tmp,
    KB_HOOK_DEBUG: "1",
    ...extra,
  });
  return { mock, env, turns: () => turns, [Symbol.asyncDispose]: () => mock.close() };
}

/**
 * Add a marketplace (this repo's, or a copy of it at `marketplace`) and install the git-kb plugin
 * into the HOME of `env`. A directory marketplace's plugin runs where it sits.
 */
export async function installPlugin(
  claude: string,
  project: string,
  env: Record<string, string>,
  marketplace: string = ROOT,
): Promise<void> {
  for (
    const args of [
      ["plugin", "marketplace", "add", marketplace],
      ["plugin", "install", "git-kb@git-kb"],
    ]
  ) {
    const result = await runProcess(claude, args, {
      cwd: project,
      env,
      clearEnv: true,
      timeoutMs: 120_000,
    });
    assertEquals(result.code, 0, `claude ${args.join(" ")}: ${result.stdout}${result.stderr}`);
  }
}

/** A `project` folder in the knowledge base's root, with the git-kb plugin installed. */
export async function pluginProject(kb: Kb): Promise<string> {
  const project = join(kb.root, "project");
  await Deno.mkdir(project);
  await installPlugin(CLAUDE_CLI!, project, await clientEnv(kb, 9, kb.env));
  return project;
}

/**
 * A session of the real client in `project` that says hello, asks two more questions (one turn
 * is too few to compact) and runs /compact, each call asserted to exit 0; returns its id.
 */
export async function compactedSession(
  project: string,
  env: Record<string, string>,
): Promise<string> {
  const id = crypto.randomUUID();
  const prompts = [
    ["hello", "--session-id"],
    ["tell me more about it please", "--resume"],
    ["and what else should I know here", "--resume"],
    ["/compact", "--resume"],
  ];
  for (const [prompt, session] of prompts) {
    const result = await runProcess(CLAUDE_CLI!, ["-p", prompt, session, id], {
      cwd: project,
      env,
      clearEnv: true,
      timeoutMs: 120_000,
    });
    assertEquals(result.code, 0, `${prompt}: ${result.stdout}${result.stderr}`);
  }
  return id;
}
