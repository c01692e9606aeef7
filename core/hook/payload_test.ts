import { assertEquals, assertThrows } from "@std/assert";
import { errorSummary, parsePayload, PayloadError, textField } from "./payload.ts";

Deno.test("a JSON object is the payload", () => {
  assertEquals(parsePayload('{"prompt": "hi", "session_id": "s1"}'), {
    prompt: "hi",
    session_id: "s1",
  });
});

Deno.test("an array, a string, a number or null is refused as not an object", () => {
  for (const input of ["[]", '[{"prompt": "hi"}]', '"x"', "3", "null", "true"]) {
    assertThrows(() => parsePayload(input), PayloadError, undefined, input);
  }
});

Deno.test("invalid JSON is refused as a syntax error", () => {
  assertThrows(() => parsePayload("{"), SyntaxError);
  assertThrows(() => parsePayload(""), SyntaxError);
});

Deno.test("a text field is its string, or undefined when missing or of another type", () => {
  const payload = parsePayload('{"prompt": "hi", "session_id": 7, "cwd": null}');
  assertEquals(textField(payload, "prompt"), "hi");
  assertEquals(textField(payload, "session_id"), undefined);
  assertEquals(textField(payload, "cwd"), undefined);
  assertEquals(textField(payload, "tool_name"), undefined);
});

Deno.test("an error is summarised as its name and message; anything else as its string", () => {
  assertEquals(errorSummary(new RangeError("too big")), "RangeError: too big");
  assertEquals(
    errorSummary(new PayloadError()),
    "PayloadError: the hook payload is not a JSON object",
  );
  assertEquals(errorSummary("plain"), "plain");
  assertEquals(errorSummary(undefined), "undefined");
});
