/**
 * `git-kb setup --agent codex|gemini [--mcp]` against the real Codex and Gemini CLIs (`CODEX_CLI`
 * and `GEMINI_CLI`, set by `deno task test:e2e` to the releases in run.ts; an agent's tests are
 * skipped without its variable), offline: a temp HOME, the sample knowledge base found through
 * KB_DIR alone, every proxy variable on a closed port, no model. The entries setup writes run a
 * stand-in launcher that records the MCP server's environment, then runs the real one.
 *
 * - Codex: `codex app-server` (its JSON-RPC over stdio) lists the server's tools, and its `search`
 *   finds the knowledge base: the server got KB_DIR and SSH_AUTH_SOCK, which Codex passes on only
 *   when `env_vars` names them. The hooks listing shows the prompt hook, untrusted: `codex exec`
 *   against a loopback mock of the Responses API then sends the model no pointers; once the hook
 *   is trusted (as /hooks would record it), the hook's pointers reach the model.
 * - Gemini CLI: `gemini mcp list` says the server is Disabled in a folder not trusted, Connected
 *   in a trusted one. `gemini -p` in a trusted folder, with a BeforeModel hook of the test's that
 *   records the request and answers in the model's place, sends the model the hook's pointers and
 *   the server's instructions; the server got SSH_AUTH_SOCK, which Gemini CLI redacts unless the
 *   entry's `env` names it.
 */
import { assert, assertEquals, assertMatch, assertStringIncludes } from "@std/assert";
import { dirname } from "@std/path/posix/dirname";
import { join } from "@std/path/posix/join";
import { shellQuote } from "../../core/shell/quote.ts";
import { runProcess } from "../../io/process.ts";
import { denoDir, type Kb, makeKb, ROOT, show } from "../helpers.ts";
import { OFFLINE, textOf } from "./_mock_api.ts";

const CODEX_CLI = Deno.env.get("CODEX_CLI");
const GEMINI_CLI = Deno.env.get("GEMINI_CLI");
if (!CODEX_CLI || !GEMINI_CLI) {
  console.log(
    "agents_e2e_test.ts: CODEX_CLI or GEMINI_CLI is not set (run `deno task test:e2e`); " +
      "the tests of that agent are skipped",
  );
}

/** A prompt the sample knowledge base has entries for, and the first of them. */
const PROMPT = "How should we pin GitHub Actions in our CI workflows?";
const ENTRY = "kb-2yb6n";
/** What the prompt hook's context starts with. */
const POINTERS = "git-kb: knowledge from the user's knowledge base for this prompt.";

/** The knowledge base, a project folder, the stand-in launcher and the agents' environment. */
interface Wired {
  kb: Kb;
  project: string;
  launcher: string;
  /** Every variable an agent runs with: HOME, PATH with Deno, KB_DIR, an ssh agent socket. */
  env: Record<string, string>;
  /** Run `git-kb setup` with `args` through the real launcher, the stand-in as KB_CLI. */
  setup(...args: string[]): Promise<void>;
  /** The environment the MCP server last started with. */
  serverEnv(): Promise<Record<string, string>>;
}

async function wire(kb: Kb): Promise<Wired> {
  const project = join(kb.root, "project");
  const launcher = join(kb.root, "bin", "git-kb");
  const record = join(kb.root, "server-env.txt");
  await Deno.mkdir(project);
  await Deno.mkdir(dirname(launcher));
  const real = join(ROOT, "plugin", "bin", "git-kb");
  await Deno.writeTextFile(
    launcher,
    `#!/bin/sh\n[ "$1" = mcp ] && env > ${shellQuote(record)}\nexec ${shellQuote(real)} "$@"\n`,
    { mode: 0o755 },
  );
  const env = {
    PATH: `${dirname(Deno.execPath())}:${Deno.env.get("PATH") ?? "/usr/bin:/bin"}`,
    DENO_DIR: await denoDir(),
    DENO_NO_UPDATE_CHECK: "1",
    ...OFFLINE,
    ...kb.env,
    SSH_AUTH_SOCK: join(kb.root, "ssh-agent.sock"),
  };
  return {
    kb,
    project,
    launcher,
    env,
    async setup(...args) {
      const result = await runProcess(real, ["setup", ...args], {
        cwd: project,
        env: { ...env, KB_CLI: launcher },
        clearEnv: true,
        timeoutMs: 60_000,
      });
      assertEquals(result.code, 0, `setup ${args.join(" ")}: ${result.stdout}${result.stderr}`);
    },
    async serverEnv() {
      const lines = (await Deno.readTextFile(record)).split("\n");
      return Object.fromEntries(
        lines.map((line) => [line.split("=")[0], line.replace(/^[^=]*=/, "")]),
      );
    },
  };
}

/** `promise`, or an error naming `what` once `ms` have passed. */
async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

type Json = Record<string, unknown>;

/** A running `codex app-server`: requests answered by id; disposing of it ends it. */
interface AppServer extends AsyncDisposable {
  request(method: string, params: Json): Promise<Json>;
}

/** Start `codex app-server` (JSON-RPC over stdio) in `cwd` and initialize it. */
async function codexAppServer(env: Record<string, string>, cwd: string): Promise<AppServer> {
  const child = new Deno.Command(CODEX_CLI!, {
    args: ["app-server"],
    cwd,
    env,
    clearEnv: true,
    stdin: "piped",
    stdout: "piped",
    stderr: "null",
  }).spawn();
  const writer = child.stdin.getWriter();
  const waiting = new Map<number, PromiseWithResolvers<Json>>();
  const reading = (async () => {
    let buffer = "";
    for await (const chunk of child.stdout.pipeThrough(new TextDecoderStream())) {
      buffer += chunk;
      for (let end = buffer.indexOf("\n"); end >= 0; end = buffer.indexOf("\n")) {
        const line = buffer.slice(0, end).trim();
        buffer = buffer.slice(end + 1);
        const message = line ? JSON.parse(line) : {};
        // A request of the server's own carries a method and an id of its own.
        if (!("method" in message)) waiting.get(message.id)?.resolve(message);
      }
    }
  })();
  const send = (message: Json) =>
    writer.write(new TextEncoder().encode(`${JSON.stringify(message)}\n`));
  let next = 0;
  const request = async (method: string, params: Json) => {
    const id = next++;
    const reply = Promise.withResolvers<Json>();
    waiting.set(id, reply);
    await send({ id, method, params });
    const message = await within(reply.promise, 60_000, `codex app-server ${method}`);
    if (message.error) throw new Error(`${method}: ${JSON.stringify(message.error)}`);
    return message.result as Json;
  };
  await request("initialize", { clientInfo: { name: "git-kb-e2e", version: "1" } });
  await send({ method: "initialized" });
  return {
    request,
    async [Symbol.asyncDispose]() {
      await writer.close().catch(() => {});
      const stop = setTimeout(() => child.kill("SIGTERM"), 5_000);
      await child.status;
      clearTimeout(stop);
      await reading.catch(() => {});
    },
  };
}

/** A loopback mock of the Responses API: one streamed reply, "done", to every request. */
function startResponsesMock() {
  const received: Json[] = [];
  const events = [
    { type: "response.created", response: { id: "resp_e2e" } },
    {
      type: "response.output_item.done",
      item: {
        type: "message",
        role: "assistant",
        id: "msg_e2e",
        content: [{ type: "output_text", text: "done" }],
      },
    },
    {
      type: "response.completed",
      response: {
        id: "resp_e2e",
        usage: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
      },
    },
  ];
  const stream = events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`)
    .join("");
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, async (request) => {
    if (request.method !== "POST" || !new URL(request.url).pathname.endsWith("/responses")) {
      return new Response("not found", { status: 404 });
    }
    received.push(await request.json());
    return new Response(stream, { headers: { "content-type": "text/event-stream" } });
  });
  const close = () => server.shutdown();
  return { received, port: server.addr.port, [Symbol.asyncDispose]: close };
}

/** `codex exec PROMPT` against the mock on `port`; returns the text Codex sent as developer. */
async function codexTurn(wired: Wired, mock: { received: Json[]; port: number }) {
  const before = mock.received.length;
  const provider = `{ name = "mock", base_url = "http://127.0.0.1:${mock.port}/v1", ` +
    `wire_api = "responses", env_key = "GIT_KB_E2E_MOCK_KEY" }`;
  const result = await runProcess(CODEX_CLI!, [
    "exec",
    "--skip-git-repo-check",
    "-c",
    'model_provider="mock"',
    "-c",
    `model_providers.mock=${provider}`,
    "-m",
    "mock-model",
    PROMPT,
  ], {
    cwd: wired.project,
    env: { ...wired.env, GIT_KB_E2E_MOCK_KEY: "dummy" },
    clearEnv: true,
    timeoutMs: 120_000,
  });
  assertEquals(result.code, 0, show(result));
  const [body] = mock.received.slice(before);
  assert(body, `no request reached the mock\n${show(result)}`);
  const input = body.input as { role?: string }[];
  return input.filter((item) => item.role === "developer").map(textOf).join("\n");
}

Deno.test({
  name: "codex: setup --mcp's server lists its tools to Codex and searches KB_DIR's knowledge base",
  ignore: !CODEX_CLI,
  async fn() {
    await using kb = await makeKb();
    const wired = await wire(kb);
    await wired.setup("--agent", "codex", "--mcp");
    await using server = await codexAppServer(wired.env, wired.project);
    const { data } = await server.request("mcpServerStatus/list", {}) as { data: Json[] };
    const ours = data.find((status) => status.name === "git-kb");
    assert(ours, JSON.stringify(data));
    assertEquals(ours.toolsError ?? null, null);
    assertEquals(Object.keys(ours.tools as Json).sort(), [
      "add",
      "context",
      "edit",
      "get",
      "search",
    ]);
    const { thread } = await server.request("thread/start", {
      cwd: wired.project,
      ephemeral: true,
    }) as { thread: { id: string } };
    const found = await server.request("mcpServer/tool/call", {
      threadId: thread.id,
      server: "git-kb",
      tool: "search",
      arguments: { queries: ["pin github actions"] },
    });
    assert(!found.isError, JSON.stringify(found));
    assertStringIncludes(textOf(found.content), ENTRY);
    // Codex passes a server only a few variables of its own and those env_vars names.
    const serverEnv = await wired.serverEnv();
    assertEquals(serverEnv.KB_DIR, kb.dir);
    assertEquals(serverEnv.SSH_AUTH_SOCK, wired.env.SSH_AUTH_SOCK);
  },
});

Deno.test({
  name:
    "codex: setup's prompt hook is listed untrusted, and once trusted its pointers reach the model",
  ignore: !CODEX_CLI,
  async fn() {
    await using kb = await makeKb();
    const wired = await wire(kb);
    await wired.setup("--agent", "codex");
    let hook: Json;
    {
      await using server = await codexAppServer(wired.env, wired.project);
      const { data } = await server.request("hooks/list", { cwds: [wired.project] }) as {
        data: { hooks: Json[]; errors: unknown[]; warnings: unknown[] }[];
      };
      assertEquals([data[0].errors, data[0].warnings], [[], []]);
      assertEquals(data[0].hooks.length, 1, JSON.stringify(data));
      hook = data[0].hooks[0];
      assertEquals(
        [hook.eventName, hook.command, hook.timeoutSec, hook.source, hook.trustStatus],
        ["userPromptSubmit", `"${wired.launcher}" hook prompt`, 10, "user", "untrusted"],
      );
    }
    await using mock = startResponsesMock();
    assert(!(await codexTurn(wired, mock)).includes(POINTERS), "an untrusted hook does not run");
    // What reviewing the hook in /hooks records.
    await Deno.writeTextFile(
      join(kb.home, ".codex", "config.toml"),
      `[hooks.state.${JSON.stringify(hook.key)}]\n` +
        `trusted_hash = ${JSON.stringify(hook.currentHash)}\n`,
      { append: true },
    );
    const developer = await codexTurn(wired, mock);
    assertStringIncludes(developer, POINTERS);
    assertStringIncludes(developer, ENTRY);
  },
});

Deno.test({
  name:
    "gemini: setup's hook and server run in a trusted folder, pointers and the server reaching " +
    "the model; in one not trusted the server is Disabled",
  ignore: !GEMINI_CLI,
  async fn() {
    await using kb = await makeKb();
    const wired = await wire(kb);
    await wired.setup("--agent", "gemini");
    await wired.setup("--agent", "gemini", "--mcp");
    // A BeforeModel hook of the test's records the request and answers in the model's place.
    const file = join(kb.home, ".gemini", "settings.json");
    const recorded = join(kb.root, "model-request.json");
    const model = join(kb.root, "model.sh");
    const answer = {
      decision: "deny",
      reason: "offline",
      hookSpecificOutput: {
        hookEventName: "BeforeModel",
        llm_response: { candidates: [{ content: { role: "model", parts: ["done"] } }] },
      },
    };
    await Deno.writeTextFile(
      model,
      `#!/bin/sh\ncat > ${shellQuote(recorded)}\nprintf '%s' ${
        shellQuote(JSON.stringify(answer))
      }\n`,
      { mode: 0o755 },
    );
    const settings = JSON.parse(await Deno.readTextFile(file));
    settings.hooks.BeforeModel = [{
      hooks: [{ type: "command", command: shellQuote(model), name: "e2e-model" }],
    }];
    settings.privacy = { usageStatisticsEnabled: false };
    await Deno.writeTextFile(file, JSON.stringify(settings));
    const gemini = (args: string[], trusted: boolean) =>
      runProcess(GEMINI_CLI!, args, {
        cwd: wired.project,
        env: {
          ...wired.env,
          GEMINI_API_KEY: "e2e-dummy",
          ...trusted ? { GEMINI_CLI_TRUST_WORKSPACE: "true" } : {},
        },
        clearEnv: true,
        timeoutMs: 120_000,
      });

    const untrusted = await gemini(["mcp", "list"], false);
    assertMatch(untrusted.stdout + untrusted.stderr, /git-kb: .* - Disabled/, show(untrusted));
    const trusted = await gemini(["mcp", "list"], true);
    assertMatch(trusted.stdout + trusted.stderr, /git-kb: .* - Connected/, show(trusted));

    const run = await gemini(["-m", "gemini-2.5-flash", "-p", PROMPT, "-o", "json"], true);
    assertEquals(run.code, 0, show(run));
    assertEquals(JSON.parse(run.stdout).response, "done");
    const { llm_request } = JSON.parse(await Deno.readTextFile(recorded));
    const sent = textOf(llm_request.messages);
    assertStringIncludes(sent, `<hook_context>${POINTERS}`);
    assertStringIncludes(sent, ENTRY);
    assertStringIncludes(sent, "tool server 'git-kb'");
    const serverEnv = await wired.serverEnv();
    assertEquals(serverEnv.KB_DIR, kb.dir);
    assertEquals(serverEnv.SSH_AUTH_SOCK, wired.env.SSH_AUTH_SOCK);
  },
});
