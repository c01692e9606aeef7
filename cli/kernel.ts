/**
 * `git-kb kernel`: review the kernel rules of every configured knowledge base and accept those
 * waiting (see io/kernel/acceptance.ts). A kernel rule goes into every prompt verbatim, so one
 * that came in from anyone else (a teammate's push through sync or the session's pull, a hand
 * edit, an import) applies only once this user has read and accepted it, as it reads now.
 *
 * A command of its own rather than a `doctor --fix` step: accepting is a decision about what a
 * teammate wrote, made after reading it whole, not a repair to run with the others.
 *
 * @module
 */
import type { KernelRule } from "../core/index/format.ts";
import { type KernelState, kernelState, ruleHashOf } from "../core/kernel/acceptance.ts";
import { qualifyId, splitQualifiedId } from "../core/kbs/qualified.ts";
import { meantId } from "../core/entry/identity.ts";
import { displaySafe, fenceFor } from "../core/text/display.ts";
import { git } from "../io/git.ts";
import { READ_TRUST_MS } from "../io/index/store.ts";
import { acceptKernelRules, readAcceptedRules } from "../io/kernel/acceptance.ts";
import { type NamedKb, withKbs } from "../io/kbs/open.ts";
import { kbCommand } from "../io/self_command.ts";
import { type CommandSpec, helpText, NO_POSITIONALS, parseCommand, UsageError } from "./args.ts";
import { bold, cyan, dim, green, plural, printJson, yellow } from "./output.ts";

/** The command: its usage, options and positionals. */
export const command = {
  usage: ["kernel [options]", "kernel --accept <id>... | --accept-all"],
  about: `Review the kernel rules: the entries that go into every prompt whole. A rule
applies only once you have accepted it as it reads now, so a rule that came in
from anyone else (a teammate's push brought by sync or by the session's pull, a
hand edit, an import) waits until you have read it. Lists each waiting rule in
full, with its knowledge base and who last changed it, then the rules that
apply. Rules you save with add, edit or promote are accepted as you save them
(not those an agent saves through git-kb mcp).
The record of what you accepted is yours alone, on this machine:
$XDG_CONFIG_HOME/git-kb/kernel-accepted.json (by default under ~/.config), so a
rule you saved on another machine waits here too.`,
  options: {
    accept: {
      type: "string",
      multiple: true,
      value: "<id>",
      help: "accept this rule as it reads now; repeat for several (team:kb-7q2mx names\n" +
        "the knowledge base; kb-7q2mx@<hash>, as listed, only if it still reads as listed)",
    },
    "accept-all": { type: "boolean", help: "accept every rule waiting, as it reads now" },
    json: {
      type: "boolean",
      help: "print {rules: [{id, kb, title, state, changedBy, body, hash}]}",
    },
  },
  positionals: NO_POSITIONALS,
  notes: `Exit codes: 0 listed or accepted, 1 an id is not a kernel rule, 2 usage error.`,
} as const satisfies CommandSpec;

/** Help text. */
export const help: string = helpText(command);

/** A kernel rule of a knowledge base in use, and whether it applies. */
interface RuleView {
  /** Its id as typed on the command line: qualified where several knowledge bases are read. */
  id: string;
  kb: NamedKb;
  rule: KernelRule;
  state: KernelState;
}

/** Every kernel rule of `kbs`, the default knowledge base's first. */
function ruleViews(kbs: NamedKb[], several: boolean): RuleView[] {
  const accepted = readAcceptedRules();
  return kbs.flatMap((kb) =>
    kb.reader.manifest.kernel.map((rule) => ({
      id: several ? qualifyId(kb.name, rule.id) : rule.id,
      kb,
      rule,
      state: kernelState(accepted, rule),
    }))
  );
}

/**
 * Who last changed a rule's file and when, from git; undefined when git cannot say. A file edited
 * in this clone since its last commit says so first: that commit's author did not write the text
 * shown.
 */
async function lastChange(view: RuleView): Promise<string | undefined> {
  const dir = view.kb.location.kbDir;
  const [log, status] = await Promise.all([
    git(dir, ["log", "-1", "--format=%an <%ae>, %as, commit %h", "--", view.rule.path])
      .catch(() => undefined),
    git(dir, ["status", "--porcelain", "--", view.rule.path]).catch(() => undefined),
  ]);
  const line = log?.code === 0 ? displaySafe(log.stdout.trim()) : "";
  if (status?.code === 0 && status.stdout.trim()) {
    return `an edit in this clone, not committed (${
      line ? `the file's last commit: ${line}` : "the file was never committed"
    })`;
  }
  return line || undefined;
}

/** A line of a rule's body for a terminal: its indentation kept, escapes and controls dropped. */
function terminalLine(line: string): string {
  return `${/^[ \t]*/.exec(line)![0]}${displaySafe(line)}`;
}

/** What the listing prints of a rule waiting: where it is from, who changed it, all of it. */
function waitingBlock(view: RuleView, changedBy: string | undefined): string[] {
  const body = view.rule.body.split("\n").map(terminalLine).join("\n");
  const fence = fenceFor(body);
  return [
    `${bold(view.id)} ${displaySafe(view.rule.title)} ${
      yellow(view.state === "new" ? "(new)" : "(changed since you accepted it)")
    }`,
    `  knowledge base: ${view.kb.name} (${view.kb.location.kbDir})`,
    `  file: ${view.rule.path}`,
    `  last changed by: ${changedBy ?? "not known (not committed, or git cannot say)"}`,
    `${fence}markdown\n${body}\n${fence}`,
    `  accept: ${cyan(kbCommand("kernel", "--accept", listedId(view)))}`,
    "",
  ];
}

/** A rule's id as the listing prints it, `<id>@<hash>`: accepting it accepts only that content. */
function listedId(view: RuleView): string {
  return `${view.id}@${ruleHashOf(view.rule)}`;
}

/**
 * The rule `typed` names (the id as listed, or plain where only one knowledge base has it), and
 * with `@<hash>` as the listing prints it, only while the rule still reads as it did listed.
 */
function named(views: RuleView[], typed: string): RuleView {
  const at = typed.lastIndexOf("@");
  const view = namedById(views, at < 0 ? typed : typed.slice(0, at));
  if (at >= 0 && ruleHashOf(view.rule) !== typed.slice(at + 1)) {
    throw new Error(
      `${view.id} changed since it was listed (or ${typed.slice(at + 1)} is not the hash the ` +
        `listing printed), so nothing was accepted: read it as it is now with ` +
        kbCommand("kernel"),
    );
  }
  return view;
}

/**
 * The rule `typed` names by id: as listed, or plain where only one knowledge base has it; for an
 * id no rule has, the rule it most likely meant is named with its accept.
 */
function namedById(views: RuleView[], typed: string): RuleView {
  const { kb, id } = splitQualifiedId(typed);
  const matches = views.filter((view) =>
    view.rule.id === id && (kb === undefined || view.kb.name === kb)
  );
  if (matches.length === 1) return matches[0];
  if (matches.length > 1) {
    throw new UsageError([
      `${typed} is a kernel rule of ${matches.map((view) => view.kb.name).join(" and ")}: ` +
      `name one, as ${matches.map((view) => view.id).join(" or ")}`,
    ]);
  }
  const inKb = views.filter((view) => kb === undefined || view.kb.name === kb);
  const near = meantId(id, inKb.map((view) => view.rule.id));
  const meant = inKb.find((view) => view.rule.id === near);
  throw new Error(
    `${typed} is not a kernel rule of any knowledge base in use; ` +
      (meant
        ? `did you mean ${meant.id} (${displaySafe(meant.rule.title)})? ` +
          kbCommand("kernel", "--accept", meant.id)
        : `list them with ${kbCommand("kernel")}`),
  );
}

/** Accept the rules of `chosen` that wait, and say so; those accepted already are named so. */
async function accept(chosen: RuleView[], json: boolean | undefined): Promise<void> {
  const waiting = chosen.filter((view) => view.state !== "accepted");
  const already = chosen.filter((view) => view.state === "accepted");
  await acceptKernelRules(waiting.map((view) => view.rule));
  if (json) {
    const listed = (views: RuleView[]) =>
      views.map((view) => ({ id: view.id, title: view.rule.title }));
    printJson({ accepted: listed(waiting), alreadyAccepted: listed(already) });
    return;
  }
  for (const view of already) {
    console.log(`Already accepted: ${view.id} ${displaySafe(view.rule.title)}`);
  }
  if (!waiting.length) {
    if (!already.length) console.log("No kernel rule waits for acceptance.");
    return;
  }
  for (const view of waiting) {
    console.log(`${green("Accepted")} ${view.id} ${displaySafe(view.rule.title)}`);
  }
  const [applies, reads] = waiting.length === 1
    ? ["It applies", "it reads"]
    : ["They apply", "they read"];
  console.log(
    `${applies} to every prompt from now on, as ${reads} now; a later change waits for you again.`,
  );
}

/** Print every rule: those waiting in full, then those that apply. */
async function list(views: RuleView[], json: boolean | undefined): Promise<void> {
  const waiting = views.filter((view) => view.state !== "accepted");
  const changes = await Promise.all(waiting.map(lastChange));
  if (json) {
    printJson({
      rules: views.map((view) => ({
        id: view.id,
        kb: view.kb.name,
        title: view.rule.title,
        state: view.state,
        path: view.rule.path,
        ...view.state === "accepted" ? {} : { changedBy: changes[waiting.indexOf(view)] ?? null },
        body: view.rule.body,
        hash: ruleHashOf(view.rule),
      })),
    });
    return;
  }
  if (waiting.length) {
    console.log(
      `${plural(waiting.length, "kernel rule waits", "kernel rules wait")} for your acceptance ` +
        `and ${waiting.length === 1 ? "applies" : "apply"} to no prompt until then:\n`,
    );
    waiting.forEach((view, at) => console.log(waitingBlock(view, changes[at]).join("\n")));
    if (waiting.length > 1) {
      // Each as listed, so that a rule changed since the listing is refused, not accepted unseen.
      const each = waiting.flatMap((view) => ["--accept", listedId(view)]);
      console.log(`Accept them all: ${cyan(kbCommand("kernel", ...each))}\n`);
    }
  }
  const applying = views.filter((view) => view.state === "accepted");
  if (applying.length) {
    console.log(`${plural(applying.length, "kernel rule applies", "kernel rules apply")}:`);
    for (const view of applying) console.log(`  ${view.id} ${displaySafe(view.rule.title)}`);
  } else if (!waiting.length) {
    console.log(
      dim("No kernel rules: no entry has kernel: true. A rule that goes into every prompt: ") +
        `${kbCommand("add", "--kernel", "--type", "rule")} --title "<the rule>" ` +
        '--body "<what to do, in a few lines>"',
    );
  }
}

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const { values } = parseCommand(args, command.options, command);
  const chosenIds = values.accept ?? [];
  if (chosenIds.length && values["accept-all"]) {
    throw new UsageError(["give --accept <id> or --accept-all, not both"]);
  }
  await withKbs(values.kb, { trustStampMs: READ_TRUST_MS }, async ({ kbs, skipped, several }) => {
    for (const line of skipped) console.error(yellow(`git-kb kernel: ${line}`));
    const views = ruleViews(kbs, several);
    if (values["accept-all"]) {
      await accept(views.filter((view) => view.state !== "accepted"), values.json);
    } else if (chosenIds.length) {
      await accept(chosenIds.map((typed) => named(views, typed)), values.json);
    } else {
      await list(views, values.json);
    }
  });
  return 0;
}
