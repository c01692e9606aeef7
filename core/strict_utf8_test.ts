import assert from "node:assert/strict";
import { decodeUtf8, NotUtf8Error } from "./strict_utf8.ts";

Deno.test("decodeUtf8 reads UTF-8, drops a BOM, and names the line of the first bad byte", () => {
  const encode = (text: string) => new TextEncoder().encode(text);
  assert.equal(decodeUtf8(encode("café\n")), "café\n");
  assert.equal(decodeUtf8(new Uint8Array([0xef, 0xbb, 0xbf, ...encode("x")])), "x");
  const latin1 = new Uint8Array([...encode("one\ntwo\ncaf"), 0xe9, 0x0a]);
  assert.throws(
    () => decodeUtf8(latin1),
    (error) => error instanceof NotUtf8Error && error.line === 3,
  );
});
