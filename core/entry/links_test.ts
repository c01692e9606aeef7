import { assertEquals } from "@std/assert";
import { neighbours } from "./links.ts";
import { INVERSE_RELS, LINK_RELS } from "./schema.ts";

const LINKS: [string, string, string][] = [
  ["kb-aaaaa", "supersedes", "kb-bbbbb"],
  ["kb-aaaaa", "related", "kb-ccccc"],
  ["kb-ddddd", "refines", "kb-aaaaa"],
  ["kb-eeeee", "depends-on", "kb-aaaaa"],
  ["kb-fffff", "contradicts", "kb-aaaaa"],
  ["kb-ccccc", "related", "kb-aaaaa"],
  ["kb-bbbbb", "depends-on", "kb-ccccc"],
];

Deno.test("neighbours lists outgoing links under their own relation", () => {
  assertEquals(
    neighbours("kb-aaaaa", LINKS).filter((n) => n.direction === "out"),
    [
      { rel: "supersedes", id: "kb-bbbbb", direction: "out" },
      { rel: "related", id: "kb-ccccc", direction: "out" },
    ],
  );
});

Deno.test("neighbours lists incoming links under the inverse relation", () => {
  assertEquals(
    neighbours("kb-aaaaa", LINKS).filter((n) => n.direction === "in"),
    [
      { rel: "refined-by", id: "kb-ddddd", direction: "in" },
      { rel: "needed-by", id: "kb-eeeee", direction: "in" },
      { rel: "contradicted-by", id: "kb-fffff", direction: "in" },
      { rel: "related", id: "kb-ccccc", direction: "in" },
    ],
  );
  assertEquals(neighbours("kb-bbbbb", LINKS), [
    { rel: "superseded-by", id: "kb-aaaaa", direction: "in" },
    { rel: "depends-on", id: "kb-ccccc", direction: "out" },
  ]);
});

Deno.test("every relation has an inverse and each reads back to one relation", () => {
  for (const rel of LINK_RELS) {
    const found = neighbours("kb-bbbbb", [["kb-aaaaa", rel, "kb-bbbbb"]]);
    assertEquals(found, [{ rel: INVERSE_RELS[rel], id: "kb-aaaaa", direction: "in" }]);
  }
  const inverses = LINK_RELS.map((rel) => INVERSE_RELS[rel]);
  assertEquals(new Set(inverses).size, LINK_RELS.length);
});

Deno.test("neighbours of an unlinked entry is empty; unrelated links are ignored", () => {
  assertEquals(neighbours("kb-zzzzz", LINKS), []);
  assertEquals(neighbours("kb-aaaaa", []), []);
});

Deno.test("an unknown relation in stored links is shown as it is", () => {
  assertEquals(neighbours("kb-bbbbb", [["kb-aaaaa", "mentions", "kb-bbbbb"]]), [
    { rel: "mentions", id: "kb-aaaaa", direction: "in" },
  ]);
});

Deno.test("neighbours carry the title stored for the other end, when there is one", () => {
  const rows = [
    ["kb-aaaaa", "related", "kb-bbbbb", "Alpha", "Beta"],
    ["kb-ccccc", "refines", "kb-aaaaa", "Gamma", "Alpha"],
    ["kb-aaaaa", "depends-on", "kb-zzzzz", "Alpha", null],
  ] as const;
  assertEquals(neighbours("kb-aaaaa", rows), [
    { rel: "related", id: "kb-bbbbb", direction: "out", title: "Beta" },
    { rel: "refined-by", id: "kb-ccccc", direction: "in", title: "Gamma" },
    { rel: "depends-on", id: "kb-zzzzz", direction: "out" },
  ]);
});
