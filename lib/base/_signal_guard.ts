/**
 * SIGINT and SIGTERM held off while a publish is in its critical section: a signal is noted, not obeyed, until
 * the publish has been undone (or has finished); then the publish ends the command with an
 * {@linkcode InterruptedError}, which exits as the signal asks. Outside a publish no listener is installed, so
 * a signal ends the program as it always did. `Deno.exit` (run-qa's second Ctrl-C) skips every `finally`, so
 * the guard also undoes the publish on the `unload` event.
 *
 * @module
 */

import { InterruptedError } from "./errors.ts";

/** The signals a publish can hold off. */
export type PublishSignal = "SIGINT" | "SIGTERM";

/** One publish's hold on signals. */
export interface SignalGuard {
  /** The first signal that arrived, if any. */
  readonly received: PublishSignal | undefined;
  /** Throws the {@linkcode InterruptedError} for `paths` once a signal has arrived. */
  check(): void;
  /** Stops holding signals off (their default action is back) and drops the exit hook. */
  release(): void;
}

/**
 * Holds off `signals` for the publish of `paths` until {@linkcode SignalGuard.release}; `onExit` undoes the
 * publish synchronously if the program exits meanwhile.
 */
export function holdSignals(
  signals: readonly PublishSignal[],
  paths: readonly string[],
  onExit: () => void,
): SignalGuard {
  let received: PublishSignal | undefined;
  const listeners: [PublishSignal, () => void][] = [];
  for (const signal of signals) {
    const listener = () => {
      received ??= signal;
    };
    try {
      Deno.addSignalListener(signal, listener);
      listeners.push([signal, listener]);
    } catch {
      // A platform without this signal (SIGTERM on Windows) cannot deliver it either.
    }
  }
  globalThis.addEventListener("unload", onExit);
  return {
    get received() {
      return received;
    },
    check() {
      if (received !== undefined) throw new InterruptedError(received, paths, false);
    },
    release() {
      for (const [signal, listener] of listeners.splice(0)) Deno.removeSignalListener(signal, listener);
      globalThis.removeEventListener("unload", onExit);
    },
  };
}
