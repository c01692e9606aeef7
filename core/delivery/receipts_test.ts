/**
 * Delivery receipts (core/delivery/receipts.ts): the ids a command fetches, in every spelling of the CLI,
 * and the bounded per-session record.
 */
import { assertEquals } from "@std/assert";
import { fetchedByKb, fetchesPerKb, searchedWords } from "./fetched_ids.ts";
import {
  emptyReceipts,
  parseReceipts,
  RECEIPT_LIMITS,
  withFetched,
  withSearch,
  withUnmatched,
} from "./receipts.ts";

/** [command, fetched ids]. */
const COMMANDS: [string, string[]][] = [
  ["git-kb get kb-7q2mx", ["kb-7q2mx"]],
  ["/opt/kb/plugin/bin/git-kb get kb-7q2mx kb-c0mw8 --kb /home/me/kb", ["kb-7q2mx", "kb-c0mw8"]],
  ["'/home/me/my kb/plugin/bin/git-kb' get kb-7q2mx --kb '/home/me/kb'", ["kb-7q2mx"]],
  ['"$HOME/.claude/plugins/git-kb/bin/git-kb" get kb-7q2mx', ["kb-7q2mx"]],
  ["git-kb get kb-7q2mx,kb-c0mw8 --json", ["kb-7q2mx", "kb-c0mw8"]],
  ["git-kb get --links kb-7q2mx", ["kb-7q2mx"]],
  ["git-kb get 'kb-7q2mx kb-c0mw8'", ["kb-7q2mx", "kb-c0mw8"]],
  ["git-kb get kb-7q2mx kb-7q2mx", ["kb-7q2mx"]],
  ["'C:\\kb\\plugin\\bin\\git-kb.cmd' get kb-7q2mx", ["kb-7q2mx"]],
  ["./git-kb-x86_64-unknown-linux-gnu get kb-7q2mx", ["kb-7q2mx"]],
  ["KB_DIR=/kb env NO_COLOR=1 git-kb get kb-7q2mx", ["kb-7q2mx"]],
  ["cd /work && git-kb get kb-7q2mx | head -40", ["kb-7q2mx"]],
  ["git-kb search token; git-kb get kb-c0mw8", ["kb-c0mw8"]],
  ["deno task get kb-7q2mx", ["kb-7q2mx"]],
  ["deno task --cwd /work/git-kb get kb-7q2mx", ["kb-7q2mx"]],
  ["deno run --no-prompt --allow-read -c deno.json app/main.ts get kb-7q2mx", ["kb-7q2mx"]],
  ["deno run -A plugin/bin/git-kb.js get kb-7q2mx", ["kb-7q2mx"]],
  ["bash -c 'git-kb get kb-7q2mx'", ["kb-7q2mx"]],
  // Not a fetch.
  ["git-kb search kb-7q2mx", []],
  ["git-kb get", []],
  ["git-kb get not-an-id KB-7Q2MX kb-7q2", []],
  ["echo git-kb get kb-7q2mx", []],
  ["cat entries/kb-7q2mx-rotate.md", []],
  ["deno task test kb-7q2mx", []],
  ["deno run other.ts get kb-7q2mx", []],
  ["get kb-7q2mx", []],
  ["", []],
];

for (const [command, ids] of COMMANDS) {
  Deno.test(`fetchedByKb ${JSON.stringify(command)}`, () => {
    assertEquals(fetchedByKb(command).flatMap((call) => call.ids), ids);
  });
}

Deno.test("fetchedByKb: each get with the folder its --kb names, and ids with their knowledge base", () => {
  assertEquals(
    fetchedByKb(
      "git-kb get kb-7q2mx --kb /kbs/personal ; git-kb get --kb=/kbs/team kb-tm0np,kb-tm0np " +
        "&& git-kb get team:kb-tm0np Team:kb-aaaaa ops:kb-7q2 --links",
    ),
    [
      { kbFlag: "/kbs/personal", ids: ["kb-7q2mx"] },
      { kbFlag: "/kbs/team", ids: ["kb-tm0np"] },
      { ids: ["team:kb-tm0np"] },
    ],
  );
});

Deno.test("fetchesPerKb: each id goes to the knowledge base it came from", () => {
  const kbs = [{ name: "personal", kbDir: "/kbs/personal" }, { name: "team", kbDir: "/kbs/team" }];
  const ledgers: Record<string, string[]> = { "/kbs/team": ["kb-shown"] };
  const perKb = fetchesPerKb(
    kbs,
    [
      { kbFlag: "/kbs/team/", ids: ["kb-flagd"] },
      { kbFlag: "/elsewhere", ids: ["kb-other"] },
      { ids: ["team:kb-named", "ops:kb-gone0", "kb-shown", "kb-plain"] },
    ],
    (flag) => flag.replace(/\/+$/, ""),
    (kbDir, id) => (ledgers[kbDir] ?? []).includes(id),
  );
  assertEquals(Object.fromEntries(perKb), {
    "/kbs/team": ["kb-flagd", "kb-named", "kb-shown"],
    "/kbs/personal": ["kb-other", "kb-plain"],
  });
});

Deno.test("withFetched: once each, in order, within the bound", () => {
  let receipts = withFetched(emptyReceipts(), ["kb-aaaaa", "kb-bbbbb"]);
  receipts = withFetched(receipts, ["kb-bbbbb", "kb-ccccc"]);
  assertEquals(receipts.fetched, ["kb-aaaaa", "kb-bbbbb", "kb-ccccc"]);
  const many = Array.from(
    { length: RECEIPT_LIMITS.fetched + 10 },
    (_, index) => `kb-${index.toString(36).padStart(5, "0")}`,
  );
  assertEquals(withFetched(receipts, many).fetched.length, RECEIPT_LIMITS.fetched);
});

Deno.test("withUnmatched: counts prompts and words, keeps the most frequent within bounds", () => {
  let receipts = withUnmatched(emptyReceipts(), ["deploy", "kubernetes", "deploy"]);
  receipts = withUnmatched(receipts, ["deploy", "helm"]);
  assertEquals(receipts.unmatched, {
    prompts: 2,
    words: { deploy: 2, kubernetes: 1, helm: 1 },
  });
  const long = Array.from({ length: 20 }, (_, index) => `word${index}`);
  const one = withUnmatched(emptyReceipts(), long);
  assertEquals(Object.keys(one.unmatched.words), long.slice(0, RECEIPT_LIMITS.wordsPerPrompt));
  let full = receipts;
  for (let round = 0; round < 20; round++) {
    full = withUnmatched(full, Array.from({ length: 8 }, (_, index) => `w${round}-${index}`));
  }
  assertEquals(Object.keys(full.unmatched.words).length, RECEIPT_LIMITS.words);
  assertEquals(full.unmatched.words.deploy, 2, "the most frequent word stays");
  assertEquals(full.unmatched.prompts, 22);
});

Deno.test("parseReceipts: malformed parts count as empty", () => {
  assertEquals(parseReceipts(undefined), emptyReceipts());
  assertEquals(parseReceipts([1, 2]), emptyReceipts());
  assertEquals(
    parseReceipts({
      fetched: ["kb-aaaaa", 3, "../../x", "kb-bbbbb"],
      unmatched: { prompts: -1, words: { ok: 2, bad: "x", zero: 0 } },
    }),
    { fetched: ["kb-aaaaa", "kb-bbbbb"], unmatched: { prompts: 0, words: { ok: 2 } } },
  );
  const round = withUnmatched(withFetched(emptyReceipts(), ["kb-aaaaa"]), ["deploy"]);
  assertEquals(parseReceipts(JSON.parse(JSON.stringify(round))), round);
});

/** [command, the words it searches for]. */
const SEARCHES: [string, string[]][] = [
  ["git-kb search 'rotate the token' --limit 3", ["rotate", "token"]],
  ["git-kb search --type howto deploy 'helm chart' --kb /kb --json", ["deploy", "helm", "chart"]],
  ["git-kb search a; git-kb search Zeppelin", ["zeppelin"]],
  ["bash -c 'git-kb search hangar'", ["hangar"]],
  ["git-kb get kb-7q2mx", []],
  ["grep -r search .", []],
];

for (const [command, words] of SEARCHES) {
  Deno.test(`searchedWords ${JSON.stringify(command)}`, () => {
    assertEquals(searchedWords(command), words);
  });
}

Deno.test("withFetched: a fetch with no pointer after a search is a near miss with its words", () => {
  let receipts = withSearch(emptyReceipts(), ["zeppelin", "hangar"]);
  receipts = withFetched(receipts, ["kb-shown", "kb-found"], { "kb-shown": "h" });
  assertEquals(receipts.nearMisses, [{ id: "kb-found", words: ["zeppelin", "hangar"] }]);
  assertEquals(parseReceipts(JSON.parse(JSON.stringify(receipts))), receipts);
  assertEquals(
    withFetched(emptyReceipts(), ["kb-found"], {}).nearMisses,
    undefined,
    "no search, no miss",
  );
  assertEquals(
    parseReceipts({ nearMisses: [{ id: "nope", words: ["a"] }, { id: "kb-found", words: [1] }] }),
    emptyReceipts(),
    "malformed near misses are dropped",
  );
});
