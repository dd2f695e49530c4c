/**
 * What `run-qa` prints while it works: every line through the key's redaction, progress as one live line on a
 * terminal or a line per call otherwise.
 *
 * @module
 */

import type { RunEvent } from "../qa/mod.ts";
import type { Io } from "./_command.ts";

/** The same io with the key's text replaced by `[redacted]` in every line. */
export function redactingIo(io: Io, secret: string, redact: (text: string, secret: string) => string): Io {
  return {
    ...io,
    out: (line) => io.out(redact(line, secret)),
    err: (line) => io.err(redact(line, secret)),
    live: io.live && { update: (text) => io.live!.update(redact(text, secret)), done: io.live.done },
  };
}

/** Progress for run-qa: one live line on a terminal, a plain line per call otherwise. */
export function progressReporter(io: Io): { onEvent: (event: RunEvent) => void; end: () => void } {
  let failures = 0;
  let tokens = 0;
  let live = false;
  return {
    onEvent: (event) => {
      if (event.kind === "planned") {
        for (const plan of event.stale) {
          io.err(`${plan.task.rowId}: stored row not reusable (${plan.reason}); calling again`);
        }
        io.err(`${event.total} tasks: ${event.reuse} stored rows reused, ${event.toCall} to call`);
        return;
      }
      if (event.kind === "warning") {
        io.err(`warning: ${event.message}`);
        return;
      }
      if (event.kind === "failed") failures++;
      else tokens += event.tokens;
      if (io.live !== undefined) {
        live = true;
        io.live.update(`answered ${event.done}/${event.toCall} · ${failures} failed · ${tokens} tokens`);
      } else if (event.kind === "answered") {
        const attempts = `${event.attempts} attempt${event.attempts === 1 ? "" : "s"}`;
        io.err(
          `[${event.done}/${event.toCall}] ${event.rowId}: answered (${attempts}, ${event.tokens} tokens)`,
        );
      } else {
        io.err(`[${event.done}/${event.toCall}] ${event.rowId}: FAILED ${event.reason}`);
      }
    },
    end: () => {
      if (live) io.live?.done();
    },
  };
}
