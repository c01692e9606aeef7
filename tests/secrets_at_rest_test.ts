/**
 * Secrets at rest: a prompt holding credentials leaves none of them in the cache (the unmatched
 * log, the receipts, the debug log) nor in what `git-kb stats` prints, with debugging on or off.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import { hookFlags } from "../app/permissions.ts";
import {
  cacheRootOf,
  copySampleKb,
  makeSandbox,
  ROOT,
  runCli,
  runDeno,
  runHook,
  show,
} from "./helpers.ts";

/** The secrets of {@link PROMPTS}, lowercase, as the tokenizer would store them. */
const SECRETS = [
  "akiaiosfodnn7example",
  "1234567890abcdefghijklmnopqrstuvwxyzab",
  "hunter2secret",
  "s3cr3tpassw0rd",
  "correcthorse",
  "swordfishblue",
  "tangerineloaf",
  "letmeinplease",
  "hunterpass",
  "plumwinterfield",
  "marmaladeharbor",
  "quincelantern",
  "grusse2024x",
  "tr0ub4dorz",
  "my_cat_tom",
  "abc123xyz",
  "hunter22",
];

/** Prompts that match no entry (or nearly match one), each with credentials in it. */
const PROMPTS = [
  "My sourdough starter log: AKIAZ7Q3K9W2M5X8R4TB and " +
  "ghp_1234567890abcdefghijklmnopqrstuvwxyzAB, and my password is hunter2secret okay",
  "Connect the bakery inventory to postgres://admin:s3cr3tPassw0rd@db.internal/bread today",
  "The oven controller passphrase is correcthorse, rotate it after the sourdough bakes",
  // Letters only: kept unless the value after TOKEN=, PASSWORD:, Bearer or -p is dropped.
  "Sourdough feed with TOKEN=swordfishblue PASSWORD: tangerineloaf",
  "Sourdough curl Bearer letmeinplease then mysql -phunterpass",
  // A flag's value, a `*_PASS=`, curl's user:password and a quoted value with spaces.
  "Sourdough psql --password plumwinterfield, DB_PASS=quincelantern, " +
  'curl -u baker:marmaladeharbor and password="marmaladeharbor crumb"',
  // A value whose words the tokenizer folds (stored as "grusse2024x"); a credential in a prompt
  // over 16 KiB after letters whose lowercase is longer (İ); a value typed as an identifier, which
  // the debug record would name as what the prompt refers to.
  "Sourdough oven panel login with password=Grüße2024x keeps failing",
  `${"İ ".repeat(1_000)}Sourdough mixer login with password=Tr0ub4dorz keeps failing ${
    "x ".repeat(8_000)
  }`,
  "Sourdough proofing box password: my_cat_tom and the dashboard hangs, check why",
  // A value stated after "token is", or right after "password".
  "The sourdough scale's api token is abc123xyz and ssh with password hunter22 hangs",
];

/** Every file under `dir`, with its text. */
async function filesUnder(dir: string): Promise<Map<string, string>> {
  const files = new Map<string, string>();
  for await (const item of Deno.readDir(dir)) {
    const path = join(dir, item.name);
    if (item.isDirectory) {
      for (const [file, text] of await filesUnder(path)) files.set(file, text);
    } else if (item.isFile) files.set(path, await Deno.readTextFile(path).catch(() => ""));
  }
  return files;
}

for (const debug of [false, true]) {
  Deno.test(`no prompt secret is stored or printed by stats (KB_HOOK_DEBUG=${debug ? 1 : 0})`, async () => {
    await using sample = await sampleKbBox("git-kb-secrets-", debug);
    const { box, kb, env } = sample;
    for (const [index, prompt] of PROMPTS.entries()) {
      const stdin = JSON.stringify({ session_id: `s-${index}`, prompt });
      const result = await runHook(stdin, { env });
      assertEquals(result.code, 0, show(result));
    }
    const files = await filesUnder(join(box.tmp, "git-kb"));
    const unmatched = [...files.keys()].filter((path) => path.endsWith(".unmatched.jsonl"));
    assert(unmatched.length >= 2, "the prompts were recorded as unmatched");
    assertMatch([...files.values()].join("\n"), /sourdough/, "ordinary words are still kept");
    for (const [path, text] of files) {
      for (const secret of SECRETS) {
        assert(!text.toLowerCase().includes(secret), `${path} holds ${secret}:\n${text}`);
      }
    }
    const stats = await runCli(["stats", "--kb", kb], { env: { ...env, NO_COLOR: "1" } });
    assertEquals(stats.code, 0, show(stats));
    assertMatch(stats.stdout, /frequent words: .*sourdough/);
    for (const secret of SECRETS) {
      assert(!stats.stdout.toLowerCase().includes(secret), stats.stdout);
    }
  });
}

/** A sandbox holding a copy of the sample knowledge base (no kernel rules), removed on dispose. */
interface SampleKbBox extends AsyncDisposable {
  box: Awaited<ReturnType<typeof makeSandbox>>;
  kb: string;
  /** The environment of a hook run against it, with the debug log on when asked. */
  env: Record<string, string>;
}

async function sampleKbBox(prefix: string, debug: boolean): Promise<SampleKbBox> {
  const box = await makeSandbox(prefix);
  const kb = join(box.root, "kb");
  await copySampleKb(kb, { noKernel: true });
  const env: Record<string, string> = {
    TMPDIR: box.tmp,
    HOME: box.home,
    XDG_CONFIG_HOME: box.config,
    KB_DIR: kb,
  };
  if (debug) env.KB_HOOK_DEBUG = "1";
  return { box, kb, env, [Symbol.asyncDispose]: () => box[Symbol.asyncDispose]() };
}

Deno.test("stats never prints a token-shaped word from a log written before the filter", async () => {
  await using box = await makeSandbox("git-kb-secrets-old-");
  const kb = join(box.root, "kb");
  await copySampleKb(kb, { noKernel: true });
  const env = { TMPDIR: box.tmp, HOME: box.home, XDG_CONFIG_HOME: box.config, NO_COLOR: "1" };
  const first = await runCli(["stats", "--kb", kb], { env });
  assertEquals(first.code, 0, show(first));
  const [cache] = [...Deno.readDirSync(join(box.tmp, "git-kb"))].filter((item) => item.isDirectory);
  const sessions = join(box.tmp, "git-kb", cache.name, "sessions");
  await Deno.mkdir(sessions, { recursive: true });
  await Deno.writeTextFile(
    join(sessions, "old.unmatched.jsonl"),
    `${JSON.stringify(["sourdough", "hunter2secret", "akiaiosfodnn7example"])}\n`,
  );
  const stats = await runCli(["stats", "--kb", kb], { env });
  assertEquals(stats.code, 0, show(stats));
  assertMatch(stats.stdout, /frequent words: sourdough 1\)/);
});

Deno.test("the search augment's debug records hold no credential the agent searched for", async () => {
  await using sample = await sampleKbBox("git-kb-secrets-search-", true);
  const { box, env } = sample;
  const searches = [
    "ghp_1234567890abcdefghijklmnopqrstuvwxyzAB",
    "rebase AKIAZ7Q3K9W2M5X8R4TB",
    "rebase onto main",
  ];
  for (const [index, pattern] of searches.entries()) {
    const stdin = JSON.stringify({
      session_id: `g-${index}`,
      hook_event_name: "PreToolUse",
      tool_name: "Grep",
      tool_input: { pattern },
    });
    const result = await runDeno(
      ["run", ...hookFlags("search", cacheRootOf(env)), join(ROOT, "hooks", "search_augment.ts")],
      { env, cwd: box.tmp, stdin },
    );
    assertEquals(result.code, 0, show(result));
  }
  const log = [...(await filesUnder(join(box.tmp, "git-kb"))).entries()]
    .filter(([path]) => path.endsWith("debug.jsonl")).map(([, text]) => text).join("\n");
  assertMatch(log, /"event":"search"/, "the searches were recorded");
  for (const secret of SECRETS.slice(0, 2)) {
    assert(!log.toLowerCase().includes(secret), `the debug log holds ${secret}:\n${log}`);
  }
});

Deno.test("a hook given broken JSON records the failure, and no piece of the prompt in it", async () => {
  await using sample = await sampleKbBox("git-kb-secrets-broken-", true);
  const { box, env } = sample;
  // Cut short, or unquoted: the engine's own message would quote the text around the fault.
  for (
    const stdin of ['{"prompt": hunter2secret is mine}', "hunter2secret", '{"a": 1} hunter2secret']
  ) {
    const result = await runHook(stdin, { env });
    assertEquals(result.code, 0, show(result));
    assertEquals(result.stdout, "", "the hook fails open");
  }
  const log = [...(await filesUnder(join(box.tmp, "git-kb"))).entries()]
    .filter(([path]) => path.endsWith("debug.jsonl")).map(([, text]) => text).join("\n");
  assertMatch(log, /"outcome":"error".*SyntaxError: the hook payload is not JSON/);
  assert(!/hunter|2secret|ter2se/.test(log), `the debug log quotes the prompt:\n${log}`);
});
