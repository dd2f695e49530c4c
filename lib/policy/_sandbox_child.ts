/**
 * The sandbox's own program: the child `deno run` with no permission starts it from a data: URL, takes the
 * module's bytes on stdin, imports them from a data: URL and answers one case per line on stdout.
 *
 * @module
 */

import { sandboxReplacer, sandboxReviver } from "./_sandbox_codec.ts";

type Codec = (key: string, value: unknown) => unknown;

/** Runs in the child; self-contained (its source is what runs), taking what it needs before the module runs. */
async function sandboxMain(replacer: Codec, reviver: Codec): Promise<void> {
  const stringify = JSON.stringify, parse = JSON.parse, freeze = Object.freeze, values = Object.values;
  const encoder = new TextEncoder();
  const encode = TextEncoder.prototype.encode.bind(encoder);
  const stdout = Deno.stdout, writeSync = Deno.stdout.writeSync.bind(stdout), exit = Deno.exit;
  const write = (message: unknown): void => {
    const bytes = encode(`${stringify(message, replacer)}\n`);
    for (let done = 0; done < bytes.length;) done += writeSync(bytes.subarray(done));
  };
  const describe = (error: unknown): string =>
    `${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`.split("\n")[0];
  const fail = (message: string): never => {
    write({ error: message });
    return exit(3);
  };
  globalThis.addEventListener("unhandledrejection", (event) => {
    event.preventDefault();
    fail(`an unhandled promise rejection: ${describe(event.reason)}`);
  });
  globalThis.addEventListener("error", (event) => {
    event.preventDefault();
    fail(`an uncaught exception: ${describe(event.error)}`);
  });
  for (const name of ["log", "info", "debug", "warn", "error", "trace", "dir", "table"] as const) {
    console[name] = () => {}; // the module's console goes nowhere: stdout is the answers' channel
  }
  setInterval(() => {}, 1 << 30); // a module's never-settling await meets the host's time limit, not an exit
  const lines = Deno.stdin.readable.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  const nextLine = async (): Promise<string> => {
    for (;;) {
      const end = buffered.indexOf("\n");
      if (end >= 0) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 1);
        return line;
      }
      const { value, done } = await lines.read();
      if (done) return exit(0);
      buffered += value;
    }
  };
  const deepFreeze = (item: unknown): unknown => {
    if (item !== null && typeof item === "object") {
      freeze(item);
      for (const child of values(item)) deepFreeze(child);
    }
    return item;
  };
  write({ ready: Deno.version.deno });
  const { source, mediaType } = parse(await nextLine());
  let policy: { name?: unknown; select?: unknown } | undefined;
  try {
    policy = (await import(`data:${mediaType};base64,${source}`)).default;
  } catch (error) {
    fail(describe(error));
  }
  await new Promise((resolve) => setTimeout(resolve, 0)); // a rejection left at load time surfaces now
  const select = policy?.select;
  write({ loaded: { name: policy?.name, select: typeof select === "function" } });
  for (;;) {
    const line = await nextLine();
    const run = (): { output?: unknown; threw?: string } => {
      try {
        return { output: (select as (input: unknown) => unknown).call(policy, deepFreeze(parse(line, reviver))) };
      } catch (error) {
        return { threw: describe(error) };
      }
    };
    const first = run(); // asked twice, each time on its own frozen copy, to prove it deterministic
    write({ outcomes: first.threw === undefined ? [first, run()] : [first] });
  }
}

/** The child's program as a data: URL. */
export function sandboxProgramUrl(): string {
  const program = `(${sandboxMain})(${sandboxReplacer}, ${sandboxReviver});\n`;
  return `data:application/javascript,${encodeURIComponent(program)}`;
}
