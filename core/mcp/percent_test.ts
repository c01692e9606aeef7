import { assertEquals } from "@std/assert";
import { percentDecoded } from "./percent.ts";

Deno.test("percentDecoded: escapes of either case decode, UTF-8 included; plain text is kept", () => {
  assertEquals(percentDecoded("%6Bb-7q2mx"), { text: "kb-7q2mx" });
  assertEquals(percentDecoded("team%3akb-7q2mx"), { text: "team:kb-7q2mx" });
  assertEquals(percentDecoded("caf%C3%A9"), { text: "café" });
  assertEquals(percentDecoded("kb-7q2mx"), { text: "kb-7q2mx" });
});

Deno.test("percentDecoded: a % without two hex digits, or octets not UTF-8, are named", () => {
  assertEquals(percentDecoded("kb-7q2mx%"), {
    malformed: '"%" at character 9 is not followed by two hex digits (a "%" itself is written %25)',
  });
  assertEquals(percentDecoded("kb-7q%zzmx"), {
    malformed:
      '"%zz" at character 6 is not followed by two hex digits (a "%" itself is written %25)',
  });
  assertEquals(percentDecoded("kb%FF"), { malformed: "the escaped octets are not UTF-8" });
  assertEquals(percentDecoded("%C3"), { malformed: "the escaped octets are not UTF-8" });
});
