import { deepStrictEqual as deepEqual, strictEqual as equal, throws } from "node:assert/strict";
import { errorSummary, parsePayload, PayloadError, textField } from "./payload.ts";

Deno.test("a JSON object is the payload", () => {
  deepEqual(parsePayload('{"prompt": "hi", "session_id": "s1"}'), {
    prompt: "hi",
    session_id: "s1",
  });
});

Deno.test("an array, a string, a number or null is refused as not an object", () => {
  for (const input of ["[]", '[{"prompt": "hi"}]', '"x"', "3", "null", "true"]) {
    throws(() => parsePayload(input), PayloadError, input);
  }
});

Deno.test("invalid JSON is refused as a syntax error", () => {
  throws(() => parsePayload("{"), SyntaxError);
  throws(() => parsePayload(""), SyntaxError);
});

Deno.test("a text field is its string, or undefined when missing or of another type", () => {
  const payload = parsePayload('{"prompt": "hi", "session_id": 7, "cwd": null}');
  equal(textField(payload, "prompt"), "hi");
  equal(textField(payload, "session_id"), undefined);
  equal(textField(payload, "cwd"), undefined);
  equal(textField(payload, "tool_name"), undefined);
});

Deno.test("an error is summarised as its name and message; anything else as its string", () => {
  equal(errorSummary(new RangeError("too big")), "RangeError: too big");
  equal(errorSummary(new PayloadError()), "PayloadError: the hook payload is not a JSON object");
  equal(errorSummary("plain"), "plain");
  equal(errorSummary(undefined), "undefined");
});
