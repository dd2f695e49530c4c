import { sha256Hex } from "../../../lib/base/hash.ts";
import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../helpers/assert.ts";
import {
  fixtureProtocolFlags,
  GOLDEN,
  ROOT,
  runCli,
  taskFlags,
  unwrap,
  withTempDir,
} from "../../helpers/cli.ts";

import { FIXTURE_DATASET, runOnFixture } from "../../helpers/fixture.ts";
const REFERENCE_POLICY = `${GOLDEN}/fixture-run/policy`;

Deno.test("validate-contracts on the embedded protocol, from the binary's entry point", async () => {
  const result = await runCli(["validate-contracts"]);
  assertEquals(result.code, 0, result.stderr);
  assertEquals(result.stdout, "validated 40 official and 5 synthetic cases\n");
});

Deno.test("exit codes: usage errors and bad input are 2 with one line on stderr, no stack trace", async () => {
  const unknown = await runCli(["frobnicate"]);
  assertEquals(unknown.code, 2);
  assertMatch(unknown.stderr, /unknown command "frobnicate"/);
  const badFlag = await runCli(["validate-contracts", "--nope"]);
  assertEquals(badFlag.code, 2);
  const missing = await runCli(["validate-contracts", "--config", "/nonexistent/x.yaml"]);
  assertEquals(missing.code, 2);
  assertEquals(missing.stderr.trim().split("\n").length, 1, missing.stderr);
  assertMatch(missing.stderr, /\/nonexistent\/x\.yaml: cannot read config: not found/);
  const version = await runCli(["--version"]);
  assertEquals(version.code, 0);
  assertMatch(version.stdout, /^deermem-eval \d+\.\d+\.\d+/);
  for (
    const command of [
      "validate-contracts",
      "validate",
      "run-policy",
      "run-qa",
      "grade-qa",
      "verify",
      "conformance",
      "demo",
    ]
  ) {
    const help = await runCli([command, "--help"]);
    assertEquals(help.code, 0, command);
    assertStringIncludes(help.stdout, `deermem-eval ${command}`);
  }
});

Deno.test("an offline command revokes network permission before any work", async () => {
  const controller = new AbortController();
  let hits = 0;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: controller.signal, onListen: () => {} },
    () => {
      hits++;
      return new Response("ok");
    },
  );
  try {
    const url = `http://127.0.0.1:${server.addr.port}/`;
    // Control: the same probe reaches the server when no offline command ran first.
    const control = await fetch(url);
    await control.body?.cancel();
    assertEquals(hits, 1);
    const command = new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--no-prompt",
        "--allow-read",
        "--allow-net",
        "--ignore-env",
        `${ROOT}tests/fixtures/offline_probe.ts`,
        "validate-contracts",
        url,
      ],
      stdout: "piped",
      stderr: "piped",
    });
    const output = await command.output();
    const stdout = new TextDecoder().decode(output.stdout);
    assertEquals(stdout.trim(), "exit 0; NotCapable", new TextDecoder().decode(output.stderr));
    assertEquals(hits, 1);
  } finally {
    controller.abort();
    await server.finished;
  }
});

Deno.test("validate: the dataset hash is checked before parsing, naming both digests", async () => {
  await withTempDir(async (directory) => {
    const path = `${directory}/broken.json`;
    await Deno.writeTextFile(path, "{ this is not JSON");
    const result = await runCli(["validate", "--dataset", path, ...fixtureProtocolFlags()]);
    assertEquals(result.code, 2);
    const actual = await sha256Hex(await Deno.readFile(path));
    assertMatch(
      result.stderr,
      new RegExp(`broken\\.json: SHA-256 mismatch: expected cd5c2b20\\w+, actual ${actual}`),
    );
    const viaEnv = await runCli(["validate", ...fixtureProtocolFlags()], {
      flags: ["--no-prompt", "--allow-read", "--allow-env=LONGMEMEVAL_ORACLE_PATH", "--ignore-env"],
      env: { LONGMEMEVAL_ORACLE_PATH: FIXTURE_DATASET },
    });
    assertEquals(viaEnv.code, 0, viaEnv.stderr);
    assertMatch(
      unwrap(viaEnv.stdout),
      /^validated dataset cd5c2b20057269a69a3308014dc9eb02b94231ff5aa0ca476e10e55483c938d9 and prepared 45 cases$/m,
    );
  });
});

Deno.test("run-policy on the fixture is byte-identical to the reference and refuses to overwrite", async () => {
  await withTempDir(async (directory) => {
    const result = await runOnFixture("run-policy", directory);
    assertEquals(result.code, 0, result.stderr);
    assertMatch(result.stdout, /all 45 cases\s+27\/45\s+45\/45/);
    for (const name of ["policy.raw.jsonl", "summary.json"]) {
      assertEquals(
        await Deno.readTextFile(`${directory}/${name}`),
        await Deno.readTextFile(`${REFERENCE_POLICY}/${name}`),
        name,
      );
    }
    const ours = JSON.parse(await Deno.readTextFile(`${directory}/run.json`));
    const reference = JSON.parse(await Deno.readTextFile(`${REFERENCE_POLICY}/run.json`));
    for (const record of [ours, reference]) {
      delete record.created_at;
      delete record.git;
    }
    assertEquals(ours, reference);
    // The trap rows land where the reference put them: the 697-code-point record is in the bank, 701 is not.
    const notes = JSON.parse(await Deno.readTextFile(`${GOLDEN}/fixture/notes.json`));
    const raw = await Deno.readTextFile(`${directory}/policy.raw.jsonl`);
    assertStringIncludes(raw, `_${notes.traps.bank_697_historical_prefix}"`);
    assertStringIncludes(raw, `_${notes.traps.bank_700_codepoints_702_utf16}"`);
    assert(!raw.includes(`_${notes.traps.bank_701}"`));
    assert(!raw.includes(`_${notes.traps.bank_39_codepoints_41_utf16}"`));

    const before = await Deno.readTextFile(`${directory}/summary.json`);
    const again = await runOnFixture("run-policy", directory);
    assertEquals(again.code, 2);
    assertMatch(again.stderr, /refusing to overwrite an existing file/);
    assertEquals(await Deno.readTextFile(`${directory}/summary.json`), before);
  });
});

Deno.test("run-policy with one output already present writes nothing at all", async () => {
  await withTempDir(async (directory) => {
    await Deno.writeTextFile(`${directory}/run.json`, "mine\n");
    const result = await runOnFixture("run-policy", directory);
    assertEquals(result.code, 2);
    const names = [];
    for await (const entry of Deno.readDir(directory)) names.push(entry.name);
    assertEquals(names, ["run.json"]);
    assertEquals(await Deno.readTextFile(`${directory}/run.json`), "mine\n");
  });
});

Deno.test("demo: synthetic data, labelled as such, all five stages, ends with the QA claim", async () => {
  await withTempDir(async (directory) => {
    // Exactly as `deno task demo` runs it: network for 127.0.0.1 only.
    const result = await runCli(["demo", "--output-dir", `${directory}/out`], { flags: taskFlags("demo") });
    assertEquals(result.code, 0, result.stderr);
    assertMatch(result.stdout.split("\n")[0], /^demo: SYNTHETIC data/);
    for (const stage of ["validate-contracts", "validate", "run-policy", "run-qa", "grade-qa", "verify"]) {
      assertMatch(result.stdout, new RegExp(`^${stage}: `, "m"));
    }
    assertMatch(
      result.stdout.replace(/\n +/g, " "),
      /^QA claim \(SYNTHETIC, stand-in answers\): overall: confidence 18\/45, hybrid-v1 36\/45, exact McNemar p<0\.0001, hybrid-v1 − confidence \+0\.400 \[\+0\.267, \+0\.533\] \(95% paired bootstrap\)$/m,
    );
    const run = JSON.parse(await Deno.readTextFile(`${directory}/out/policy/run.json`));
    assertEquals(run.protocol_id, "deermem-demo-synthetic-v1");
    const row = JSON.parse((await Deno.readTextFile(`${directory}/out/qa.rows.jsonl`)).split("\n")[0]);
    assertEquals(row.response_model, "deermem-stand-in-v1");
  });
});

Deno.test("cli.ts imports no stage at load: each command loads its modules when it runs", async () => {
  // A start evaluates only what cli.ts imports by value; a stage imported here would be built on every start.
  const valueImports = (source: string) =>
    [...source.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+"([^"]+)"/gms)].map((match) => match[1]);
  const cli = await Deno.readTextFile(`${ROOT}cli.ts`);
  assertEquals(valueImports(cli).sort(), [
    "./lib/base/terminal.ts",
    "./lib/base/visible.ts",
    "./lib/commands/mod.ts",
    "./lib/commands/mod.ts",
  ]);
  const surface = await Deno.readTextFile(`${ROOT}lib/commands/mod.ts`);
  assertEquals(valueImports(surface).sort(), ["./_help.ts", "./_parse.ts", "./_program.ts", "./_version.ts"]);
  const registry = await Deno.readTextFile(`${ROOT}lib/commands/_program.ts`);
  assertEquals(valueImports(registry).sort(), [
    "../base/mod.ts",
    "./_help.ts",
    "./_parse.ts",
    "./_version.ts",
  ]);
  const loaded = [...registry.matchAll(/await import\("([^"]+)"\)/g)].map((match) => match[1]);
  assertEquals(loaded.length, 13);
  assert(loaded.includes("./verify.ts") && loaded.includes("./run_qa.ts"), loaded.join(", "));
});
