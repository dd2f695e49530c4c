import { CommandFailedError, InputError, InterruptedError, StoppedError } from "../../../lib/base/errors.ts";
import { IoError, isOsError, osReason } from "../../../lib/base/os_errors.ts";
import { ProviderError } from "../../../lib/qa/mod.ts";
import { describeFailure } from "../../../lib/base/failure.ts";
import { simulatedOsError } from "../../helpers/faults.ts";
import { ROOT } from "../../helpers/paths.ts";
import { assert, assertEquals, assertMatch } from "../../helpers/assert.ts";

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

Deno.test("a command a signal stopped exits as the signal asks, with no further line; a failure said is exit 1", () => {
  assertEquals(describeFailure("run-qa", new StoppedError("SIGINT")), { code: 130, lines: [] });
  assertEquals(describeFailure("run-qa", new StoppedError("SIGTERM")), { code: 143, lines: [] });
  assertEquals(describeFailure("verify", new CommandFailedError("a check does not hold")), {
    code: 1,
    lines: [],
  });
});

Deno.test("exitAtOnce ends the program with the mapped code: nothing after it runs but the unload listeners", async () => {
  const program = `import { exitAtOnce, StoppedError } from "file://${ROOT}lib/base/mod.ts";\n` +
    `addEventListener("unload", () => console.log("unload"));\n` +
    `try { exitAtOnce(new StoppedError("SIGINT")); } finally { console.log("finally"); }\n` +
    `console.log("after");\n`;
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["eval", program],
    cwd: ROOT,
    env: { DENO_NO_UPDATE_CHECK: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assertEquals(
    { code: output.code, stdout: new TextDecoder().decode(output.stdout) },
    { code: 130, stdout: "unload\n" },
    new TextDecoder().decode(output.stderr),
  );
});

// Exit codes come from the mapper alone: no other module of lib/ ends the program, sets or carries a code.
const EXITING = [
  [/\bDeno\s*(?:\.\s*exit\b|\[\s*["'`]exit["'`]\s*\])/, "ends the program itself (Deno.exit)"],
  [/\bDeno\s*\.\s*exitCode\b|\bprocess\s*\.\s*exit/, "sets the exit code itself"],
  [/\bexitCode\b/, "carries an exit code"],
  [/\bnew\s+\w*Error\s*\([^()]*,\s*\d+\s*\)/, "gives an error a number (an exit code?)"],
  [/\bcode\s*:\s*(?:130|143)\b/, "spells a signal's exit code"],
] as const;

/** What a module of lib/ does that only the mapper may, one line each; comments are not code. */
function exitingIn(path: string, text: string): string[] {
  const code = text.split("\n").filter((line) => !/^\s*(?:\*|\/\*|\/\/)/.test(line))
    .map((line) => line.replace(/\s\/\/ .*$/, "")).join("\n");
  return EXITING.filter(([pattern]) => pattern.test(code)).map(([, what]) => `${path} ${what}`);
}

/** The modules that may: the mapper, and the sandbox's child program (its exits are what its parent reads). */
const MAY_EXIT = ["base/failure.ts", "policy/_sandbox_child.ts"];

Deno.test("no module of lib/ but the mapper ends the program or names an exit code", async () => {
  const problems: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    for await (const entry of Deno.readDir(`${ROOT}lib/${dir}`)) {
      const path = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory) await walk(path);
      else if (entry.name.endsWith(".ts") && !MAY_EXIT.includes(path)) {
        problems.push(...exitingIn(path, await Deno.readTextFile(`${ROOT}lib/${path}`)));
      }
    }
  };
  await walk("");
  assertEquals(problems.sort(), []);
  // The mapper itself holds what the rule keeps out of the rest.
  assert(exitingIn("base/failure.ts", await Deno.readTextFile(`${ROOT}lib/base/failure.ts`)).length > 0);
});

Deno.test("the exit-code scan catches each form, and not a comment", () => {
  const planted = [
    "    quit: () => Deno.exit(130),",
    "const exit = Deno.exit, version = Deno.version.deno;",
    'Deno["exit"](1);',
    "Deno.exitCode = 1;",
    "  readonly exitCode: 1 | 130;",
    '    throw new CommandFailedError("interrupted", 130);',
    "  return { code: 130, lines: [] };",
  ];
  assertEquals(planted.filter((line) => exitingIn("x.ts", line).length === 0), []);
  const comments = "// Deno.exit(130) skips finally blocks\n * exitCode 130\nfoo(); // Deno.exit(1)\n";
  assertEquals(exitingIn("x.ts", comments), []);
  assertEquals(
    exitingIn("x.ts", 'throw new ProviderError("HTTP 429", { retryable: true, status: 429 });'),
    [],
  );
});
