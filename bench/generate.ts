/**
 * Deterministic synthetic knowledge bases for benchmarks and tests. The same count and seed
 * always give the same files, byte for byte.
 *
 * What a generated knowledge base looks like:
 * - ids `kb-xxxxx`, unique; files at `entries/<id>-<slug>.md`, written by `serializeEntry`;
 * - titles of 4–9 words drawn from a vocabulary of about 3,000 pseudo-technical words with a
 *   Zipf-like distribution, so some words are common and most are rare;
 * - 2–5 tags, some compound (`ci/cd`, `node.js`, `snake_case`, `git-hooks` style);
 * - aliases on about 40% of entries, `applies_to` on about 10%, a `source` on about 20%;
 * - `kernel: true` on exactly 2 entries (when there are at least 2), with short bodies;
 * - status `superseded` or `archived` on about 3%; each superseded entry is superseded by a
 *   later one;
 * - links on about 30% of entries, always to earlier ids;
 * - bodies of 300–2,000 characters (kernel bodies are shorter) with paragraphs, headings,
 *   lists, code blocks and `[[kb-…]]` mentions.
 *
 * Command line (add `--allow-run=git` with `--git`):
 *
 * ```sh
 * deno run --allow-read --allow-write bench/generate.ts --entries 5000 --out /tmp/kb5k [--seed N]
 * deno run --allow-read --allow-write --allow-run=git bench/generate.ts --entries 5000 \
 *   --out /tmp/kb5k --git
 * ```
 *
 * @module
 */
import { join } from "@std/path/posix/join";
import { type Entry, type Link, serializeEntry } from "../core/entry/entry.ts";
import {
  ACTIVITIES,
  type Activity,
  type EntryType,
  type LinkRel,
  type Status,
} from "../core/entry/schema.ts";

/** A seeded pseudo-random source: floats in [0, 1) and a few helpers. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** One item of `list`, uniformly. */
  pick<T>(list: readonly T[]): T;
}

/**
 * A small, fast, seeded PRNG (sfc32, seeded through splitmix32), good enough for test data.
 *
 * @example
 * ```ts
 * const random = createRandom(42);
 * random.int(1, 6); // the same number on every run
 * ```
 */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const splitmix = () => {
    state = (state + 0x9e3779b9) >>> 0;
    let z = state;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = splitmix(), b = splitmix(), c = splitmix(), d = splitmix();
  const next = () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t / 4294967296;
  };
  for (let i = 0; i < 12; i++) next();
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (list) => list[Math.floor(next() * list.length)],
  };
}

/** Draws items from a ranked list with probability proportional to 1 / (rank + 1 + q)^s. */
export class ZipfSampler<T> {
  readonly items: readonly T[];
  #cumulative: Float64Array;

  /**
   * @param items ranked, most frequent first; @param exponent the Zipf s (1 is classic);
   * @param offset flattens the head (Zipf–Mandelbrot q): weight 1 / (rank + 1 + q)^s.
   */
  constructor(items: readonly T[], exponent = 1, offset = 0) {
    this.items = items;
    this.#cumulative = new Float64Array(items.length);
    let total = 0;
    for (let rank = 0; rank < items.length; rank++) {
      total += 1 / Math.pow(rank + 1 + offset, exponent);
      this.#cumulative[rank] = total;
    }
  }

  /** One item, drawn with `random`. */
  sample(random: Random): T {
    const cumulative = this.#cumulative;
    const target = random.next() * cumulative[cumulative.length - 1];
    let low = 0, high = cumulative.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (cumulative[middle] < target) low = middle + 1;
      else high = middle;
    }
    return this.items[low];
  }
}

const REAL_WORDS = (
  "cache shard queue token lock sync build route parse index deploy release commit branch merge " +
  "rebase pipeline runner worker scheduler cron daemon proxy gateway ingress router balancer " +
  "cluster node pod container image registry volume mount socket stream buffer channel signal " +
  "thread fiber coroutine promise future callback handler hook plugin module package bundle " +
  "compiler linter formatter parser lexer tokenizer schema migration database table column " +
  "query cursor replica primary backup snapshot restore archive storage bucket blob object " +
  "credential secret vault certificate cipher hash digest signature keypair rotation audit " +
  "policy role permission scope grant session cookie header payload request response timeout " +
  "retry backoff throttle quota limit budget latency throughput metric trace span logger " +
  "dashboard alert incident outage rollback canary feature flag config manifest template " +
  "variable environment runtime sandbox permission deno node typescript javascript python rust " +
  "golang kotlin swift webpack vite esbuild rollup docker kubernetes terraform ansible helm " +
  "nginx postgres redis kafka rabbitmq sqlite mysql elastic graphql grpc rest webhook oauth " +
  "saml jwt csrf cors tls dns cdn http2 http3 websocket regex glob unicode encoding locale " +
  "timezone calendar scheduler benchmark profiler heap stack allocator garbage collector " +
  "latency jitter drift checksum manifest lockfile vendor monorepo workspace submodule " +
  "changelog semver tag annotation docstring readme wiki runbook playbook postmortem review " +
  "approval reviewer maintainer contributor issue ticket backlog sprint roadmap milestone " +
  "estimate prototype spike refactor cleanup deprecation sunset fallback failover quorum " +
  "consensus raft paxos leader follower election heartbeat gossip partition tombstone " +
  "compaction vacuum reindex shardkey hotspot skew backpressure idempotency dedup outbox " +
  "saga ledger journal wal checkpoint replay offset watermark window aggregate projection " +
  "k8s s3 ci cd npm jsr pnpm yarn cargo crate wheel pip venv conda brew apt systemd launchd"
).split(" ");

const PREFIXES = [
  "",
  "",
  "",
  "auto",
  "micro",
  "meta",
  "hyper",
  "multi",
  "re",
  "pre",
  "sub",
  "inter",
  "over",
  "un",
  "de",
  "co",
  "geo",
  "tele",
  "proto",
  "pseudo",
  "poly",
  "mono",
  "neo",
  "cross",
  "post",
];
const ROOTS = [
  "cach",
  "shard",
  "queu",
  "tok",
  "lock",
  "sync",
  "build",
  "rout",
  "pars",
  "index",
  "ploy",
  "flux",
  "graph",
  "morph",
  "plex",
  "vect",
  "port",
  "form",
  "struct",
  "scal",
  "mesh",
  "grid",
  "link",
  "bind",
  "cod",
  "crypt",
  "fetch",
  "load",
  "mark",
  "pack",
  "patch",
  "probe",
  "scan",
  "seal",
  "slot",
  "spool",
  "stack",
  "stag",
  "stamp",
  "stor",
  "tier",
  "trac",
  "valid",
  "wrap",
  "zon",
  "chron",
  "plan",
  "sched",
  "shim",
  "shunt",
  "sift",
  "spawn",
  "split",
  "tun",
  "vers",
];
const SUFFIXES = [
  "er",
  "ing",
  "ed",
  "ness",
  "ify",
  "ator",
  "able",
  "let",
  "ment",
  "ism",
  "ize",
  "or",
  "ix",
  "on",
  "a",
  "io",
  "ex",
  "ant",
  "ure",
  "ance",
];

/** Connecting words for sentences; many are stopwords, as in real prose. */
const CONNECTORS = (
  "the the the a a to to of of in in for with on by and and or when before after then so " +
  "because if only every each not use run check keep avoid prefer set add remove move split " +
  "this that it its is are be can should must first next also always never"
).split(" ");

const TITLE_CONNECTORS = ["for", "in", "with", "to", "and", "the", "on", "before", "after"];
const TYPES: readonly EntryType[] = [
  "note",
  "note",
  "note",
  "howto",
  "howto",
  "howto",
  "concept",
  "concept",
  "decision",
  "decision",
  "rule",
  "bookmark",
];
const RELS: readonly LinkRel[] = [
  "related",
  "related",
  "related",
  "related",
  "refines",
  "refines",
  "depends-on",
  "contradicts",
];
const TAG_SEPARATORS = ["-", "-", "/", ".", "_"];
const CODE_LANGS = ["sh", "ts", "json", "yaml", "sql", ""];

const VOCABULARY_SEED = 0x6b62; // fixed: the vocabulary is the same whatever the entry seed

function shuffle<T>(list: T[], random: Random): T[] {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(random.next() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}

/** Real words first (the common ranks), then made-up ones (the long tail), each shuffled. */
function buildVocabulary(size: number): string[] {
  const random = createRandom(VOCABULARY_SEED);
  const real = new Set(REAL_WORDS);
  const made = new Set<string>();
  while (real.size + made.size < size) {
    let word = random.pick(PREFIXES) + random.pick(ROOTS) + random.pick(SUFFIXES);
    if (random.chance(0.04)) word += random.int(2, 9);
    if (word.length >= 3 && word.length <= 16 && !real.has(word)) made.add(word);
  }
  return [...shuffle([...real], random), ...shuffle([...made], random)];
}

/** The generator's words, most frequent first (Zipf rank order). About 3,000 words. */
export const VOCABULARY: readonly string[] = buildVocabulary(3000);

/**
 * A word of the vocabulary at Zipf rank `rank` (0 is the most common): a handy search term
 * that is sure to occur in a generated knowledge base.
 */
export function vocabularyWord(rank: number): string {
  return VOCABULARY[Math.min(Math.max(rank, 0), VOCABULARY.length - 1)];
}

const ID_CHARS = "0123456789abcdefghijklmnopqrstuvwxyz";

function newId(random: Random, used: Set<string>): string {
  for (;;) {
    let id = "kb-";
    for (let i = 0; i < 5; i++) id += ID_CHARS[Math.floor(random.next() * 36)];
    if (!used.has(id)) {
      used.add(id);
      return id;
    }
  }
}

/** The slug of a title: lowercase words joined by `-`, at most 60 characters. */
export function slugify(title: string): string {
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-+|-+$/g, "");
  if (slug.length <= 60) return slug || "entry";
  const cut = slug.slice(0, 60);
  const dash = cut.lastIndexOf("-");
  return dash > 20 ? cut.slice(0, dash) : cut;
}

const DAY_MS = 86_400_000;
const FIRST_DAY = Date.UTC(2024, 0, 1);
const SPAN_DAYS = 900;

function dateOf(dayOffset: number): string {
  return new Date(FIRST_DAY + dayOffset * DAY_MS).toISOString().slice(0, 10);
}

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** One generated entry and where it lives relative to the knowledge base. */
export interface GeneratedEntry {
  entry: Entry;
  /** `entries/<id>-<slug>.md`. */
  path: string;
}

class Writer {
  readonly random: Random;
  readonly words: ZipfSampler<string>;
  readonly tags: ZipfSampler<string>;

  constructor(seed: number) {
    this.random = createRandom(seed);
    this.words = new ZipfSampler(VOCABULARY, 1, 3);
    this.tags = new ZipfSampler(this.#tagPool(), 0.9);
  }

  #tagPool(): string[] {
    const random = createRandom(VOCABULARY_SEED + 1);
    const compounds = new Set<string>();
    while (compounds.size < 170) {
      const separator = random.pick(TAG_SEPARATORS);
      compounds.add(`${this.words.sample(random)}${separator}${this.words.sample(random)}`);
    }
    // A few compound tags are common (like ci/cd or node.js); most are rare.
    const [common, rare] = [[...compounds].slice(0, 20), [...compounds].slice(20)];
    return [...shuffle([...VOCABULARY.slice(0, 280), ...common], random), ...rare];
  }

  word(): string {
    return this.words.sample(this.random);
  }

  title(): string {
    const random = this.random;
    const count = random.int(4, 9);
    const words: string[] = [];
    for (let i = 0; i < count; i++) {
      const connector = i > 0 && i < count - 1 && random.chance(0.18) &&
        !TITLE_CONNECTORS.includes(words[i - 1]);
      words.push(connector ? random.pick(TITLE_CONNECTORS) : this.word());
    }
    words[0] = capitalize(words[0]);
    return words.join(" ");
  }

  sentence(min = 6, max = 16): string {
    const random = this.random;
    const count = random.int(min, max);
    const words: string[] = [];
    for (let i = 0; i < count; i++) {
      words.push(random.chance(0.45) ? random.pick(CONNECTORS) : this.word());
    }
    let text = capitalize(words.join(" "));
    if (random.chance(0.15)) text = text.replace(/ (\w+)$/, " `$1`");
    return `${text}.`;
  }

  paragraph(sentences: number): string {
    return Array.from({ length: sentences }, () => this.sentence()).join(" ");
  }

  block(mentions: string[]): string {
    const random = this.random;
    const roll = random.next();
    if (roll < 0.4) return this.paragraph(random.int(2, 4));
    if (roll < 0.55) {
      return `## ${capitalize(this.word())} ${this.word()}\n\n${this.paragraph(random.int(1, 3))}`;
    }
    if (roll < 0.72) {
      const items = random.int(2, 5);
      return Array.from({ length: items }, () => `- ${this.sentence(3, 8)}`).join("\n");
    }
    if (roll < 0.84) {
      const lang = random.pick(CODE_LANGS);
      const lines = random.int(1, 4);
      const code = Array.from(
        { length: lines },
        () => `${this.word()} --${this.word()} ${this.word()}`,
      ).join("\n");
      return "```" + lang + "\n" + code + "\n```";
    }
    if (roll < 0.92 && mentions.length) {
      return `See [[${random.pick(mentions)}]] for the ${this.word()} ${this.word()}.`;
    }
    return `${random.int(1, 9)}. ${this.sentence(4, 10)}\n${random.int(1, 9)}. ${
      this.sentence(4, 10)
    }`;
  }

  /** A body of `min` to `max` characters (newline included), built from whole blocks. */
  body(min: number, max: number, mentions: string[]): string {
    const limit = max - 1; // room for the final newline
    const target = this.random.int(min, limit);
    const blocks = [this.paragraph(this.random.int(1, 3))];
    let length = blocks[0].length;
    for (let misses = 0; length < target && misses < 20;) {
      const block = this.block(mentions);
      if (length + 2 + block.length > limit) {
        misses++;
        continue;
      }
      blocks.push(block);
      length += 2 + block.length;
    }
    let text = blocks.join("\n\n");
    while (text.length < min) {
      const sentence = this.sentence(4, 8);
      if (text.length + 2 + sentence.length > limit) break;
      text += `\n\n${sentence}`;
    }
    return `${text}\n`;
  }

  kernelBody(): string {
    const rule =
      `Always ${this.word()} the ${this.word()} before you ${this.word()} a ${this.word()}.`;
    return `${rule} ${this.sentence(5, 10)}\n`;
  }

  tagList(): string[] {
    const tags = new Set<string>();
    const count = this.random.int(2, 5);
    while (tags.size < count) tags.add(this.tags.sample(this.random));
    return [...tags];
  }

  aliases(title: string): string[] {
    const random = this.random;
    const aliases = new Set<string>();
    const count = random.int(1, 3);
    const words = title.toLowerCase().split(" ").filter((word) => !TITLE_CONNECTORS.includes(word));
    for (let attempt = 0; aliases.size < count && attempt < 10; attempt++) {
      const roll = random.next();
      if (roll < 0.4 && words.length >= 2) {
        const start = random.int(0, words.length - 2);
        aliases.add(words.slice(start, start + random.int(2, 3)).map((word) => word[0]).join(""));
      } else if (roll < 0.75) {
        aliases.add(`${this.word()} ${this.word()}`);
      } else {
        aliases.add(this.word());
      }
    }
    return [...aliases];
  }

  activities(): Activity[] {
    const first = this.random.pick(ACTIVITIES);
    const second = this.random.chance(0.3) ? this.random.pick(ACTIVITIES) : first;
    return [...new Set([first, second])];
  }
}

/**
 * Generate `count` entries in memory, deterministically from `seed`. Entry `i` only links to
 * entries before it; the two kernel entries are active rules with short bodies.
 */
export function generateEntries(count: number, seed = 1): GeneratedEntry[] {
  const writer = new Writer(seed);
  const random = writer.random;
  const usedIds = new Set<string>();
  const ids = Array.from({ length: count }, () => newId(random, usedIds));
  const kernel = new Set<number>();
  while (kernel.size < Math.min(2, count)) kernel.add(random.int(0, count - 1));

  const statuses: Status[] = ids.map((_, index) => {
    if (kernel.has(index)) return "active";
    const roll = random.next();
    if (roll < 0.02 && index < count - 1) return "superseded";
    if (roll < 0.03) return "archived";
    return "active";
  });

  const links: Link[][] = ids.map(() => []);
  for (let index = 1; index < count; index++) {
    if (kernel.has(index) || !random.chance(0.3)) continue;
    const wanted = random.int(1, 3);
    for (let n = 0; n < wanted; n++) {
      // Lean towards recent entries, as real knowledge bases do, but reach all the way back.
      const back = random.chance(0.6) ? random.int(1, Math.min(index, 50)) : random.int(1, index);
      const to = ids[index - back];
      const rel = random.pick(RELS);
      if (!links[index].some((link) => link.to === to)) links[index].push({ rel, to });
    }
  }
  // Each superseded entry is superseded by a later one.
  for (let index = 0; index < count; index++) {
    if (statuses[index] !== "superseded") continue;
    let by = random.int(index + 1, count - 1);
    while (kernel.has(by) && by < count - 1) by++;
    if (kernel.has(by)) {
      statuses[index] = "archived";
      continue;
    }
    links[by] = links[by].filter((link) => link.to !== ids[index]);
    links[by].unshift({ rel: "supersedes", to: ids[index] });
  }

  const result: GeneratedEntry[] = [];
  for (let index = 0; index < count; index++) {
    const id = ids[index];
    const isKernel = kernel.has(index);
    const title = writer.title();
    const created = Math.floor(index * SPAN_DAYS / Math.max(count, 1)) + random.int(0, 3);
    const updated = random.chance(0.7) ? created : created + random.int(1, 200);
    const mentions = links[index].map((link) => link.to);
    const entry: Entry = {
      id,
      title,
      type: isKernel ? "rule" : random.pick(TYPES),
      tags: writer.tagList(),
      aliases: random.chance(0.4) ? writer.aliases(title) : [],
      appliesTo: random.chance(0.1) ? writer.activities() : [],
      kernel: isKernel,
      status: statuses[index],
      created: dateOf(created),
      updated: dateOf(updated),
      links: links[index],
      extra: random.chance(0.02) ? { reviewer: writer.word() } : {},
      body: isKernel ? writer.kernelBody() : writer.body(300, 2000, mentions),
    };
    if (random.chance(0.2)) {
      entry.source = `https://docs.example.org/${writer.word()}/${writer.word()}`;
    }
    result.push({ entry, path: `entries/${id}-${slugify(title)}.md` });
  }
  return result;
}

/** What {@link generateKb} wrote. */
export interface GeneratedKb {
  /** The knowledge base folder. */
  dir: string;
  /** Every entry written, in generation order (links point backwards in this order). */
  entries: GeneratedEntry[];
  /** The git commit made, when `git` was asked for. */
  commit?: string;
}

/** Options for {@link generateKb}. */
export interface GenerateOptions {
  /** Run `git init` and commit everything once (needs `--allow-run=git`). */
  git?: boolean;
}

async function runGit(dir: string, args: string[]): Promise<string> {
  const output = await new Deno.Command("git", {
    args,
    cwd: dir,
    env: {
      GIT_TERMINAL_PROMPT: "0",
      GIT_AUTHOR_DATE: "2026-07-01T12:00:00Z",
      GIT_COMMITTER_DATE: "2026-07-01T12:00:00Z",
      LC_ALL: "C",
    },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const decoder = new TextDecoder();
  if (!output.success) {
    throw new Error(
      `git ${args.join(" ")} failed (exit ${output.code}): ${decoder.decode(output.stderr).trim()}`,
    );
  }
  return decoder.decode(output.stdout).trim();
}

/** Make `dir` a git repository holding everything in it as one commit; returns the commit. */
export async function commitAll(dir: string, message: string): Promise<string> {
  const identity = ["-c", "user.name=git-kb bench", "-c", "user.email=bench@example.invalid"];
  await runGit(dir, ["init", "-q"]);
  await runGit(dir, ["symbolic-ref", "HEAD", "refs/heads/main"]);
  await runGit(dir, ["add", "-A"]);
  await runGit(dir, [...identity, "-c", "commit.gpgsign=false", "commit", "-q", "-m", message]);
  return await runGit(dir, ["rev-parse", "HEAD"]);
}

/**
 * Write a synthetic knowledge base of `count` entries into `dir` (created when missing),
 * deterministically from `seed`. Existing files in `dir/entries` are left alone.
 *
 * @example
 * ```ts
 * const kb = await generateKb(await Deno.makeTempDir(), 50, 7);
 * kb.entries.length; // 50
 * ```
 */
export async function generateKb(
  dir: string,
  count: number,
  seed = 1,
  options: GenerateOptions = {},
): Promise<GeneratedKb> {
  const entries = generateEntries(count, seed);
  Deno.mkdirSync(join(dir, "entries"), { recursive: true });
  for (const { entry, path } of entries) {
    Deno.writeTextFileSync(join(dir, path), serializeEntry(entry));
  }
  const generated: GeneratedKb = { dir, entries };
  if (options.git) {
    generated.commit = await commitAll(dir, `Generate ${count} entries (seed ${seed})`);
  }
  return generated;
}

/** Parse `--name value` and `--name=value` flags; a flag with no value is `"true"`. */
export function parseFlags(args: string[]): Map<string, string> {
  const flags = new Map<string, string>();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (!arg.startsWith("--")) throw new Error(`Unexpected argument "${arg}"`);
    const equals = arg.indexOf("=");
    if (equals > 0) flags.set(arg.slice(2, equals), arg.slice(equals + 1));
    else if (i + 1 < args.length && !args[i + 1].startsWith("--")) {
      flags.set(arg.slice(2), args[++i]);
    } else flags.set(arg.slice(2), "true");
  }
  return flags;
}

const USAGE = `Usage: deno run --allow-read --allow-write [--allow-run=git] bench/generate.ts \\
  --entries <n> --out <dir> [--seed <n>] [--git] [--force]

  --entries  how many entries to write (default 5000)
  --out      the knowledge base folder to create
  --seed     PRNG seed (default 1); the same seed gives the same files
  --git      git init and commit everything once (needs --allow-run=git)
  --force    delete an existing <out>/entries folder first`;

async function main(args: string[]): Promise<number> {
  let flags: Map<string, string>;
  try {
    flags = parseFlags(args);
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (flags.has("help")) {
    console.log(USAGE);
    return 0;
  }
  const known = new Set(["entries", "out", "seed", "git", "force"]);
  for (const name of flags.keys()) {
    if (!known.has(name)) {
      console.error(`Unknown flag --${name}\n\n${USAGE}`);
      return 2;
    }
  }
  const count = Number(flags.get("entries") ?? 5000);
  const seed = Number(flags.get("seed") ?? 1);
  const out = flags.get("out");
  if (!out || out === "true" || !Number.isInteger(count) || count < 1 || !Number.isInteger(seed)) {
    console.error(`--out is required; --entries and --seed must be whole numbers\n\n${USAGE}`);
    return 2;
  }
  const git = flags.get("git") === "true";
  if (git && Deno.permissions.querySync({ name: "run", command: "git" }).state !== "granted") {
    console.error("--git needs permission to run git: add --allow-run=git");
    return 2;
  }
  const entriesDir = join(out, "entries");
  let existing = false;
  try {
    existing = [...Deno.readDirSync(entriesDir)].length > 0;
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  if (existing || (git && exists(join(out, ".git")))) {
    if (flags.get("force") !== "true") {
      console.error(`${out} already holds a knowledge base; pass --force to replace it`);
      return 1;
    }
    Deno.removeSync(entriesDir, { recursive: true });
    if (git) Deno.removeSync(join(out, ".git"), { recursive: true });
  }
  const started = performance.now();
  const kb = await generateKb(out, count, seed, { git });
  const ms = Math.round(performance.now() - started);
  const kernel = kb.entries.filter(({ entry }) => entry.kernel).length;
  const inactive = kb.entries.filter(({ entry }) => entry.status !== "active").length;
  const linked = kb.entries.filter(({ entry }) => entry.links.length).length;
  console.log(
    `Wrote ${count} entries to ${join(out, "entries")} in ${ms} ms (seed ${seed}): ` +
      `${kernel} kernel, ${inactive} superseded or archived, ${linked} with links` +
      (kb.commit ? `; committed ${kb.commit.slice(0, 12)}` : ""),
  );
  return 0;
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

if (import.meta.main) {
  try {
    Deno.exit(await main(Deno.args));
  } catch (error) {
    if (error instanceof Deno.errors.PermissionDenied || error instanceof Deno.errors.NotCapable) {
      console.error(`Missing permission: ${error.message}`);
    } else console.error(error instanceof Error ? error.message : String(error));
    Deno.exit(1);
  }
}
