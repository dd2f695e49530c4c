/** run-qa's progress on a terminal: a line printed while the live line is up gets a line of its own. */

import { progressReporter } from "../../../lib/commands/_run_qa_progress.ts";
import { assertEquals } from "../../helpers/assert.ts";

Deno.test("Ctrl-C's message ends the live progress line first, so the two never share a line", () => {
  const shown: string[] = [];
  const io = {
    out: () => {},
    err: (line: string) => shown.push(`err: ${line}`),
    env: () => undefined,
    live: { update: (text: string) => shown.push(`live: ${text}`), done: () => shown.push("done") },
  };
  const progress = progressReporter(io, () => 0);
  progress.onEvent({ kind: "answered", rowId: "r1", attempts: 1, tokens: 10, done: 1, toCall: 2 });
  progress.note("interrupted: stopping");
  progress.onEvent({ kind: "answered", rowId: "r2", attempts: 1, tokens: 10, done: 2, toCall: 2 });
  progress.end();
  assertEquals(shown.map((line) => line.split(" · ")[0]), [
    "live: answered 1/2",
    "done",
    "err: interrupted: stopping",
    "live: answered 2/2",
    "done",
  ]);
});
