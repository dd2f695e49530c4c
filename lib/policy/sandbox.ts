/**
 * The sandbox a policy module runs in: a child `deno run` granted nothing — no read, write, net, env, run, ffi
 * or sys, no remote or npm code, no config — with a V8 heap limit and a bound on its whole writable memory, in
 * `/` with a fresh Deno dir removed after, fed the module's bytes and one case at a time on stdin, its answers
 * read back as data (their nesting checked before they are parsed) under a per-case time limit, and killed.
 *
 * A child process rather than a Worker with `permissions: "none"`: measured, a worker's heap exhaustion aborts
 * the whole host (SIGTRAP after 4 GB, C stack trace), and such a worker may still import local files.
 *
 * @module
 */

import { decodeForSearch, decodeStrictUtf8, IoError } from "../base/mod.ts";
import { SANDBOX_LIMITS } from "./limits.ts";
import { PolicyModuleError } from "./errors.ts";
import { checkJsonLimits, JSON_LIMITS } from "../py/mod.ts";
import type { PolicyInput } from "./contract.ts";
import { printable, sandboxReplacer, sandboxReviver } from "./_sandbox_codec.ts";
import { sandboxProgramUrl } from "./_sandbox_child.ts";
import { POLICY_MEMORY_BOUND, sandboxCommand } from "./_sandbox_command.ts";
import { whileOpen } from "./_sandbox_signals.ts";

export { POLICY_MEMORY_BOUND } from "./_sandbox_command.ts";

/** The default per-case time limit, in seconds. */
export const DEFAULT_POLICY_TIME_LIMIT_SECONDS: number = SANDBOX_LIMITS.defaultSecondsPerCase;
/** How long the child `deno` may take to start, before the module's clock runs. */
const START_LIMIT_MS = SANDBOX_LIMITS.startSeconds * 1000;

/** The module as the sandbox takes it: the bytes that were hashed, and how to refer to it in messages. */
export interface SandboxModule {
  /** The module's source bytes, read once. */
  readonly source: Uint8Array;
  /** `application/typescript` or `application/javascript`. */
  readonly mediaType: string;
  /** The path as given, for messages. */
  readonly origin: string;
  /** The per-case time limit, in seconds. */
  readonly timeLimitSeconds: number;
}

/** What the module's default export showed of itself, as data. */
export interface SandboxLoaded {
  /** Its `name` (anything: the caller checks it). */
  readonly name: unknown;
  /** Whether its `select` is a function. */
  readonly select: boolean;
}

/** One call of `select`: what it returned, or the first line of what it threw. */
export type SelectOutcome = { readonly output: unknown } | { readonly threw: string };

function base64(bytes: Uint8Array): string {
  let binary = "";
  for (let start = 0; start < bytes.length; start += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(start, start + 0x8000));
  }
  return btoa(binary);
}

/** The sandbox was killed by someone else: the module is not at fault, so loading it is tried again. */
class EndedFromOutside extends PolicyModuleError {}

/** A running sandbox holding one module; {@linkcode PolicySandbox.close} kills it. */
export class PolicySandbox {
  readonly #module: SandboxModule;
  readonly #child: Deno.ChildProcess;
  readonly #stdin: WritableStreamDefaultWriter<Uint8Array>;
  readonly #stdout: ReadableStreamDefaultReader<Uint8Array>;
  readonly #stderr: Promise<string>;
  readonly #directory: string;
  readonly #untrack: () => void;
  /** What was read after the last line taken; only the last piece may hold a newline. */
  #pieces: Uint8Array[] = [];
  #piecesSize = 0;
  #closed = false;

  private constructor(module: SandboxModule, child: Deno.ChildProcess, directory: string) {
    this.#module = module;
    this.#child = child;
    this.#directory = directory;
    this.#untrack = whileOpen({ kill: () => this.#kill(), directory });
    this.#stdin = child.stdin.getWriter();
    this.#stdout = child.stdout.getReader();
    this.#stderr = readCapped(child.stderr);
  }

  /**
   * Starts a sandbox and loads the module in it; the caller must {@linkcode PolicySandbox.close} it.
   *
   * @throws {PolicyModuleError} When the sandbox cannot start or the module does not load in time.
   */
  static async open(module: SandboxModule): Promise<{ sandbox: PolicySandbox; loaded: SandboxLoaded }> {
    try {
      return await PolicySandbox.#start(module);
    } catch (error) {
      // A signal this program did not send is the machine's doing, not the module's: start once more.
      if (!(error instanceof EndedFromOutside)) throw error;
      return await PolicySandbox.#start(module);
    }
  }

  static async #start(module: SandboxModule): Promise<{ sandbox: PolicySandbox; loaded: SandboxLoaded }> {
    const [program, args] = await sandboxCommand(sandboxProgramUrl(), module.origin);
    const directory = await Deno.makeTempDir({ prefix: "deermem-eval-sandbox-" }).catch((error) => {
      throw new IoError("create a temporary directory", "the system's temporary directory", error);
    });
    let child: Deno.ChildProcess;
    try {
      child = new Deno.Command(program, {
        args,
        cwd: "/",
        clearEnv: true,
        env: { DENO_DIR: directory, DENO_NO_UPDATE_CHECK: "1", NO_COLOR: "1" },
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
      }).spawn();
    } catch (error) {
      await Deno.remove(directory, { recursive: true }).catch(() => {});
      throw new PolicyModuleError(`cannot start the sandbox (${program}): ${printable(String(error))}`, {
        path: module.origin,
      });
    }
    const sandbox = new PolicySandbox(module, child, directory);
    try {
      const ready = await sandbox.#answer("cannot load the module", START_LIMIT_MS);
      if (ready.ready !== Deno.version.deno) {
        sandbox.#refuse(
          "cannot load the module",
          `the sandbox's deno is ${printable(String(ready.ready))}, not this program's ${Deno.version.deno}`,
        );
      }
      const encoded = new TextEncoder().encode(
        `${JSON.stringify({ source: base64(module.source), mediaType: module.mediaType })}\n`,
      );
      await sandbox.#send(encoded);
      const answer = await sandbox.#answer("cannot load the module", module.timeLimitSeconds * 1000);
      const loaded = answer.loaded as SandboxLoaded | undefined;
      if (loaded === null || typeof loaded !== "object") {
        sandbox.#refuse("cannot load the module", "no answer");
      }
      return { sandbox, loaded: { name: loaded!.name, select: loaded!.select === true } };
    } catch (error) {
      await sandbox.close();
      throw error;
    }
  }

  /**
   * Asks the module to decide one case, twice (the second only when the first did not throw).
   *
   * @throws {PolicyModuleError} When the module exceeds its limits or ends its sandbox, naming `where`.
   */
  async decide(input: PolicyInput, where: string): Promise<SelectOutcome[]> {
    await this.#send(new TextEncoder().encode(`${JSON.stringify(input, sandboxReplacer)}\n`));
    const answer = await this.#answer(where, this.#module.timeLimitSeconds * 1000);
    const outcomes = answer.outcomes;
    if (!Array.isArray(outcomes) || outcomes.length < 1 || outcomes.length > 2) {
      return this.#refuse(where, "its sandbox sent a malformed answer");
    }
    return outcomes.map((outcome): SelectOutcome => {
      if (outcome === null || typeof outcome !== "object" || typeof outcome.threw !== "string") {
        return { output: outcome?.output };
      }
      if (outOfMemory(outcome.threw)) {
        this.#refuse(where, `ran out of memory (the limit is ${POLICY_MEMORY_BOUND})`);
      }
      return { threw: printable(this.#located(outcome.threw)) };
    });
  }

  /** Kills the child, waits for it and removes its directory: nothing of the module outlives this. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#kill();
    await this.#child.status;
    await this.#stdin.close().catch(() => {});
    await this.#stdout.cancel().catch(() => {});
    await this.#stderr;
    await Deno.remove(this.#directory, { recursive: true }).catch(() => {});
    this.#untrack();
  }

  #kill(): void {
    try {
      this.#child.kill("SIGKILL");
    } catch {
      // Already exited.
    }
  }

  #refuse(where: string, message: string): never {
    const field = where.startsWith("case ") ? where : undefined;
    const text = field === undefined ? `${where}: ${message}` : message;
    throw new PolicyModuleError(text, { path: this.#module.origin, field });
  }

  async #send(bytes: Uint8Array): Promise<void> {
    try {
      await this.#stdin.write(bytes);
    } catch {
      // The child is gone; reading its answer says why.
    }
  }

  /** The next answer line, as data; refused when the time runs out, the child ends, or it reports an error. */
  async #answer(where: string, limitMs: number): Promise<Record<string, unknown>> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<"timeout">((resolve) =>
      timer = setTimeout(() => resolve("timeout"), limitMs)
    );
    try {
      const line = await Promise.race([this.#line(where), timeout]);
      if (line === "timeout") {
        await this.close();
        return this.#refuse(where, `did not finish within the time limit of ${limitMs / 1000} s`);
      }
      if (line === undefined) return this.#refuse(where, await this.#ending(where));
      let answer: unknown;
      try {
        answer = JSON.parse(line, sandboxReviver);
      } catch {
        return this.#refuse(where, "its sandbox sent a malformed answer");
      }
      if (answer === null || typeof answer !== "object" || Array.isArray(answer)) {
        return this.#refuse(where, "its sandbox sent a malformed answer");
      }
      const record = answer as Record<string, unknown>;
      if (typeof record.error === "string") {
        if (outOfMemory(record.error)) {
          return this.#refuse(where, `ran out of memory (the limit is ${POLICY_MEMORY_BOUND})`);
        }
        const message = printable(
          this.#located(record.error).replace(/data:[\w/+-]+(;base64)?,[^\s"')]*/g, "the module"),
        );
        return this.#refuse(where, message);
      }
      return record;
    } finally {
      clearTimeout(timer);
    }
  }

  /** The child's message with the module's file in place of the marker before a line and column. */
  #located(message: string): string {
    return message.replaceAll("\u0000module:", `${this.#module.origin}:`);
  }

  /**
   * Why the child ended without answering: its memory limit, the module ending it, or a SIGKILL from outside
   * (the module has no permission to send one, and this program sends it only after a limit, saying which).
   */
  async #ending(where: string): Promise<string> {
    const status = await this.#child.status;
    const stderr = await this.#stderr;
    if (
      /out of memory|heap limit/i.test(stderr) || status.signal === "SIGTRAP" || status.signal === "SIGABRT"
    ) {
      return `ran out of memory (the limit is ${POLICY_MEMORY_BOUND})`;
    }
    if (status.signal === "SIGKILL" && !this.#closed) {
      throw new EndedFromOutside(
        `${where}: its sandbox was ended by a SIGKILL from outside this program, not by a limit of the ` +
          "module's (the system may be short of memory); run it again",
        { path: this.#module.origin },
      );
    }
    const how = status.signal === null ? `exit code ${status.code}` : `signal ${status.signal}`;
    return `ended its sandbox (${how}) without answering`;
  }

  /** The next line of the child's stdout, or `undefined` at its end; a line over the cap is refused. */
  async #line(where: string): Promise<string | undefined> {
    for (;;) {
      const last = this.#pieces.at(-1);
      const end = last === undefined ? -1 : last.indexOf(10);
      if (end >= 0) {
        const bytes = concatenate([...this.#pieces.slice(0, -1), last!.subarray(0, end)]);
        const rest = last!.subarray(end + 1);
        this.#pieces = rest.length > 0 ? [rest] : [];
        this.#piecesSize = rest.length;
        return await this.#decode(bytes, where);
      }
      if (this.#piecesSize > SANDBOX_LIMITS.answerLineBytes) {
        await this.close();
        return this.#refuse(
          where,
          `its sandbox sent an answer over ${SANDBOX_LIMITS.answerLineBytes >> 20} MiB`,
        );
      }
      const { value, done } = await this.#stdout.read().catch(() => ({ value: undefined, done: true }));
      if (done || value === undefined) return undefined;
      this.#pieces.push(value);
      this.#piecesSize += value.length;
    }
  }

  /** One answer line as text: refused when nested or numerous past the JSON limits, or not UTF-8. */
  async #decode(bytes: Uint8Array, where: string): Promise<string> {
    try {
      checkJsonLimits(bytes, JSON_LIMITS);
    } catch (error) {
      await this.close();
      const limit = (error as Error).message.replace(/: at byte offset \d+$/, "");
      return this.#refuse(where, `its sandbox sent an answer ${limit}`);
    }
    try {
      return decodeStrictUtf8(bytes);
    } catch {
      await this.close();
      return this.#refuse(where, "its sandbox sent an answer that is not UTF-8");
    }
  }
}

/** The pieces as one array, copied once. */
function concatenate(pieces: Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(pieces.reduce((size, piece) => size + piece.length, 0));
  let offset = 0;
  for (const piece of pieces) {
    joined.set(piece, offset);
    offset += piece.length;
  }
  return joined;
}

/** Whether a module's error is the memory bound refusing an allocation off the V8 heap. */
function outOfMemory(text: string): boolean {
  return /^RangeError: (Array buffer allocation failed|.*\b(Out of memory|could not allocate memory))/i.test(
    text,
  );
}

/** The first 64 KiB of a stream as text (the rest drained), so a chatty child cannot fill the host's memory. */
async function readCapped(stream: ReadableStream<Uint8Array>): Promise<string> {
  const kept: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of stream) {
      if (size < 65536) kept.push(chunk.subarray(0, 65536 - size));
      size += chunk.length;
    }
  } catch {
    // Killed mid-read: what was read is enough.
  }
  const bytes = new Uint8Array(Math.min(size, 65536));
  let offset = 0;
  for (const chunk of kept) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  // Only searched for the reason the child ended, never printed: a broken sequence may stay broken.
  return decodeForSearch(bytes);
}
