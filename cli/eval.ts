/**
 * `git-kb eval <golden.jsonl>`: replay a golden file of real prompts through the prompt hook's
 * decision and search, score them, and say what changed since the last run.
 *
 * @module
 */
import { defaultOnlyNote } from "../io/kbs/default_only.ts";
import type { PromptResult } from "../core/eval/score.ts";
import { resolveKb } from "../io/config.ts";
import { type EvalReport, evaluate } from "../io/eval.ts";
import { type CommandSpec, helpText, parseCommand, positiveInt, wholeNumberFrom } from "./args.ts";
import { bold, dim, green, plural, printJson, red } from "./output.ts";

/** The command: its usage, options and positionals. */
export const command = {
  usage: ["eval <golden.jsonl> [options]"],
  about: `Replay a golden file through the prompt hook's decision (as a session's first
prompt, no ledger) and through search, and report recall@1 and @5, MRR@10, false
fires, bytes injected per prompt, the misses prompt by prompt, and what changed
since the last run on the same file (kept in the cache folder).

The golden file has one JSON object per line: a real prompt and the ids of the
entries that should surface for it, best first; [] means nothing should.
  {"prompt": "how do I rotate the leaked npm token?", "expect": ["kb-7q2mx"]}
  {"prompt": "thanks, that works", "expect": []}
A relative path is looked up in the current folder, then in the knowledge base.`,
  options: {
    misses: {
      type: "string",
      check: wholeNumberFrom(1),
      value: "<n>",
      help: "list at most n prompts with misses (default 20; --json lists all)",
    },
    json: {
      type: "boolean",
      help: "print {golden, kbDir, entries, run: {summary, results}, unknownIds, previous?, " +
        "ms} as JSON, every prompt's result in run.results",
    },
  },
  positionals: { name: "<golden.jsonl>", min: 1, max: 1 },
  notes: `Exit codes: 0 scored, 1 the file is missing, is not a file, has lines that
are not cases or has no prompt, 2 usage error.`,
} as const satisfies CommandSpec;

/** Help text. */
export const help: string = helpText(command);

const fixed = (value: number, digits = 3) => value.toFixed(digits);

function signed(value: number): string {
  return `${value >= 0 ? "+" : ""}${Number(value.toFixed(3))}`;
}

/** "hook -, search #3" for one expected id of a result. */
function placeOf(result: PromptResult, id: string): string {
  const at = (list: string[]) => list.indexOf(id) < 0 ? "-" : `#${list.indexOf(id) + 1}`;
  return `${id}: hook ${at(result.hook)}, search ${at(result.search)}`;
}

function missLine(result: PromptResult): string {
  const prompt = result.prompt.length > 70 ? `${result.prompt.slice(0, 69)}…` : result.prompt;
  const what = result.falseFire
    ? `expected nothing, hook listed ${result.hook.join(" ")}`
    : [...new Set([...result.hookMissed, ...result.searchMissed])].map((id) => placeOf(result, id))
      .join("; ");
  return `  line ${result.line}  ${JSON.stringify(prompt)}\n    ${what}`;
}

/** The report as text, listing at most `misses` prompts with misses. */
export function formatReport(report: EvalReport, misses: number): string {
  const { summary, results } = report.run;
  const out: string[] = [];
  out.push(
    `${bold(report.golden)}: ${plural(summary.prompts, "prompt", "prompts")} ` +
      `(${summary.positives} expecting entries, ${summary.negatives} expecting nothing) against ` +
      `${plural(report.entries, "entry", "entries")}, ` +
      `${Math.round(report.ms)} ms`,
    "",
    `          recall@1  recall@5  MRR@10`,
  );
  for (const [name, scores] of [["hook", summary.hook], ["search", summary.search]] as const) {
    out.push(
      `${name.padEnd(8)}  ${fixed(scores.recall1).padStart(8)}  ${
        fixed(scores.recall5).padStart(8)
      }  ${fixed(scores.mrr).padStart(6)}`,
    );
  }
  const falseFires = `${summary.hook.falseFires} of ${summary.negatives}`;
  out.push(
    "",
    `hook fires on ${Math.round(summary.hook.fireRate * 100)}% of the prompts expecting entries; ` +
      `false fires: ${summary.hook.falseFires ? red(falseFires) : green(falseFires)}`,
    `pointers listed: ${summary.hook.pointers} on ${
      plural(summary.hook.fires, "prompt", "prompts")
    }, ` +
      `${fixed(summary.hook.pointerPrecision)} of them expected`,
    `bytes injected per prompt: mean ${Math.round(summary.bytes.mean)}, median ${
      Math.round(summary.bytes.median)
    }, max ${summary.bytes.max}`,
  );
  if (report.unknownIds.length) {
    out.push(red(`ids no entry has (always missed): ${report.unknownIds.join(" ")}`));
  }
  const missed = results.filter((result) =>
    result.falseFire || result.hookMissed.length || result.searchMissed.length
  );
  if (missed.length) {
    out.push(
      "",
      bold(`Misses (not in the first 5), ${plural(missed.length, "prompt", "prompts")}:`),
    );
    out.push(...missed.slice(0, misses).map(missLine));
    if (missed.length > misses) out.push(dim(`  … ${missed.length - misses} more (--json)`));
  }
  out.push("");
  if (!report.previous) {
    out.push(dim("No previous run of this file to compare with."));
    return out.join("\n");
  }
  const { diff, at } = report.previous;
  out.push(bold(`Since the previous run (${at}):`));
  if (!diff.figures.length && !diff.prompts.length && !diff.added && !diff.removed) {
    out.push("  no change");
  }
  for (const figure of diff.figures) {
    out.push(
      `  ${figure.name}: ${Number(figure.before.toFixed(3))} → ${
        Number(figure.after.toFixed(3))
      } (${signed(figure.after - figure.before)})`,
    );
  }
  for (const change of diff.prompts.slice(0, misses)) {
    out.push(
      `  line ${change.line} ${JSON.stringify(change.prompt)}: ${change.changes.join(", ")}`,
    );
  }
  if (diff.prompts.length > misses) out.push(dim(`  … ${diff.prompts.length - misses} more`));
  if (diff.added || diff.removed) {
    out.push(
      `  ${plural(diff.added, "prompt", "prompts")} new in the file, ${diff.removed} gone from it`,
    );
  }
  return out.join("\n");
}

/** Run the command. */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(args, command.options, command);
  const misses = positiveInt(values.misses, "misses", 20);
  const { kbDir } = resolveKb(values.kb);
  const others = defaultOnlyNote(values.kb, ["eval", ...positionals]);
  if (others) console.error(`note: ${others}`);
  const report = await evaluate(kbDir, positionals[0]);
  if (values.json) printJson({ ...report, ms: Math.round(report.ms) });
  else console.log(formatReport(report, misses));
  return 0;
}
