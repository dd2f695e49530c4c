/**
 * The sandbox's own program: the child `deno run` with no permission starts it from a data: URL, takes the
 * module's bytes on stdin, imports them from a data: URL and answers one case per line on stdout. Plain
 * JavaScript text, not a function's source: the bundler's minifier would make that refer to its helpers.
 *
 * @module
 */

/**
 * The program. It takes what it needs before the module runs (a module may patch any global), tags the values
 * JSON cannot hold as `_sandbox_codec.ts` does, sends the module's console nowhere (stdout carries the
 * answers), withholds what would hold memory off the V8 heap (WebAssembly, workers, shared buffers; a use is
 * refused by name), store data across runs (web storage and caches) or tell the host's paths and process (the
 * working directory, the executable, the pid; the runtime's internals, a way around all of it), keeps its
 * event loop alive (a never-settling await meets the host's time limit, not an exit), and
 * reports a rejection or exception left by the module as its error.
 */
const PROGRAM = String.raw`
const stringify = JSON.stringify, parse = JSON.parse, freeze = Object.freeze, values = Object.values;
const is = Object.is, isFinite = Number.isFinite, hasOwn = Object.hasOwn, keys = Object.keys;
const encoder = new TextEncoder();
const encode = TextEncoder.prototype.encode.bind(encoder);
const writeSync = Deno.stdout.writeSync.bind(Deno.stdout), exit = Deno.exit, version = Deno.version.deno;
const replacer = (_key, value) => {
  if (value === undefined) return { "\u0000": "undefined" };
  if (typeof value !== "number" || (isFinite(value) && !is(value, -0))) return value;
  return { "\u0000": is(value, -0) ? "-0" : String(value) };
};
const TAGS = { "undefined": undefined, "-0": -0, "NaN": NaN, "Infinity": Infinity, "-Infinity": -Infinity };
const reviver = (_key, value) => {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
  const tag = value["\u0000"];
  return keys(value).length === 1 && typeof tag === "string" && hasOwn(TAGS, tag) ? TAGS[tag] : value;
};
const write = (message) => {
  const bytes = encode(stringify(message, replacer) + "\n");
  for (let done = 0; done < bytes.length;) done += writeSync(bytes.subarray(done));
};
// The first position in the module's own data: URL; the host puts the module's file name in its place.
const moduleAt = /data:[\w/+.-]+;base64,[^\s)]*?:(\d+):(\d+)/;
const describe = (error) => {
  const isError = error instanceof Error;
  const message = String(isError ? error.message : error);
  // The loader wraps a parse error ("TypeError: SyntaxError: …"): it is the module's syntax error.
  const head = (isError && !message.startsWith("SyntaxError: ") ? error.name + ": " : "") + message;
  const at = moduleAt.exec((isError ? String(error.stack) : "") + "\n" + message);
  return head.split("\n")[0] + (at ? " at \u0000module:" + at[1] + ":" + at[2] : "");
};
const fail = (message) => {
  write({ error: message });
  exit(3);
};
globalThis.addEventListener("unhandledrejection", (event) => {
  event.preventDefault();
  fail("an unhandled promise rejection: " + describe(event.reason));
});
globalThis.addEventListener("error", (event) => {
  event.preventDefault();
  fail("an uncaught exception: " + describe(event.error));
});
for (const name of ["log", "info", "debug", "warn", "error", "trace", "dir", "table"]) console[name] = () => {};
const NotCapable = Deno.errors.NotCapable, defineProperty = Object.defineProperty;
const withhold = (object, key, what) => {
  const refuse = () => {
    throw new NotCapable(what + " is not available to a policy module");
  };
  defineProperty(object, key, { get: refuse, set: refuse, enumerable: false, configurable: false });
};
for (const name of ["WebAssembly", "Worker", "SharedArrayBuffer"]) withhold(globalThis, name, name);
for (const name of ["localStorage", "sessionStorage", "caches", "indexedDB"]) delete globalThis[name];
// process first: reaching it sets it up, which reads Deno.execPath (its own execPath and pid cannot be redefined).
for (const name of ["cwd", "chdir", "argv"]) withhold(process, name, "process." + name);
for (const name of ["cwd", "execPath", "pid", "ppid"]) withhold(Deno, name, "Deno." + name);
withhold(globalThis, "process", "process"); // its execPath cannot be withheld; node:process is mapped away
delete Deno[Deno.internal];
setInterval(() => {}, 1 << 30);
const reader = Deno.stdin.readable.pipeThrough(new TextDecoderStream()).getReader();
let buffered = "";
const nextLine = async () => {
  for (;;) {
    const end = buffered.indexOf("\n");
    if (end >= 0) {
      const line = buffered.slice(0, end);
      buffered = buffered.slice(end + 1);
      return line;
    }
    const { value, done } = await reader.read();
    if (done) exit(0);
    buffered += value;
  }
};
const deepFreeze = (item) => {
  if (item !== null && typeof item === "object") {
    freeze(item);
    for (const child of values(item)) deepFreeze(child);
  }
  return item;
};
write({ ready: version });
const { source, mediaType } = parse(await nextLine());
let policy;
try {
  policy = (await import("data:" + mediaType + ";base64," + source)).default;
} catch (error) {
  // The loader's refusals of an import, said as the rule they break (its own words kept after it).
  const refusedImport = /import access|--no-npm|--no-remote|relative URL|Module not found|Unsupported scheme|not in import map/;
  const text = describe(error);
  fail(
    refusedImport.test(text)
      ? "it imports code, and a policy module may import types only (" +
        String(error?.message ?? error).split("\n")[0] + ")"
      : text,
  );
}
await new Promise((resolve) => setTimeout(resolve, 0));
const select = policy?.select;
write({ loaded: { name: policy?.name, select: typeof select === "function" } });
for (;;) {
  const line = await nextLine();
  const run = () => {
    try {
      return { output: select.call(policy, deepFreeze(parse(line, reviver))) };
    } catch (error) {
      return { threw: describe(error) };
    }
  };
  const first = run();
  write({ outcomes: first.threw === undefined ? [first, run()] : [first] });
}
`;

/** The child's program as a data: URL. */
export function sandboxProgramUrl(): string {
  return `data:application/javascript,${encodeURIComponent(PROGRAM)}`;
}
