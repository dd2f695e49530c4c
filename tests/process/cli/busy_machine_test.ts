/**
 * The policy tests hold on a busy machine: run beside four busy loops (twice as many as the machine's two cores),
 * a sound module is still judged by what it does, not refused because the machine is slow.
 */

import { assert } from "../../helpers/assert.ts";
import { ROOT } from "../../helpers/cli.ts";

Deno.test("tests/process/policy passes beside four busy loops", async () => {
  const loops = Array.from(
    { length: 4 },
    () =>
      new Deno.Command("sh", { args: ["-c", "while :; do :; done"], stdout: "null", stderr: "null" }).spawn(),
  );
  try {
    const output = await new Deno.Command(Deno.execPath(), {
      args: [
        "test",
        "--no-prompt",
        "--allow-read",
        "--allow-write",
        "--allow-env",
        "--allow-run",
        "--allow-net=127.0.0.1",
        "tests/process/policy/",
      ],
      cwd: ROOT,
      env: { NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(output.stdout) + new TextDecoder().decode(output.stderr);
    assert(output.success, text.slice(-3000));
    assert(/^ok \| [1-9]\d* passed \| 0 failed/m.test(text), text.slice(-1000));
  } finally {
    for (const loop of loops) {
      loop.kill("SIGKILL");
      await loop.status;
    }
  }
});
