// run-qa against a hostile OpenAI-compatible server on 127.0.0.1: the fixture's 90 rows with 64 workers (a
// config with `qa.workers: 64` and `qa.timeout_seconds: 3`, written beside the run), once per kind of answer —
// honest (the baseline), 4 MiB answers (the largest the cap allows), 4 MB of `[`×2e6 `]`×2e6, 4 MiB of `[{},{},…]`,
// gzip and brotli bombs (64 MiB of zeros in ~64 KiB or ~50 bytes), bodies that never end, and all of them mixed.
// run-qa runs as `deno task run-qa` runs it (its flags, its own process); for each kind this prints the exit
// code, the wall time, the process's peak resident memory (Linux's VmHWM) and the lines it printed, each row id
// shown as <row> and counted. Goal: every kind ends, in one line per row, under 1 GB.
// Run: deno task bench:hostile-server (all permissions: Deno lets only such a process read /proc/<pid>/status)
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import denoConfig from "../deno.json" with { type: "json" };

const ROOT = new URL("../", import.meta.url).pathname;
const PROTOCOL = `${ROOT}tests/golden/fixture/protocol`;
const DATASET = `${ROOT}tests/golden/fixture/longmemeval-fixture.json`;
const MIB = 1024 * 1024;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** run-qa's permission flags, as its task gives them. */
function runQaFlags(): string[] {
  const words = denoConfig.tasks["run-qa"].split(/\s+/);
  return words.slice(words.indexOf("run") + 1, words.indexOf("cli.ts")).filter((word) =>
    word.startsWith("--")
  );
}

const json = { "content-type": "application/json" };
const completion = (content: string) =>
  JSON.stringify({
    model: "hostile",
    choices: [{ index: 0, message: { role: "assistant", content } }],
    usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
  });
const honest = encoder.encode(completion("7"));
const largest = encoder.encode(completion("a".repeat(4 * MIB - 300)));
const nested = encoder.encode("[".repeat(2e6) + "]".repeat(2e6));
const wide = encoder.encode(`[${"{},".repeat(4 * MIB / 3 - 1)}{}]`);
const zeros = new Uint8Array(64 * MIB);
const gzip = new Uint8Array(gzipSync(zeros));
// A 16 MiB window: the most a brotli decoder may need per call.
const brotli = new Uint8Array(brotliCompressSync(zeros, { params: { [zlib.BROTLI_PARAM_LGWIN]: 24 } }));

/** A 200 whose body never ends: a first chunk, then a byte every 100 ms until the client lets go. */
function neverEnding(): Response {
  let timer: ReturnType<typeof setInterval> | undefined;
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode('{"choices":['));
      timer = setInterval(() => controller.enqueue(encoder.encode(" ")), 100);
    },
    cancel() {
      clearInterval(timer);
    },
  });
  return new Response(body, { headers: json });
}

const KINDS: Record<string, () => Response> = {
  "honest": () => new Response(honest, { headers: json }),
  "4 MiB answers": () => new Response(largest, { headers: json }),
  "[ x2e6 ] x2e6": () => new Response(nested, { headers: json }),
  "[{},{},...] 4 MiB": () => new Response(wide, { headers: json }),
  "gzip bomb": () => new Response(gzip, { headers: { ...json, "content-encoding": "gzip" } }),
  "brotli bomb": () => new Response(brotli, { headers: { ...json, "content-encoding": "br" } }),
  "never-ending body": neverEnding,
};
let served = 0;
const mixed = Object.values(KINDS).slice(1);
KINDS["all mixed"] = () => mixed[served++ % mixed.length]();

async function configWith(directory: string, replace: Record<string, string>): Promise<string> {
  let text = await Deno.readTextFile(`${PROTOCOL}/config.yaml`);
  for (const [key, value] of Object.entries(replace)) {
    text = text.replace(new RegExp(`^  ${key}: .*$`, "m"), `  ${key}: ${value}`);
  }
  await Deno.writeTextFile(`${directory}/config.yaml`, text);
  return `${directory}/config.yaml`;
}

/** The child's peak resident memory in MB so far (VmHWM), or undefined once it has gone. */
async function peakMb(pid: number): Promise<number | undefined> {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(await Deno.readTextFile(`/proc/${pid}/status`));
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** The lines printed, each row id (and progress count) generalised, with how often each came. */
function distinctLines(output: string): [string, number][] {
  const counts = new Map<string, number>();
  for (const line of output.split("\n").filter((line) => line.trim() !== "")) {
    const general = line.replace(/\[\d+\/\d+\]/, "[n/90]").replace(
      /\b(?:[0-9a-f]{8}|fixture_\w+?)__(?:confidence|hybrid-v1)\b/,
      "<row>",
    );
    counts.set(general, (counts.get(general) ?? 0) + 1);
  }
  return [...counts];
}

async function runKind(name: string, respond: () => Response, server: { url: string }, directory: string) {
  current = respond;
  const config = await configWith(directory, { workers: "64", timeout_seconds: "3" });
  const args = ["run-qa", "--dataset", DATASET, "--output-dir", `${directory}/run`];
  args.push("--config", config, "--official-manifest", `${PROTOCOL}/official.json`);
  args.push("--synthetic-manifest", `${PROTOCOL}/synthetic.json`);
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...runQaFlags(), `${ROOT}cli.ts`, ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1", DEERMEM_EVAL_ANSWER_API_KEY: "sk-bench", DEERMEM_EVAL_ANSWER_BASE_URL: server.url },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let peak = 0;
  let running = true;
  const sampling = (async () => {
    while (running) {
      peak = Math.max(peak, await peakMb(child.pid) ?? 0);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  })();
  const output = await child.output();
  running = false;
  await sampling;
  const seconds = (performance.now() - started) / 1000;
  // No reading at all means /proc was not readable (Deno needs --allow-all for it), not a process of 0 MB.
  const memory = peak === 0 ? "peak RSS not measured (/proc unreadable)" : `peak RSS ${peak.toFixed(0)} MB`;
  console.log(
    `\n${name}: exit ${output.code}, ${seconds.toFixed(1)} s, ${memory}${
      peak >= 1000 ? "  (over the 1 GB goal)" : ""
    }`,
  );
  for (const [line, count] of distinctLines(decoder.decode(output.stdout) + decoder.decode(output.stderr))) {
    console.log(`  ${String(count).padStart(3)} × ${line}`);
  }
}

let current: () => Response = KINDS.honest;
const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, async (request) => {
  await request.arrayBuffer();
  return current();
});
const url = `http://127.0.0.1:${server.addr.port}/v1`;
const only = Deno.args[0];
for (const [name, respond] of Object.entries(KINDS)) {
  if (only !== undefined && !name.includes(only)) continue;
  const directory = await Deno.makeTempDir({ prefix: "deermem-eval-hostile-" });
  try {
    await runKind(name, respond, { url }, directory);
  } finally {
    await Deno.remove(directory, { recursive: true });
  }
}
await server.shutdown();
