import { assert, assertEquals } from "@std/assert";
import { shellQuote } from "../shell/quote.ts";
import {
  type FetchScope,
  isFreeFetch,
  launcherOf,
  MAX_FETCH_LINE,
  plainBashCommand,
} from "./free_fetch.ts";

const LAUNCHER = "/opt/git-kb/plugin/bin/git-kb";
const KB = "/home/me/kb";
const SCOPE: FetchScope = { launcher: LAUNCHER, kbDirs: [KB, "/home/me/team kb"] };

/** A launcher and a knowledge base whose paths need quoting: a space and a quote in each. */
const ODD: FetchScope = {
  launcher: "/home/o'brien/my plugins/bin/git-kb",
  kbDirs: ["/home/o'brien/my kb"],
};
const ODD_LAUNCHER = shellQuote(ODD.launcher);
const ODD_KB = shellQuote(ODD.kbDirs[0]);

/** The fetch line the hooks print, for the launcher and knowledge base of `SCOPE`. */
const PRINTED = `${LAUNCHER} get kb-7q2mx kb-c0mw8 --kb ${KB}`;

Deno.test("isFreeFetch: the printed fetch lines and get written by hand the same way", () => {
  const allowed: [string, FetchScope][] = [
    [PRINTED, SCOPE],
    [`${LAUNCHER} get kb-7q2mx`, SCOPE],
    [`${LAUNCHER} get kb-7q2mx,kb-c0mw8 --json --links`, SCOPE],
    [`${LAUNCHER} get team:kb-7q2mx personal:kb-c0mw8`, SCOPE],
    [`${LAUNCHER} get --kb ${KB} kb-7q2mx`, SCOPE],
    [`${LAUNCHER} get kb-7q2mx --kb=${KB}`, SCOPE],
    [`${LAUNCHER} get kb-7q2mx --kb '/home/me/team kb'`, SCOPE],
    [`${LAUNCHER} get kb-7q2mx --kb "/home/me/team kb"`, SCOPE],
    [`"${LAUNCHER}" get kb-7q2mx --links`, SCOPE],
    [`'${LAUNCHER}' get 'kb-7q2mx'`, SCOPE],
    [`${LAUNCHER}  get\tkb-7q2mx   --kb ${KB}`, SCOPE],
    [`  ${PRINTED}\n`, SCOPE],
    // Several knowledge bases: one get per knowledge base, joined as the hook joins them.
    [`${PRINTED} ; ${LAUNCHER} get kb-2yb6n --kb '/home/me/team kb'`, SCOPE],
    [`${PRINTED};${PRINTED}`, SCOPE],
    [`${ODD_LAUNCHER} get kb-7q2mx --kb ${ODD_KB}`, ODD],
    [`git-kb get kb-7q2mx --kb ${KB}`, { ...SCOPE, launcher: "git-kb" }],
  ];
  for (const [command, scope] of allowed) {
    assertEquals(isFreeFetch(command, scope), true, JSON.stringify(command));
  }
});

Deno.test("isFreeFetch: anything chained, redirected, expanded or beyond get is refused", () => {
  const refused = [
    // Chained, in every way a shell chains.
    `${PRINTED}; rm -rf ~`,
    `${PRINTED} ; rm -rf ~`,
    `${PRINTED} && rm -rf ~`,
    `${PRINTED} || rm -rf ~`,
    `${PRINTED} | sh`,
    `${PRINTED} & rm -rf ~`,
    `${PRINTED} &`,
    `${PRINTED};`,
    `${PRINTED}\nrm -rf ~`,
    `${PRINTED}\r\nrm -rf ~`,
    `rm -rf ~; ${PRINTED}`,
    `(${PRINTED})`,
    `{ ${PRINTED}; }`,
    `${PRINTED} ; ${LAUNCHER} add --title x`,
    // Expanded.
    `${LAUNCHER} get kb-7q2mx $(rm -rf ~)`,
    `${LAUNCHER} get kb-7q2mx "$(rm -rf ~)"`,
    `${LAUNCHER} get kb-7q2mx \`rm -rf ~\``,
    `${LAUNCHER} get kb-7q2mx --kb $HOME/kb`,
    `${LAUNCHER} get kb-7q2mx --kb "$HOME/kb"`,
    `${LAUNCHER} get kb-7q2mx --kb ~/kb`,
    `${LAUNCHER} get kb-7q2mx --kb \${KB}`,
    `${LAUNCHER} get kb-*`,
    `${LAUNCHER} get kb-7q2m?`,
    `${LAUNCHER} get kb-7q2m[x]`,
    `${LAUNCHER} get kb-{7q2mx,c0mw8}`,
    `${LAUNCHER} get kb-7q2m\\x`,
    `${LAUNCHER} get kb-7q2mx <(rm -rf ~)`,
    // Redirected.
    `${PRINTED} > ~/.bashrc`,
    `${PRINTED} >> ~/.bashrc`,
    `${PRINTED} 2>&1`,
    `${PRINTED} < /etc/passwd`,
    `${PRINTED} <<EOF\nx\nEOF`,
    `${PRINTED} <<< x`,
    `${PRINTED}>~/.bashrc`,
    // Commented, prefixed or wrapped.
    `${PRINTED} # note`,
    `X=1 ${PRINTED}`,
    `env ${PRINTED}`,
    `sudo ${PRINTED}`,
    `exec ${PRINTED}`,
    `sh -c '${PRINTED}'`,
    `\\${PRINTED}`,
    // Another program, or the launcher's name elsewhere.
    `/tmp/evil/bin/git-kb get kb-7q2mx --kb ${KB}`,
    `./git-kb get kb-7q2mx`,
    `git-kb get kb-7q2mx`,
    `${LAUNCHER}x get kb-7q2mx`,
    `${LAUNCHER.toUpperCase()} get kb-7q2mx`,
    // Another command, or not only ids and reading flags.
    `${LAUNCHER} search token`,
    `${LAUNCHER} rm kb-7q2mx`,
    `${LAUNCHER} get`,
    `${LAUNCHER} get --json`,
    `${LAUNCHER} get --kb ${KB}`,
    `${LAUNCHER} --kb ${KB} get kb-7q2mx`,
    `${LAUNCHER} get kb-7q2mx --kb`,
    `${LAUNCHER} get kb-7q2mx --kb /etc`,
    `${LAUNCHER} get kb-7q2mx --kb=/etc`,
    `${LAUNCHER} get kb-7q2mx --kb ${KB}/../../etc`,
    `${LAUNCHER} get kb-7q2mx --kb ${KB}/`,
    `${LAUNCHER} get kb-7q2mx --kb ${KB}\u00a0`,
    `${PRINTED}\u00a0`,
    `\u00a0${PRINTED}`,
    `${LAUNCHER} get kb-7q2mx --fix`,
    `${LAUNCHER} get kb-7q2mx --help`,
    `${LAUNCHER} get kb-7q2mx --`,
    `${LAUNCHER} get kb-7q2mx extra`,
    `${LAUNCHER} get KB-7Q2MX`,
    `${LAUNCHER} get kb-7q2mxx`,
    `${LAUNCHER} get kb-7q2m`,
    `${LAUNCHER} get kb-7q2mx,`,
    `${LAUNCHER} get Team:kb-7q2mx`,
    `${LAUNCHER} get :kb-7q2mx`,
    `${LAUNCHER} get 'kb-7q2mx kb-c0mw8'`,
    `${LAUNCHER} get -kb-7q2mx`,
    "",
    "   ",
    `${PRINTED} ${"kb-7q2mx ".repeat(MAX_FETCH_LINE / 9)}`,
  ];
  for (const command of refused) {
    assertEquals(isFreeFetch(command, SCOPE), false, JSON.stringify(command));
  }
  assertEquals(isFreeFetch(`${LAUNCHER} get kb-7q2mx`, { ...SCOPE, launcher: "" }), false);
  assertEquals(isFreeFetch(PRINTED, { ...SCOPE, kbDirs: [] }), false, "no knowledge base");
  for (const relative of ["kb", "./kb", "~/kb", ""]) {
    const scope = { ...SCOPE, kbDirs: [KB, relative] };
    for (const line of [`${LAUNCHER} get kb-7q2mx --kb ${shellQuote(relative)}`, PRINTED]) {
      assertEquals(isFreeFetch(line, scope), false, `${line} with ${relative} configured`);
    }
  }
});

/** Text a shell gives a meaning of its own to, anywhere in a line. */
const HOSTILE = [";", "&", "|", ">", "<", "`", "$(", "$", "\n", "\r", "#", "*", "?", "[", "~", "{"]
  .concat(["(", ")", "!", "\\", "'", '"', "=", "\u00a0", "\t;", " ;x", " x"]);

Deno.test("isFreeFetch: a hostile character inserted anywhere in a free fetch makes it not free", () => {
  const lines: [string, FetchScope][] = [
    [PRINTED, SCOPE],
    [`"${LAUNCHER}" get kb-7q2mx --kb '/home/me/team kb'`, SCOPE],
    [`${ODD_LAUNCHER} get kb-7q2mx --kb ${ODD_KB}`, ODD],
  ];
  for (const [line, scope] of lines) {
    assertEquals(isFreeFetch(line, scope), true, line);
    for (let at = 1; at < line.length; at++) {
      for (const text of HOSTILE) {
        const changed = line.slice(0, at) + text + line.slice(at);
        assertEquals(isFreeFetch(changed, scope), false, JSON.stringify(changed));
      }
    }
  }
});

Deno.test("isFreeFetch: decides runs of blanks at once, at the size limit and over it", () => {
  const line = `${" ".repeat(MAX_FETCH_LINE / 2)}x${" \t".repeat(MAX_FETCH_LINE / 4 - 1)}y`;
  assertEquals(line.length, MAX_FETCH_LINE);
  const started = performance.now();
  assertEquals(isFreeFetch(line, SCOPE), false);
  assertEquals(isFreeFetch(line.repeat(4), SCOPE), false, "as much as the hook reads");
  assertEquals(
    isFreeFetch(`${PRINTED}${" ".repeat(MAX_FETCH_LINE - PRINTED.length)}`, SCOPE),
    true,
  );
  assert(performance.now() - started < 500, `${performance.now() - started} ms`);
});

Deno.test("launcherOf: one word written as the launcher writes it, else nothing", () => {
  assertEquals(launcherOf(LAUNCHER), LAUNCHER);
  assertEquals(launcherOf("git-kb"), "git-kb");
  assertEquals(launcherOf(ODD_LAUNCHER), ODD.launcher);
  for (const prefix of ["", " ", `"${ODD.launcher}"`, "deno run -A app/main.ts", "a;b", "$(x)"]) {
    assertEquals(launcherOf(prefix), undefined, prefix);
  }
});

Deno.test("plainBashCommand: the command of a call that asks for nothing but running it", () => {
  const command = PRINTED;
  for (
    const input of [
      { command },
      { command, description: "Fetch the entry", timeout: 120_000, run_in_background: true },
      { command, dangerouslyDisableSandbox: false },
    ]
  ) {
    assertEquals(plainBashCommand(input), command, JSON.stringify(input));
  }
  for (
    const input of [
      { command, dangerouslyDisableSandbox: true },
      { command, dangerouslyDisableSandbox: "false" },
      { command, dangerouslyDisableSandbox: null },
      { command, env: { LD_PRELOAD: "/tmp/evil.so" } },
      { command, cwd: "/tmp/evil" },
      { command, Command: "rm -rf ~" },
      { command: [command] },
      { cmd: command },
      {},
      [command],
      command,
      null,
      undefined,
    ]
  ) {
    assertEquals(plainBashCommand(input), undefined, JSON.stringify(input));
  }
});
