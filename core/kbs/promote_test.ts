import assert from "node:assert/strict";
import { carriedLinks, missingLinks } from "./promote.ts";
import type { Link } from "../entry/entry.ts";

const copies = new Map([["kb-b0000", "kb-c0000"]]);
const targetIdOf = (id: string) => copies.get(id) ?? (id === "kb-t0000" ? id : undefined);

Deno.test("a link to a promoted entry points at its copy; one the target holds stays; the rest are dropped", () => {
  const links: Link[] = [
    { rel: "related", to: "kb-b0000" },
    { rel: "depends-on", to: "kb-t0000" },
    { rel: "related", to: "kb-x0000" },
  ];
  assert.deepEqual(carriedLinks(links, targetIdOf), {
    links: [{ rel: "related", to: "kb-c0000" }, { rel: "depends-on", to: "kb-t0000" }],
    dropped: [{ rel: "related", to: "kb-x0000" }],
  });
});

Deno.test("two links that land on one target entry are carried once", () => {
  const links: Link[] = [{ rel: "related", to: "kb-b0000" }, { rel: "related", to: "kb-c0000" }];
  const both = (id: string) => id === "kb-b0000" ? "kb-c0000" : id;
  assert.deepEqual(carriedLinks(links, both).links, [{ rel: "related", to: "kb-c0000" }]);
});

Deno.test("missing links: those of the wanted set the entry lacks", () => {
  const has: Link[] = [{ rel: "related", to: "kb-c0000" }];
  const wanted: Link[] = [{ rel: "related", to: "kb-c0000" }, { rel: "related", to: "kb-t0000" }];
  assert.deepEqual(missingLinks(has, wanted), [{ rel: "related", to: "kb-t0000" }]);
});
