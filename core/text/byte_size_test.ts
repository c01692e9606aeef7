import { assertEquals } from "@std/assert";
import { byteSize } from "./byte_size.ts";

Deno.test("a size is said in the largest binary unit it reaches, to a tenth", () => {
  assertEquals(byteSize(1), "1 byte");
  assertEquals(byteSize(1023), "1023 bytes");
  assertEquals(byteSize(1024), "1.0 KiB");
  assertEquals(byteSize(6_000_000), "5.7 MiB");
  assertEquals(byteSize(3 * 1024 ** 3), "3.0 GiB");
});
