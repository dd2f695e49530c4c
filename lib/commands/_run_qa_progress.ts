/**
 * What `run-qa` prints while it works: every line through the key's redaction, progress as one live line on a
 * terminal or a line per call otherwise, each with the elapsed time and the calls a second.
 *
 * @module
 */

import { visible } from "../base/mod.ts";
import type { RunEvent } from "../qa/mod.ts";
import type { Io } from "./_command.ts";
import { formatElapsed, formatRate } from "./_progress.ts";

/** The same io with the key's text replaced by `[redacted]` in every line. */
export function redactingIo(io: Io, secret: string, redact: (text: string, secret: string) => string): Io {
  return {
    ...io,
    out: (line) => io.out(redact(line, secret)),
    err: (line) => io.err(redact(line, secret)),
    live: io.live && { update: (text) => io.live!.update(redact(text, secret)), done: io.live.done },
  };
}

/**
 * Progress for run-qa: one live line on a terminal, a plain line per call otherwise; both end with the time
 * since the calls began and the calls a second. With `--epochs K` above 1 every line starts `run r/K: `, and
 * each run's counts start afresh. `note` prints a line of its own (Ctrl-C's), ending the live
 * line first; the next call starts a new one below it.
 */
export function progressReporter(
  io: Io,
  now: () => number = () => performance.now(),
): { onEvent: (event: RunEvent) => void; note: (line: string) => void; end: () => void } {
  let failures = 0;
  let tokens = 0;
  let live = false;
  let started = now();
  const timing = (done: number) => {
    const elapsed = now() - started;
    return `${formatElapsed(elapsed)} · ${formatRate(done, elapsed, "calls")}`;
  };
  return {
    onEvent: (event) => {
      // With K runs every line names its run; one run's lines are as they always were.
      const run = event.epoch === undefined ? "" : `run ${event.epoch.run}/${event.epoch.of}: `;
      if (event.kind === "planned") {
        // A run's live line stays on the screen as it ended; the next run's lines start below it.
        if (live) io.live?.done();
        [live, failures, tokens] = [false, 0, 0];
        for (const plan of event.stale) {
          io.err(
            `${run}${plan.task.rowId}: stored row not reusable (${
              visible(String(plan.reason))
            }); calling again`,
          );
        }
        io.err(`${run}${event.total} tasks: ${event.reuse} stored rows reused, ${event.toCall} to call`);
        started = now();
        return;
      }
      if (event.kind === "warning") {
        io.err(`${run}warning: ${visible(event.message)}`);
        return;
      }
      if (event.kind === "failed") failures++;
      else tokens += event.tokens;
      if (io.live !== undefined) {
        live = true;
        io.live.update(
          `${run}answered ${event.done}/${event.toCall} · ${failures} failed · ${tokens} tokens · ${
            timing(event.done)
          }`,
        );
      } else if (event.kind === "answered") {
        const attempts = `${event.attempts} attempt${event.attempts === 1 ? "" : "s"}`;
        io.err(
          `${run}[${event.done}/${event.toCall}] ${event.rowId}: answered (${attempts}, ${event.tokens} tokens) · ` +
            timing(event.done),
        );
      } else {
        io.err(
          `${run}[${event.done}/${event.toCall}] ${event.rowId}: FAILED ${event.reason} · ${
            timing(event.done)
          }`,
        );
      }
    },
    note: (line) => {
      if (live) io.live?.done();
      live = false;
      io.err(line);
    },
    end: () => {
      if (live) io.live?.done();
    },
  };
}
