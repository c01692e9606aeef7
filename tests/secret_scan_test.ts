/**
 * Secrets never reach a shared history: every save (add, edit by flags, edit in the editor,
 * import, the pipeline itself) refuses an entry holding a credential, naming the field, the
 * line and what was found, masked, and commits and writes nothing; `--allow-secret` keeps it in
 * a private knowledge base and is refused in one whose committed `git-kb.json` says shared.
 */
import { assertEquals, assertMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import { fileURLToPath } from "node:url";
import { entrySecrets } from "../core/entry/secrets.ts";
import { blankEntry, serializeEntry } from "../core/entry/entry.ts";
import { findSecrets, SECRET_LABELS, type SecretKind } from "../core/text/secrets.ts";
import { saveEntry } from "../io/save/save.ts";
import { ValidationError } from "../io/save/validate.ts";
import {
  entryPath,
  git,
  type Kb,
  makeKb,
  overrideEnv,
  runAlone,
  runCli,
  runCliSwappingAtLook,
  type RunResult,
  show,
  snapshot,
} from "./helpers.ts";
import { runProcess } from "../io/process.ts";

/** One credential of each kind, as someone might paste it into a note. */
const SECRETS: Record<SecretKind, string> = {
  "aws-access-key": "AKIAZ3MSJV4WWNKWW5FG",
  "github-token": "ghp_R8x2Qm4Lk9Vb7Nc3Zt6Yw1Pf5Hs0Jd2Gu8Ea",
  "gitlab-token": "glpat-9xKq3Lm7Vb2Nc8Zt4Yw1",
  "npm-token": "npm_Xq9Lk2Vb7Nc3Zt6Yw1Pf5Hs0Jd2Gu8EaR4mT",
  "slack-token": "xoxb-2048-99881234-Gq7Lm3Vb9Nc2Zt5Yw8Pf1Hs4",
  "slack-webhook": "https://hooks.slack.com/services/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",
  "api-key": "sk-ant-api03-Zq8xLm2Vb7Nc3Zt6Yw1Pf5Hs0Jd2Gu8EaR4mTq",
  "jwt": "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N",
  "private-key":
    "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA7\n-----END RSA PRIVATE KEY-----",
  "url-password": "https://deploy:Zq7-wP3x@git.example.com/team/kb.git",
  "url-token": "https://4f2a9c81d07e3b65a1c9f0e2d8b7a6c5e4f3d2c1:x-oauth-basic@github.com/me/kb",
  "command-password": "mysql -u deploy -pZq7wP3xLm orders",
  "keyword-secret": "DEPLOY_TOKEN=Zq8xLm2Vb7Nc3Zt6Yw1Pf5Hs",
  "stated-password": "the router password is Tr1cky-Hors3 until Friday",
};

const TOKEN = SECRETS["github-token"];
const ID = "kb-7q2mx";

/** HEAD of the knowledge base and of its remote, and every file under entries/. */
async function state(kb: Kb) {
  return {
    head: await git(kb.dir, "rev-parse", "HEAD"),
    remote: kb.remote ? await git(kb.remote, "rev-parse", "main") : "",
    entries: await snapshot(join(kb.dir, "entries")),
  };
}

/**
 * A refusal: exit 1, the field and a masked GitHub token named, where it is in what was typed (its
 * line in the body, else its field) and no line of an entry file that was never written; the
 * token itself never printed.
 */
function assertRefused(result: RunResult, field: string): void {
  assertEquals(result.code, 1, show(result));
  const masked = findSecrets(TOKEN)[0].masked;
  const holds = `${field}: holds ${SECRET_LABELS["github-token"]} (${masked}) `;
  const where = field === "body" ? /^on line \d+ of the body;/ : new RegExp(`^in the ${field};`);
  assertMatch(result.stderr.split(holds)[1] ?? "", where, show(result));
  assertEquals(result.stderr.includes("entries/"), false, show(result));
  assertEquals(
    `${result.stdout}${result.stderr}`.includes(TOKEN),
    false,
    "the token is never printed",
  );
}

/** Commit `text` as the knowledge base's git-kb.json. */
async function commitSettings(kb: Kb, text: string): Promise<void> {
  await Deno.writeTextFile(join(kb.dir, "git-kb.json"), text);
  await git(kb.dir, "add", "git-kb.json");
  await git(kb.dir, "commit", "--quiet", "-m", "kb: settings");
}

/** An executable shell script in the knowledge base's temp root. */
async function script(kb: Kb, name: string, body: string): Promise<string> {
  const path = join(kb.root, name);
  await Deno.writeTextFile(path, `#!/bin/sh\nset -e\n${body}\n`);
  await Deno.chmod(path, 0o755);
  return path;
}

/** The words `sh` reads from a printed command line. */
async function shellWords(line: string): Promise<string[]> {
  const output = await runProcess("sh", ["-c", `set -- ${line}; printf '%s\\0' "$@"`], {});
  return output.stdout.split("\0").slice(0, -1);
}

Deno.test("the save pipeline refuses each kind of credential: nothing written, committed or pushed", async (t) => {
  if (await runAlone(t)) return;
  await using kb = await makeKb({ remote: true });
  using _env = overrideEnv({ XDG_CACHE_HOME: kb.tmp, HOME: kb.home, TMPDIR: kb.tmp });
  const before = await state(kb);
  for (const [kind, secret] of Object.entries(SECRETS) as [SecretKind, string][]) {
    const entry = {
      ...blankEntry("kb-zz9zz", "2026-01-02"),
      title: "Deploying the team site",
      type: "howto" as const,
      body: `Steps:\n\n${secret}\n`,
    };
    const path = "entries/kb-zz9zz-deploying.md";
    const error = await saveEntry({ kbDir: kb.dir, entry, path, message: "kb: add" }).then(
      () => undefined,
      (error) => error,
    );
    assertEquals(error instanceof ValidationError, true, `${kind}: ${error}`);
    const [problem] = (error as ValidationError).problems;
    assertEquals(problem.field, "body", kind);
    const [found] = entrySecrets(entry);
    const where = `${SECRET_LABELS[kind]} (${found.masked}) on line 3 of the body;`;
    assertEquals(problem.message.includes(where), true, problem.message);
    const lines = serializeEntry(entry).split("\n");
    assertEquals(
      lines[found.line - 1].startsWith(secret.slice(0, 5)),
      true,
      `${kind}: line ${found.line}`,
    );
    assertEquals(
      problem.message.includes("--allow-secret"),
      true,
      "the private override is offered",
    );
    assertEquals(await state(kb), before, kind);
  }
});

Deno.test("add refuses a credential in any field, keeps nothing, and says where it is", async () => {
  await using kb = await makeKb({ remote: true });
  const before = await state(kb);
  const cases: [string[], string][] = [
    [["--body", `Token: ${TOKEN}`], "body"],
    [["--title", `Clone with ${TOKEN}`], "title"],
    [["--alias", TOKEN], "aliases"],
    [["--source", `https://x:${TOKEN}@github.com/me/kb`], "source"],
  ];
  for (const [flags, field] of cases) {
    const result = await runCli(["add", "--title", "Cloning", "--type", "howto", ...flags], {
      env: kb.env,
    });
    if (field === "source") {
      assertEquals(result.code, 1, show(result));
      assertEquals(result.stderr.includes("source: holds a GitHub token"), true, show(result));
    } else assertRefused(result, field);
    assertEquals(await state(kb), before, field);
  }
});

Deno.test("add --allow-secret commits in a private knowledge base and says what was kept", async () => {
  await using kb = await makeKb({ remote: true });
  const result = await runCli(
    ["add", "--title", "Deploy key", "--type", "howto", "--body", TOKEN, "--allow-secret"],
    { env: kb.env },
  );
  assertEquals(result.code, 0, show(result));
  assertEquals(
    result.stderr.includes(`warning: kept ${SECRET_LABELS["github-token"]} (ghp_…`),
    true,
  );
  assertEquals(
    `${result.stdout}${result.stderr}`.includes(TOKEN),
    false,
    "the token is never printed",
  );
  const pushed = await git(kb.remote!, "log", "-1", "--format=%s", "main");
  assertEquals(/^kb: add kb-\w{5}: Deploy key$/.test(pushed), true, pushed);
});

Deno.test("a shared knowledge base refuses --allow-secret, on every clone, before anything", async () => {
  await using kb = await makeKb({ remote: true });
  await commitSettings(kb, '{ "shared": true }\n');
  await git(kb.dir, "push", "--quiet", "origin", "main");
  await Deno.remove(join(kb.dir, "git-kb.json")); // a local deletion changes nothing
  const before = await state(kb);
  const args = ["add", "--title", "Deploy key", "--type", "howto", "--body", TOKEN];
  const allowed = await runCli([...args, "--allow-secret"], { env: kb.env });
  assertEquals(allowed.code, 1, show(allowed));
  assertEquals(allowed.stderr.includes("--allow-secret is refused"), true, show(allowed));
  assertEquals(allowed.stderr.includes('"shared": true'), true, show(allowed));
  const plain = await runCli(args, { env: kb.env });
  assertRefused(plain, "body");
  assertEquals(plain.stderr.includes("--allow-secret is refused here"), true, show(plain));
  assertEquals(await state(kb), before);

  const clone = join(kb.root, "clone");
  await git(kb.root, "clone", "--quiet", kb.remote!, clone);
  const fromClone = await runCli([...args, "--allow-secret"], {
    env: { ...kb.env, KB_DIR: clone },
  });
  assertEquals(fromClone.code, 1, show(fromClone));
  assertEquals(fromClone.stderr.includes("is a shared knowledge base"), true, show(fromClone));
});

Deno.test("a teammate's commit that deletes or edits git-kb.json does not make a shared knowledge base private", async () => {
  await using kb = await makeKb({ remote: true });
  await commitSettings(kb, '{ "shared": true }\n');
  await git(kb.dir, "push", "--quiet", "origin", "main");
  const marked = await git(kb.dir, "rev-parse", "--short", "HEAD");
  const teammate = join(kb.root, "teammate");
  await git(kb.root, "clone", "--quiet", kb.remote!, teammate);
  const args = ["add", "--title", "Deploy key", "--type", "howto", "--body", TOKEN];
  for (const change of ["edit", "delete"]) {
    if (change === "edit") await Deno.writeTextFile(join(teammate, "git-kb.json"), "{}\n");
    else await git(teammate, "rm", "--quiet", "git-kb.json");
    await git(teammate, "commit", "--quiet", "-am", `${change} the settings`);
    await git(teammate, "push", "--quiet", "origin", "HEAD:main");
    assertEquals((await runCli(["sync"], { env: kb.env })).code, 0);
    const before = await state(kb);

    const plain = await runCli(args, { env: kb.env });
    assertRefused(plain, "body");
    assertEquals(plain.stderr.includes("run the command again with --allow-secret"), false);
    assertEquals(plain.stderr.includes("--allow-secret is refused here"), true, show(plain));
    const allowed = await runCli([...args, "--allow-secret"], { env: kb.env });
    assertEquals(allowed.code, 1, show(allowed));
    assertEquals(
      allowed.stderr.includes(`"shared": true from commit ${marked} on`),
      true,
      show(allowed),
    );
    assertEquals(await state(kb), before, change);
  }
});

Deno.test("a git-kb.json that is not settings reads as private, with a warning", async () => {
  await using kb = await makeKb();
  await commitSettings(kb, "{ shared: yes");
  const result = await runCli(
    ["add", "--title", "Deploy key", "--type", "howto", "--body", TOKEN, "--allow-secret"],
    { env: kb.env },
  );
  assertEquals(result.code, 0, show(result));
  assertEquals(result.stderr.includes("the committed git-kb.json is not JSON"), true, show(result));
});

Deno.test("git-kb.json in the work tree: saying shared is enough; a FIFO is not read", async () => {
  await using kb = await makeKb();
  const args = [
    "add",
    "--title",
    "Deploy key",
    "--type",
    "howto",
    "--body",
    TOKEN,
    "--allow-secret",
  ];
  await Deno.writeTextFile(join(kb.dir, "git-kb.json"), '{"shared": true}');
  const refused = await runCli(args, { env: kb.env });
  assertEquals(refused.code, 1, show(refused));
  assertEquals(refused.stderr.includes("is a shared knowledge base"), true, show(refused));
  await Deno.remove(join(kb.dir, "git-kb.json"));
  await runProcess("mkfifo", [join(kb.dir, "git-kb.json")], {});
  const kept = await runCli(args, { env: kb.env });
  assertEquals(kept.code, 0, show(kept));
  assertEquals(kept.stderr.includes("git-kb.json is not a regular file"), true, show(kept));
});

Deno.test("git-kb.json swapped for a link after the look is not read through", async () => {
  await using kb = await makeKb();
  await Deno.writeTextFile(join(kb.dir, "git-kb.json"), "{}\n");
  // The link leads to a file that says shared: read through, it would refuse the secret. It could
  // as well lead to a FIFO (a read that never ends) or to /dev/zero (one that fills memory).
  const elsewhere = join(kb.root, "elsewhere.json");
  await Deno.writeTextFile(elsewhere, '{"shared": true}');
  const result = await runCliSwappingAtLook(
    ["add", "--title", "Deploy key", "--type", "howto", "--body", TOKEN, "--allow-secret"],
    kb.env,
    { file: join(kb.dir, "git-kb.json"), linkTo: elsewhere, caller: "readLocalSettings" },
  );
  assertEquals((await Deno.lstat(join(kb.dir, "git-kb.json"))).isSymlink, true, "swapped");
  assertEquals(result.code, 0, show(result));
  assertMatch(result.stderr, /git-kb\.json changed while it was being read; not read; run the/);
});

Deno.test("init --shared commits git-kb.json in the set-up commit", async () => {
  await using kb = await makeKb();
  const fresh = join(kb.root, "team-kb");
  const result = await runCli(["init", fresh, "--shared"], { env: kb.env });
  assertEquals(result.code, 0, show(result));
  assertEquals(JSON.parse(await git(fresh, "show", "HEAD:git-kb.json")), { shared: true });
  assertEquals(await git(fresh, "log", "--format=%s"), "kb: set up the knowledge base");
  const added = await runCli(
    ["add", "--title", "Deploy key", "--type", "howto", "--body", TOKEN, "--allow-secret"],
    { env: { ...kb.env, KB_DIR: fresh } },
  );
  assertEquals(added.code, 1, show(added));
});

Deno.test("edit by flags refuses a credential; --allow-secret keeps it in a private one", async () => {
  await using kb = await makeKb();
  const before = await state(kb);
  const refused = await runCli(["edit", ID, "--body", `Now with ${TOKEN}`], { env: kb.env });
  assertRefused(refused, "body");
  assertEquals(refused.stderr.includes("run the command again with --allow-secret"), true);
  assertEquals(await state(kb), before);
  const kept = await runCli(["edit", ID, "--body", `Now with ${TOKEN}`, "--allow-secret"], {
    env: kb.env,
  });
  assertEquals(kept.code, 0, show(kept));
  const text = await Deno.readTextFile(join(kb.dir, await entryPath(kb.dir, ID)));
  assertEquals(text.includes(TOKEN), true);
});

Deno.test("edit in the editor: a credential keeps the draft, private and named; resuming with --allow-secret saves", async () => {
  await using kb = await makeKb();
  const before = await state(kb);
  const editor = await script(kb, "paste.sh", `printf '\\nDeploy with ${TOKEN}\\n' >> "$1"`);
  const failed = await runCli(["edit", ID], { env: { ...kb.env, EDITOR: editor } });
  assertRefused(failed, "body");
  assertEquals(await state(kb), before, "nothing written under entries/, nothing committed");
  const path = /What you wrote is kept in (.+)$/m.exec(failed.stderr)?.[1];
  const resume = /^ {2}(git-kb .+)$/m.exec(failed.stderr)?.[1];
  assertEquals(typeof path === "string" && typeof resume === "string", true, show(failed));
  assertEquals(
    (await Deno.readTextFile(path!)).includes(TOKEN),
    true,
    "what the user typed is kept",
  );
  assertEquals((await Deno.stat(path!)).mode! & 0o777, 0o600);
  assertEquals((await Deno.stat(join(path!, ".."))).mode! & 0o777, 0o700);

  const [, ...args] = await shellWords(resume!);
  const resumed = await runCli([...args, "--allow-secret"], { env: kb.env });
  assertEquals(resumed.code, 0, show(resumed));
  assertEquals(resumed.stderr.includes("warning: kept a GitHub token"), true, show(resumed));
  assertEquals(
    await Deno.stat(path!).then(() => true, () => false),
    false,
    "the saved draft is gone",
  );
});

Deno.test("add --edit --allow-secret carries the flag into the resume command", async () => {
  await using kb = await makeKb();
  const editor = await script(kb, "bad.sh", `sed -i 's/^type: .*/type: howot/' "$1"`);
  const failed = await runCli(["add", "--edit", "--title", "T", "--allow-secret"], {
    env: { ...kb.env, EDITOR: editor },
  });
  assertEquals(failed.code, 1, show(failed));
  const resume = /^ {2}(git-kb .+)$/m.exec(failed.stderr)?.[1] ?? "";
  assertEquals((await shellWords(resume)).at(-1), "--allow-secret", show(failed));
});

Deno.test("import masks a credential in a note, saying where; --allow-secret keeps them, in a private knowledge base only", async () => {
  await using kb = await makeKb({ remote: true });
  const folder = join(kb.root, "notes");
  await Deno.mkdir(folder);
  await Deno.writeTextFile(join(folder, "deploy.md"), `# Deploy\n\nStep one.\n\n${TOKEN}\n`);
  await Deno.writeTextFile(join(folder, "ci.md"), `---\ntitle: CI with ${TOKEN}\n---\nFine.\n`);
  const masked = await runCli(["import", folder, "--dry-run"], { env: kb.env });
  assertEquals(masked.code, 0, show(masked));
  assertEquals(/deploy\.md:5: a GitHub token \(ghp_…\w+\)/.test(masked.stdout), true, show(masked));
  assertEquals(/ci\.md:2: a GitHub token \(ghp_…\w+\)/.test(masked.stdout), true, show(masked));
  assertEquals(masked.stdout.includes("2 added"), true, show(masked));
  assertEquals(`${masked.stdout}${masked.stderr}`.includes(TOKEN), false);

  const allowed = await runCli(["import", folder, "--allow-secret"], { env: kb.env });
  assertEquals(allowed.code, 0, show(allowed));
  assertEquals(allowed.stdout.includes("2 added"), true, show(allowed));
  assertEquals(allowed.stderr.includes("warning: kept a GitHub token"), true, show(allowed));

  await commitSettings(kb, '{"shared": true}');
  const shared = await state(kb);
  for (const flags of [["--allow-secret"], ["--allow-secret-in", "ci.md"]]) {
    const onShared = await runCli(["import", join(kb.root, "notes"), ...flags], { env: kb.env });
    assertEquals(onShared.code, 1, show(onShared));
    assertEquals(onShared.stderr.includes("--allow-secret is refused"), true, show(onShared));
    assertEquals(await state(kb), shared);
  }
});

Deno.test("import masks a credential of each kind and keeps every note", async () => {
  await using kb = await makeKb();
  const folder = join(kb.root, "notes");
  await Deno.mkdir(folder);
  for (const [kind, secret] of Object.entries(SECRETS)) {
    await Deno.writeTextFile(join(folder, `${kind}.md`), `# Setting up ${kind}\n\n${secret}\n`);
  }
  const result = await runCli(["import", folder, "--json"], { env: kb.env });
  assertEquals(result.code, 0, show(result));
  const report = JSON.parse(result.stdout) as {
    leftOut: unknown[];
    masked: { path: string; line: number; kind: SecretKind }[];
  };
  assertEquals(report.leftOut, []);
  assertEquals(
    report.masked.map(({ path, line, kind }) => `${path}:${line}:${kind}`).sort(),
    Object.keys(SECRETS).map((kind) => `${kind}.md:3:${kind}`).sort(),
  );
  const written = [...(await snapshot(join(kb.dir, "entries"))).values()].join("\n");
  // A private key block is named by its BEGIN line, which is no secret; its key lines are.
  for (const text of [result.stdout, written]) {
    assertEquals(text.includes("MIIEowIBAAKCAQEA7"), false);
  }
  for (const secret of Object.values(SECRETS).filter((text) => !text.startsWith("-----"))) {
    assertEquals(
      result.stdout.includes(
        findSecrets(secret).map((found) => secret.slice(found.start, found.end))[0],
      ),
      false,
      `${secret} is never printed`,
    );
    assertEquals(written.includes(secret), false, `${secret} is never written`);
  }
});

const CORPUS = join(
  Deno.env.get("GIT_KB_BENCH_DATA") ??
    fileURLToPath(new URL("../../shared/bench", import.meta.url)),
  "corpus.jsonl",
);

Deno.test({
  name: "the tldr-pages development corpus (7,013 pages of commands) holds no credential",
  ignore: !await Deno.stat(CORPUS).then(() => true, () => false),
  fn: async () => {
    const flagged: string[] = [];
    for (const line of (await Deno.readTextFile(CORPUS)).split("\n").filter(Boolean)) {
      const page = JSON.parse(line) as { key: string; title: string; body: string };
      if (findSecrets(`${page.title}\n${page.body}`).length) flagged.push(page.key);
    }
    assertEquals(flagged, []);
  },
});
