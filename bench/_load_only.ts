/**
 * Bench helper, bundled by the hook benchmark as a stand-in for the prompt hook: it loads every
 * module the hook's bundle loads, then exits before the hook's first step. Run through the
 * plugin's launcher, it is the floor under the hook's whole-process time: what starting it costs
 * before it does any work.
 *
 * @module
 */
import { runPromptHook } from "../hooks/prompt.ts";

// Never true: the reference keeps the hook's code in the bundle, and the hook never runs.
if (Deno.args.includes("--run-the-hook-after-all")) await runPromptHook();
Deno.exit(0);
