/** run-qa on the fixture protocol against a server started here on 127.0.0.1, for the cost, reuse and many-candidates tests. */

import { completion, startAnswerServer } from "./answer_server.ts";
import { fixtureProtocolFlags, runCli, taskFlags, withFlags } from "./cli.ts";
import { FIXTURE_DATASET } from "./fixture.ts";

const KEY = "sk-deermem-test-7f3a91c2e4";

/** `run-qa` into `directory` at `baseUrl`, as its task runs it. */
export function runQa(
  directory: string,
  baseUrl: string,
  extra: string[],
  protocol = fixtureProtocolFlags(),
) {
  return runCli(
    ["run-qa", ...withFlags(["--dataset", FIXTURE_DATASET, "--output-dir", directory, ...protocol], extra)],
    {
      flags: taskFlags("run-qa"),
      env: { DEERMEM_EVAL_ANSWER_API_KEY: KEY, DEERMEM_EVAL_ANSWER_BASE_URL: baseUrl },
    },
  );
}

/** Answers "7 weeks" when the memory mentions weeks, else INSUFFICIENT: policies then differ. */
export function answerServer() {
  return startAnswerServer((request) => {
    const text = JSON.stringify(request.body.messages);
    return completion(/week/i.test(text) ? "7 weeks" : "INSUFFICIENT");
  });
}
