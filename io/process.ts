/**
 * Running a subprocess to completion with optional stdin, collecting its output as text.
 *
 * @module
 */

/** What a finished subprocess printed and how it exited. */
export interface ProcessOutput {
  code: number;
  stdout: string;
  stderr: string;
}

/** How to run a subprocess. */
export interface ProcessOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** Start from an empty environment instead of inheriting this process's. */
  clearEnv?: boolean;
  /** Text or bytes piped to stdin; stdin is null otherwise. */
  stdin?: string | Uint8Array;
}

const decoder = new TextDecoder();

/**
 * Run `program args…` and wait for it. A child that stops reading stdin early (it refused a
 * large input) is not an error: its exit code says what happened.
 */
export async function runProcess(
  program: string,
  args: string[],
  options: ProcessOptions = {},
): Promise<ProcessOutput> {
  const { stdin } = options;
  const child = new Deno.Command(program, {
    args,
    cwd: options.cwd,
    env: options.env,
    clearEnv: options.clearEnv,
    stdin: stdin === undefined ? "null" : "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  if (stdin !== undefined) {
    const writer = child.stdin.getWriter();
    try {
      await writer.write(typeof stdin === "string" ? new TextEncoder().encode(stdin) : stdin);
      await writer.close();
    } catch { /* the child stopped reading early */ }
  }
  const output = await child.output();
  return {
    code: output.code,
    stdout: decoder.decode(output.stdout),
    stderr: decoder.decode(output.stderr),
  };
}
