/**
 * One line a Model Context Protocol client sent, read as JSON-RPC 2.0: the message, or the
 * error response JSON-RPC 2.0 requires for a line that is not one (the SDK's stdio transport
 * drops those without an answer, which leaves the client waiting for ever).
 *
 * @module
 */
import {
  ClientRequestSchema,
  ErrorCode,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";

/** A JSON-RPC 2.0 error response; its id is null where the request's could not be read. */
export interface Refusal {
  jsonrpc: "2.0";
  id: string | number | null;
  error: { code: number; message: string };
}

/** One message read: a message to serve, a refusal to send back, or nothing to answer. */
export type Incoming =
  | { message: JSONRPCMessage }
  | { refusal: Refusal }
  | { ignored: string };

/** A line read: one message, or a batch of them (an array, where the protocol has batches). */
export type IncomingLine = Incoming | { batch: Incoming[] };

/**
 * The protocol versions that have JSON-RPC batches: 2025-03-26 added them (a server must take
 * them), 2025-06-18 took them out again; the versions before had none.
 */
export const BATCH_VERSIONS: readonly string[] = ["2025-03-26"];

/** What a check reports on a value it refuses: each issue, with the field it is about. */
type Issues = readonly { path: PropertyKey[]; message: string }[];

/** The schema of one request a client may send, as far as this module reads it. */
interface RequestSchema {
  shape: { method: { value: string } };
  safeParse(value: unknown): { success: true } | { success: false; error: { issues: Issues } };
}

/** Each request a client may send, by method, to check its params before it is served. */
const CLIENT_REQUESTS = new Map(
  (ClientRequestSchema.options as unknown as readonly RequestSchema[]).map((
    schema,
  ) => [schema.shape.method.value, schema]),
);

/** An error response with `code` and `message` to the request `id`. */
export function refusal(id: Refusal["id"], code: number, message: string): Refusal {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

/** The id of a request that could not be served, if it is one JSON-RPC allows, else null. */
function idOf(value: Record<string, unknown>): Refusal["id"] {
  const { id } = value;
  return typeof id === "string" || (typeof id === "number" && Number.isFinite(id)) ? id : null;
}

/** The issues of a failed check, one a line, each with the field it is about. */
function issuesText(issues: Issues): string {
  return issues.map(({ path, message }) =>
    `${path.map(String).join(".") || "(message)"}: ${message}`
  )
    .join("; ");
}

/**
 * Read one line: a JSON-RPC 2.0 message the server understands; else the refusal JSON-RPC 2.0
 * asks for (-32700 for a line that is not JSON, -32600 for one that is not a request, with its
 * id when it has one that can be echoed, -32602 for a known method's params of the wrong shape);
 * a malformed response, which must not be answered, is ignored with the reason. An array is a
 * batch, each of its members read so, when the protocol version negotiated (`version`, none
 * before `initialize` was answered) has batches ({@link BATCH_VERSIONS}); else -32600. An empty
 * batch is -32600, and so is an `initialize` in one (the protocol forbids it).
 */
export function readLine(line: string, version?: string): IncomingLine {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch {
    return { refusal: refusal(null, ErrorCode.ParseError, "Parse error: the line is not JSON") };
  }
  if (!Array.isArray(value)) return readMessage(value);
  const invalid = (why: string) => ({
    refusal: refusal(null, ErrorCode.InvalidRequest, `Invalid Request: ${why}`),
  });
  if (version === undefined || !BATCH_VERSIONS.includes(version)) {
    return invalid(
      `a batch (an array), which protocol version ${
        version ?? "(none negotiated yet: initialize first, alone)"
      } does not have (only ${BATCH_VERSIONS.join(", ")} does); send each message on a line ` +
        "of its own",
    );
  }
  if (!value.length) return invalid("an empty batch");
  return {
    batch: value.map((member): Incoming => {
      if (Array.isArray(member)) return invalid("a batch inside a batch");
      const object = typeof member === "object" && member !== null
        ? member as Record<string, unknown>
        : {};
      if (object.method !== "initialize") return readMessage(member);
      const why = "Invalid Request: initialize must not be part of a batch; send it alone";
      return { refusal: refusal(idOf(object), ErrorCode.InvalidRequest, why) };
    }),
  };
}

/** {@link readLine} of a value that is not a batch. */
function readMessage(value: unknown): Incoming {
  if (typeof value !== "object" || value === null) {
    return {
      refusal: refusal(null, ErrorCode.InvalidRequest, "Invalid Request: not a JSON object"),
    };
  }
  const object = value as Record<string, unknown>;
  // Members JSON-RPC 2.0 does not define are read past (the SDK's schema refuses them).
  const parsed = JSONRPCMessageSchema.safeParse(
    "method" in object ? withMembers(object, REQUEST_MEMBERS) : object,
  );
  if (!parsed.success) {
    if (!("method" in object) && ("result" in object || "error" in object)) {
      return { ignored: `a malformed response: ${issuesText(parsed.error.issues)}` };
    }
    return {
      refusal: refusal(
        idOf(object),
        ErrorCode.InvalidRequest,
        `Invalid Request: ${invalidRequestReason(object)}`,
      ),
    };
  }
  const message = parsed.data;
  if ("method" in message && "id" in message) {
    const schema = CLIENT_REQUESTS.get(message.method);
    const checked = schema?.safeParse({ method: message.method, params: message.params });
    if (checked && !checked.success) {
      return {
        refusal: refusal(
          message.id,
          ErrorCode.InvalidParams,
          `Invalid params for ${message.method}: ${issuesText(checked.error.issues)}`,
        ),
      };
    }
  }
  return { message };
}

/** The members of a JSON-RPC 2.0 request or notification. */
const REQUEST_MEMBERS = ["jsonrpc", "id", "method", "params"];

/** `object` with only the members named `keys`. */
function withMembers(object: Record<string, unknown>, keys: readonly string[]) {
  return Object.fromEntries(Object.entries(object).filter(([key]) => keys.includes(key)));
}

/** Why a JSON object is not a JSON-RPC 2.0 message, in the terms of the specification. */
function invalidRequestReason(object: Record<string, unknown>): string {
  if (object.jsonrpc !== "2.0") return 'jsonrpc must be "2.0"';
  if (typeof object.method !== "string") return "method must be a string";
  if ("id" in object && idOf(object) === null) return "id must be a string or a number";
  if (typeof object.id === "number" && !Number.isInteger(object.id)) {
    return "id must be a string or an integer";
  }
  if ("params" in object && (typeof object.params !== "object" || object.params === null)) {
    return "params must be an object";
  }
  // What is left is a member the protocol gives a shape to: an id past 2^53, a params._meta.
  const schema = "id" in object ? JSONRPCRequestSchema : JSONRPCNotificationSchema;
  const checked = schema.safeParse(withMembers(object, REQUEST_MEMBERS));
  return checked.success ? "not a JSON-RPC 2.0 request" : issuesText(checked.error.issues);
}
