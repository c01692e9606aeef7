/**
 * `git-kb selftest` without the printing: set up a scratch knowledge base, run the writer's
 * tasks in order while the readers run alongside, verify from the final state (git log, entry
 * files, search and the hook asked again), tear down whatever happened, and check that the
 * user's own config and knowledge base did not change. Each step is one {@link StepResult}.
 *
 * The CLI and the hook run as real subprocesses through a {@link KbCli}, which the command
 * builds with the permission flags of each entry point.
 *
 * @module
 */
import {
  checkEntries,
  checkHistory,
  checkTree,
  EDIT,
  FINAL_READS,
  idByTitle,
  NEW_BOOKMARK,
  NEW_DECISION,
  READS,
} from "../../core/setup/selftest_plan.ts";
import { isEntryId } from "../../core/entry/identity.ts";
import type { ProcessOutput } from "../process.ts";
import {
  createScratch,
  describeSnapshot,
  finalState,
  firstLine,
  removeScratch,
  type Scratch,
  snapshotChanges,
  snapshotUser,
  type UserSnapshot,
} from "./scratch.ts";

/** Runs git-kb as a subprocess against a scratch knowledge base. */
export interface KbCli {
  /** `git-kb <args>`. */
  command(args: string[]): Promise<ProcessOutput>;
  /** `git-kb hook <name>` with `payload` on stdin. */
  hook(name: string, payload: string): Promise<ProcessOutput>;
}

/**
 * How git-kb starts itself as a subprocess, given by the dispatcher (app/main.ts) to the selftest
 * command, which may not import the app layer: where its code comes from, and a {@link KbCli}
 * for an environment and a working folder.
 */
export interface SelfLauncher {
  /** The file `deno run` starts, and whether it is the plugin's bundle or a checkout. */
  entry: { kind: "bundle" | "sources"; path: string };
  /** A CLI whose children see `env` (on top of what they inherit) and run in `cwd`. */
  cliFor(env: Record<string, string>, cwd: string): KbCli;
}

/** The part of the run a step belongs to. */
export type StepGroup = "setup" | "writer" | "reader" | "verify" | "teardown" | "isolation";

/** One step's outcome and why. */
export interface StepResult {
  group: StepGroup;
  name: string;
  ok: boolean;
  /** What was found, or why it failed. */
  detail: string;
  ms: number;
}

/** Run `action` as a step: its return value is the detail, a throw is the failure's reason. */
async function step(
  results: StepResult[],
  group: StepGroup,
  name: string,
  action: () => Promise<string>,
): Promise<boolean> {
  const started = performance.now();
  let ok = true;
  let detail: string;
  try {
    detail = await action();
  } catch (error) {
    ok = false;
    detail = error instanceof Error ? error.message : String(error);
  }
  results.push({ group, name, ok, detail, ms: Math.round(performance.now() - started) });
  return ok;
}

/** The output of a run that must have succeeded. */
function succeeded(result: ProcessOutput): string {
  if (result.code !== 0) throw new Error(`exit ${result.code}: ${firstLine(result)}`);
  return result.stdout;
}

function parsed<T>(result: ProcessOutput): T {
  const stdout = succeeded(result);
  try {
    return JSON.parse(stdout) as T;
  } catch {
    throw new Error(`expected JSON, got ${JSON.stringify(stdout.slice(0, 120))}`);
  }
}

/** The pointer ids of a hook's reply; [] when it printed nothing. */
function hookPointers(result: ProcessOutput): string[] {
  const stdout = succeeded(result).trim();
  if (!stdout) return [];
  const context: string = JSON.parse(stdout).hookSpecificOutput?.additionalContext ?? "";
  return context.split("\n").map((line) => /^- (\S+) /.exec(line)?.[1]).filter(isEntryId);
}

function payload(prompt: string, session: string): string {
  return JSON.stringify({ hook_event_name: "UserPromptSubmit", session_id: session, prompt });
}

async function searchIds(cli: KbCli, args: string[]): Promise<string[]> {
  const hits = parsed<{ id: string }[]>(await cli.command(["search", ...args, "--json"]));
  return hits.map((hit) => hit.id);
}

/** A promise to wait on and the function that settles it. */
function gate(): { wait: Promise<boolean>; open: (ok: boolean) => void } {
  let open!: (ok: boolean) => void;
  const wait = new Promise<boolean>((resolve) => open = resolve);
  return { wait, open };
}

interface SaveJson {
  id: string;
  commit: string;
  push: string;
}

function saved(result: ProcessOutput): string {
  const save = parsed<SaveJson>(result);
  if (save.push !== "NO_REMOTE") {
    throw new Error(`push said ${save.push}; the scratch repo has no remote, so NO_REMOTE`);
  }
  return `${save.id} committed (${save.commit.slice(0, 7)}), push NO_REMOTE`;
}

/** The `git-kb add` arguments that save `entry`. */
function addArgs(
  entry: { title: string; type: string; tags: readonly string[]; body: string; source?: string },
): string[] {
  const source = entry.source ? ["--source", entry.source] : [];
  return [
    "add",
    "--title",
    entry.title,
    "--type",
    entry.type,
    "--tag",
    entry.tags.join(","),
    ...source,
    "--body",
    entry.body,
    "--json",
  ];
}

/**
 * The writer's tasks in order; the edit waits until the readers have shown the ledger dedup
 * (`ledgerShown`), so that the edit is what makes the entry resurface. Opens `edited`.
 */
async function writer(
  cli: KbCli,
  results: StepResult[],
  ledgerShown: Promise<boolean>,
  edited: (ok: boolean) => void,
): Promise<void> {
  await step(
    results,
    "writer",
    "add a decision",
    async () => saved(await cli.command(addArgs(NEW_DECISION))),
  );
  await step(
    results,
    "writer",
    "add a bookmark",
    async () => saved(await cli.command(addArgs(NEW_BOOKMARK))),
  );
  await ledgerShown;
  const ok = await step(results, "writer", `edit ${EDIT.id}`, async () =>
    saved(
      await cli.command([
        "edit",
        EDIT.id,
        "--add-tag",
        EDIT.addTag,
        "--body",
        EDIT.body,
        "--json",
      ]),
    ));
  edited(ok);
}

/** The readers' tasks, one after another, while the writer works. */
async function readers(
  cli: KbCli,
  results: StepResult[],
  ledgerShown: (ok: boolean) => void,
  edited: Promise<boolean>,
): Promise<void> {
  const { keyword, typed, matching, silent, ledger } = READS;
  await step(results, "reader", "search by keyword", async () => {
    const ids = await searchIds(cli, [keyword.query]);
    if (ids[0] !== keyword.expect) {
      throw new Error(
        `"${keyword.query}" ranked ${ids.join(" ") || "nothing"}, not ${keyword.expect} first`,
      );
    }
    return `"${keyword.query}" → ${keyword.expect} first`;
  });
  await step(results, "reader", "search with --type", async () => {
    const own = await searchIds(cli, [typed.query, "--type", typed.type]);
    const other = await searchIds(cli, [typed.query, "--type", typed.otherType]);
    if (!own.includes(typed.expect)) throw new Error(`--type ${typed.type} missed ${typed.expect}`);
    if (other.includes(typed.expect)) {
      throw new Error(`--type ${typed.otherType} listed ${typed.expect}, a ${typed.type}`);
    }
    return `--type ${typed.type} finds ${typed.expect}, --type ${typed.otherType} does not`;
  });
  const session = `selftest-${crypto.randomUUID()}`;
  await step(results, "reader", "hook, matching prompt", async () => {
    const ids = hookPointers(await cli.hook("prompt", payload(matching.prompt, `${session}-a`)));
    if (!ids.includes(matching.expect)) {
      throw new Error(`listed ${ids.join(" ") || "nothing"}, not ${matching.expect}`);
    }
    return `lists ${ids.join(" ")}`;
  });
  await step(results, "reader", "hook, non-matching prompt", async () => {
    const reply = succeeded(await cli.hook("prompt", payload(silent.prompt, `${session}-b`)));
    if (reply.trim()) throw new Error(`printed ${JSON.stringify(reply.slice(0, 160))}`);
    return "prints nothing";
  });
  try {
    await step(results, "reader", "ledger drops a repeat", async () => {
      const first = hookPointers(await cli.hook("prompt", payload(ledger.prompt, session)));
      const second = hookPointers(await cli.hook("prompt", payload(ledger.prompt, session)));
      if (!first.includes(ledger.expect)) throw new Error(`first time: no ${ledger.expect}`);
      if (second.includes(ledger.expect)) throw new Error(`${ledger.expect} listed twice`);
      return `${ledger.expect} listed once in two prompts`;
    });
  } finally {
    ledgerShown(true);
  }
  await step(results, "reader", "changed entry resurfaces", async () => {
    if (!await edited) throw new Error(`the writer's edit of ${ledger.expect} failed`);
    const again = hookPointers(await cli.hook("prompt", payload(ledger.prompt, session)));
    if (!again.includes(ledger.expect)) {
      throw new Error(`after the edit the same session got ${again.join(" ") || "nothing"}`);
    }
    return `${ledger.expect} listed again after the edit`;
  });
}

/** Writer and readers at the same time. */
export async function runTasks(cli: KbCli): Promise<StepResult[]> {
  const writes: StepResult[] = [];
  const reads: StepResult[] = [];
  const ledger = gate();
  const edit = gate();
  await Promise.all([
    writer(cli, writes, ledger.wait, edit.open),
    readers(cli, reads, ledger.open, edit.wait),
  ]);
  return [...writes, ...reads];
}

/** Check the scratch knowledge base as it ended up, asking git, the files, search and the hook. */
export async function verify(scratch: Scratch, cli: KbCli): Promise<StepResult[]> {
  const results: StepResult[] = [];
  const started = performance.now();
  let state;
  try {
    state = await finalState(scratch);
  } catch (error) {
    await step(results, "verify", "read the final state", () => Promise.reject(error));
    return results;
  }
  const ms = Math.round(performance.now() - started);
  const ids = {
    decision: idByTitle(state.files, NEW_DECISION.title),
    bookmark: idByTitle(state.files, NEW_BOOKMARK.title),
  };
  for (const check of [checkHistory(state, ids), checkEntries(state), checkTree(state)]) {
    results.push({ group: "verify", ...check, ms });
  }
  await step(results, "verify", "search again", async () => {
    const bookmark = await searchIds(cli, [FINAL_READS.bookmark.query]);
    const decision = await searchIds(cli, [
      FINAL_READS.decision.query,
      "--type",
      FINAL_READS.decision.type,
    ]);
    if (!ids.bookmark || bookmark[0] !== ids.bookmark) {
      throw new Error(`"${FINAL_READS.bookmark.query}" ranked ${bookmark[0] ?? "nothing"} first`);
    }
    if (!ids.decision || decision[0] !== ids.decision) {
      throw new Error(`"${FINAL_READS.decision.query}" ranked ${decision[0] ?? "nothing"} first`);
    }
    return `${ids.bookmark} and ${ids.decision} first`;
  });
  await step(results, "verify", "hook again, new session", async () => {
    const session = `selftest-verify-${crypto.randomUUID()}`;
    const pointers = hookPointers(
      await cli.hook("prompt", payload(FINAL_READS.hook.prompt, session)),
    );
    if (!ids.decision || !pointers.includes(ids.decision)) {
      throw new Error(`listed ${pointers.join(" ") || "nothing"}, not the decision`);
    }
    const quiet = succeeded(await cli.hook("prompt", payload(READS.silent.prompt, session)));
    if (quiet.trim()) throw new Error("printed something for the prompt that matches nothing");
    return `lists ${pointers.join(" ")}; silent on the other prompt`;
  });
  return results;
}

/** Remove the scratch folder (and its knowledge base's cache). */
export async function teardown(scratch: Scratch): Promise<StepResult[]> {
  const results: StepResult[] = [];
  await step(
    results,
    "teardown",
    "remove scratch folder",
    () => Promise.resolve(`removed ${removeScratch(scratch).join(", ")}`),
  );
  return results;
}

/** Compare the user's setup with the snapshot taken before the run. */
export async function checkIsolation(before: UserSnapshot): Promise<StepResult[]> {
  const results: StepResult[] = [];
  await step(results, "isolation", "your setup untouched", async () => {
    const changes = snapshotChanges(before, await snapshotUser(before.kb?.dir));
    if (changes.length) throw new Error(changes.join("; "));
    return describeSnapshot(before);
  });
  return results;
}

/** What a whole run did. */
export interface SelftestRun {
  steps: StepResult[];
  /** The scratch folder, when setup got that far (gone unless kept). */
  scratch?: string;
}

/**
 * The whole self-test: snapshot, setup, tasks, verify, teardown (always, unless `keep`), and
 * the isolation check. `cliFor` builds the subprocess runner for the scratch environment.
 */
export async function runSelftest(
  cliFor: (scratch: Scratch) => KbCli,
  options: { kbFlag?: string; keep?: boolean } = {},
): Promise<SelftestRun> {
  const steps: StepResult[] = [];
  const user = await snapshotUser(options.kbFlag);
  let scratch: Scratch | undefined;
  try {
    await step(steps, "setup", "scratch kb, 3 entries", async () => {
      scratch = await createScratch(user);
      return scratch.kbDir;
    });
    if (scratch) {
      const cli = cliFor(scratch);
      steps.push(...await runTasks(cli));
      steps.push(...await verify(scratch, cli));
    }
  } finally {
    if (scratch && !options.keep) steps.push(...await teardown(scratch));
    steps.push(...await checkIsolation(user));
  }
  return { steps, scratch: scratch?.dir };
}
