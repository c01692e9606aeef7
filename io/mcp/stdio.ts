/**
 * The stdio transport of `git-kb mcp`: one JSON-RPC message a line on stdin and stdout, as the
 * Model Context Protocol's stdio transport has it. Unlike the SDK's own, every line that is not
 * a message the server can serve gets the JSON-RPC 2.0 error response (core/mcp/jsonrpc.ts), and
 * a line over the size limit is refused without closing the connection: the client always gets
 * an answer, and the requests under way keep theirs. A last line without its newline, when stdin
 * ends, is read as any other. Where the protocol version negotiated has JSON-RPC batches
 * (2025-03-26), a batch's requests are served as any others, and their answers go back together,
 * as one array, once the last is due.
 *
 * @module
 */
import process from "node:process";
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { type Incoming, readLine, type Refusal, refusal } from "../../core/mcp/jsonrpc.ts";

/** The longest line read (10 MiB, the SDK's limit); a longer one is refused. */
export const MAX_LINE_BYTES = 10 * 1024 * 1024;

const NEWLINE = 0x0a;

/** A response, or an error response, the server sends. */
type Answer = JSONRPCMessage | Refusal;

/** A batch whose answers are not all due yet. */
interface PendingBatch {
  /** The answers due, by request id ({@link idKey}): how many of each (a client may reuse one). */
  due: Map<string, number>;
  /** The answers given so far. */
  answers: Answer[];
}

/** A request id as a key: 1 and "1" are two ids. */
function idKey(id: unknown): string {
  return JSON.stringify(id);
}

/** A transport over the process's stdin and stdout (or the streams given). */
export class LineTransport implements Transport {
  /** Called once the transport is closed. */
  onclose?: () => void;
  /** Called on a stream error, or a line ignored (a malformed response). */
  onerror?: (error: Error) => void;
  /** Called with each message read. */
  onmessage?: (message: JSONRPCMessage) => void;

  #pending: Uint8Array[] = [];
  #pendingBytes = 0;
  #oversized = false;
  #outputGone = false;
  /** The protocol version the server answered `initialize` with, once it has. */
  #version?: string;
  /** The id of the `initialize` request under way, to read the version from its answer. */
  #initializeId?: string;
  #batches: PendingBatch[] = [];
  readonly #stdin: Readable;
  readonly #stdout: Writable;
  readonly #decoder = new TextDecoder();

  /** A transport on `stdin` and `stdout` (the process's by default). */
  constructor(
    stdin: Readable = process.stdin,
    stdout: Writable = process.stdout,
  ) {
    this.#stdin = stdin;
    this.#stdout = stdout;
  }

  /** Start reading stdin. */
  start(): Promise<void> {
    this.#stdin.on("data", this.#receive);
    this.#stdin.on("end", this.#ended);
    this.#stdin.on("error", this.#failed);
    this.#stdout.on("error", this.#outputFailed);
    return Promise.resolve();
  }

  /**
   * Write `message` as one line; resolves once stdout took it, or at once when stdout is gone
   * (the client closed it): the answer is dropped, and the calls under way go on to their end.
   */
  send(message: Answer): Promise<void> {
    if (!("method" in message) && "id" in message) {
      const key = idKey(message.id);
      if (key === this.#initializeId && "result" in message) {
        const version = (message.result as { protocolVersion?: unknown }).protocolVersion;
        if (typeof version === "string") this.#version = version;
      }
      const batch = this.#batches.find(({ due }) => due.has(key));
      if (batch) {
        batch.answers.push(message);
        return this.#settle(batch, key);
      }
    }
    return this.#write(message);
  }

  /** Write `value` as one line; resolves once stdout took it, or at once when stdout is gone. */
  #write(value: Answer | Answer[]): Promise<void> {
    return new Promise((resolve) => {
      if (this.#outputGone) return resolve();
      this.#stdout.write(`${JSON.stringify(value)}\n`, () => resolve());
    });
  }

  /**
   * One answer of `batch`, to the request of id `key`, is given (or will not be: cancelled);
   * once none is due, the answers go back together, as one array (none at all: nothing).
   */
  #settle(batch: PendingBatch, key: string): Promise<void> {
    const left = (batch.due.get(key) ?? 1) - 1;
    if (left) batch.due.set(key, left);
    else batch.due.delete(key);
    if (batch.due.size) return Promise.resolve();
    this.#batches = this.#batches.filter((pending) => pending !== batch);
    return batch.answers.length ? this.#write(batch.answers) : Promise.resolve();
  }

  /** Stop reading, drop a partial line, and say so. */
  close(): Promise<void> {
    this.#stdin.off("data", this.#receive);
    this.#stdin.off("end", this.#ended);
    this.#stdin.off("error", this.#failed);
    this.#stdout.off("error", this.#outputFailed);
    this.#stdin.pause();
    this.#pending = [];
    this.#pendingBytes = 0;
    this.onclose?.();
    return Promise.resolve();
  }

  #failed = (error: Error) => this.onerror?.(error);

  /** Stdout failed (EPIPE: the client closed it): nothing more is written, nothing crashes. */
  #outputFailed = (error: Error) => {
    this.#outputGone = true;
    this.onerror?.(error);
  };

  #receive = (chunk: Uint8Array | string) => {
    const bytes = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
    let start = 0;
    for (let end = bytes.indexOf(NEWLINE); end !== -1; end = bytes.indexOf(NEWLINE, start)) {
      this.#keep(bytes.subarray(start, end));
      this.#endLine();
      start = end + 1;
    }
    this.#keep(bytes.subarray(start));
  };

  /**
   * Stdin ended: a last line without its newline is served (or refused) as any other, before
   * whoever waits on the end (the server's exit) learns of it, so its request is waited for too.
   */
  #ended = () => {
    if (this.#pendingBytes || this.#oversized) this.#endLine();
  };

  /** Add part of a line, unless the line is over the limit already or goes over it now. */
  #keep(part: Uint8Array) {
    if (this.#oversized || !part.length) return;
    if (this.#pendingBytes + part.length > MAX_LINE_BYTES) {
      this.#oversized = true;
      this.#pending = [];
      this.#pendingBytes = 0;
      return;
    }
    this.#pending.push(part);
    this.#pendingBytes += part.length;
  }

  /** A line is complete: serve it, or refuse it. */
  #endLine() {
    const bytes = new Uint8Array(this.#pendingBytes);
    let offset = 0;
    for (const part of this.#pending) {
      bytes.set(part, offset);
      offset += part.length;
    }
    this.#pending = [];
    this.#pendingBytes = 0;
    if (this.#oversized) {
      this.#oversized = false;
      const limit = `${MAX_LINE_BYTES / 1024 / 1024} MiB`;
      void this.send(refusal(null, ErrorCode.InvalidRequest, `Invalid Request: over ${limit}`));
      return;
    }
    const line = this.#decoder.decode(bytes).replace(/\r$/, "");
    if (!line.trim()) return;
    const incoming = readLine(line, this.#version);
    if ("batch" in incoming) return this.#serveBatch(incoming.batch);
    this.#serve(incoming);
  }

  /** Serve a message read, send back its refusal, or say why it is ignored. */
  #serve(incoming: Incoming) {
    if ("refusal" in incoming) return void this.send(incoming.refusal);
    if ("ignored" in incoming) return this.onerror?.(new Error(incoming.ignored));
    const { message } = incoming;
    if ("method" in message) {
      if (message.method === "initialize" && "id" in message) {
        this.#initializeId = idKey(message.id);
      }
      // A request the client cancels gets no answer: a batch waits for it no more.
      if (message.method === "notifications/cancelled") {
        const key = idKey(message.params?.requestId);
        const batch = this.#batches.find(({ due }) => due.has(key));
        if (batch) void this.#settle(batch, key);
      }
    }
    this.onmessage?.(message);
  }

  /**
   * Serve the members of a batch: their answers (refusals included) are held until the last
   * one is due, then sent as one array; a batch of notifications alone gets none.
   */
  #serveBatch(members: Incoming[]) {
    const batch: PendingBatch = { due: new Map(), answers: [] };
    for (const member of members) {
      const id = "message" in member && "method" in member.message && "id" in member.message
        ? member.message.id
        : "refusal" in member
        ? member.refusal.id
        : undefined;
      if (id === undefined) continue;
      const key = idKey(id);
      batch.due.set(key, (batch.due.get(key) ?? 0) + 1);
    }
    if (batch.due.size) this.#batches.push(batch);
    for (const member of members) this.#serve(member);
  }
}
