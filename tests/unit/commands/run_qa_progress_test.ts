/** run-qa's progress on a terminal: a line printed while the live line is up gets a line of its own. */

import { progressReporter } from "../../../lib/commands/_run_qa_progress.ts";
import type { RunEvent } from "../../../lib/qa/answer/answer_types.ts";
import type { AnswerTask } from "../../../lib/qa/run/tasks.ts";
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

/** The lines a reporter shows for `events`, on a terminal (`live`) or piped. */
function shownFor(events: readonly RunEvent[], live: boolean): string[] {
  const shown: string[] = [];
  const io = {
    out: () => {},
    err: (line: string) => shown.push(`err: ${line}`),
    env: () => undefined,
    live: live
      ? { update: (text: string) => shown.push(`live: ${text}`), done: () => shown.push("done") }
      : undefined,
  };
  const progress = progressReporter(io, () => 0);
  for (const event of events) progress.onEvent(event);
  progress.end();
  return shown;
}

/** Run `run` of `of` (no run for a one-run directory): planned, a stale row, a warning, answered, failed. */
function runEvents(epoch?: { run: number; of: number }): RunEvent[] {
  const on = epoch === undefined ? {} : { epoch };
  const task = { rowId: "q1__confidence" } as AnswerTask;
  return [
    {
      kind: "planned",
      total: 2,
      reuse: 0,
      toCall: 2,
      stale: [{ task, path: "x", state: "stale", reason: "bad" }],
      ...on,
    },
    { kind: "warning", message: "took over a stale lock", ...on },
    { kind: "answered", rowId: "q1__confidence", attempts: 1, tokens: 10, done: 1, toCall: 2, ...on },
    { kind: "failed", rowId: "q1__hybrid-v1", reason: "HTTP 500", done: 2, toCall: 2, ...on },
  ];
}

const ONE_RUN_PIPED = [
  "err: q1__confidence: stored row not reusable (bad); calling again",
  "err: 2 tasks: 0 stored rows reused, 2 to call",
  "err: warning: took over a stale lock",
  "err: [1/2] q1__confidence: answered (1 attempt, 10 tokens) · 0.0 s · – calls/s",
  "err: [2/2] q1__hybrid-v1: FAILED HTTP 500 · 0.0 s · – calls/s",
];

Deno.test("a one-run directory's progress lines are unchanged, byte for byte", () => {
  assertEquals(shownFor(runEvents(), false), ONE_RUN_PIPED);
  assertEquals(shownFor(runEvents(), true), [
    ...ONE_RUN_PIPED.slice(0, 3),
    "live: answered 1/2 · 0 failed · 10 tokens · 0.0 s · – calls/s",
    "live: answered 2/2 · 1 failed · 10 tokens · 0.0 s · – calls/s",
    "done",
  ]);
});

Deno.test("with K > 1 every progress line names its run (run r/K), and each run's live line is left as it ended", () => {
  assertEquals(
    shownFor(runEvents({ run: 2, of: 3 }), false),
    ONE_RUN_PIPED.map((line) => line.replace(/^err: /, "err: run 2/3: ")),
  );
  const live = shownFor([...runEvents({ run: 1, of: 3 }), ...runEvents({ run: 2, of: 3 })], true);
  assertEquals(live.slice(3, 7), [
    "live: run 1/3: answered 1/2 · 0 failed · 10 tokens · 0.0 s · – calls/s",
    "live: run 1/3: answered 2/2 · 1 failed · 10 tokens · 0.0 s · – calls/s",
    "done", // run 1's line stays on the screen before run 2's first line
    "err: run 2/3: q1__confidence: stored row not reusable (bad); calling again",
  ]);
  assertEquals(live.at(-2), "live: run 2/3: answered 2/2 · 1 failed · 10 tokens · 0.0 s · – calls/s");
});
