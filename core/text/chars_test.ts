import { strictEqual as equal } from "node:assert/strict";
import { isDigits, isPlain, isWhitespace, plainName } from "./chars.ts";

Deno.test("isPlain and plainName keep ASCII letters, digits and the punctuation given", () => {
  equal(isPlain("my-kb_2.0", "_.-"), true);
  equal(isPlain("my kb", "_.-"), false);
  equal(isPlain("", "_.-"), false, "nothing is not a plain word");
  equal(isPlain("naïve", "_"), false);
  equal(isPlain("[x]", "_"), false, "brackets sit next to the letters in ASCII");
  equal(plainName("my kb/ü@x", "_-"), "my_kb___x", "one _ per character replaced");
  equal(plainName("a.b-c_d", "_-"), "a_b-c_d");
});

Deno.test("isWhitespace agrees with \\s on every UTF-16 code unit", () => {
  const regex = /\s/;
  for (let code = 0; code <= 0xffff; code++) {
    const char = String.fromCharCode(code);
    equal(isWhitespace(char), regex.test(char), `U+${code.toString(16)}`);
  }
});

Deno.test("isDigits agrees with ^\\d+$", () => {
  for (const text of ["", "0", "42", "4a", "a4", " 4", "٣", "12345678901234567890", "-1"]) {
    equal(isDigits(text), /^\d+$/.test(text), JSON.stringify(text));
  }
});
