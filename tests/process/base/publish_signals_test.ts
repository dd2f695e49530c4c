/**
 * A publish under a signal: SIGTERM at each step undoes it, then ends the command; a signal the caller handles
 * itself does not interrupt it. These tests signal their own process, so they live in the process tier, which
 * runs one file at a time: under the unit tier's --parallel the signal would reach the other files' publishes.
 *
 * @module
 */

import { InterruptedError } from "../../../lib/base/errors.ts";
import { writeAllOrNothing } from "../../../lib/base/fs.ts";
import { assertEquals, assertRejects } from "../../helpers/assert.ts";
import { withTempDir } from "../../helpers/cli.ts";

async function entries(directory: string): Promise<string[]> {
  const names: string[] = [];
  for await (const entry of Deno.readDir(directory)) names.push(entry.name);
  return names.sort();
}

const THREE = { "a.json": "A\n", "b.json": "B\n", "c.json": "C\n" };

const ROWS = Array.from({ length: 2000 }, (_, index) => `{"row": ${index}}\n`);

for (const [operation, nth] of [["write", 1], ["link", 1], ["link", 3], ["remove", 2]] as const) {
  Deno.test(`SIGTERM at ${operation} #${nth} of a publish: undone, then an InterruptedError (exit 143)`, async () => {
    await withTempDir(async (directory) => {
      // The hook runs in this process: the signal is sent to it, held off by the publish, then honoured. The
      // hook waits until the signal has been dispatched, so the publish's next step sees it however busy the
      // machine is (dispatch is asynchronous).
      let delivered = () => {};
      const onSignal = () => delivered();
      const beforeOperation = async (kind: string) => {
        if (kind !== operation || ++seen !== nth) return;
        const arrived = new Promise<void>((resolve) => delivered = resolve);
        const alive = setTimeout(() => {}, 60_000); // a signal listener alone does not keep the loop running
        Deno.kill(Deno.pid, "SIGTERM");
        await arrived;
        clearTimeout(alive);
      };
      let seen = 0;
      Deno.addSignalListener("SIGTERM", onSignal);
      try {
        const error = await assertRejects(
          () => writeAllOrNothing(directory, { ...THREE, "rows.jsonl": ROWS }, { beforeOperation }),
          InterruptedError,
          "nothing was published",
        );
        assertEquals(error.signal, "SIGTERM");
        assertEquals(await entries(directory), []);
      } finally {
        Deno.removeSignalListener("SIGTERM", onSignal);
      }
    });
  });
}

Deno.test("a signal the caller handles itself (as run-qa does Ctrl-C) does not interrupt the publish", async () => {
  await withTempDir(async (directory) => {
    // SIGTERM stands in for run-qa's SIGINT here: the test runner keeps SIGINT for itself.
    let heard = 0;
    const own = () => heard++;
    Deno.addSignalListener("SIGTERM", own);
    try {
      let sent = false;
      const beforeOperation = (kind: string) => {
        if (kind === "link" && !sent) Deno.kill(Deno.pid, "SIGTERM"), sent = true;
      };
      await writeAllOrNothing(directory, THREE, { beforeOperation, signals: ["SIGINT"] });
      while (heard === 0) await new Promise((resolve) => setTimeout(resolve, 5));
      assertEquals(await entries(directory), ["a.json", "b.json", "c.json"]);
    } finally {
      Deno.removeSignalListener("SIGTERM", own);
    }
  });
});
