/**
 * `git-kb mcp` facing a client that breaks the protocol, fed raw lines on stdin by a real
 * subprocess (the command's own permission profile, a real knowledge base with a bare remote):
 * every line that is not a message it can serve gets the JSON-RPC 2.0 error response, with the
 * request's id where one can be read, and the server goes on serving; a line over the size limit
 * is refused without closing the connection; a request split across reads is served; a request
 * the client cancels neither keeps the server from exiting when stdin ends nor cuts its save off.
 */
import { assert, assertEquals, assertMatch, assertNotMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import { git, type Kb, makeKb, saveUnderWay, spawnMcp } from "./helpers.ts";

/** A JSON-RPC message as a line of stdin. */
const line = (message: unknown) => `${JSON.stringify(message)}\n`;

/** The lines that open a session. */
const OPEN = line({
  jsonrpc: "2.0",
  id: "open",
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "git-kb-test", version: "1.0.0" },
  },
}) + line({ jsonrpc: "2.0", method: "notifications/initialized" });

/** What the server answered, and how it ended. */
interface Served {
  code: number;
  answers: {
    jsonrpc: string;
    id?: unknown;
    result?: Record<string, unknown>;
    error?: { code: number; message: string };
  }[];
  stderr: string;
}

/**
 * What `ending` resolves to once `child` exited; the child is killed, and the test fails, if it
 * has not exited 20 s after stdin closed.
 */
async function exitWithin<T>(child: Deno.ChildProcess, ending: Promise<T>): Promise<T> {
  let hung = false;
  const timer = setTimeout(() => {
    hung = true;
    child.kill("SIGKILL");
  }, 20_000);
  const ended = await ending;
  clearTimeout(timer);
  assert(!hung, "the server did not exit within 20 s of stdin closing");
  return ended;
}

/**
 * Start `git-kb mcp` on `kb`, write each of `chunks` (waiting `pauseMs` between them), close
 * stdin, and read what it answers (see {@link exitWithin}).
 */
async function serve(kb: Kb, chunks: (string | Uint8Array)[], pauseMs = 0): Promise<Served> {
  const child = await spawnMcp(kb.env);
  const writer = child.stdin.getWriter();
  for (const chunk of chunks) {
    await writer.write(typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk);
    if (pauseMs) await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  await writer.close();
  const output = await exitWithin(child, child.output());
  const stdout = new TextDecoder().decode(output.stdout);
  const stderr = new TextDecoder().decode(output.stderr);
  const answers = stdout.split("\n").filter(Boolean).map((text) => JSON.parse(text));
  return { code: output.code, answers, stderr };
}

/**
 * As {@link serve}, but `chunks` are written once the server answered the first line, `open` (a
 * client waits for the answer to initialize before it sends anything but a ping).
 */
async function serveOpened(kb: Kb, open: string, chunks: string[]): Promise<Served> {
  const child = await spawnMcp(kb.env);
  const writer = child.stdin.getWriter();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let stdout = "";
  const readOn = async (until: () => boolean) => {
    while (!until()) {
      const { value, done } = await reader.read();
      if (done) return;
      stdout += value;
    }
  };
  await writer.write(new TextEncoder().encode(open));
  await readOn(() => stdout.includes("\n"));
  for (const chunk of chunks) await writer.write(new TextEncoder().encode(chunk));
  await writer.close();
  const [status, stderr] = await exitWithin(
    child,
    Promise.all([child.status, new Response(child.stderr).text(), readOn(() => false)]),
  );
  const answers = stdout.split("\n").filter(Boolean).map((text) => JSON.parse(text));
  return { code: status.code, answers, stderr };
}

Deno.test("mcp: every malformed line gets its JSON-RPC 2.0 error with the id it can read, and serving goes on", async () => {
  await using kb = await makeKb({ remote: true });
  const call = (id: unknown, method: string, params?: unknown) =>
    line({ jsonrpc: "2.0", id, method, ...params === undefined ? {} : { params } });
  const { code, answers, stderr } = await serve(kb, [
    OPEN,
    "{not json\n",
    call(1, "tools/call", "search"),
    call(1.5, "tools/list"),
    call({ nested: 1 }, "tools/list"),
    call(true, "ping"),
    line([{ jsonrpc: "2.0", id: 2, method: "ping" }]),
    line({ jsonrpc: "1.0", id: 3, method: "ping" }),
    line({ jsonrpc: "2.0", id: 4 }),
    "42\n",
    call(5, "tools/call", { name: "get", arguments: "kb-7q2mx" }),
    call(6, "resources/read", { uri: 42 }),
    call(7, "resources/read", { uri: "kb://entry/..%2F..%2Fetc%2Fpasswd" }),
    // A URI of no form the server serves: the SDK's own answer, nothing read.
    call(10, "resources/read", { uri: "file:///etc/passwd" }),
    call(8, "no/such/method"),
    // A tool the server does not serve: the protocol's error, not a tool's result.
    call(11, "tools/call", { name: "no-such-tool", arguments: {} }),
    // A member JSON-RPC 2.0 does not define is read past.
    line({ jsonrpc: "2.0", id: "extra", method: "ping", trace: "abc" }),
    // A response to nothing, malformed: not answered (a response is never answered).
    line({ jsonrpc: "2.0", id: 9, result: "not an object" }),
    call("last", "ping"),
  ]);
  assertEquals(code, 0, stderr);
  // Answers come as each request finishes: compare them in one order.
  const sorted = (pairs: unknown[][]) => pairs.map((pair) => JSON.stringify(pair)).sort();
  const refusals = answers.filter((answer) => answer.error).map(({ id, error }) => [
    id,
    error!.code,
  ]);
  assertEquals(
    sorted(refusals),
    sorted([
      [null, -32700],
      [1, -32600],
      [1.5, -32600],
      [null, -32600],
      [null, -32600],
      [null, -32600],
      [3, -32600],
      [4, -32600],
      [null, -32600],
      [5, -32602],
      [6, -32602],
      [7, -32002],
      [10, -32602],
      [8, -32601],
      [11, -32602],
    ]),
  );
  assertMatch(
    answers.find((answer) => answer.id === 7)?.error?.message ?? "",
    /no entry \.\.\/\.\.\/etc\/passwd;/,
  );
  assertNotMatch(JSON.stringify(answers.find((answer) => answer.id === 7)), /root:/);
  assertNotMatch(JSON.stringify(answers.find((answer) => answer.id === 10)), /root:/);
  assertMatch(
    answers.find((answer) => answer.id === 11)?.error?.message ?? "",
    /^Unknown tool: "no-such-tool"; this server serves search, get, context, add, edit$/,
  );
  assertEquals(answers.find((answer) => answer.id === "last")?.result, {});
  assertEquals(answers.find((answer) => answer.id === "extra")?.result, {});
  assert(!answers.some((answer) => answer.id === 9), JSON.stringify(answers));
});

Deno.test("mcp: protocol 2025-03-26 serves a batch, its answers in one array; 2025-06-18 refuses one", async () => {
  await using kb = await makeKb({ remote: true });
  const request = (id: unknown, method: string, params?: unknown) => ({
    jsonrpc: "2.0",
    id,
    method,
    ...params === undefined ? {} : { params },
  });
  const batch = [
    request("p", "ping"),
    request("s", "tools/call", { name: "search", arguments: { queries: "rebase onto main" } }),
    { jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } },
    { nonsense: true },
    request("again", "initialize", { protocolVersion: "2025-03-26" }),
    request("u", "no/such/method"),
  ];
  const { code, answers, stderr } = await serveOpened(
    kb,
    OPEN.replace("2025-06-18", "2025-03-26"),
    [
      line(batch),
      line([]),
      line([{ jsonrpc: "2.0", method: "notifications/initialized" }]),
      line(request("last", "ping")),
    ],
  );
  assertEquals(code, 0, stderr);
  assertEquals(answers.length, 4, JSON.stringify(answers));
  assertEquals(answers[0].result?.protocolVersion, "2025-03-26");
  // Answers come as each is due: the batch's once its search is done, maybe after the others.
  const arrays = answers.filter((answer) => Array.isArray(answer));
  assertEquals(arrays.length, 1, JSON.stringify(answers));
  const served = arrays[0] as unknown as Served["answers"];
  const byId = (id: unknown) => served.find((answer) => answer.id === id);
  assertEquals(served.length, 5, JSON.stringify(served));
  assertEquals(byId("p")?.result, {});
  const hits = JSON.parse((byId("s")?.result?.content as { text: string }[])[0].text).hits;
  assertEquals(hits[0].id, "kb-r4b9t");
  assertEquals(byId(null)?.error?.code, -32600);
  assertMatch(byId("again")?.error?.message ?? "", /initialize must not be part of a batch/);
  assertEquals(byId("u")?.error?.code, -32601);
  // An empty batch is one error, not an array; a batch of notifications alone gets no answer.
  const others = answers.slice(1).filter((answer) => !Array.isArray(answer));
  assertEquals(others.map((answer) => [answer.id, answer.error?.code]).sort(), [
    [null, -32600],
    ["last", undefined],
  ]);
  assertMatch(others.find((answer) => answer.error)?.error?.message ?? "", /an empty batch/);

  const later = await serveOpened(kb, OPEN, [line([request("p", "ping")])]);
  assertEquals(later.answers[1].id, null);
  assertEquals(later.answers[1].error?.code, -32600);
  assertMatch(
    later.answers[1].error?.message ?? "",
    /a batch \(an array\), which protocol version 2025-06-18 does not have \(only 2025-03-26 does\)/,
  );
});

Deno.test("mcp: a line over 10 MiB is refused, the connection kept; a request split across reads is served", async () => {
  await using kb = await makeKb({ remote: true });
  const search = new TextEncoder().encode(line({
    jsonrpc: "2.0",
    id: "split",
    method: "tools/call",
    params: { name: "search", arguments: { queries: ["rebase onto main", "rébase"] } },
  }));
  // Cut in the middle of the two bytes of "é", too.
  const cut = search.indexOf(0xc3) + 1;
  const huge = new Uint8Array(10 * 1024 * 1024 + 16).fill(0x61);
  const { code, answers, stderr } = await serve(kb, [
    OPEN,
    huge,
    "\n",
    search.slice(0, 20),
    search.slice(20, cut),
    search.slice(cut),
    line({ jsonrpc: "2.0", id: "after", method: "ping" }),
  ], 50);
  assertEquals(code, 0, stderr);
  assertEquals(answers.map((answer) => answer.id), ["open", null, "split", "after"]);
  assertEquals(answers[1].error?.code, -32600);
  const content = answers[2].result?.content as { text: string }[];
  assertEquals(JSON.parse(content[0].text).hits[0].id, "kb-r4b9t");
});

Deno.test("mcp: a save the client cancels finishes, and the server still exits when stdin ends", async () => {
  await using kb = await makeKb({ remote: true });
  const title = "Saved though the client cancelled";
  const { code, answers, stderr } = await serve(kb, [
    OPEN,
    line({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "add", arguments: { title, type: "note" } },
    }),
    line({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 2 } }),
  ]);
  assertEquals(code, 0, stderr);
  assertEquals(answers.map((answer) => answer.id), ["open"]);
  assertMatch(await git(kb.dir, "log", "-1", "--format=%s"), new RegExp(title));
  assertEquals(await git(kb.remote!, "rev-parse", "main"), await git(kb.dir, "rev-parse", "HEAD"));
});

Deno.test("mcp: a client that closes stdout during two saves: both finish, pushed, and the server exits 0", async () => {
  await using kb = await makeKb({ remote: true });
  await Deno.writeTextFile(join(kb.remote!, "hooks", "pre-receive"), "#!/bin/sh\nsleep 1\n", {
    mode: 0o755,
  });
  const child = await spawnMcp(kb.env);
  const titles = ["First of two saves", "Second of two saves"];
  const writer = child.stdin.getWriter();
  await writer.write(
    new TextEncoder().encode(
      OPEN + titles.map((title, at) =>
        line({
          jsonrpc: "2.0",
          id: at + 2,
          method: "tools/call",
          params: { name: "add", arguments: { title, type: "note" } },
        })
      ).join(""),
    ),
  );
  // The first push is under way (the remote's hook holds each for 1 s) when the client goes.
  await saveUnderWay(kb.dir);
  await child.stdout.cancel();
  await writer.close();
  const [status, stderr] = await exitWithin(
    child,
    Promise.all([child.status, new Response(child.stderr).text()]),
  );
  assertEquals(status.code, 0, stderr);
  const log = await git(kb.remote!, "log", "--format=%s", "main");
  for (const title of titles) assertMatch(log, new RegExp(title));
  assertEquals(await git(kb.dir, "rev-parse", "HEAD"), await git(kb.remote!, "rev-parse", "main"));
  assertEquals(await git(kb.dir, "status", "--porcelain"), "");
});

Deno.test("mcp: a request reusing the id of one under way is refused, and the first still gets its answer", async () => {
  await using kb = await makeKb({ remote: true });
  const title = "Saved under an id reused meanwhile";
  const { code, answers, stderr } = await serve(kb, [
    OPEN,
    line({
      jsonrpc: "2.0",
      id: "same",
      method: "tools/call",
      params: { name: "add", arguments: { title, type: "note" } },
    }) + line({ jsonrpc: "2.0", id: "same", method: "ping" }),
  ]);
  assertEquals(code, 0, stderr);
  const same = answers.filter((answer) => answer.id === "same");
  assertEquals(same.length, 2, JSON.stringify(answers));
  const refused = same.find((answer) => answer.error);
  assertEquals(refused?.error?.code, -32600);
  assertMatch(refused?.error?.message ?? "", /the id "same" is that of a request still under way/);
  const saved = same.find((answer) => answer.result)?.result?.content as { text: string }[];
  assertMatch(saved[0].text, /"commit"/);
  assertMatch(await git(kb.dir, "log", "-1", "--format=%s"), new RegExp(title));
});

Deno.test("mcp: a last request without its newline before stdin ends is answered", async () => {
  await using kb = await makeKb({ remote: true });
  const { code, answers, stderr } = await serve(kb, [
    OPEN,
    JSON.stringify({ jsonrpc: "2.0", id: "unended", method: "ping" }),
  ]);
  assertEquals(code, 0, stderr);
  assertEquals(answers.map((answer) => [answer.id, answer.result]), [
    ["open", answers[0].result],
    ["unended", {}],
  ]);
});

Deno.test("mcp: a request refused for an id past 2^53 or a bad params._meta names the member", async () => {
  await using kb = await makeKb({ remote: true });
  const { code, answers, stderr } = await serve(kb, [
    OPEN,
    line({ jsonrpc: "2.0", id: 2 ** 60, method: "ping" }),
    line({ jsonrpc: "2.0", id: "meta", method: "ping", params: { _meta: { progressToken: {} } } }),
  ]);
  assertEquals(code, 0, stderr);
  const refusals = answers.filter((answer) => answer.error).map(({ id, error }) => [id, error]);
  assertEquals(refusals.length, 2, JSON.stringify(answers));
  for (const [, error] of refusals) assertEquals((error as { code: number }).code, -32600);
  assertMatch(JSON.stringify(refusals[0]), /Invalid Request: id: Too big: expected int to be <=/);
  assertMatch(JSON.stringify(refusals[1]), /Invalid Request: params\._meta\.progressToken: /);
});

Deno.test("mcp: a resource URI is percent-decoded (RFC 3986); a malformed escape, or no URI, is refused by name", async () => {
  await using kb = await makeKb({ remote: true });
  const read = (id: string, uri: string) =>
    line({ jsonrpc: "2.0", id, method: "resources/read", params: { uri } });
  const { code, answers, stderr } = await serve(kb, [
    OPEN,
    read("escaped", "kb://entry/%6Bb-7q2mx"),
    read("lower", "kb://entry/kb%2d7q2mx"),
    read("cut", "kb://entry/kb-7q2mx%"),
    read("not-hex", "kb://entry/kb-7q%zzmx"),
    read("not-utf8", "kb://entry/kb-7q2mx%FF"),
    read("not-uri", "kb-7q2mx"),
    line({ jsonrpc: "2.0", id: "last", method: "ping" }),
  ]);
  assertEquals(code, 0, stderr);
  const answer = (id: string) => answers.find((answer) => answer.id === id);
  for (const id of ["escaped", "lower"]) {
    const contents = answer(id)?.result?.contents as { uri: string; text: string }[];
    assertMatch(contents?.[0]?.text ?? JSON.stringify(answer(id)), /^id: kb-7q2mx$/m);
  }
  for (
    const [id, why] of [
      [
        "cut",
        /: kb:\/\/entry\/kb-7q2mx%: in the id, "%" at character 9 is not followed by two hex/,
      ],
      ["not-hex", /: kb:\/\/entry\/kb-7q%zzmx: in the id, "%zz" at character 6 is not followed by/],
      ["not-utf8", /: kb:\/\/entry\/kb-7q2mx%FF: in the id, the escaped octets are not UTF-8$/],
      // Not a URI at all: the params are at fault, not the server (the SDK said -32603).
      [
        "not-uri",
        /^Invalid params: the uri "kb-7q2mx" is not a URI; an entry is read as kb:\/\/entry\/<id>/,
      ],
    ] as const
  ) {
    assertEquals(answer(id)?.error?.code, -32602, JSON.stringify(answer(id)));
    assertMatch(answer(id)?.error?.message ?? "", why);
  }
  assertEquals(answer("last")?.result, {});
});
