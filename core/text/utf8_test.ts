import { assert, assertEquals, assertThrows } from "@std/assert";
import { decodeUtf8Strict, firstInvalidUtf8, NotUtf8Error, utf16Encoding } from "./utf8.ts";

const bytes = (...values: number[]) => new Uint8Array(values);

Deno.test("decodeUtf8Strict decodes UTF-8 as it is, a byte-order mark included", () => {
  assertEquals(decodeUtf8Strict(new TextEncoder().encode("café ✓ 🙂")), "café ✓ 🙂");
  assertEquals(decodeUtf8Strict(bytes(0xef, 0xbb, 0xbf, 0x68)), "\ufeffh");
});

Deno.test("decodeUtf8Strict refuses Latin-1 and names the byte instead of writing U+FFFD", () => {
  const error = assertThrows(
    () => decodeUtf8Strict(bytes(0x63, 0x61, 0x66, 0xe9, 0x0a)),
    NotUtf8Error,
  );
  assert(error.offset === 3 && error.message.includes("byte 0xE9 at offset 3"));
});

Deno.test("firstInvalidUtf8 finds the first bad byte the way the decoder refuses it", () => {
  const cases: [number[], number][] = [
    [[0x41, 0x42], -1],
    [[0xc3, 0xa9], -1],
    [[0xf0, 0x9f, 0x99, 0x82], -1],
    [[0x41, 0x80], 1], // a continuation byte alone
    [[0xc0, 0xaf], 0], // an overlong form
    [[0xe0, 0x80, 0xaf], 0], // an overlong three-byte form
    [[0xed, 0xa0, 0x80], 0], // a surrogate
    [[0xf4, 0x90, 0x80, 0x80], 0], // past U+10FFFF
    [[0x41, 0xe2, 0x82], 1], // cut short at the end
    [[0xf5, 0x80], 0],
  ];
  for (const [input, offset] of cases) {
    assertEquals(firstInvalidUtf8(bytes(...input)), offset, JSON.stringify(input));
    if (offset < 0) decodeUtf8Strict(bytes(...input));
    else assertThrows(() => decodeUtf8Strict(bytes(...input)), NotUtf8Error);
  }
});

Deno.test("NotUtf8Error names the line of the first bad byte", () => {
  const latin1 = new Uint8Array([...new TextEncoder().encode("one\ntwo\ncaf"), 0xe9, 0x0a]);
  const error = assertThrows(() => decodeUtf8Strict(latin1), NotUtf8Error);
  assert(error.line === 3 && error.offset === 11);
});

Deno.test("utf16Encoding tells UTF-16 text by its byte-order mark or its NUL bytes", () => {
  const utf16le = (text: string) => new Uint8Array([...text].flatMap((c) => [c.charCodeAt(0), 0]));
  const utf16be = (text: string) => new Uint8Array([...text].flatMap((c) => [0, c.charCodeAt(0)]));
  assertEquals(utf16Encoding(new Uint8Array([0xff, 0xfe, 0x2d, 0x00])), "UTF-16");
  assertEquals(utf16Encoding(new Uint8Array([0xfe, 0xff, 0x00, 0x2d])), "UTF-16");
  assertEquals(utf16Encoding(utf16le("---\nid: kb-x\n")), "UTF-16LE");
  assertEquals(utf16Encoding(utf16be("---\nid: kb-x\n")), "UTF-16BE");
  assertEquals(utf16Encoding(new TextEncoder().encode("---\nid: kb-x\n")), undefined);
  assertEquals(utf16Encoding(new Uint8Array([0x2d, 0x00, 0x2d, 0x2d])), undefined);
  assertEquals(utf16Encoding(new Uint8Array([0xff])), undefined);
  assertEquals(utf16Encoding(new Uint8Array([0xff, 0xff])), undefined);
  assertEquals(utf16Encoding(new Uint8Array([0x2d, 0x00])), undefined);
  // A Latin-1 letter near the start (a note titled "Café") is UTF-16 all the same.
  assertEquals(utf16Encoding(utf16le("# Café\n")), "UTF-16LE");
  assertEquals(utf16Encoding(utf16be("# Café\n")), "UTF-16BE");
  assertEquals(utf16Encoding(new Uint8Array([0x23, 0x20, 0x43, 0x61, 0x66, 0xe9])), undefined);
});
