/**
 * A small shell-words parser: enough of POSIX sh (and bash's `$'…'` and `<<<`) to find the
 * arguments a command line passes to git, gh or glab. It never runs or expands anything and
 * never throws: unterminated quotes run to the end of the input.
 *
 * Handled: single, double and `$'…'` quotes, backslash escapes and line continuations;
 * `;` `&&` `||` `|` `&` newlines and parentheses as command separators; `#` comments;
 * redirections, dropped with their target (`&>` and `2>&1` included); here-documents (`<<EOF`,
 * `<<-EOF`, `<<'EOF'`) and here-strings (`<<<`); command substitution, where
 * `$(cat <<'EOF' … EOF)` becomes the here-document's text as the shell would make it, while any
 * other `$(…)`, `` `…` `` or `${…}` stays as written.
 *
 * Bounded on any input, in one pass without recursion past a fixed depth: only the first
 * {@link MAX_SHELL_LENGTH} characters and {@link MAX_SHELL_WORDS} words are read, and a `$(…)`
 * nested deeper than {@link MAX_SHELL_NESTING} stays as written.
 *
 * {@link literalCommand} also says whether the words read are what a shell would run: what it
 * would act on instead (an expansion, a second command, a redirection, a pattern) is named.
 *
 * @module
 */

/** One simple command: its words after quote removal, and what it reads from stdin. */
export interface ShellCommand {
  /** The program and its arguments, quotes removed; redirections left out. */
  words: string[];
  /** Here-document and here-string bodies, in the order they appear. */
  heredocs: string[];
}

interface PendingHeredoc {
  delimiter: string;
  stripTabs: boolean;
  target: ShellCommand;
}

/** The most characters of a command line read; the rest is not parsed. */
export const MAX_SHELL_LENGTH = 256 * 1024;

/** The most words read, over all the commands of a line; parsing stops there. */
export const MAX_SHELL_WORDS = 10_000;

/** The deepest `$(…)` parsed into its commands; a deeper one stays as written. */
export const MAX_SHELL_NESTING = 16;

const SEPARATORS = new Set([";", "&", "|", "(", ")", "\n"]);

/**
 * What a shell does with each character it acts on rather than passes as written, where git-kb
 * only reads words: for {@link literalCommand}.
 */
const EVALUATED: Readonly<Record<string, string>> = {
  "$": "a $ (an expansion)",
  "`": "a ` (a command substitution)",
  ";": "a ; (a second command)",
  "&": "a & (a second command)",
  "|": "a | (a pipe)",
  "(": "a ( (a subshell)",
  ")": "a ) (a subshell)",
  "<": "a < (a redirection)",
  ">": "a > (a redirection)",
  "\n": "a line break (a second command)",
  "*": "an unquoted * (a file name pattern)",
  "?": "an unquoted ? (a file name pattern)",
  "[": "an unquoted [ (a file name pattern)",
  "~": "a ~ starting a word (the home folder)",
  "'": "a ' with no ' to close it",
  '"': 'a " with no " to close it',
};

/** Whether an unquoted `char` ends a word: a blank or an operator. */
function endsWord(char: string): boolean {
  return /\s/.test(char) || ";&|()<>".includes(char);
}

/** Whether `word` starts with a `NAME=` assignment. */
function isAssignment(word: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*=/.test(word);
}

/** Words that run the command after them: `env X=1 git …`, `sudo git …`. */
const WRAPPERS = new Set(["env", "command", "exec", "time", "nohup", "sudo"]);

/**
 * The words of a simple command without leading `VAR=value` assignments and wrappers (`env`,
 * `command`, `exec`, `time`, `nohup`, `sudo` and their flags): the program and its arguments.
 */
export function commandWords(words: string[]): string[] {
  let index = 0;
  let wrapped = false;
  while (index < words.length) {
    const word = words[index];
    const assignment = isAssignment(word);
    if (!assignment && !WRAPPERS.has(word) && !(wrapped && word.startsWith("-"))) break;
    wrapped ||= WRAPPERS.has(word);
    index++;
  }
  return words.slice(index);
}

/**
 * Parse `source` into its simple commands, in order; empty commands are left out. Only the
 * first {@link MAX_SHELL_LENGTH} characters and {@link MAX_SHELL_WORDS} words are read.
 */
export function parseShell(source: string): ShellCommand[] {
  return new Parser(source.slice(0, MAX_SHELL_LENGTH)).list(false);
}

/** A command line read as words, and whether a shell would run those words as they are. */
export interface LiteralCommand {
  /** Every word of every command, quotes and backslashes removed, redirections left out. */
  words: string[];
  /**
   * The first thing a shell would act on rather than pass as written, as a phrase ("a $ (an
   * expansion)", "a ; (a second command)", "an unquoted * (a file name pattern)", an unclosed
   * quote): where there is one, {@link words} is not what a shell would run. Undefined when the
   * line is one command of plain, quoted and escaped words only.
   */
  evaluated?: string;
}

/**
 * `source` read as one command without evaluating anything: its words, as sh would pass them
 * when nothing in `source` needs evaluating, and else the first thing that does (see
 * {@link LiteralCommand}). For a command line given in the environment (`$EDITOR`), which
 * git-kb runs itself and no shell ever sees.
 */
export function literalCommand(source: string): LiteralCommand {
  const parser = new Parser(source.slice(0, MAX_SHELL_LENGTH));
  const words = parser.list(false).flatMap((command) => command.words);
  return parser.evaluated === undefined ? { words } : { words, evaluated: parser.evaluated };
}

class Parser {
  #source: string;
  #pos = 0;
  #pending: PendingHeredoc[] = [];
  /** Words read so far, over all commands. */
  #words = 0;
  /** How many `$(…)` the parser is inside. */
  #depth = 0;
  /** The first character read that a shell would act on, as {@link EVALUATED} names it. */
  evaluated: string | undefined;

  constructor(source: string) {
    this.#source = source;
  }

  /** Commands up to the end, or up to an unmatched `)` when `nested`. */
  list(nested: boolean): ShellCommand[] {
    const commands: ShellCommand[] = [];
    let current: ShellCommand = { words: [], heredocs: [] };
    const finish = () => {
      if (current.words.length) commands.push(current);
      current = { words: [], heredocs: [] };
    };
    const src = this.#source;
    while (this.#pos < src.length) {
      const char = src[this.#pos];
      if (char === "\n") {
        this.#evaluates(char);
        this.#pos++;
        this.#readHeredocBodies();
        finish();
      } else if (/\s/.test(char)) {
        this.#pos++;
      } else if (char === "\\" && src[this.#pos + 1] === "\n") {
        this.#pos += 2;
      } else if (char === "#") {
        while (this.#pos < src.length && src[this.#pos] !== "\n") this.#pos++;
      } else if (char === ")" && nested) {
        this.#pos++;
        break;
      } else if (char === "&" && src[this.#pos + 1] === ">") {
        this.#evaluates(">");
        this.#pos++;
        this.#redirection(current);
      } else if (SEPARATORS.has(char)) {
        this.#evaluates(char);
        this.#pos++;
        finish();
      } else if (char === "<" || char === ">") {
        this.#evaluates(char);
        this.#redirection(current);
      } else {
        const word = this.#word();
        const next = src[this.#pos];
        // `2>file`, `0<file`: a file descriptor number, not a word.
        if (/^\d+$/.test(word) && (next === "<" || next === ">")) continue;
        current.words.push(word);
        if (++this.#words >= MAX_SHELL_WORDS) this.#pos = src.length;
      }
    }
    finish();
    return commands;
  }

  /** Note `char`, which a shell acts on, unless something earlier was noted. */
  #evaluates(char: string): void {
    this.evaluated ??= EVALUATED[char];
  }

  #redirection(command: ShellCommand): void {
    const src = this.#source;
    if (src.startsWith("<<<", this.#pos)) {
      this.#pos += 3;
      this.#skipBlanks();
      command.heredocs.push(this.#word() + "\n");
      return;
    }
    if (src.startsWith("<<", this.#pos)) {
      this.#pos += 2;
      const stripTabs = src[this.#pos] === "-";
      if (stripTabs) this.#pos++;
      this.#skipBlanks();
      this.#pending.push({ delimiter: this.#word(), stripTabs, target: command });
      return;
    }
    // `>`, `>>`, `<`, `>&`, `<&`, `>|`, `<>`: skip the operator, then its target word.
    this.#pos++;
    while (this.#pos < src.length && "<>&|".includes(src[this.#pos])) this.#pos++;
    this.#skipBlanks();
    if (this.#pos < src.length && !endsWord(src[this.#pos])) this.#word();
  }

  #skipBlanks(): void {
    const src = this.#source;
    while (this.#pos < src.length && (src[this.#pos] === " " || src[this.#pos] === "\t")) {
      this.#pos++;
    }
  }

  /** Read the bodies of the here-documents opened on the line that just ended. */
  #readHeredocBodies(): void {
    const src = this.#source;
    for (const { delimiter, stripTabs, target } of this.#pending.splice(0)) {
      const lines: string[] = [];
      while (this.#pos < src.length) {
        const end = src.indexOf("\n", this.#pos);
        const stop = end === -1 ? src.length : end;
        let line = src.slice(this.#pos, stop);
        this.#pos = end === -1 ? src.length : end + 1;
        if (stripTabs) line = line.replace(/^\t+/, "");
        if (line === delimiter) break;
        lines.push(line);
      }
      target.heredocs.push(lines.length ? lines.join("\n") + "\n" : "");
    }
  }

  /** One word, quotes removed; stops at unquoted blanks and operators. */
  #word(): string {
    const src = this.#source;
    let word = "";
    if (src[this.#pos] === "~") this.#evaluates("~");
    while (this.#pos < src.length && !endsWord(src[this.#pos])) {
      const char = src[this.#pos];
      if (char === "\\") {
        const next = src[this.#pos + 1];
        this.#pos += 2;
        if (next !== undefined && next !== "\n") word += next;
      } else if (char === "'") {
        const end = src.indexOf("'", this.#pos + 1);
        if (end === -1) this.#evaluates(char);
        const stop = end === -1 ? src.length : end;
        word += src.slice(this.#pos + 1, stop);
        this.#pos = stop + 1;
      } else if (char === '"') {
        this.#pos++;
        word += this.#doubleQuoted();
      } else if (char === "$" && src[this.#pos + 1] === "'") {
        this.#evaluates(char);
        this.#pos += 2;
        word += this.#ansiQuoted();
      } else if (char === "$" && src[this.#pos + 1] === '"') {
        this.#evaluates(char);
        this.#pos += 2;
        word += this.#doubleQuoted();
      } else if (char === "$" || char === "`") {
        word += this.#dollarOrBacktick();
      } else {
        if (char === "*" || char === "?" || char === "[") this.#evaluates(char);
        word += char;
        this.#pos++;
      }
    }
    return word;
  }

  /** The inside of `"…"`, from after the opening quote through the closing one. */
  #doubleQuoted(): string {
    const src = this.#source;
    let text = "";
    while (this.#pos < src.length && src[this.#pos] !== '"') {
      const char = src[this.#pos];
      if (char === "\\") {
        const next = src[this.#pos + 1];
        this.#pos += 2;
        if (next === "\n") continue;
        text += next !== undefined && '$`"\\'.includes(next) ? next : char + (next ?? "");
      } else if (char === "$" || char === "`") {
        text += this.#dollarOrBacktick();
      } else {
        text += char;
        this.#pos++;
      }
    }
    if (this.#pos >= src.length) this.#evaluates('"');
    this.#pos++;
    return text;
  }

  /** The inside of `$'…'`, with its backslash escapes applied. */
  #ansiQuoted(): string {
    const src = this.#source;
    const escapes: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\", "'": "'" };
    let text = "";
    while (this.#pos < src.length && src[this.#pos] !== "'") {
      if (src[this.#pos] === "\\" && this.#pos + 1 < src.length) {
        const next = src[this.#pos + 1];
        text += escapes[next] ?? next;
        this.#pos += 2;
      } else {
        text += src[this.#pos++];
      }
    }
    this.#pos++;
    return text;
  }

  /** Skip past the `)` that closes the parenthesis just read, counting the ones between. */
  #skipParenthesized(): void {
    const src = this.#source;
    let open = 1;
    while (this.#pos < src.length && open > 0) {
      const char = src[this.#pos++];
      if (char === "(") open++;
      else if (char === ")") open--;
    }
  }

  /**
   * `$(…)` (a here-document fed to `cat` becomes its text), `${…}`, `` `…` `` (kept as
   * written), or a lone `$`.
   */
  #dollarOrBacktick(): string {
    const src = this.#source;
    const start = this.#pos;
    this.#evaluates(src[start]);
    if (src.startsWith("$(", start) && src[start + 2] !== "(") {
      this.#pos += 2;
      if (this.#depth >= MAX_SHELL_NESTING) {
        this.#skipParenthesized();
        return src.slice(start, this.#pos);
      }
      this.#depth++;
      const inner = this.list(true);
      this.#depth--;
      const only = inner.length === 1 ? inner[0] : undefined;
      const isCat = only?.words[0] === "cat" &&
        only.words.every((word, index) => index === 0 || word === "-");
      if (isCat && only.heredocs.length === 1) return only.heredocs[0].replace(/\n+$/, "");
      return src.slice(start, this.#pos);
    }
    const [open, close] = src[start] === "`"
      ? ["`", "`"]
      : src.startsWith("${", start)
      ? ["${", "}"]
      : src.startsWith("$((", start)
      ? ["$((", "))"]
      : ["$", ""];
    if (!close) {
      this.#pos++;
      return "$";
    }
    const end = src.indexOf(close, start + open.length);
    this.#pos = end === -1 ? src.length : end + close.length;
    return src.slice(start, this.#pos);
  }
}
