/**
 * Table tests of search term extraction (core/search_augment/terms.ts, with patterns.ts and
 * commands.ts): every tool shape, flags and their values, quotes, pipes, `find -name '*.ts'`,
 * `git grep`, `rg -e`, regex metacharacters, short words, extensions and wildcards.
 */
import { assert, assertEquals } from "@std/assert";
import { searchPhrases } from "./terms.ts";
import { MAX_COMMAND_DEPTH } from "./commands.ts";
import {
  expandBraces,
  globPhrases,
  MAX_PATTERN_LENGTH,
  MAX_PHRASES,
  phraseWords,
  regexPhrases,
} from "./patterns.ts";
import { splitCamelCase } from "../text/tokenize.ts";

/** [tool, input, expected phrases]. */
const CASES: [string, unknown, string[]][] = [
  // Grep: the pattern is a regular expression.
  ["Grep", { pattern: "rebase", path: "." }, ["rebase"]],
  ["Grep", { pattern: "rotateToken", glob: "*.ts" }, ["rotate token"]],
  ["Grep", { pattern: "HOOK_TRUST_MS" }, ["hook trust"]],
  ["Grep", { pattern: "HTTPServer" }, ["http server"]],
  ["Grep", { pattern: "rotate|revoke" }, ["rotate", "revoke"]],
  ["Grep", { pattern: "(leaked|exposed)\\s+token" }, ["leaked", "exposed token"]],
  ["Grep", { pattern: "\\bcloudflare\\b" }, ["cloudflare"]],
  ["Grep", { pattern: '^import .* from "node:.*"' }, ["node"]],
  ["Grep", { pattern: "pg_dump\\.sql" }, ["dump sql"]],
  ["Grep", { pattern: "idempoten(t|cy)[-_ ]key" }, ["idempoten", "key"]],
  ["Grep", { pattern: "(?i)bisect" }, ["bisect"]],
  ["Grep", { pattern: "[Pp]gbouncer" }, ["pgbouncer"]],
  ["Grep", { pattern: "[A-Z]{3,}_TOKEN" }, ["token"]],
  ["Grep", { pattern: "\\d+ms" }, []],
  ["Grep", { pattern: "\\p{L}+cache\\x41" }, ["cache"]],
  ["Grep", { pattern: "fn main" }, []],
  ["Grep", { pattern: "TODO|FIXME" }, []],
  ["Grep", { pattern: "a|b|ci" }, []],
  ["Grep", { pattern: 12 }, []],
  ["Grep", {}, []],
  // Glob: wildcards, extensions and brace lists.
  ["Glob", { pattern: "**/*.ts" }, []],
  ["Glob", { pattern: "**/*token*.ts" }, ["token"]],
  ["Glob", { pattern: "src/**/migrations/*.sql" }, ["migrations"]],
  ["Glob", { pattern: "docs/{deploy,rollback}/**/*.md" }, ["docs deploy", "docs rollback"]],
  ["Glob", { pattern: "**/*.{ts,tsx}" }, []],
  ["Glob", { pattern: ".github/workflows/*.yml" }, ["github workflows"]],
  ["Glob", { pattern: "**/docker-compose.yml" }, ["docker compose"]],
  ["Glob", { pattern: "**/[Rr]ebase*" }, ["rebase"]],
  ["Glob", { pattern: "**/[a-z]ebase*" }, ["ebase"]],
  // Bash: grep and its flags.
  ["Bash", { command: "grep -rn rotateToken src/" }, ["rotate token"]],
  ["Bash", { command: "grep -rn 'leaked token' --include='*.ts' ." }, ["leaked token"]],
  ["Bash", { command: "grep -rn --include '*.ts' cloudflare ." }, ["cloudflare"]],
  ["Bash", { command: 'grep -E "rebase|bisect" notes.md' }, ["rebase", "bisect"]],
  ["Bash", { command: "grep 'rebase\\|bisect' notes.md" }, ["rebase", "bisect"]],
  ["Bash", { command: "grep -F 'a.b*c' x" }, []],
  ["Bash", { command: "grep -F 'cache.key*' x" }, ["cache key"]],
  ["Bash", { command: "fgrep 'idempotency.key' x" }, ["idempotency key"]],
  ["Bash", { command: "grep -A3 -m 5 -e semver -e changelog ." }, ["semver", "changelog"]],
  ["Bash", { command: "grep -rne migration ." }, ["migration"]],
  ["Bash", { command: "grep -v rebase notes.md" }, []],
  ["Bash", { command: "grep --invert-match rebase notes.md" }, []],
  ["Bash", { command: "grep -- -rebase-flag x" }, ["rebase flag"]],
  ["Bash", { command: "/usr/bin/grep -i pgbouncer /etc/x" }, ["pgbouncer"]],
  ["Bash", { command: "LC_ALL=C sudo grep -r squash ." }, ["squash"]],
  // Pipes, lists and xargs.
  ["Bash", { command: "git log --oneline | grep -i rebase | head -5" }, ["rebase"]],
  ["Bash", { command: "cd repo && rg semver; grep -c bisect x" }, ["semver", "bisect"]],
  ["Bash", { command: "find . -name '*.ts' | xargs grep -l rotateToken" }, ["rotate token"]],
  ["Bash", { command: "ls | xargs -I {} -P 4 grep -H pgbouncer {}" }, ["pgbouncer"]],
  // rg.
  ["Bash", { command: "rg -n 'rotate.*token' --type ts" }, ["rotate token"]],
  ["Bash", { command: "rg -e semver -e 'change log' -g '*.md'" }, ["semver", "change log"]],
  ["Bash", { command: "rg --regexp=bisect --max-depth 3 src" }, ["bisect"]],
  ["Bash", { command: "rg -tpy -A 2 connectionPool" }, ["connection pool"]],
  ["Bash", { command: "rg -F 'token.rotate(' src" }, ["token rotate"]],
  ["Bash", { command: "rg --files -g '*migration*'" }, ["migration"]],
  ["Bash", { command: "rg --files src" }, []],
  // git grep.
  ["Bash", { command: "git grep -n idempotency -- '*.ts'" }, ["idempotency"]],
  ["Bash", { command: "git -C repo --no-pager grep -e rebase HEAD~3" }, ["rebase"]],
  ["Bash", { command: "git log --grep rebase" }, []],
  // find.
  ["Bash", { command: "find . -name '*.ts'" }, []],
  ["Bash", { command: "find . -type f -name '*migration*.sql'" }, ["migration"]],
  ["Bash", { command: "find src -iname 'RateLimiter*'" }, ["rate limiter"]],
  ["Bash", { command: "find . -path '*/fixtures/*'" }, ["fixtures"]],
  ["Bash", { command: "find . -regex '.*/cache_[a-z]+\\.rs'" }, ["cache"]],
  ["Bash", { command: "find . -name '*.md' -exec grep -l semver {} \\;" }, ["semver"]],
  // Not a search.
  ["Bash", { command: "deno test --allow-all && git status --short" }, []],
  ["Bash", { command: "echo grep rebase" }, []],
  ["Bash", { command: "" }, []],
  ["Bash", { cmd: "grep rebase ." }, []],
  ["Read", { file_path: "/x/rebase.md" }, []],
  ["Grep", null, []],
  ["Bash", "grep rebase", []],
];

for (const [tool, input, expected] of CASES) {
  Deno.test(`searchPhrases ${tool} ${JSON.stringify(input)}`, () => {
    assertEquals(searchPhrases(tool, input), expected);
  });
}

Deno.test("phraseWords folds accents and keeps CJK bigrams, as the index does", () => {
  assertEquals(phraseWords("ÜberGröße"), ["uber", "grosse"]);
  assertEquals(phraseWords("デプロイ"), ["デプ", "プロ", "ロイ"]);
  assertEquals(phraseWords("deploy_デプロイ"), ["deploy", "デプ", "プロ", "ロイ"]);
  assertEquals(searchPhrases("Grep", { pattern: "CrashLoopBackOff|배포" }), [
    "crash loop back",
    "배포",
  ]);
});

Deno.test("phraseWords: camelCase, separators, short words, numbers, stopwords, noise", () => {
  assertEquals(phraseWords("getUserByID"), ["user"]);
  assertEquals(phraseWords("parseHTTPResponse2xx"), ["parse", "http", "response2xx"]);
  assertEquals(phraseWords("kb-7q2mx/cloudflare_token.ts"), ["7q2mx", "cloudflare", "token"]);
  assertEquals(phraseWords("the 2026 release of v1"), ["release"]);
  assertEquals(phraseWords("token TOKEN Token"), ["token"]);
  assertEquals(phraseWords("one two three four five six seven eight"), [
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
  ]);
});

Deno.test("regexPhrases and globPhrases: at most MAX_PHRASES, deduplicated", () => {
  const many = Array.from({ length: 20 }, (_, index) => `word${"abcdefghijklmnopqrstu"[index]}`);
  assertEquals(regexPhrases(many.join("|")).length, MAX_PHRASES);
  assertEquals(regexPhrases("cache|cache|CACHE"), ["cache"]);
  assertEquals(globPhrases("{a,b,c,d,e,f,g,h,i,j}/{k,l}/token*"), ["token"]);
  assertEquals(expandBraces("x{1,2}y{3,4}"), ["x1y3", "x1y4", "x2y3", "x2y4"]);
  assertEquals(expandBraces("x{1,2"), ["x{1,2"]);
});

Deno.test("splitCamelCase splits where the two regular expressions it replaced did", () => {
  const oracle = (text: string) =>
    text.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2");
  assertEquals(splitCamelCase("parseHTMLString"), "parse HTML String");
  assertEquals(splitCamelCase("v2Api"), "v2 Api");
  const alphabet = "aZbY09Q _-";
  let seed = 11;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let round = 0; round < 3000; round++) {
    const length = Math.floor(next() * 12);
    const text = Array.from({ length }, () => alphabet[Math.floor(next() * alphabet.length)])
      .join("");
    assertEquals(splitCamelCase(text), oracle(text), JSON.stringify(text));
  }
});

/** `action`'s result, failing when it takes more than a second (a hostile-input bound). */
function withinASecond<T>(label: string, action: () => T): T {
  const started = performance.now();
  const result = action();
  const ms = performance.now() - started;
  assert(ms < 1000, `${label}: ${ms.toFixed(0)} ms`);
  return result;
}

Deno.test("expandBraces builds only the expansions it keeps: brace bombs finish at once", () => {
  const expanded = withinASecond("{a,b} x 2000", () => expandBraces("{a,b}".repeat(2000) + "x"));
  assertEquals(expanded.map((text) => text.slice(1997)), [
    "aaax",
    "aabx",
    "abax",
    "abbx",
    "baax",
    "babx",
    "bbax",
    "bbbx",
  ]);
  assert(expanded.every((text) => text.startsWith("a".repeat(1997))));
  const bombs = [
    "{a,b}".repeat(24) + "token",
    "{a,b,c,d,e,f,g,h,i,j}".repeat(9),
    "{a,b}".repeat(2000),
    "{" + "x,".repeat(200_000) + "}",
    "{,}".repeat(300_000) + "token",
  ];
  for (const glob of bombs) {
    const phrases = withinASecond(glob.slice(0, 20), () => globPhrases(glob));
    assert(phrases.length <= MAX_PHRASES);
  }
  assertEquals(expandBraces("{a,b}{c,d}{e,f}", 3), ["ace", "acf", "ade"]);
});

Deno.test("regexPhrases and globPhrases read only the first MAX_PATTERN_LENGTH characters", () => {
  const padding = " ".repeat(MAX_PATTERN_LENGTH - "rotate ".length);
  assertEquals(regexPhrases(`rotate ${padding}revoke`), ["rotate"]);
  assertEquals(globPhrases(`*rotate*${padding}revoke*`), ["rotate"]);
  const hostile = [
    Array.from({ length: 100_000 }, (_, index) => `w${index.toString(36)}x`).join(" "),
    "[".repeat(500_000),
    "(?".repeat(500_000),
    "\\p{".repeat(200_000),
  ];
  for (const pattern of hostile) {
    withinASecond(`Grep ${pattern.slice(0, 12)}`, () => searchPhrases("Grep", { pattern }));
    withinASecond(`Glob ${pattern.slice(0, 12)}`, () => searchPhrases("Glob", { pattern }));
  }
});

Deno.test("commands run by commands are followed MAX_COMMAND_DEPTH deep, and long chains finish", () => {
  const chain = (depth: number, link: string) => `${link} `.repeat(depth) + "grep rotateToken";
  for (const link of ["xargs", "xargs -0", "find . -exec"]) {
    assertEquals(searchPhrases("Bash", { command: chain(MAX_COMMAND_DEPTH - 1, link) }), [
      "rotate token",
    ]);
    assertEquals(searchPhrases("Bash", { command: chain(MAX_COMMAND_DEPTH, link) }), []);
  }
  const hostile = [
    chain(100_000, "xargs"),
    chain(50_000, "find . -exec"),
    chain(30_000, "find . -name '*token*' -exec"),
    `find . ${"-exec grep token ; ".repeat(30_000)}`,
    "grep token | ".repeat(50_000),
    `grep ${"-e token ".repeat(60_000)}`,
    `grep ${"$(".repeat(200_000)}`,
  ];
  for (const command of hostile) {
    const phrases = withinASecond(command.slice(0, 20), () => searchPhrases("Bash", { command }));
    assert(phrases.length <= MAX_PHRASES);
  }
});
