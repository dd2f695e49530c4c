/** The sandbox's limits are stated once: the docs page and the help say the numbers SANDBOX_LIMITS holds. */
import { SANDBOX_LIMITS } from "../../../lib/policy/mod.ts";
import { POLICY_TIME_LIMIT_FLAG } from "../../../lib/commands/_flags.ts";
import { assertEquals, assertStringIncludes } from "../../helpers/assert.ts";
import { ROOT } from "../../helpers/paths.ts";
import { sandboxMemoryBound } from "../../../lib/policy/limits.ts";

Deno.test("docs/reference.md states the sandbox's limits as SANDBOX_LIMITS holds them", async () => {
  const page = (await Deno.readTextFile(`${ROOT}docs/reference.md`)).replace(/\s+/g, " ");
  const mib = (bytes: number) => `${bytes / (1024 * 1024)} MiB`;
  const { defaultSecondsPerCase, maxSecondsPerCase, startSeconds, memoryMiB, heapMiB } = SANDBOX_LIMITS;
  for (
    const stated of [
      `seconds per case (default ${defaultSecondsPerCase}, at most ${maxSecondsPerCase}; ${startSeconds} s to load)`,
      `${memoryMiB} MiB of writable memory in all, ${heapMiB} MiB of it V8 heap`,
      `file, at most ${mib(SANDBOX_LIMITS.moduleBytes)};`,
      `an answer line is at most ${mib(SANDBOX_LIMITS.answerLineBytes)},`,
    ]
  ) assertStringIncludes(page, stated);
});

Deno.test("the flag, its help and the errors' memory bound read SANDBOX_LIMITS", () => {
  const flag = POLICY_TIME_LIMIT_FLAG["policy-time-limit"];
  assertEquals(flag.max, SANDBOX_LIMITS.maxSecondsPerCase);
  assertEquals(
    flag.help,
    `a policy module's time per case (default ${SANDBOX_LIMITS.defaultSecondsPerCase})`,
  );
  assertEquals(
    sandboxMemoryBound(),
    `${SANDBOX_LIMITS.memoryMiB} MiB in all, ${SANDBOX_LIMITS.heapMiB} MiB of it heap`,
  );
});
