import { assertEquals } from "@std/assert";
import {
  carriedBody,
  carriedLinks,
  embeddedAttachments,
  missingLinks,
  PROMOTED_FROM,
  promotedCopy,
  relinkedBody,
} from "./promote.ts";
import { blankEntry } from "../entry/entry.ts";
import type { Link } from "../entry/entry.ts";

const copies = new Map([["kb-b0000", "kb-c0000"]]);
const targetIdOf = (id: string) => copies.get(id) ?? (id === "kb-t0000" ? id : undefined);

Deno.test("a link to a promoted entry points at its copy; one the target holds stays; the rest are dropped", () => {
  const links: Link[] = [
    { rel: "related", to: "kb-b0000" },
    { rel: "depends-on", to: "kb-t0000" },
    { rel: "related", to: "kb-x0000" },
  ];
  assertEquals(carriedLinks(links, targetIdOf), {
    links: [{ rel: "related", to: "kb-c0000" }, { rel: "depends-on", to: "kb-t0000" }],
    dropped: [{ rel: "related", to: "kb-x0000" }],
  });
});

Deno.test("two links that land on one target entry are carried once", () => {
  const links: Link[] = [{ rel: "related", to: "kb-b0000" }, { rel: "related", to: "kb-c0000" }];
  const both = (id: string) => id === "kb-b0000" ? "kb-c0000" : id;
  assertEquals(carriedLinks(links, both).links, [{ rel: "related", to: "kb-c0000" }]);
});

Deno.test("missing links: those of the wanted set the entry lacks", () => {
  const has: Link[] = [{ rel: "related", to: "kb-c0000" }];
  const wanted: Link[] = [{ rel: "related", to: "kb-c0000" }, { rel: "related", to: "kb-t0000" }];
  assertEquals(missingLinks(has, wanted), [{ rel: "related", to: "kb-t0000" }]);
});

Deno.test("a body's mentions name the target's entry, or become the plain qualified id", () => {
  const body = "See [[kb-b0000]], [[kb-t0000]] and [[kb-x0000]] (twice: [[kb-x0000]]).\n" +
    "Not an id: [[kb-toolong0]].\n";
  assertEquals(carriedBody(body, targetIdOf, (id) => `personal:${id}`), {
    body: "See [[kb-c0000]], [[kb-t0000]] and personal:kb-x0000 (twice: personal:kb-x0000).\n" +
      "Not an id: [[kb-toolong0]].\n",
    unlinked: ["kb-x0000"],
  });
});

Deno.test("the attachments a body embeds or links, decoded, each once", () => {
  const body =
    "![plan](../attachments/notes/plan%20v2.png) and [pdf](../attachments/notes/a.pdf)\n" +
    "![again](../attachments/notes/plan%20v2.png) ![web](https://x.test/a.png) " +
    "![up](../../attachments/x.png) ![bad](../attachments/%E0%A4%A.png)\n" +
    "![scan.pdf](../attachments/notes/scan.pdf#page=3) ![c](../attachments/notes/c%231.png)\n";
  assertEquals(embeddedAttachments(body), [
    "attachments/notes/plan v2.png",
    "attachments/notes/a.pdf",
    "attachments/notes/scan.pdf",
    "attachments/notes/c#1.png",
  ]);
});

Deno.test("plain ids of entries promoted since become mentions of their copies; others stay", () => {
  const targetIdOf = (id: string) => id === "kb-7q2mx" ? "kb-3hd8w" : undefined;
  const body = "See personal:kb-7q2mx, personal:kb-7q2mx and personal:kb-aaaaa; " +
    "team:kb-7q2mx, xpersonal:kb-7q2mx and personal:kb-7q2mxz stay.\n";
  assertEquals(relinkedBody(body, "personal", targetIdOf), {
    body: "See [[kb-3hd8w]], [[kb-3hd8w]] and personal:kb-aaaaa; " +
      "team:kb-7q2mx, xpersonal:kb-7q2mx and personal:kb-7q2mxz stay.\n",
    relinked: ["kb-3hd8w"],
  });
  assertEquals(relinkedBody("No ids.\n", "personal", targetIdOf).relinked, []);
});

Deno.test("the copy keeps no mark of the import that made the original", () => {
  const original = {
    ...blankEntry("kb-or1g0", "2026-01-01"),
    title: "Proof the dough",
    extra: { imported_from: "notes/proof.md", imported_folder: "a1b2c3", owner: "me" },
  };
  const { copy } = promotedCopy(original, {
    id: "kb-c0py0",
    from: "personal:kb-or1g0",
    today: "2026-12-03",
    targetIdOf: () => undefined,
    qualified: (id) => `personal:${id}`,
  });
  assertEquals(copy.extra, { owner: "me", [PROMOTED_FROM]: "personal:kb-or1g0" });
});
