/**
 * Appending one line to a ledger file, synced before it returns: the one append-only write (a ledger is never
 * rewritten, so it is never overwritten).
 *
 * @module
 */

import { osCall } from "./_os_call.ts";
import type { PublishOptions } from "./publish.ts";

/**
 * Appends `line` (which must end with `\n`) to `path`, creating it, and syncs it to disk before returning.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { appendLine } from "./append.ts";
 * const directory = await Deno.makeTempDir();
 * await appendLine(`${directory}/ledger.jsonl`, "1\n");
 * await appendLine(`${directory}/ledger.jsonl`, "2\n");
 * strictEqual(await Deno.readTextFile(`${directory}/ledger.jsonl`), "1\n2\n");
 * await Deno.remove(directory, { recursive: true });
 * ```
 */
export async function appendLine(path: string, line: string, options: PublishOptions = {}): Promise<void> {
  if (!line.endsWith("\n")) throw new RangeError("a ledger line ends with a newline");
  await osCall("write", "cannot append to", path, async () => {
    const file = await Deno.open(path, { append: true, create: true });
    try {
      const bytes = new TextEncoder().encode(line);
      for (let at = 0; at < bytes.length;) at += await file.write(bytes.subarray(at));
      await file.sync();
    } finally {
      file.close();
    }
  }, options.beforeOperation);
}
