/**
 * Rebuilds `bench/til/corpus.jsonl` (or the file given as the third argument) from a clone of a
 * Today-I-Learned repository laid out like simonw/til: one line per note (`<folder>/<name>.md`),
 * keyed `<folder>/<name>`, with the note's `# ` heading as its title, its folder as its one tag and
 * the rest of the file, whole, as its body.
 *
 * ```sh
 * deno run --allow-run=git --allow-write=bench/til bench/til_corpus.ts <til git dir> [commit]
 * deno run --allow-run=git --allow-write=bench/til2 bench/til_corpus.ts <til git dir> <commit> bench/til2/corpus.jsonl
 * ```
 *
 * @module
 */

import { runProcess } from "../io/process.ts";

/** One note as the retrieval benchmark reads it. */
export interface CorpusNote {
  /** `<folder>/<file name without .md>`. */
  key: string;
  /** The note's heading, as its author wrote it. */
  title: string;
  /** The note's folder. */
  tags: string[];
  /** Everything after the heading, leading blank lines and trailing whitespace dropped. */
  body: string;
}

/** Splits a note's markdown into its `# ` heading and the rest; undefined without a heading. */
export function parseNote(
  path: string,
  markdown: string,
): CorpusNote | undefined {
  const [folder, file, ...deeper] = path.split("/");
  if (!folder || !file?.endsWith(".md") || deeper.length > 0) return undefined;
  const text = markdown.replace(/^\uFEFF/, "").replaceAll("\r\n", "\n");
  const newline = text.indexOf("\n");
  const heading = newline === -1 ? text : text.slice(0, newline);
  if (!heading.startsWith("# ")) return undefined;
  return {
    key: `${folder}/${file.slice(0, -".md".length)}`,
    title: heading.slice(2).trim(),
    tags: [folder],
    body: newline === -1 ? "" : text.slice(newline + 1).replace(/^\s*\n/, "").trimEnd(),
  };
}

async function git(gitDir: string, ...args: string[]): Promise<string> {
  const result = await runProcess("git", ["--git-dir", gitDir, ...args]);
  if (result.code !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr.trim()}`);
  return result.stdout;
}

async function main(gitDir: string, commit: string, out: string | URL): Promise<void> {
  const paths = (await git(gitDir, "ls-tree", "-r", "--name-only", commit)).split("\n")
    .filter((path) => /^[^/]+\/[^/]+\.md$/.test(path)).sort();
  const lines: string[] = [];
  for (const path of paths) {
    const note = parseNote(path, await git(gitDir, "show", `${commit}:${path}`));
    if (note) lines.push(JSON.stringify(note));
    else console.error(`skipped ${path}: no "# " heading on its first line`);
  }
  await Deno.writeTextFile(out, lines.join("\n") + "\n");
  console.log(
    `${lines.length} notes from ${commit} written to ${out instanceof URL ? out.pathname : out}`,
  );
}

if (import.meta.main) {
  const [gitDir, commit = "HEAD", out = new URL("til/corpus.jsonl", import.meta.url)] = Deno.args;
  if (!gitDir) {
    console.error(
      "Usage: deno run --allow-run=git --allow-write=bench/til bench/til_corpus.ts " +
        "<path to a TIL git dir> [commit] [output file, default bench/til/corpus.jsonl]",
    );
    Deno.exit(2);
  }
  await main(gitDir, commit, out);
}
