/**
 * How far one crafted entry a teammate pushes can get the prompt hook to point at it: build a
 * knowledge base (the sample one, or the TIL notes), decide every real prompt without and with
 * crafted entries, and count the prompts that point at a crafted entry and the pointers to other
 * entries they displace.
 *
 * ```sh
 * deno run --allow-read --allow-write --allow-env --allow-sys=uid bench/spam_probe.ts \
 *   --data ../shared/bench [--kb sample|til]
 * ```
 *
 * @module
 */
import { fileURLToPath } from "node:url";
import { blankEntry, serializeEntry } from "../core/entry/entry.ts";
import type { Activity } from "../core/entry/schema.ts";
import { join } from "../core/path.ts";
import { decide } from "../core/prompt/decision.ts";
import { promptTerms } from "../core/prompt/keywords.ts";
import { openIndex } from "../io/index/store.ts";
import { fetchCommand, surfaceConfig } from "../io/hook/prompt_context.ts";
import { parseFlags } from "./generate.ts";
import { type CorpusPage, halfOf, readJsonl, writeKb } from "./retrieval.ts";

const benchDir = fileURLToPath(new URL(".", import.meta.url));
const CRAFTED = "kb-zzzz";

/** A crafted entry: what goes in each field. */
interface Craft {
  name: string;
  title: string;
  tags: string[];
  aliases: string[];
  body: string;
  appliesTo: Activity[];
}

/** The prompts' words, most prompts first, each as it is most often typed. */
function frequentWords(prompts: string[]): string[] {
  const byTerm = new Map<string, { prompts: number; spellings: Map<string, number> }>();
  for (const prompt of prompts) {
    const seen = new Set<string>();
    for (const { term, word } of promptTerms(prompt)) {
      if (!/^[a-z0-9]+$/.test(word)) continue;
      const known = byTerm.get(term) ?? { prompts: 0, spellings: new Map() };
      byTerm.set(term, known);
      known.spellings.set(word, (known.spellings.get(word) ?? 0) + 1);
      if (!seen.has(term)) known.prompts++;
      seen.add(term);
    }
  }
  return [...byTerm.values()].sort((a, b) => b.prompts - a.prompts).map(({ spellings }) =>
    [...spellings].sort((a, b) => b[1] - a[1])[0][0]
  );
}

/** `words` packed into items of at most `chars` characters joined by `glue`, at most `count`. */
function pack(words: string[], chars: number, count: number, glue: string): [string[], number] {
  const items: string[] = [];
  let current = "";
  let used = 0;
  for (const word of words) {
    if (items.length >= count) break;
    const next = current ? `${current}${glue}${word}` : word;
    if (next.length <= chars) {
      current = next;
      used++;
      continue;
    }
    items.push(current);
    current = "";
    if (items.length >= count) break;
    current = word;
    used++;
  }
  if (current && items.length < count) items.push(current);
  else if (current) used--;
  return [items, used];
}

/** A crafted entry from the `words` (most frequent first), the keyword fields `keywords` long. */
function craft(
  name: string,
  words: string[],
  keywords: number,
  body: "none" | "vocabulary" | number,
  appliesTo: Activity[] = [],
): Craft {
  const chosen = words.slice(0, keywords);
  const [[title], inTitle] = pack(chosen, 200, 1, " ");
  const [tags, inTags] = pack(chosen.slice(inTitle), 64, 32, "-");
  const [aliases] = pack(chosen.slice(inTitle + inTags), 64, 32, " ");
  let text = "";
  if (body === "vocabulary") {
    for (const word of words) {
      if (new TextEncoder().encode(text).length + word.length + 1 > 64 * 1024 - 16) break;
      text += `${word} `;
    }
  } else if (typeof body === "number") text = words.slice(0, body).join(" ");
  return { name, title, tags, aliases, body: text.trim() + "\n", appliesTo };
}

function writeEntry(dir: string, id: string, craft: Omit<Craft, "name">): void {
  const entry = {
    ...blankEntry(id, "2026-01-01"),
    title: craft.title,
    tags: craft.tags,
    aliases: craft.aliases,
    appliesTo: craft.appliesTo,
    body: craft.body,
  };
  Deno.writeTextFileSync(join(dir, "entries", `${id}-x.md`), serializeEntry(entry));
}

/** The base knowledge base into `dir`. */
function writeBase(dir: string, kb: string): void {
  if (kb !== "sample") {
    writeKb(dir, readJsonl<CorpusPage>(join(benchDir, "til", "corpus.jsonl")));
    return;
  }
  Deno.mkdirSync(join(dir, "entries"), { recursive: true });
  const from = join(benchDir, "..", "fixtures", "sample-kb", "entries");
  for (const file of Deno.readDirSync(from)) {
    Deno.copyFileSync(join(from, file.name), join(dir, "entries", file.name));
  }
}

/** Each prompt's pointers, in the knowledge base in `dir`. */
async function pointers(dir: string, prompts: string[]): Promise<string[][]> {
  const { reader, report } = await openIndex(dir, { full: true });
  if (report.invalid.length) console.error("invalid:", JSON.stringify(report.invalid));
  const config = { ...surfaceConfig(), explain: false };
  const fetch = fetchCommand(dir);
  return prompts.map((prompt) =>
    decide(prompt, reader, {}, fetch, config).assembly?.pointers.map((pointer) => pointer.id) ??
      []
  );
}

async function main(): Promise<void> {
  const flags = parseFlags(Deno.args);
  const data = flags.get("data") ?? join(benchDir, "..", "..", "shared", "bench");
  const kb = flags.get("kb") ?? "sample";
  const real = readJsonl<{ prompt: string }>(join(data, "real_prompts.jsonl")).map((row) =>
    row.prompt
  );
  // The crafted entries learn their words from one half of the prompts and are counted on the
  // other, unless `--all` (learn and count on all of them, the worst case).
  const all = flags.has("all");
  const words = frequentWords(all ? real : real.filter((prompt) => halfOf(prompt) === "tuning"));
  const prompts = all ? real : real.filter((prompt) => halfOf(prompt) === "held-out");
  const activities: Activity[] = ["coding", "writing", "reviewing", "planning"];
  const crafts: Craft[][] = [
    [craft("title of 30 frequent words", words, 30, "none")],
    [craft("title+tags+aliases, 120 words", words, 120, "none")],
    [craft("title+tags+aliases, all 600 words", words, 2000, "none")],
    [craft("title 30 words, body = vocabulary", words, 30, "vocabulary")],
    [craft("keywords 120 words, body = vocabulary", words, 120, "vocabulary")],
    [craft("keywords 600 words, body = vocabulary", words, 2000, "vocabulary")],
    [craft("title 30 words, body = 300 most frequent", words, 30, 300)],
    [craft("title 30 words, body = 1,000 most frequent", words, 30, 1000)],
    [craft("title 30 words, body = 3,000 most frequent", words, 30, 3000)],
    [craft("title 30 words + applies_to all", words, 30, "none", activities)],
    [craft("title 30 + body vocab + applies_to all", words, 30, "vocabulary", activities)],
    [craft("keywords 600 + body vocab + applies_to all", words, 2000, "vocabulary", activities)],
    Array.from(
      { length: 5 },
      (_, index) =>
        craft(
          `5 entries, title 30 words each (slice ${index})`,
          words.slice(index * 30),
          30,
          "none",
        ),
    ),
    Array.from({ length: 5 }, (_, index) =>
      craft(
        `5 entries, keywords 120 each + vocab (slice ${index})`,
        words.slice(index * 120),
        120,
        "vocabulary",
      )),
  ];
  const filter = flags.get("only");
  const work = Deno.makeTempDirSync({ prefix: "git-kb-spam-" });
  try {
    Deno.env.set("TMPDIR", work);
    Deno.env.set("XDG_CACHE_HOME", work);
    const baseDir = join(work, "base");
    writeBase(baseDir, kb);
    const before = await pointers(baseDir, prompts);
    const fired = before.filter((list) => list.length).length;
    const total = before.reduce((sum, list) => sum + list.length, 0);
    console.log(`${kb}: ${prompts.length} prompts; without: fires ${fired}, pointers ${total}`);
    console.log(
      "| crafted | prompts pointing at it | share | other pointers displaced | fires without→with |",
    );
    console.log("|---|---:|---:|---:|---:|");
    for (const [index, set] of crafts.entries()) {
      if (filter && !filter.split(",").includes(String(index))) continue;
      const dir = join(work, `with-${index}`);
      writeBase(dir, kb);
      set.forEach((one, at) => writeEntry(dir, `${CRAFTED}${at}`, one));
      const after = await pointers(dir, prompts);
      if (flags.get("keep")) {
        after.forEach((list, at) =>
          list.some((id) => id.startsWith(CRAFTED)) &&
          console.log(JSON.stringify(prompts[at].slice(0, 200)))
        );
      }
      let hit = 0;
      let displaced = 0;
      after.forEach((list, at) => {
        if (list.some((id) => id.startsWith(CRAFTED))) hit++;
        displaced += before[at].filter((id) => !list.includes(id)).length;
      });
      const firesWith = after.filter((list) => list.length).length;
      console.log(
        `| ${set[0].name} | ${hit} | ${(100 * hit / prompts.length).toFixed(1)} % | ` +
          `${displaced} | ${fired}→${firesWith} |`,
      );
    }
  } finally {
    if (!flags.get("keep")) Deno.removeSync(work, { recursive: true });
    else console.log(work);
  }
}

if (import.meta.main) await main();
