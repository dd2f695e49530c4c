// Calls made with and without answer reuse, on the fixture protocol (tests/golden/fixture), answered by a
// counting server on 127.0.0.1: a first candidate run (recency.ts against confidence), then a second candidate
// (oldest.ts) run twice — fresh, and with --reuse of the first. Prints the calls each made and how many the
// second candidate's requests were new. Run: deno task bench:reuse
import denoConfig from "../deno.json" with { type: "json" };

import { DATASET, PROTOCOL_FLAGS, ROOT } from "./_fixture.ts";

// run-qa as its task runs it (a policy module's sandbox gives up permissions, so one process a run).
const TASK = denoConfig.tasks["run-qa"].split(/\s+/);
const RUN_FLAGS = TASK.slice(TASK.indexOf("run") + 1, TASK.indexOf("cli.ts")).filter((word) =>
  word.startsWith("--")
);

let calls = 0;
const controller = new AbortController();
const server = Deno.serve(
  { hostname: "127.0.0.1", port: 0, signal: controller.signal, onListen: () => {} },
  async (request) => {
    calls++;
    const body = await request.json();
    const content = /week/i.test(JSON.stringify(body.messages)) ? "7 weeks" : "INSUFFICIENT";
    return Response.json({
      model: "bench",
      choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
      usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 },
    });
  },
);
const baseUrl = `http://127.0.0.1:${server.addr.port}/v1`;
async function run(directory: string, policy: string, reuse: string[] = []): Promise<number> {
  const before = calls;
  const args = [...RUN_FLAGS, `${ROOT}cli.ts`, "run-qa", "--dataset", DATASET, "--output-dir", directory];
  args.push(...PROTOCOL_FLAGS, "--policy-module", `${ROOT}tests/fixtures/policies/${policy}`);
  // The sources are not graded: the bench counts calls, so it takes their answers unproved, by the flag.
  if (reuse.length > 0) args.push("--reuse", reuse.join(","), "--reuse-ungraded");
  const output = await new Deno.Command("deno", {
    args: ["run", ...args],
    env: {
      DENO_NO_UPDATE_CHECK: "1",
      DEERMEM_EVAL_ANSWER_API_KEY: "sk-bench-0123456789abcdef",
      DEERMEM_EVAL_ANSWER_BASE_URL: baseUrl,
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!output.success) throw new Error(`${directory}: ${new TextDecoder().decode(output.stderr)}`);
  return calls - before;
}

const work = await Deno.makeTempDir();
try {
  const first = await run(`${work}/recency`, "recency.ts");
  const fresh = await run(`${work}/oldest-fresh`, "oldest.ts");
  const reused = await run(`${work}/oldest-reused`, "oldest.ts", [`${work}/recency`]);
  console.log(`first candidate (recency.ts):        ${first} calls`);
  console.log(`second candidate (oldest.ts), fresh:  ${fresh} calls`);
  console.log(`second candidate, --reuse the first:  ${reused} calls (${fresh - reused} saved)`);
} finally {
  controller.abort();
  await server.finished;
  await Deno.remove(work, { recursive: true });
}
