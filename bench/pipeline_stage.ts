// One stage of bench/pipeline.ts in its own process: loads the program named by PROGRAM (the shipped bundle or
// cli.ts) and runs its `main` (start-up excluded: the program is loaded before the clock starts) REPEAT times — the
// first run cold, as one invocation runs, the others warm — then prints one JSON line with each run's work time and
// the process's peak memory. For run-policy, each run writes into `<output-dir>/<run>` so no run refuses an
// earlier one's files.

// Deno lets only an all-permissions process open /proc/self/status; open it before `main` narrows permissions
// (it revokes the network), and re-read the open file afterwards.
let status: Deno.FsFile | undefined;
try {
  status = Deno.openSync("/proc/self/status");
} catch {
  // not Linux, or not started with --allow-all: fall back to the RSS at the end
}

type Main = (args: string[], io: unknown) => Promise<number>;
const program = Deno.env.get("PROGRAM") ?? new URL("../cli.ts", import.meta.url).href;
const { main } = await import(program) as { main: Main };
const repeat = Number(Deno.env.get("REPEAT") ?? "1");
const outputAt = Deno.args.indexOf("--output-dir");
const workMs: number[] = [];
for (let run = 0; run < repeat; run++) {
  const args = [...Deno.args];
  if (outputAt >= 0) args[outputAt + 1] = `${Deno.args[outputAt + 1]}/${run}`;
  const started = performance.now();
  const code = await main(args, {
    out: () => {},
    err: (line: string) => console.error(line),
    env: () => undefined,
  });
  workMs.push(performance.now() - started);
  if (code !== 0) Deno.exit(code);
}

/** Peak resident memory: Linux's high-water mark, else the RSS now. */
function peakMb(): number {
  if (status !== undefined) {
    const buffer = new Uint8Array(1 << 16);
    status.seekSync(0, Deno.SeekMode.Start);
    const size = status.readSync(buffer) ?? 0;
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(new TextDecoder().decode(buffer.subarray(0, size)));
    if (match) return Number(match[1]) / 1024;
  }
  return Deno.memoryUsage().rss / 2 ** 20;
}
console.log(JSON.stringify({ workMs, peakMb: peakMb() }));
