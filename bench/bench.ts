/**
 * Benchmarks of the index and search, on synthetic knowledge bases (bench/generate.ts), each
 * measurement beside a baseline taken in the same run. Prints a markdown table of medians.
 *
 * ```sh
 * deno run --allow-read --allow-write --allow-env --allow-run=deno,git,rg bench/bench.ts \
 *   [--sizes 1000,5000,50000] [--runs 5] [--seed 1] [--word cache] [--json out.json] [--strict]
 * ```
 *
 * What it measures, per size:
 * - full index build in-process (`openIndex(kb, { full: true })`) against reading every entry
 *   file (the I/O floor), and as a whole process against a bare `deno run` of an empty script;
 * - reindex after one entry changed (one file rewritten with a new title, then `openIndex`)
 *   against an `openIndex` that finds nothing changed;
 * - search in-process (`openIndex` + `core/search/rank.ts` `search`) against scanning every file;
 * - search as a whole process (`app/main.ts search`, when the CLI exists) against
 *   `rg -il <word>` (when rg is installed) and a bare `deno run`;
 * - `git-kb add` as a process (when the CLI has `add`) against `git add` + `git commit`.
 *
 * Process comparisons are interleaved (the order rotates every round) so drift hits all sides
 * alike. The index cache lives under a fresh `TMPDIR`, so runs never share a cache.
 *
 * @module
 */
import { join } from "@std/path/posix/join";
import { fileURLToPath } from "node:url";
import { parseEntryText, serializeEntry, toEntry } from "../core/entry/entry.ts";
import { search } from "../core/search/rank.ts";
import { HOOK_TRUST_MS, openIndex } from "../io/index/store.ts";
import { type GeneratedKb, generateKb, parseFlags, vocabularyWord } from "./generate.ts";
import {
  formatMs,
  interleaved,
  median,
  progress,
  type Subject,
  timed,
  timeProcess,
} from "./_timing.ts";

const PROJECT_ROOT = fileURLToPath(new URL("..", import.meta.url));
const CLI = join(PROJECT_ROOT, "app", "main.ts");
const OPEN_INDEX_SCRIPT = join(PROJECT_ROOT, "bench", "_open_index.ts");

/** Targets from the design (issue 2 sets them for 5,000 entries), checked at that size. */
const TARGETS = {
  fullBuildMs: 1500,
  atSize: 5000,
  reindexMs: 150,
  searchVsRg: 2,
} as const;

/** One line of the report table. */
interface Row {
  size: number;
  measure: string;
  samples: number[];
  baseline?: string;
  baselineSamples?: number[];
  target?: string;
  /** Whether the target was met; undefined when no target applies. */
  met?: boolean;
  note?: string;
}

interface Options {
  sizes: number[];
  runs: number;
  seed: number;
  word: string;
  json?: string;
  strict: boolean;
  keep: boolean;
  processes: boolean;
  cliFlags?: string[];
  addArgs?: string[];
}

const USAGE = `Usage: deno run --allow-read --allow-write --allow-env --allow-run=deno,git,rg \\
  bench/bench.ts [options]

  --sizes <list>      knowledge base sizes, e.g. 1000,5000,50000 or 1k,5k,50k (default 1000,5000)
  --runs <n>          timed runs per measurement; medians are reported (default 5)
  --seed <n>          generator seed (default 1)
  --word <word>       the search word (default: a vocabulary word found in about 13% of entries)
  --json <file>       also write every sample as JSON
  --strict            exit 1 when a target is missed
  --keep              keep the temp folder (knowledge bases and cache) and print its path
  --no-processes      in-process measurements only
  --cli-flags <flags> permission flags for app/main.ts, space separated
                      (default: what app/permissions.ts flagsFor gives the command, else
                      -q --allow-read --allow-env --allow-write=<cache> [--allow-run=git])
  --add-args <json>   arguments of the add command as a JSON array; {kb}, {title}, {body} and
                      {n} are filled in (default: ["add","--kb","{kb}","--type","note","--title",
                      "{title}","--tag","bench,perf","--body","{body}"])`;

function parseSize(text: string): number {
  const match = /^(\d+(?:\.\d+)?)([kK]?)$/.exec(text.trim());
  if (!match) throw new Error(`"${text}" is not a size; write 5000 or 5k`);
  return Math.round(Number(match[1]) * (match[2] ? 1000 : 1));
}

function parseOptions(args: string[]): Options | undefined {
  const flags = parseFlags(args);
  if (flags.has("help")) return undefined;
  const known = [
    "sizes",
    "runs",
    "seed",
    "word",
    "json",
    "strict",
    "keep",
    "no-processes",
    "cli-flags",
    "add-args",
  ];
  for (const name of flags.keys()) {
    if (!known.includes(name)) throw new Error(`Unknown flag --${name}`);
  }
  const runs = Number(flags.get("runs") ?? 5);
  const seed = Number(flags.get("seed") ?? 1);
  if (!Number.isInteger(runs) || runs < 1) throw new Error("--runs must be a whole number ≥ 1");
  if (!Number.isInteger(seed)) throw new Error("--seed must be a whole number");
  const addArgs = flags.has("add-args") ? JSON.parse(flags.get("add-args")!) : undefined;
  if (addArgs && (!Array.isArray(addArgs) || addArgs.some((arg) => typeof arg !== "string"))) {
    throw new Error("--add-args must be a JSON array of strings");
  }
  return {
    sizes: (flags.get("sizes") ?? "1000,5000").split(",").map(parseSize),
    runs,
    seed,
    word: flags.get("word") ?? vocabularyWord(100),
    json: flags.get("json"),
    strict: flags.get("strict") === "true",
    keep: flags.get("keep") === "true",
    processes: flags.get("no-processes") !== "true",
    cliFlags: flags.get("cli-flags")?.split(/\s+/).filter(Boolean),
    addArgs,
  };
}

// ---------------------------------------------------------------------------------------------
// Statistics and formatting

function formatSize(size: number): string {
  return size % 1000 === 0 ? `${size / 1000}k` : String(size);
}

function ratioOf(row: Row): number | undefined {
  if (!row.baselineSamples?.length || !row.samples.length) return undefined;
  return median(row.samples) / median(row.baselineSamples);
}

function table(rows: Row[]): string {
  const lines = [
    "| size | measurement | median ms | baseline | baseline ms | ratio | target | result |",
    "|---:|---|---:|---|---:|---:|---|---|",
  ];
  for (const row of rows) {
    const ratio = ratioOf(row);
    const result = row.met === undefined ? "" : row.met ? "ok" : "**MISS**";
    const note = row.note ? ` (${row.note})` : "";
    lines.push(
      `| ${formatSize(row.size)} | ${row.measure}${note} | ${formatMs(median(row.samples))} | ` +
        `${row.baseline ?? ""} | ${
          row.baselineSamples ? formatMs(median(row.baselineSamples)) : ""
        } | ` +
        `${ratio === undefined ? "" : `${ratio.toFixed(2)}×`} | ${row.target ?? ""} | ${result} |`,
    );
  }
  return lines.join("\n");
}

// ---------------------------------------------------------------------------------------------
// Running things

/** True when the binary can be started; false when it is not installed. */
async function available(command: string, args: string[]): Promise<boolean> {
  try {
    const output = await new Deno.Command(command, { args, stdout: "null", stderr: "null" })
      .output();
    return output.success;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return false;
    if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
      progress(`note: not allowed to run ${command} (${(error as Error).message})`);
      return false;
    }
    throw error;
  }
}

/** The deno binary to spawn: this very one when allowed, else `deno` from PATH. */
function denoBinary(): string {
  const own = Deno.execPath();
  return Deno.permissions.querySync({ name: "run", command: own }).state === "granted"
    ? own
    : "deno";
}

// ---------------------------------------------------------------------------------------------
// The measurements

interface Context {
  options: Options;
  root: string;
  cache: string;
  deno: string;
  emptyScript: string;
  hasRg: boolean;
  hasGit: boolean;
  hasCli: boolean;
  cliHasAdd: boolean;
  env: Record<string, string>;
  notes: string[];
  /** The CLI's own permission flags per command, when app/permissions.ts provides them. */
  flagsFor?: (command: string, tmpdir: string) => string[];
}

function entryFiles(kbDir: string): string[] {
  const dir = join(kbDir, "entries");
  return [...Deno.readDirSync(dir)]
    .filter((item) => item.isFile && item.name.endsWith(".md"))
    .map((item) => join(dir, item.name));
}

async function measureFullBuild(context: Context, kb: GeneratedKb, size: number): Promise<Row[]> {
  const { runs } = context.options;
  const rows: Row[] = [];
  let invalid = 0;
  let mode = "";
  const readAll = () =>
    timed(() => {
      for (const file of entryFiles(kb.dir)) Deno.readTextFileSync(file);
    });
  const parseAll = () =>
    timed(() => {
      let failed = 0;
      for (const file of entryFiles(kb.dir)) {
        const { problems } = toEntry(parseEntryText(Deno.readTextFileSync(file), file));
        if (problems.length) failed++;
      }
      invalid = Math.max(invalid, failed);
    });
  const build = async () => {
    const started = performance.now();
    const { report } = await openIndex(kb.dir, { full: true });
    mode = report.mode;
    invalid = Math.max(invalid, report.invalid.length);
    return performance.now() - started;
  };
  const [readSamples, parseSamples, buildSamples] = await interleaved(
    `[${size}] full build in-process (read all / parse all / build)`,
    runs,
    [readAll, parseAll, build],
  );
  const atTarget = size === TARGETS.atSize;
  rows.push({
    size,
    measure: "full index build, in-process",
    samples: buildSamples,
    baseline: "read every entry file",
    baselineSamples: readSamples,
    target: atTarget ? `< ${TARGETS.fullBuildMs} ms` : undefined,
    met: atTarget ? median(buildSamples) < TARGETS.fullBuildMs : undefined,
    note: mode === "full" ? undefined : `mode was ${mode}`,
  });
  rows.push({
    size,
    measure: "read + parse + validate every entry (no index)",
    samples: parseSamples,
    baseline: "read every entry file",
    baselineSamples: readSamples,
  });
  if (invalid) context.notes.push(`${formatSize(size)}: ${invalid} entries failed validation`);

  if (context.options.processes) {
    const flags = [
      "run",
      "-q",
      "--allow-read",
      `--allow-write=${context.cache}`,
      "--allow-env=TMPDIR,TEMP,TMP,XDG_CACHE_HOME,HOME",
      "--allow-sys=uid",
    ];
    let failure = "";
    const bare = async () =>
      (await timeProcess(
        context.deno,
        ["run", "-q", context.emptyScript],
        context.root,
        context.env,
      ))
        .ms;
    const whole = async () => {
      const result = await timeProcess(
        context.deno,
        [...flags, OPEN_INDEX_SCRIPT, kb.dir, "--full"],
        PROJECT_ROOT,
        context.env,
      );
      if (result.code !== 0) failure ||= firstLine(result.stderr || result.stdout);
      return result.ms;
    };
    const [bareSamples, wholeSamples] = await interleaved(
      `[${size}] full build as a process (bare deno / build)`,
      runs,
      [bare, whole],
    );
    rows.push({
      size,
      measure: "full index build, whole process",
      samples: wholeSamples,
      baseline: "bare `deno run` (empty script)",
      baselineSamples: bareSamples,
      target: atTarget ? `< ${TARGETS.fullBuildMs} ms` : undefined,
      met: atTarget && !failure ? median(wholeSamples) < TARGETS.fullBuildMs : undefined,
      note: failure ? `failed: ${failure}` : undefined,
    });
  }
  return rows;
}

function firstLine(text: string): string {
  // deno colours its errors; the report is plain text.
  // deno-lint-ignore no-control-regex
  const plain = text.replace(/\x1b\[[0-9;]*m/g, "").trim();
  return plain.split("\n").find((line) => line.trim())?.slice(0, 160) ?? "no output";
}

async function measureReindex(context: Context, kb: GeneratedKb, size: number): Promise<Row[]> {
  const { runs } = context.options;
  await openIndex(kb.dir); // make sure the index is current before timing
  const modes = new Set<string>();
  let changed = 0;
  const candidates = kb.entries.filter(({ entry }) => !entry.kernel);
  const fresh = () => timed(() => openIndex(kb.dir));
  const stamp = () => timed(() => openIndex(kb.dir, { trustStampMs: HOOK_TRUST_MS }));
  const afterSave = async (round: number) => {
    // A different entry each round, rewritten the way an editor or `save` would: a temp file
    // in the same folder, renamed over the original.
    const pick = candidates[((round + 2) * 7919) % candidates.length];
    const entry = { ...pick.entry, title: `${pick.entry.title} revised ${round + 2}` };
    const target = join(kb.dir, pick.path);
    const temp = join(kb.dir, "entries", `.bench-${round + 2}.tmp`);
    Deno.writeTextFileSync(temp, serializeEntry(entry));
    Deno.renameSync(temp, target);
    const started = performance.now();
    const { report } = await openIndex(kb.dir);
    const ms = performance.now() - started;
    modes.add(report.mode);
    changed = Math.max(changed, report.changed);
    return ms;
  };
  const [freshSamples, stampSamples, saveSamples] = await interleaved(
    `[${size}] reindex in-process (nothing changed / stamp check / one entry changed)`,
    runs,
    [fresh, stamp, afterSave],
  );
  const modeNote = [...modes].join(", ");
  return [
    {
      size,
      measure: "reindex after one entry changed, in-process",
      samples: saveSamples,
      baseline: "`openIndex`, nothing changed",
      baselineSamples: freshSamples,
      target: size === TARGETS.atSize ? `< ${TARGETS.reindexMs} ms` : undefined,
      met: size === TARGETS.atSize ? median(saveSamples) < TARGETS.reindexMs : undefined,
      note: modeNote === "incremental" && changed === 1 ? undefined : `mode ${modeNote}`,
    },
    {
      size,
      measure: "open index, stamp check only (hook path)",
      samples: stampSamples,
      baseline: "`openIndex`, nothing changed",
      baselineSamples: freshSamples,
    },
  ];
}

async function measureSearch(context: Context, kb: GeneratedKb, size: number): Promise<Row[]> {
  const { runs, word } = context.options;
  const rows: Row[] = [];
  await openIndex(kb.dir);
  let hits = 0;
  let scanned = 0;
  const scan = () =>
    timed(() => {
      let found = 0;
      const needle = word.toLowerCase();
      for (const file of entryFiles(kb.dir)) {
        if (Deno.readTextFileSync(file).toLowerCase().includes(needle)) found++;
      }
      scanned = found;
    });
  const withStamp = () =>
    timed(async () => {
      const { reader } = await openIndex(kb.dir, { trustStampMs: HOOK_TRUST_MS });
      hits = search(reader, [word]).length;
    });
  const withFiles = () =>
    timed(async () => {
      const { reader } = await openIndex(kb.dir);
      hits = search(reader, [word]).length;
    });
  const [scanSamples, stampSamples, filesSamples] = await interleaved(
    `[${size}] search in-process (scan files / stamp check + search / file check + search)`,
    runs,
    [scan, withStamp, withFiles],
  );
  const note = `"${word}": ${hits} hits shown, ${scanned} files contain it`;
  rows.push({
    size,
    measure: "search in-process: open (stamp check) + rank",
    samples: stampSamples,
    baseline: "read + substring-match every file",
    baselineSamples: scanSamples,
    note,
  });
  rows.push({
    size,
    measure: "search in-process: open (stat every file) + rank",
    samples: filesSamples,
    baseline: "read + substring-match every file",
    baselineSamples: scanSamples,
  });

  if (!context.options.processes) return rows;
  const bare = async () =>
    (await timeProcess(context.deno, ["run", "-q", context.emptyScript], context.root, context.env))
      .ms;
  let rgFailure = "";
  const rg = async () => {
    const result = await timeProcess(
      "rg",
      ["-il", word, join(kb.dir, "entries")],
      context.root,
      context.env,
    );
    if (result.code > 1) rgFailure ||= firstLine(result.stderr);
    return result.ms;
  };
  let cliFailure = "";
  const cliArgs = [
    "run",
    ...cliFlags(context, "search"),
    CLI,
    "search",
    word,
    "--kb",
    kb.dir,
  ];
  if (context.hasCli) noteOnce(context, `git-kb search ran as: deno ${cliArgs.join(" ")}`);
  const cli = async () => {
    const result = await timeProcess(context.deno, cliArgs, PROJECT_ROOT, context.env);
    if (result.code !== 0) {
      cliFailure ||= `exit ${result.code}: ${firstLine(result.stderr || result.stdout)}`;
    }
    return result.ms;
  };
  const subjects: Subject[] = [bare];
  if (context.hasRg) subjects.push(rg);
  if (context.hasCli) subjects.push(cli);
  const samples = await interleaved(
    `[${size}] search as a process (bare deno${context.hasRg ? " / rg" : ""}${
      context.hasCli ? " / git-kb search" : ""
    })`,
    runs,
    subjects,
  );
  const bareSamples = samples[0];
  const rgSamples = context.hasRg ? samples[1] : undefined;
  const cliSamples = context.hasCli ? samples[samples.length - 1] : undefined;
  if (rgSamples) {
    rows.push({
      size,
      measure: `\`rg -il ${word}\` over entries/`,
      samples: rgSamples,
      baseline: "bare `deno run` (empty script)",
      baselineSamples: bareSamples,
      note: rgFailure ? `failed: ${rgFailure}` : undefined,
    });
  }
  if (cliSamples && !cliFailure) {
    if (rgSamples) {
      const ratio = median(cliSamples) / median(rgSamples);
      rows.push({
        size,
        measure: "`git-kb search`, whole process",
        samples: cliSamples,
        baseline: `\`rg -il ${word}\``,
        baselineSamples: rgSamples,
        target: size === TARGETS.atSize ? `≤ ${TARGETS.searchVsRg}× rg` : undefined,
        met: size === TARGETS.atSize ? ratio <= TARGETS.searchVsRg : undefined,
      });
    }
    rows.push({
      size,
      measure: "`git-kb search`, whole process",
      samples: cliSamples,
      baseline: "bare `deno run` (empty script)",
      baselineSamples: bareSamples,
    });
  } else if (cliFailure) {
    rows.push({
      size,
      measure: "`git-kb search`, whole process",
      samples: [],
      note: `failed, ${cliFailure}; pass --cli-flags if it needs other permissions`,
    });
  } else {
    rows.push({
      size,
      measure: "bare `deno run` (empty script)",
      samples: bareSamples,
      note: "git-kb search skipped: app/main.ts does not exist yet",
    });
  }
  return rows;
}

function noteOnce(context: Context, note: string): void {
  const general = note.replace(/kb-\d+k?\b/g, "kb-<size>");
  if (!context.notes.includes(general)) context.notes.push(general);
}

/** `deno run` flags for a CLI command: --cli-flags, else the CLI's own table, else a guess. */
function cliFlags(context: Context, command: "search" | "add"): string[] {
  if (context.options.cliFlags) return context.options.cliFlags;
  if (context.flagsFor) return ["-q", ...context.flagsFor(command, context.cache)];
  return command === "search"
    ? ["-q", "--allow-read", "--allow-env", `--allow-write=${context.cache}`]
    : ["-q", "--allow-read", "--allow-write", "--allow-env", "--allow-run=git"];
}

/** The CLI's permission table (app/permissions.ts `flagsFor`), when it has one. */
async function loadFlagsFor(): Promise<Context["flagsFor"]> {
  const url = new URL("../app/permissions.ts", import.meta.url);
  if (!fileExists(fileURLToPath(url))) return undefined;
  try {
    const module = await import(url.href);
    return typeof module.flagsFor === "function" ? module.flagsFor : undefined;
  } catch {
    return undefined;
  }
}

const DEFAULT_ADD_ARGS = [
  "add",
  "--kb",
  "{kb}",
  "--type",
  "note",
  "--title",
  "{title}",
  "--tag",
  "bench,perf",
  "--body",
  "{body}",
];

async function measureAdd(context: Context, kb: GeneratedKb, size: number): Promise<Row[]> {
  const { runs } = context.options;
  const gitEnv = {
    ...context.env,
    GIT_AUTHOR_NAME: "git-kb bench",
    GIT_AUTHOR_EMAIL: "bench@example.invalid",
    GIT_COMMITTER_NAME: "git-kb bench",
    GIT_COMMITTER_EMAIL: "bench@example.invalid",
  };
  // The floor: what any add must at least do with git, on a scratch file outside entries/.
  const gitCommit = async (round: number) => {
    const name = `bench-note-${round + 2}.txt`;
    Deno.writeTextFileSync(join(kb.dir, name), `round ${round}\n`);
    const add = await timeProcess("git", ["add", name], kb.dir, gitEnv);
    const commit = await timeProcess(
      "git",
      ["-c", "commit.gpgsign=false", "commit", "-q", "-m", `bench ${round}`],
      kb.dir,
      gitEnv,
    );
    if (add.code || commit.code) throw new Error(`git commit failed: ${firstLine(commit.stderr)}`);
    return add.ms + commit.ms;
  };
  let failure = "";
  const template = context.options.addArgs ?? DEFAULT_ADD_ARGS;
  const addFlags = cliFlags(context, "add");
  noteOnce(
    context,
    `git-kb add ran as: deno run ${addFlags.join(" ")} ${CLI} ${template.join(" ")}`,
  );
  const add = async (round: number) => {
    const fill = (arg: string) =>
      arg.replaceAll("{kb}", kb.dir)
        .replaceAll("{n}", String(round + 2))
        .replaceAll("{title}", `Benchmark note number ${round + 2} about cache timing`)
        .replaceAll("{body}", `Written by bench/bench.ts, round ${round + 2}.\n`);
    const result = await timeProcess(
      context.deno,
      [
        "run",
        ...addFlags,
        CLI,
        ...template.map(fill),
      ],
      PROJECT_ROOT,
      gitEnv,
    );
    if (result.code !== 0) {
      failure ||= `exit ${result.code}: ${firstLine(result.stderr || result.stdout)}`;
    }
    return result.ms;
  };
  const [gitSamples, addSamples] = await interleaved(
    `[${size}] add → commit → reindex (git add + commit / git-kb add)`,
    runs,
    [gitCommit, add],
  );
  if (failure) {
    return [{
      size,
      measure: "`git-kb add` → commit → reindex, whole process",
      samples: [],
      note: `failed, ${failure}; pass --add-args (and --cli-flags) to match the CLI`,
    }];
  }
  return [{
    size,
    measure: "`git-kb add` → commit → reindex, whole process",
    samples: addSamples,
    baseline: "`git add` + `git commit` processes",
    baselineSamples: gitSamples,
  }];
}

// ---------------------------------------------------------------------------------------------

function cliSupportsAdd(): boolean {
  try {
    const source = Deno.readTextFileSync(CLI);
    if (/["'`]add["'`]/.test(source)) return true;
    Deno.statSync(join(PROJECT_ROOT, "cli", "add.ts"));
    return true;
  } catch {
    return false;
  }
}

function fileExists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

async function main(args: string[]): Promise<number> {
  let options: Options | undefined;
  try {
    options = parseOptions(args);
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (!options) {
    console.log(USAGE);
    return 0;
  }
  const root = await Deno.makeTempDir({ prefix: "git-kb-bench-" });
  const cache = join(root, "tmp");
  Deno.mkdirSync(cache);
  Deno.env.set("TMPDIR", cache); // the index cache of this run lives here, and only here
  Deno.env.set("XDG_CACHE_HOME", cache);
  const emptyScript = join(root, "empty.ts");
  Deno.writeTextFileSync(emptyScript, "");
  const hasCli = fileExists(CLI);
  const context: Context = {
    options,
    root,
    cache,
    deno: denoBinary(),
    emptyScript,
    hasRg: options.processes && await available("rg", ["--version"]),
    hasGit: await available("git", ["--version"]),
    hasCli,
    cliHasAdd: hasCli && cliSupportsAdd(),
    env: { TMPDIR: cache, XDG_CACHE_HOME: cache, NO_COLOR: "1" },
    notes: [],
    flagsFor: hasCli ? await loadFlagsFor() : undefined,
  };
  if (options.processes && !context.hasRg) {
    context.notes.push("rg is not installed: the `rg -il` comparison was skipped");
  }
  if (options.processes && !hasCli) {
    context.notes.push("app/main.ts does not exist yet: `git-kb search` and `add` were skipped");
  } else if (options.processes && !context.cliHasAdd) {
    context.notes.push("app/main.ts has no `add` command: add → commit → reindex was skipped");
  }
  if (!context.hasGit) context.notes.push("git is not installed: knowledge bases are not repos");

  const rows: Row[] = [];
  try {
    for (const size of options.sizes) {
      const dir = join(root, `kb-${formatSize(size)}`);
      progress(`[${size}] generating (seed ${options.seed})…`);
      const started = performance.now();
      const kb = await generateKb(dir, size, options.seed, { git: context.hasGit });
      progress(`[${size}] generated in ${Math.round(performance.now() - started)} ms`);
      rows.push(...await measureFullBuild(context, kb, size));
      rows.push(...await measureReindex(context, kb, size));
      rows.push(...await measureSearch(context, kb, size));
      if (options.processes && context.cliHasAdd && context.hasGit) {
        rows.push(...await measureAdd(context, kb, size));
      }
    }
  } finally {
    if (!options.keep) await Deno.remove(root, { recursive: true }).catch(() => {});
  }

  const cores = navigator.hardwareConcurrency;
  console.log(`## git-kb benchmarks\n`);
  console.log(
    `deno ${Deno.version.deno} on ${Deno.build.os}/${Deno.build.arch}, ${cores} cores; ` +
      `medians of ${options.runs} run${
        options.runs === 1 ? "" : "s"
      } after one warm-up, interleaved with their baselines; ` +
      `seed ${options.seed}; search word "${options.word}".\n`,
  );
  console.log(table(rows));
  console.log(
    `\nTargets at ${formatSize(TARGETS.atSize)}: full build < ${TARGETS.fullBuildMs} ms; ` +
      `reindex after one save < ${TARGETS.reindexMs} ms; search ≤ ${TARGETS.searchVsRg}× rg.`,
  );
  for (const note of context.notes) console.log(`- ${note}`);
  if (options.keep) console.log(`\nKept ${root} (knowledge bases, and the cache under tmp/).`);
  if (options.json) {
    const data = {
      deno: Deno.version.deno,
      os: Deno.build.os,
      arch: Deno.build.arch,
      cores,
      runs: options.runs,
      seed: options.seed,
      word: options.word,
      rows: rows.map((row) => ({
        ...row,
        median: median(row.samples),
        baselineMedian: row.baselineSamples ? median(row.baselineSamples) : undefined,
        ratio: ratioOf(row),
      })),
      notes: context.notes,
    };
    Deno.writeTextFileSync(options.json, JSON.stringify(data, null, 2) + "\n");
  }
  const missed = rows.filter((row) => row.met === false).length;
  return options.strict && missed ? 1 : 0;
}

if (import.meta.main) {
  try {
    Deno.exit(await main(Deno.args));
  } catch (error) {
    if (error instanceof Deno.errors.NotCapable || error instanceof Deno.errors.PermissionDenied) {
      console.error(
        `Missing permission: ${(error as Error).message}\nRun with ` +
          "--allow-read --allow-write --allow-env --allow-run=deno,git,rg",
      );
    } else console.error(error);
    Deno.exit(1);
  }
}
