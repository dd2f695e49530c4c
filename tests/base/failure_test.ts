import {
  InputError,
  InterruptedError,
  IoError,
  isOsError,
  osReason,
  ProviderError,
} from "../../lib/base/errors.ts";
import { describeFailure } from "../../lib/base/failure.ts";
import { simulatedOsError } from "../helpers/faults.ts";
import { assert, assertEquals, assertMatch } from "../helpers/assert.ts";

Deno.test("bad input is exit 2 with one line; an I/O failure exit 1 with the path and the OS's reason", () => {
  assertEquals(describeFailure("verify", new InputError("bad\n  value", { path: "x.json", field: "a" })), {
    code: 2,
    lines: ["deermem-eval verify: x.json: a: bad value"],
  });
  assertEquals(
    describeFailure("grade-qa", new IoError("write", "out/qa.rows.jsonl", simulatedOsError("ENOSPC"))),
    {
      code: 1,
      lines: [
        "deermem-eval grade-qa: out/qa.rows.jsonl: cannot write: No space left on device (os error 28)",
      ],
    },
  );
  assertEquals(describeFailure("run-qa", new ProviderError("HTTP 500", { retryable: true })).code, 1);
});

Deno.test("an OS error that escaped the fs layer is still one line, exit 1", () => {
  let raw: unknown;
  try {
    Deno.readFileSync("/etc/hostname/x");
  } catch (error) {
    raw = error;
  }
  assert(isOsError(raw));
  assertEquals(osReason(raw), "Not a directory (os error 20)");
  const report = describeFailure("verify", raw);
  assertEquals(report.code, 1);
  assertEquals(report.lines.length, 1);
  assert(report.lines[0].startsWith("deermem-eval verify: Not a directory (os error 20)"), report.lines[0]);
});

Deno.test("anything else is a bug: one line and the debug hint; the trace only when asked for", () => {
  const bug = new RangeError("Array buffer allocation failed");
  const quiet = describeFailure("verify", bug);
  assertEquals(quiet, {
    code: 1,
    lines: [
      "deermem-eval verify: unexpected error: RangeError: Array buffer allocation failed (set DEERMEM_EVAL_DEBUG=1 for a trace)",
    ],
  });
  const loud = describeFailure("verify", bug, true);
  assertEquals(loud.lines.length, 2);
  assertMatch(loud.lines[1], /^RangeError: Array buffer allocation failed\n\s+at /);
  assert(!isOsError(bug));
  assertEquals(describeFailure("x", "a string").lines, [
    "deermem-eval x: unexpected error: a string (set DEERMEM_EVAL_DEBUG=1 for a trace)",
  ]);
});

Deno.test("a publish interrupted by a signal exits as the signal asks (130 for SIGINT, 143 for SIGTERM), one line", () => {
  const paths = ["out/a.json", "out/b.json"];
  assertEquals(describeFailure("run-policy", new InterruptedError("SIGINT", paths, false)), {
    code: 130,
    lines: [
      "deermem-eval run-policy: interrupted by SIGINT while publishing out/a.json, out/b.json: nothing was " +
      "published; run the same command again",
    ],
  });
  const late = describeFailure("sweep", new InterruptedError("SIGTERM", paths, true));
  assertEquals(late.code, 143);
  assertEquals(late.lines, [
    "deermem-eval sweep: interrupted by SIGTERM just after publishing out/a.json, out/b.json: they are complete",
  ]);
});

Deno.test("a path or a message holding escapes is one line with every control shown as an escape", () => {
  const path = "out/a\x1b]52;c;aGk=\x07\n✓ forged\u009b2J\u202e";
  const shown = "out/a\\u001b]52;c;aGk=\\u0007 ✓ forged\\u009b2J\\u202e";
  assertEquals(describeFailure("verify", new InputError("bad", { path })).lines, [
    `deermem-eval verify: ${shown}: bad`,
  ]);
  assertEquals(describeFailure("report", new IoError("write", path, simulatedOsError("ENOSPC"))).lines, [
    `deermem-eval report: ${shown}: cannot write: No space left on device (os error 28)`,
  ]);
  assertEquals(
    describeFailure("run-qa", new ProviderError("HTTP 400: \x1b[2J\t!", { retryable: false })).lines,
    [
      "deermem-eval run-qa: HTTP 400: \\u001b[2J\\u0009!",
    ],
  );
  const bug = describeFailure("report", new TypeError("odd \x1b[2J"), true);
  assertEquals(
    bug.lines[0],
    "deermem-eval report: unexpected error: TypeError: odd \\u001b[2J (set DEERMEM_EVAL_DEBUG=1 for a trace)",
  );
  assert(!bug.lines[1].includes("\x1b"), bug.lines[1]);
});
