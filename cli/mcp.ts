/**
 * `git-kb mcp`: the knowledge base as a Model Context Protocol server over stdio, for any agent
 * that speaks it (Codex, Cursor, Claude Desktop, Gemini CLI…). It serves the tools of
 * cli/mcp_tools.ts and every entry as a resource (`kb://entry/<id>`); `--read-only` leaves out
 * the tools that write, and the launcher then runs it with the read profile (no write outside
 * the cache, no git). Built on the protocol's official SDK, which only this command loads: it
 * has a bundle of its own (app/registry.ts).
 *
 * @module
 */
import { tagsShown } from "../core/text/display.ts";
import process from "node:process";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import type {
  Transport,
  TransportSendOptions,
} from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  ErrorCode,
  type JSONRPCMessage,
  type ListResourcesRequest,
  ListResourcesRequestSchema,
  McpError,
  type MessageExtraInfo,
} from "@modelcontextprotocol/sdk/types.js";
import denoConfig from "../deno.json" with { type: "json" };
import { refusal } from "../core/mcp/jsonrpc.ts";
import { notGiven, pageOf, readCursor } from "../core/mcp/pages.ts";
import { percentDecoded } from "../core/mcp/percent.ts";
import { getEntries, listEntries, MCP_STEPS } from "../io/kbs/get.ts";
import { LineTransport } from "../io/mcp/stdio.ts";
import { INTERRUPTS, terminationSignal } from "../io/process.ts";
import { type CommandSpec, helpText, NO_POSITIONALS, parseCommand } from "./args.ts";
import { errorMessage, type ToolContext, toolError, TOOLS } from "./mcp_tools.ts";

/** The command: its usage, options and positionals. */
export const command = {
  usage: ["mcp [options]"],
  about: `Serve the knowledge base to an agent over the Model Context Protocol (stdio):
the agent starts this command and talks to it on stdin and stdout. Tools:
  search    several phrasings fused into one ranking, optionally one type
  get       entries by id, with their links both directions
  context   what the prompt hook would add for a task (no session is recorded)
  add       a new entry, through the save pipeline (validate, commit, push)
  edit      a change to an entry, through the same pipeline
Every entry is also a resource, kb://entry/<id>. A tool given a bad argument
answers with an error naming it, and writes nothing; credentials are refused.
With --read-only there is no add or edit, and the server runs with read access
only (it writes nothing but its cache and runs no git).

To wire it into an agent: git-kb setup --agent <name> --mcp`,
  options: {
    "read-only": {
      type: "boolean",
      help: "serve search, get, context and the resources only: no tool that writes",
    },
  },
  positionals: NO_POSITIONALS,
} as const satisfies CommandSpec;

/** Help text. */
export const help: string = helpText(command);

/** What the server tells the model about itself when a session starts. */
const INSTRUCTIONS =
  "git-kb is the user's personal knowledge base: their decisions, rules, how-tos and notes, " +
  "kept as markdown in their own git repository. At the start of a task call context with " +
  "the task; before answering a question about the user's conventions, projects or past " +
  "decisions, search; read what matters with get.";

/** The most entries a page of `resources/list` holds. */
export const RESOURCES_PAGE = 500;

/** The lists the server serves in one page (the SDK's): a cursor in a request for one is not ours. */
const ONE_PAGE_LISTS = ["tools/list", "resources/templates/list"];

/** The error code of a resource that does not exist, as the protocol's specification sets it. */
const RESOURCE_NOT_FOUND = -32002;

/** The URI of an entry's resource. */
function entryUri(id: string): string {
  return `kb://entry/${id}`;
}

/** A server, and a way to wait for the tool calls under way. */
export interface KbServer {
  server: McpServer;
  /** The names of the tools it serves. */
  served: readonly string[];
  /** Resolves once no tool call is running (a save is never cut off by the client leaving). */
  idle(): Promise<void>;
}

/** A server with the tools (the read-only ones alone with `readOnly`) and the resources. */
export function mcpServer(context: ToolContext, readOnly: boolean): KbServer {
  const running = new Set<Promise<unknown>>();
  const served: string[] = [];
  const server = new McpServer(
    { name: "git-kb", version: denoConfig.version },
    { instructions: INSTRUCTIONS },
  );
  for (const tool of TOOLS) {
    if (readOnly && tool.writes) continue;
    served.push(tool.name);
    server.registerTool(tool.name, {
      title: tool.title,
      description: tool.description,
      inputSchema: tool.input,
      annotations: { readOnlyHint: !tool.writes, destructiveHint: false, openWorldHint: false },
    }, (args: Parameters<typeof tool.run>[0]) => {
      let changed = false;
      const committed = () => changed = true;
      const call = tool.run(args, { ...context, committed }).then((result) => {
        // The capability the SDK declares (resources.listChanged) promises the client this; a
        // call that committed nothing changed no entry, and says so instead.
        if (changed && !result.isError) server.sendResourceListChanged();
        return result;
      }).catch((error) => toolError(errorMessage(error)));
      running.add(call);
      return call.finally(() => running.delete(call));
    });
  }
  server.registerResource(
    "entry",
    // Listed below, a page at a time: the SDK's own listing has no pages.
    new ResourceTemplate(entryUri("{id}"), { list: undefined }),
    {
      title: "Knowledge base entry",
      description: "An entry of the user's knowledge base, as stored (frontmatter and markdown)",
      mimeType: "text/markdown",
    },
    async (uri: URL, { id: escaped }: Record<string, string | string[]>) => {
      const decoded = percentDecoded(String(escaped));
      if ("malformed" in decoded) {
        throw new McpError(ErrorCode.InvalidParams, `${uri.href}: in the id, ${decoded.malformed}`);
      }
      const id = decoded.text;
      const { found, reasons } = await getEntries(context.kbFlag, [id], { steps: MCP_STEPS });
      if (!found.length) {
        throw new McpError(RESOURCE_NOT_FOUND, reasons.join("; ") || `no entry ${id}`, {
          uri: uri.href,
        });
      }
      return {
        contents: [{ uri: uri.href, mimeType: "text/markdown", text: tagsShown(found[0].text) }],
      };
    },
  );
  server.server.removeRequestHandler("resources/list");
  server.server.setRequestHandler(
    ListResourcesRequestSchema,
    async ({ params }: ListResourcesRequest) => {
      const cursor = params?.cursor === undefined ? undefined : readCursor(params.cursor);
      if (cursor && "invalid" in cursor) {
        throw new McpError(ErrorCode.InvalidParams, `Invalid params: ${cursor.invalid}`);
      }
      const entries = await listEntries(context.kbFlag);
      const page = pageOf(entries, (entry) => entry.id, cursor?.after, RESOURCES_PAGE);
      return {
        resources: page.items.map((entry) => ({
          uri: entryUri(entry.id),
          name: entry.id,
          title: entry.title,
          description: entry.status === "active" ? entry.type : `${entry.type}, ${entry.status}`,
          mimeType: "text/markdown",
        })),
        ...page.nextCursor ? { nextCursor: page.nextCursor } : {},
      };
    },
  );
  const idle = async () => {
    while (running.size) await Promise.allSettled(running);
  };
  return { server, served, idle };
}

/**
 * Answer a call of a tool the server does not serve with the protocol's error for it (-32602),
 * as the specification has it for an unknown tool (the SDK answers a tool error, which reads as
 * the tool having run), naming the tools served; a tool that writes, asked of `--read-only`, is
 * said to be left out by it.
 */
function refuseUnknownTools(transport: Transport, served: readonly string[]): void {
  const receive = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
    const name = "method" in message && message.method === "tools/call"
      ? String(message.params?.name)
      : undefined;
    if (name === undefined || !("id" in message) || served.includes(name)) {
      return receive?.(message, extra);
    }
    const writes = TOOLS.some((tool) => tool.name === name && tool.writes);
    const reason =
      `Unknown tool: ${JSON.stringify(name)}; this server serves ${served.join(", ")}` +
      (writes
        ? "; it runs with --read-only, which serves no tool that writes: for add and edit, run " +
          "git-kb mcp without it (git-kb setup --agent <agent> --mcp writes that)"
        : "");
    void transport.send(refusal(message.id, ErrorCode.InvalidParams, reason) as JSONRPCMessage);
  };
}

/**
 * Why the params of a request are invalid where the SDK would not say so: a cursor in a request
 * for a list the server serves in one page (the server gave none; the SDK reads past it), or a
 * resource URI that is no URI at all (the SDK's parse of it fails as an internal error, -32603).
 */
function invalidParams(method: string, params: Record<string, unknown> | undefined) {
  if (ONE_PAGE_LISTS.includes(method) && params?.cursor !== undefined) {
    return notGiven(String(params.cursor));
  }
  if (method === "resources/read" && !URL.canParse(String(params?.uri))) {
    return `the uri ${JSON.stringify(params?.uri)} is not a URI; an entry is read as ` +
      `${entryUri("<id>")} (resources/list lists them)`;
  }
  return undefined;
}

/** Refuse a request whose params are invalid (see {@link invalidParams}) with -32602. */
function refuseInvalidParams(transport: Transport): void {
  const receive = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
    const why = "method" in message && "id" in message
      ? invalidParams(message.method, message.params)
      : undefined;
    if (why === undefined || !("id" in message)) return receive?.(message, extra);
    const reason = `Invalid params: ${why}`;
    void transport.send(refusal(message.id, ErrorCode.InvalidParams, reason) as JSONRPCMessage);
  };
}

/**
 * Follow the requests a connected transport receives until each is answered: the returned
 * function resolves once none is waiting for its answer. A request reusing the id of one still
 * under way is refused (the protocol forbids it): served, its answer would count as the first
 * one's, and the first one's, still due, would be cut off when the client leaves.
 */
function trackAnswers(transport: Transport): () => Promise<void> {
  const unanswered = new Set<string | number>();
  let settle = () => {};
  const receive = transport.onmessage;
  const send = transport.send.bind(transport);
  const answered = (id: unknown) => {
    unanswered.delete(id as string | number);
    if (!unanswered.size) settle();
  };
  transport.onmessage = (message: JSONRPCMessage, extra?: MessageExtraInfo) => {
    if ("method" in message && "id" in message) {
      if (unanswered.has(message.id)) {
        const reason = `Invalid Request: the id ${
          JSON.stringify(message.id)
        } is that of a request still under way; give each request an id of its own`;
        void send(refusal(message.id, ErrorCode.InvalidRequest, reason) as JSONRPCMessage);
        return;
      }
      unanswered.add(message.id);
    }
    receive?.(message, extra);
    // A request the client cancels gets no answer (the protocol says so): wait for it no more.
    if ("method" in message && message.method === "notifications/cancelled") {
      answered(message.params?.requestId);
    }
  };
  transport.send = async (message: JSONRPCMessage, options?: TransportSendOptions) => {
    await send(message, options);
    if (!("method" in message) && "id" in message) answered(message.id);
  };
  return () =>
    unanswered.size ? new Promise<void>((resolve) => settle = resolve) : Promise.resolve();
}

/**
 * Run the command: serve until the client closes stdin or sends SIGTERM (as clients do when they
 * shut a server down), SIGINT or SIGHUP, then finish the calls under way, send their answers and
 * exit 0.
 */
export async function run(args: string[]): Promise<number> {
  const { values } = parseCommand(args, command.options, command);
  const { server, served, idle } = mcpServer(
    { kbFlag: values.kb },
    values["read-only"] ?? false,
  );
  // Stdout carries the protocol alone: a stray line from anywhere goes to stderr instead.
  console.log = console.error;
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
  });
  const transport = new LineTransport();
  await server.connect(transport);
  refuseUnknownTools(transport, served);
  refuseInvalidParams(transport);
  const answered = trackAnswers(transport);
  // Stdout stays open when stdin ends: the calls under way answer before the server closes.
  const stop = () => void answered().then(() => server.close());
  process.stdin.once("end", stop);
  // Ctrl-C (a server run by hand) and a hang-up end it as SIGTERM does: never in a save's middle.
  using terminated = terminationSignal(INTERRUPTS);
  terminated.addEventListener("abort", stop);
  await closed;
  await idle();
  return 0;
}
