/**
 * The shipped program, `dist/deermem-eval.js` (built by `deno task bundle`): reproducible, executable, and
 * runnable alone — no node_modules, no protocol files, no deno.json — through its own shebang line.
 */

import { buildBundle } from "../../../.ci/bundle.ts";
import { assert, assertEquals, assertMatch } from "../../helpers/assert.ts";
import { fixtureProtocolFlags, GOLDEN, ROOT, unwrap, withTempDir } from "../../helpers/cli.ts";
import { completion, startAnswerServer } from "../../helpers/answer_server.ts";
import { FIXTURE_DATASET } from "../../helpers/fixture.ts";
import { copyTree, sharedFixture } from "../../helpers/shared.ts";

const decoder = new TextDecoder();
const DENO_DIRECTORY = Deno.execPath().slice(0, Deno.execPath().lastIndexOf("/"));

/** Runs `./deermem-eval.js ARGS` in `cwd` as a user would: the kernel reads the shebang, `env` finds `deno`. */
async function runBundle(cwd: string, args: string[], env: Record<string, string> = {}) {
  const output = await new Deno.Command(`${cwd}/deermem-eval.js`, {
    args,
    cwd,
    clearEnv: true,
    env: {
      PATH: `${DENO_DIRECTORY}:/usr/bin:/bin`,
      HOME: Deno.env.get("HOME") ?? "/",
      NO_COLOR: "1",
      ...env,
    },
    stdout: "piped",
    stderr: "piped",
  }).output();
  return { code: output.code, stdout: decoder.decode(output.stdout), stderr: decoder.decode(output.stderr) };
}

/** One build this file's tests share (each runs a copy): a build takes seconds, a copy milliseconds. */
const built = sharedFixture(async (directory) => {
  const path = `${directory}/deermem-eval.js`;
  return { path, sha256: await buildBundle(path) };
});

/** The shared build copied to `directory`/deermem-eval.js, executable as built. */
async function bundleIn(directory: string): Promise<void> {
  await copyTree((await built()).path, `${directory}/deermem-eval.js`);
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

Deno.test("two builds are byte-identical, executable, and start with the permission-carrying shebang", async () => {
  await withTempDir(async (directory) => {
    // The first build is the one the other tests share; this one goes elsewhere, by another name.
    const { path, sha256: first } = await built();
    const second = await buildBundle(`${directory}/two/other-name.js`);
    const one = await Deno.readFile(path);
    const two = await Deno.readFile(`${directory}/two/other-name.js`);
    assertEquals(first, second);
    assertEquals(await sha256(one), first, "the printed SHA-256 is the file's");
    assert(one.length === two.length && one.every((byte, index) => byte === two[index]), "byte-identical");
    assertEquals((await Deno.stat(path)).mode! & 0o111, 0o111, "executable");
    const shebang = decoder.decode(one.subarray(0, one.indexOf(10)));
    assertMatch(shebang, /^#!\/usr\/bin\/env -S DENO_NO_UPDATE_CHECK=1 deno run --no-config --no-prompt /);
    assertMatch(shebang, / --allow-net /);
    // Linux reads at most 255 bytes of a shebang line (since 5.1); a longer one would lose its last flags.
    assert(new TextEncoder().encode(shebang).length <= 255, `${shebang.length} bytes`);
    assert(!/--allow-all|-A\b/.test(shebang), shebang);
    // The environment grant: our own prefix and the dataset variable — every variable run-qa's task grants, no more.
    assertMatch(shebang, / --allow-env=DEERMEM_EVAL_\*,LONGMEMEVAL_\* --ignore-env /);
    assertMatch(shebang, / --v8-flags=--no-enable-lazy-source-positions$/);
    // The only Node-compatibility module is node:util, whose parseArgs stands in for @std/cli; no CommonJS interop.
    const program = decoder.decode(one);
    const nodeImports = [
      ...program.matchAll(/\bfrom\s*["'](node:[a-z_/]+)|\brequire\s*\(\s*["'](node:[a-z_/]+)/g),
    ];
    assertEquals([...new Set(nodeImports.map((match) => match[1] ?? match[2]))], ["node:util"]);
    assert(!program.includes("createRequire"), "CommonJS interop");
    // The GFM parser is a test-only dependency: none of its token names reach the program.
    for (const token of ["tableDelimiterFiller", "atxHeadingSequence", "gfmTable"]) {
      assert(!program.includes(token), token);
    }
  });
});

Deno.test("the README states the bundle's size as built (within 5 %), so the figure cannot go stale", async () => {
  const size = (await Deno.stat((await built()).path)).size;
  const readme = (await Deno.readTextFile(`${ROOT}README.md`)).replace(/\s+/g, " ");
  const stated = readme.match(/the bundle is ([\d,]+) KB/);
  assert(stated !== null, "README states the bundle's size as 'the bundle is N KB'");
  const kilobytes = Number(stated[1].replaceAll(",", ""));
  assert(
    Math.abs(kilobytes * 1000 - size) <= size * 0.05,
    `README says ${kilobytes} KB; the bundle is ${size} bytes (${Math.round(size / 1000)} KB)`,
  );
});

Deno.test("the bundle runs alone in an empty directory as ./deermem-eval.js COMMAND", async () => {
  await withTempDir(async (directory) => {
    await bundleIn(directory);
    const contracts = await runBundle(directory, ["validate-contracts"]);
    assertEquals(contracts.code, 0, contracts.stderr);
    assertEquals(contracts.stdout, "validated 40 official and 5 synthetic cases\n");
    assertEquals(contracts.stderr, "");

    const verify = await runBundle(directory, ["verify", `${ROOT}results/pr4789-reproduction-v1`]);
    assertEquals(verify.code, 0, verify.stderr);

    // The published run travels with the program: verify and report need no directory.
    const embedded = await runBundle(directory, ["verify"]);
    assertEquals(embedded.code, 0, embedded.stderr);
    assertMatch(
      embedded.stdout,
      /^results\/pr4789-reproduction-v1: the published run embedded in this program$/m,
    );
    assertMatch(
      embedded.stdout,
      /^structure and statistics verified; predictions and grades need --dataset$/m,
    );
    const report = await runBundle(directory, ["report"]);
    assertEquals(report.code, 0, report.stderr);
    assertMatch(report.stdout, /^deermem-eval report: results\/pr4789-reproduction-v1 \(QA results\)$/m);
    assertMatch(report.stdout, /^ {2}longmemeval +40 +23\/40 +35\/40 .* 0\.0018$/m);

    const badFlag = await runBundle(directory, ["validate", "--nope"]);
    assertEquals(badFlag.code, 2);
    assertEquals(badFlag.stderr.trim().split("\n").length, 1, badFlag.stderr);

    const viaEnv = await runBundle(directory, ["validate", ...fixtureProtocolFlags()], {
      LONGMEMEVAL_ORACLE_PATH: FIXTURE_DATASET,
    });
    assertEquals(viaEnv.code, 0, viaEnv.stderr);
    assertMatch(unwrap(viaEnv.stdout), /^validated dataset cd5c2b20\w+ and prepared 45 cases$/m);

    const policy = `${directory}/policy`;
    const run = await runBundle(directory, [
      "run-policy",
      "--dataset",
      FIXTURE_DATASET,
      "--output-dir",
      policy,
      ...fixtureProtocolFlags(),
    ]);
    assertEquals(run.code, 0, run.stderr);
    for (const name of ["policy.raw.jsonl", "summary.json"]) {
      assertEquals(
        await Deno.readTextFile(`${policy}/${name}`),
        await Deno.readTextFile(`${GOLDEN}/fixture-run/policy/${name}`),
        name,
      );
    }
    const names = [];
    for await (const entry of Deno.readDir(directory)) names.push(entry.name);
    assertEquals(names.sort(), ["deermem-eval.js", "policy"], "nothing else appears beside the bundle");
  });
});

Deno.test("README's commands on results/pr4789-reproduction-v1 run with the bundle alone: the embedded run", async () => {
  await withTempDir(async (directory) => {
    await bundleIn(directory);
    const verify = await runBundle(directory, ["verify", "results/pr4789-reproduction-v1"]);
    assertEquals(verify.code, 0, verify.stderr);
    assertMatch(
      verify.stdout,
      /^results\/pr4789-reproduction-v1: the published run embedded in this program$/m,
    );
    assertMatch(verify.stdout, /^structure and statistics verified; predictions and grades need --dataset$/m);
    const report = await runBundle(directory, ["report", "./results/pr4789-reproduction-v1/"]);
    assertEquals(report.code, 0, report.stderr);
    assertMatch(report.stdout, /^deermem-eval report: results\/pr4789-reproduction-v1 \(QA results\)$/m);
    assertMatch(report.stdout, /exact McNemar p = 0\.0018 \(mid-p 0\.000977\)/);
    const plan = await runBundle(directory, [
      "plan",
      "results/pr4789-reproduction-v1",
      "--effect",
      "0.10",
      "--json",
    ]);
    assertEquals(plan.code, 0, plan.stderr);
    const planned = JSON.parse(plan.stdout);
    assertEquals([planned.cases, planned.discordance, planned.cases_needed], [40, 0.35, 289]);
    // Another missing directory is still refused in one line, exit 2.
    const other = await runBundle(directory, ["report", "results/pr4789-reproduction-v2"]);
    assertEquals(other.code, 2, other.stdout);
    assertEquals(other.stderr.trim().split("\n").length, 1, other.stderr);
    const names = [];
    for await (const entry of Deno.readDir(directory)) names.push(entry.name);
    assertEquals(names, ["deermem-eval.js"], "nothing is written beside the bundle");
  });
});

Deno.test("the bundle's run-qa reaches the endpoint with the key from the environment", async () => {
  const server = startAnswerServer(() => completion("x"));
  try {
    await withTempDir(async (directory) => {
      await bundleIn(directory);
      const result = await runBundle(
        directory,
        [
          "run-qa",
          "--dataset",
          FIXTURE_DATASET,
          "--output-dir",
          `${directory}/qa`,
          ...fixtureProtocolFlags(),
        ],
        { DEERMEM_EVAL_ANSWER_API_KEY: "sk-bundle-test", DEERMEM_EVAL_ANSWER_BASE_URL: server.url },
      );
      assertEquals(result.code, 0, result.stderr);
      assertMatch(result.stdout, /^answer rows: 0 reused, 90 called, 0 failed$/m);
      assertEquals(server.requests.length, 90);
      assertEquals(server.requests[0].authorization, "Bearer sk-bundle-test");
    });
  } finally {
    await server.close();
  }
});

Deno.test("the bundle's demo ends with next commands that run as they are shown, with the bundle itself", async () => {
  await withTempDir(async (directory) => {
    await bundleIn(directory);
    const demo = await runBundle(directory, ["demo", "--output-dir", "demo"]);
    assertEquals(demo.code, 0, demo.stderr);
    const next = demo.stdout.slice(demo.stdout.indexOf("\nnext: ") + 1).replaceAll(" \\\n", " ");
    const commands = next.trimEnd().split("\n").slice(1).map((line) => line.trim());
    assertEquals(commands.length, 6, next);
    assert(!next.includes("deno task"), next);
    for (const command of commands) {
      const [program, ...args] = command.split(/\s+/);
      assertEquals(program, "./deermem-eval.js", command);
      const result = await runBundle(directory, args);
      assertEquals(result.code, 0, `${command}\n${result.stderr}`);
    }
  });
});
