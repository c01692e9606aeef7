import { assertEquals } from "@std/assert";
import { blankEntry, serializeEntry } from "./entry.ts";
import { describeSecret, entrySecrets } from "./secrets.ts";

const TOKEN = "ghp_R8x2Qm4Lk9Vb7Nc3Zt6Yw1Pf5Hs0Jd2Gu8Ea";

function entryWith(fields: Partial<ReturnType<typeof blankEntry>>) {
  return { ...blankEntry("kb-a1b2c", "2026-01-02"), type: "note" as const, ...fields };
}

Deno.test("entrySecrets: each field and the body, with its line in the file as written", () => {
  const entry = entryWith({
    title: `Deploy with ${TOKEN}`,
    source: "https://deploy:Zq7-wP3x@git.example.com/kb.git",
    extra: { notes: "plain", vault: { path: "ops", pass: "my password is Tr1cky-Hors3" } },
    body: "First line.\n\nAWS_ACCESS_KEY_ID=AKIAZ3MSJV4WWNKWW5FG\n",
  });
  const lines = serializeEntry(entry).split("\n");
  const found = entrySecrets(entry);
  assertEquals(found.map(({ field, kind }) => [field, kind]), [
    ["title", "github-token"],
    ["source", "url-password"],
    ["vault", "stated-password"],
    ["body", "aws-access-key"],
  ]);
  for (const secret of found) {
    assertEquals(lines[secret.line - 1].includes(secret.masked.split("…")[0]), true, secret.field);
  }
  assertEquals(found[3].fieldLine, 3);
  assertEquals(found[3].line, lines.indexOf("---", 1) + 1 + 3);
});

Deno.test("entrySecrets: an unknown field with a quoted key is named as it is written", () => {
  const entry = entryWith({ extra: { "deploy: key": `x ${TOKEN}` } });
  assertEquals(entrySecrets(entry).map((secret) => secret.field), ["deploy: key"]);
});

Deno.test("entrySecrets: an entry without a credential has none; describeSecret masks", () => {
  assertEquals(
    entrySecrets(entryWith({ title: "Rotate the token", body: "Use `gh auth`.\n" })),
    [],
  );
  const [secret] = entrySecrets(entryWith({ title: "t", body: `${TOKEN}\n` }));
  const text = describeSecret(secret, "entries/kb-a1b2c-t.md");
  assertEquals(text.includes(TOKEN), false);
  assertEquals(
    text,
    `a GitHub token (${secret.masked}) on line ${secret.line} of entries/kb-a1b2c-t.md ` +
      "(line 1 of the body)",
  );
  const [titled] = entrySecrets(entryWith({ title: `t ${TOKEN}`, body: "x\n" }));
  assertEquals(describeSecret(titled, "p.md").endsWith(`on line ${titled.line} of p.md`), true);
  // Not written: where it is in what was typed, no file's line.
  assertEquals(describeSecret(secret), `a GitHub token (${secret.masked}) on line 1 of the body`);
  assertEquals(describeSecret(titled), `a GitHub token (${titled.masked}) in the title`);
});
