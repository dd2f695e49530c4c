/**
 * SIGINT and SIGTERM while a sandbox is open: each open sandbox's child is killed and its directory removed,
 * then the program ends as the signal asks (130, 143), so no `deermem-eval-sandbox-*` directory outlives it.
 * With no sandbox open no listener is installed, and a signal does what it did before.
 *
 * @module
 */

import { exitAtOnce, StoppedError } from "../base/mod.ts";

/** What a signal must undo of one open sandbox, synchronously. */
export interface OpenSandbox {
  /** Kills the child (it may have exited already). */
  kill(): void;
  /** The sandbox's own directory (its Deno dir). */
  readonly directory: string;
}

const SIGNALS = ["SIGINT", "SIGTERM"] as const;
const open = new Set<OpenSandbox>();
let listeners: [Deno.Signal, () => void][] = [];

/** Tracks `sandbox` until the returned function is called (when the sandbox is closed). */
export function whileOpen(sandbox: OpenSandbox): () => void {
  open.add(sandbox);
  if (listeners.length === 0) listeners = SIGNALS.flatMap(listen);
  return () => {
    open.delete(sandbox);
    if (open.size > 0) return;
    for (const [signal, listener] of listeners.splice(0)) Deno.removeSignalListener(signal, listener);
  };
}

function listen(signal: (typeof SIGNALS)[number]): [Deno.Signal, () => void][] {
  const listener = () => {
    for (const sandbox of open) {
      try {
        sandbox.kill();
        Deno.removeSync(sandbox.directory, { recursive: true });
      } catch {
        // Already gone.
      }
    }
    exitAtOnce(new StoppedError(signal));
  };
  try {
    Deno.addSignalListener(signal, listener);
    return [[signal, listener]];
  } catch {
    return []; // a platform without this signal (SIGTERM on Windows) cannot deliver it either
  }
}
