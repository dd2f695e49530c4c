import { interruptHandler } from "../../../lib/qa/answer/interrupt.ts";
import { assertEquals } from "../../helpers/assert.ts";

Deno.test("Ctrl-C: the first signal stops, copies within a second are the same Ctrl-C, a later one quits", () => {
  let clock = 1000;
  const calls: string[] = [];
  const onSignal = interruptHandler({ stop: () => calls.push("stop"), quit: () => calls.push("quit") }, {
    now: () => clock,
  });
  onSignal();
  clock += 5;
  onSignal();
  clock += 990;
  onSignal();
  assertEquals(calls, ["stop"]);
  clock += 10;
  onSignal();
  assertEquals(calls, ["stop", "quit"]);
});
