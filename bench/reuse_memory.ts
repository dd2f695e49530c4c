// Peak memory of `run-qa --reuse` over 1, 10 and 30 sources, each a graded run near the one-pipeline cap (90
// answers of about 480 KB: some 43 MB of responses and 43 MB of qa.rows.jsonl). One source is answered by a
// server on 127.0.0.1 and graded on the fixture protocol (tests/golden/fixture); the others are copies of it
// (each is proved on its own: verify, then every answer against its grade). Each new run takes all 90 answers
// from the first source and calls nothing; the figure is the child's peak RSS (`/usr/bin/time -f %M`).
// Run: deno task bench:reuse-memory
import denoConfig from "../deno.json" with { type: "json" };

import { DATASET, PROTOCOL_FLAGS, ROOT } from "./_fixture.ts";

const ANSWER_BYTES = 480_000;
const COUNTS = [1, 10, 30];

/** A task's `deno run` flags, as `deno task NAME` runs it. */
function taskFlags(name: keyof typeof denoConfig.tasks): string[] {
  const task = denoConfig.tasks[name].split(/\s+/);
  return task.slice(task.indexOf("run") + 1, task.indexOf("cli.ts")).filter((word) => word.startsWith("--"));
}

let calls = 0;
const controller = new AbortController();
const answer = "7 weeks " + "x".repeat(ANSWER_BYTES - 8);
const server = Deno.serve(
  { hostname: "127.0.0.1", port: 0, signal: controller.signal, onListen: () => {} },
  async (request) => {
    calls++;
    await request.body?.cancel();
    return Response.json({
      model: "bench",
      choices: [{ index: 0, message: { role: "assistant", content: answer }, finish_reason: "stop" }],
      usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
    });
  },
);
const env = {
  DENO_NO_UPDATE_CHECK: "1",
  DEERMEM_EVAL_ANSWER_API_KEY: "sk-bench-0123456789abcdef",
  DEERMEM_EVAL_ANSWER_BASE_URL: `http://127.0.0.1:${server.addr.port}/v1`,
};

/** Runs a command of the program under `/usr/bin/time`; its output and peak RSS in MB. */
async function cli(task: "run-qa" | "cli", args: string[]): Promise<{ stdout: string; peakMb: number }> {
  const output = await new Deno.Command("/usr/bin/time", {
    args: ["-f", "PEAK %M", "deno", "run", ...taskFlags(task), `${ROOT}cli.ts`, ...args],
    env,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(output.stderr);
  if (!output.success) throw new Error(`${args.join(" ")}: ${stderr}`);
  const peak = stderr.split("\n").findLast((line) => line.startsWith("PEAK "));
  return { stdout: new TextDecoder().decode(output.stdout), peakMb: Number(peak?.slice(5) ?? 0) / 1000 };
}

async function sizeMb(directory: string): Promise<number> {
  let bytes = 0;
  for (const sub of [directory, `${directory}/responses`]) {
    for await (const entry of Deno.readDir(sub)) {
      if (entry.isFile) bytes += (await Deno.stat(`${sub}/${entry.name}`)).size;
    }
  }
  return bytes / 1e6;
}

const work = await Deno.makeTempDir({ prefix: "deermem-eval-bench-reuse-" });
try {
  const first = `${work}/source-0`;
  const base = ["--dataset", DATASET, ...PROTOCOL_FLAGS];
  await cli("run-qa", ["run-qa", ...base, "--output-dir", first]);
  await cli("cli", ["grade-qa", ...base, "--output-dir", first]);
  const sources = [first];
  for (let index = 1; index < Math.max(...COUNTS); index++) {
    const copy = `${work}/source-${index}`;
    const cp = await new Deno.Command("cp", { args: ["-r", first, copy] }).output();
    if (!cp.success) throw new Error(`cp: ${new TextDecoder().decode(cp.stderr)}`);
    sources.push(copy);
  }
  console.log(
    `each source: ${(await sizeMb(first)).toFixed(1)} MB (90 answers of ${ANSWER_BYTES} bytes, graded)`,
  );
  for (const count of COUNTS) {
    const before = calls;
    const args = ["run-qa", ...base, "--output-dir", `${work}/new-${count}`];
    const { stdout, peakMb } = await cli("run-qa", [...args, "--reuse", sources.slice(0, count).join(",")]);
    const summary = stdout.split("\n").find((line) => line.includes("answer rows:"))?.trim() ?? "?";
    console.log(
      `${String(count).padStart(2)} source(s): peak RSS ${peakMb.toFixed(0)} MB; ${summary}; ${
        calls - before
      } calls`,
    );
  }
} finally {
  controller.abort();
  await server.finished;
  await Deno.remove(work, { recursive: true });
}
