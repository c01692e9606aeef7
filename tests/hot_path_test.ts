/**
 * The rules that keep the hot hooks fast, enforced on their import graph (`deno info --json`):
 * from the entry module of each hook with a bundle of its own (`ownBundle` in app/registry.ts),
 * no static import reaches a `node:` module (Node compatibility costs about 18 ms of start-up:
 * core/path.ts) nor an npm package (the YAML library, which only an index rebuild needs, is
 * loaded by a lazy `import()`: io/index/refresh.ts). A lazy import is where the hook's bundle is
 * split (build/plugin.ts), so what it loads is left out; type-only imports are erased, so they
 * are left out too.
 */
import { assert, assertEquals, assertMatch } from "@std/assert";
import { join } from "@std/path/posix/join";
import { HOT_HOOKS } from "../build/plugin.ts";
import { runProcess } from "../io/process.ts";
import { makeSandbox, ROOT, show } from "./helpers.ts";

/** One module of `deno info --json`'s graph, as far as this test reads it. */
interface GraphModule {
  specifier: string;
  dependencies?: { code?: { specifier: string }; isDynamic?: boolean }[];
}

/** What `deno info --json` says of a module graph. */
interface Graph {
  roots: string[];
  modules: GraphModule[];
  redirects: Record<string, string>;
}

/** The module graph of `entry` (a path), resolved with the project's deno.json. */
async function graphOf(entry: string): Promise<Graph> {
  const result = await runProcess("deno", ["info", "--json", entry], { cwd: ROOT });
  assertEquals(result.code, 0, show(result));
  return JSON.parse(result.stdout);
}

/**
 * Every module `graph`'s root loads when it starts, each with the chain of imports that reaches
 * it; with `lazy`, also those behind a lazy `import()`.
 */
function reachable(graph: Graph, lazy = false): Map<string, string[]> {
  const modules = new Map(graph.modules.map((module) => [module.specifier, module]));
  const resolve = (specifier: string) => graph.redirects[specifier] ?? specifier;
  const chains = new Map(graph.roots.map((root) => [resolve(root), [resolve(root)]]));
  const queue = [...chains.keys()];
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    for (const dependency of modules.get(next)?.dependencies ?? []) {
      if (!dependency.code || (dependency.isDynamic && !lazy)) continue;
      const specifier = resolve(dependency.code.specifier);
      if (chains.has(specifier)) continue;
      chains.set(specifier, [...chains.get(next)!, specifier]);
      queue.push(specifier);
    }
  }
  return chains;
}

/** The chains that reach a `node:` module or an npm package, one per line. */
function forbidden(chains: Map<string, string[]>): string[] {
  return [...chains].filter(([specifier]) => /^(node|npm):/.test(specifier))
    .map(([, chain]) =>
      chain.map((specifier) => specifier.replace(`file://${ROOT}`, "")).join(" → ")
    );
}

Deno.test("the hot hooks load no node: module and no npm package (the YAML parser) at start", async () => {
  const hooks = Object.entries(HOT_HOOKS);
  assert(hooks.length >= 2, "the prompt hook and the search augment have bundles of their own");
  for (const [name, module] of hooks) {
    const graph = await graphOf(join(ROOT, module));
    assertEquals(forbidden(reachable(graph)), [], `hook ${name} (${module}) at start`);
    // A hook that can rebuild the index reaches the YAML parser behind a lazy import, which the
    // walk must see past (the fetch hook never indexes, so it has none).
    if (name === "fetch") continue;
    assert(
      forbidden(reachable(graph, true)).some((chain) => /npm:\S*js-yaml/.test(chain)),
      `hook ${name}: the YAML parser sits behind a lazy import, which the walk must see past`,
    );
  }
});

Deno.test("the walk finds a node: module or an npm package behind any chain of static imports", async () => {
  await using sandbox = await makeSandbox();
  const write = (name: string, text: string) => Deno.writeTextFile(join(sandbox.root, name), text);
  await write(
    "entry.ts",
    'import "./middle.ts";\nexport const lazy = () => import("./lazy.ts");\n',
  );
  await write(
    "middle.ts",
    'import type { ParsedPath } from "node:path";\nimport "./leaf.ts";\n' +
      "export type Kept = ParsedPath;\n",
  );
  await write("leaf.ts", 'import { sep } from "node:path";\nexport const separator = sep;\n');
  await write("lazy.ts", 'import yaml from "npm:js-yaml@4.1.0";\nexport const load = yaml.load;\n');
  const graph = await graphOf(join(sandbox.root, "entry.ts"));
  const found = forbidden(reachable(graph));
  assertEquals(found.length, 1, found.join("\n"));
  assertMatch(found[0], /entry\.ts → .*middle\.ts → .*leaf\.ts → node:path$/);
  assert(forbidden(reachable(graph, true)).some((chain) => /lazy\.ts → npm:/.test(chain)));
});
