import { assertEquals, assertMatch, assertNotStrictEquals } from "@std/assert";
import { contentHash, fnv1a } from "./hash.ts";

Deno.test("fnv1a matches the published FNV-1a 32-bit test vectors", () => {
  assertEquals(fnv1a(""), 0x811c9dc5);
  assertEquals(fnv1a("a"), 0xe40c292c);
  assertEquals(fnv1a("foobar"), 0xbf9cf968);
});

Deno.test("fnv1a is an unsigned 32-bit integer", () => {
  for (const text of ["", "x", "hello world", "é", "🚀".repeat(50)]) {
    const hash = fnv1a(text);
    assertEquals(Number.isInteger(hash), true);
    assertEquals(hash >= 0 && hash <= 0xffffffff, true, `${hash}`);
  }
});

Deno.test("contentHash is 16 hex digits, stable, and starts with fnv1a", () => {
  const text = "---\nid: kb-00000\n---\nbody\n";
  const hash = contentHash(text);
  assertMatch(hash, /^[0-9a-f]{16}$/);
  assertEquals(contentHash(text), hash);
  assertEquals(hash.slice(0, 8), fnv1a(text).toString(16).padStart(8, "0"));
  assertMatch(contentHash(""), /^[0-9a-f]{16}$/);
});

Deno.test("contentHash changes with any edit, including order and whitespace", () => {
  const base = contentHash("body text");
  assertNotStrictEquals(contentHash("body text "), base);
  assertNotStrictEquals(contentHash("Body text"), base);
  assertNotStrictEquals(contentHash("ab"), contentHash("ba"));
  assertNotStrictEquals(contentHash("line\n"), contentHash("line\r\n"));
});
