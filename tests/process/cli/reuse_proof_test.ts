/**
 * `run-qa --reuse` takes an answer only from a source it can prove: a graded source's answers must be the ones
 * its grades recorded, an ungraded source needs `--reuse-ungraded` (and every reader then says so), a source
 * being written is refused, the endpoint matches by its full base URL, a dry run prices what remains, stand-in
 * runs reuse each other; verify and report say how many rows were reused and from where.
 */

import { assert, assertEquals, assertMatch, assertStringIncludes } from "../../helpers/assert.ts";
import { answerServer, runQa } from "../../helpers/qa_runs.ts";
import { fixtureProtocolFlags, runCli, taskFlags, withTempDir } from "../../helpers/cli.ts";
import { FIXTURE_DATASET } from "../../helpers/fixture.ts";
import { acquireDirectoryLock } from "../../../lib/base/lock.ts";
import { buildDemoProtocol, writeDemoProtocol } from "../../../lib/protocol/mod.ts";

const CLI = taskFlags("cli");
const offline = (args: string[]) =>
  runCli([...args, "--dataset", FIXTURE_DATASET, ...fixtureProtocolFlags()], { flags: CLI });
const grade = (directory: string) => offline(["grade-qa", "--output-dir", directory]);

function firstRow(directory: string): string {
  const [name] = [...Deno.readDirSync(`${directory}/responses`)].map((entry) => entry.name)
    .filter((name) => name.endsWith(".json")).sort();
  return `${directory}/responses/${name}`;
}

Deno.test("reuse: an answer edited in a graded source after grading is refused, naming the row and field", async () => {
  const server = answerServer();
  try {
    await withTempDir(async (directory) => {
      assertEquals((await runQa(`${directory}/g`, server.url, [])).code, 0);
      assertEquals((await grade(`${directory}/g`)).code, 0);
      const path = firstRow(`${directory}/g`);
      const text = await Deno.readTextFile(path);
      const forged = text.replace(/"prediction": "[^"]*"/, '"prediction": "forged"');
      assert(forged !== text);
      await Deno.writeTextFile(path, forged);
      const refused = await runQa(`${directory}/n`, server.url, ["--reuse", `${directory}/g`]);
      assertEquals(refused.code, 2, refused.stdout + refused.stderr);
      assertEquals(refused.stderr.trim().split("\n").length, 1, refused.stderr);
      assertStringIncludes(refused.stderr, path);
      assertStringIncludes(refused.stderr, "prediction");
      assertStringIncludes(refused.stderr, "qa.rows.jsonl");
      assertEquals(server.requests.length, 90);
      assertEquals(await Deno.lstat(`${directory}/n`).then(() => true, () => false), false);
    });
  } finally {
    await server.close();
  }
});

Deno.test("reuse: an ungraded source is refused unless --reuse-ungraded, and then verify and report say so", async () => {
  const server = answerServer();
  try {
    await withTempDir(async (directory) => {
      assertEquals((await runQa(`${directory}/u`, server.url, [])).code, 0);
      const refused = await runQa(`${directory}/n`, server.url, ["--reuse", `${directory}/u`]);
      assertEquals(refused.code, 2, refused.stdout + refused.stderr);
      assertEquals(refused.stderr.trim().split("\n").length, 1, refused.stderr);
      assertStringIncludes(refused.stderr, `${directory}/u: not reused: it is not graded`);
      assertStringIncludes(refused.stderr, "--reuse-ungraded");
      assertEquals(server.requests.length, 90);

      const taken = await runQa(`${directory}/n`, server.url, [
        "--reuse",
        `${directory}/u`,
        "--reuse-ungraded",
      ]);
      assertEquals(taken.code, 0, taken.stderr);
      assertStringIncludes(taken.stdout, "answer rows: 90 reused, 0 called, 0 failed");
      assertEquals(server.requests.length, 90);
      assertEquals((await grade(`${directory}/n`)).code, 0);
      const said =
        `reused: 90 row(s) taken from earlier runs, not answered by this one: ${directory}/u (90, ungraded)`;
      const verified = await offline(["verify", `${directory}/n`]);
      assertEquals(verified.code, 0, verified.stdout + verified.stderr);
      assertStringIncludes(verified.stdout.replace(/\s+/g, " "), said);
      const json = JSON.parse((await offline(["verify", `${directory}/n`, "--json"])).stdout);
      assertEquals(json.reused, { rows: 90, sources: [{ from: `${directory}/u`, rows: 90, graded: false }] });
      const report = await offline(["report", `${directory}/n`]);
      assertEquals(report.code, 0, report.stderr);
      assertStringIncludes(report.stdout.replace(/\s+/g, " "), said);
      const reportJson = JSON.parse((await offline(["report", `${directory}/n`, "--json"])).stdout);
      assertEquals(JSON.stringify(reportJson).includes(`"from":${JSON.stringify(`${directory}/u`)}`), true);
    });
  } finally {
    await server.close();
  }
});

Deno.test("reuse: a graded source is reused and every reader names it; a source whose lock is held is refused", async () => {
  const server = answerServer();
  try {
    await withTempDir(async (directory) => {
      assertEquals((await runQa(`${directory}/g`, server.url, [])).code, 0);
      assertEquals((await grade(`${directory}/g`)).code, 0);
      const lock = await acquireDirectoryLock(`${directory}/g`, "run-qa", "wait", () => new Date());
      try {
        const refused = await runQa(`${directory}/n`, server.url, ["--reuse", `${directory}/g`]);
        assertEquals(refused.code, 2, refused.stdout + refused.stderr);
        assertStringIncludes(refused.stderr, "run-qa.lock");
        assertStringIncludes(refused.stderr, "--reuse source");
      } finally {
        lock.release();
      }
      const taken = await runQa(`${directory}/n`, server.url, ["--reuse", `${directory}/g`]);
      assertEquals(taken.code, 0, taken.stderr);
      assertEquals(server.requests.length, 90);
      assertEquals((await grade(`${directory}/n`)).code, 0);
      const line = `reused: 90 row(s) taken from earlier runs, not answered by this one: ${directory}/g (90)`;
      const verified = await offline(["verify", `${directory}/n`]);
      assertStringIncludes(verified.stdout.replace(/\s+/g, " "), line);
      // The report says it in each format: text, Markdown, HTML and --json.
      const [markdown, html] = [`${directory}/n.md`, `${directory}/n.html`];
      const reported = await offline(["report", `${directory}/n`, "--markdown", markdown, "--html", html]);
      assertEquals(reported.code, 0, reported.stderr);
      assertStringIncludes(reported.stdout.replace(/\s+/g, " "), line);
      assertStringIncludes((await Deno.readTextFile(markdown)).replace(/\s+/g, " "), line);
      assertStringIncludes(await Deno.readTextFile(html), `<p>· ${line}</p>`);
      const json = JSON.parse((await offline(["report", `${directory}/n`, "--json"])).stdout);
      assertEquals(json.verification.reused, {
        rows: 90,
        sources: [{ from: `${directory}/g`, rows: 90, graded: true }],
      });
    });
  } finally {
    await server.close();
  }
});

Deno.test("reuse: the endpoint matches by its full base URL, not its origin", async () => {
  const server = answerServer();
  try {
    await withTempDir(async (directory) => {
      assertEquals((await runQa(`${directory}/g`, server.url, [])).code, 0);
      assertEquals((await grade(`${directory}/g`)).code, 0);
      const other = `${new URL(server.url).origin}/another-gateway/v1`;
      const elsewhere = await runQa(`${directory}/n`, other, ["--reuse", `${directory}/g`]);
      assertEquals(elsewhere.code, 0, elsewhere.stderr);
      assertEquals(server.requests.length, 180);
      assertStringIncludes(elsewhere.stderr, `its answers came from ${server.url}, not ${other}`);
    });
  } finally {
    await server.close();
  }
});

Deno.test("reuse: --dry-run --reuse prices only the calls still needed", async () => {
  const server = answerServer();
  try {
    await withTempDir(async (directory) => {
      assertEquals((await runQa(`${directory}/g`, server.url, ["--limit", "30"])).code, 3 - 3);
      const args = ["--dry-run", "--price-input", "1", "--price-output", "1"];
      // Graded partially: an ungraded source needs the flag in a dry run too.
      const dry = await runQa(`${directory}/n`, server.url, [
        ...args,
        "--reuse",
        `${directory}/g`,
        "--reuse-ungraded",
      ]);
      assertEquals(dry.code, 0, dry.stderr);
      assertMatch(dry.stdout, /estimate: \d+ prompt tokens for 60 call\(s\)/);
      assertStringIncludes(dry.stdout, "would reuse 30 answer(s) from earlier runs");
      assertEquals(server.requests.length, 30);
      assertEquals(await Deno.lstat(`${directory}/n`).then(() => true, () => false), false);
    });
  } finally {
    await server.close();
  }
});

Deno.test("reuse: stand-in runs reuse each other (one stand-in identity, whatever its port)", async () => {
  await withTempDir(async (directory) => {
    const protocol = `${directory}/protocol`;
    await writeDemoProtocol(protocol, await buildDemoProtocol());
    const flags = taskFlags("run-qa");
    const run = (out: string, extra: string[]) =>
      runCli(["run-qa", "--stand-in", "--protocol", protocol, "--output-dir", out, ...extra], { flags });
    assertEquals((await run(`${directory}/a`, [])).code, 0);
    const second = await run(`${directory}/b`, ["--reuse", `${directory}/a`, "--reuse-ungraded"]);
    assertEquals(second.code, 0, second.stderr);
    assertStringIncludes(second.stdout, "answer rows: 90 reused, 0 called, 0 failed");
  });
});

Deno.test("reuse: a source graded only in part (a --limit run's partial/) is refused, and the refusal says so", async () => {
  await withTempDir(async (directory) => {
    const protocol = `${directory}/protocol`;
    await writeDemoProtocol(protocol, await buildDemoProtocol());
    const run = (out: string, extra: string[]) =>
      runCli(["run-qa", "--stand-in", "--protocol", protocol, "--output-dir", out, ...extra], {
        flags: taskFlags("run-qa"),
      });
    assertEquals((await run(`${directory}/a`, ["--limit", "4"])).code, 0);
    const graded = await runCli(["grade-qa", "--protocol", protocol, "--output-dir", `${directory}/a`], {
      flags: CLI,
    });
    assertEquals(graded.code, 0, graded.stderr);
    const refused = await run(`${directory}/b`, ["--reuse", `${directory}/a`]);
    assertEquals(refused.code, 2, refused.stdout + refused.stderr);
    assertEquals(refused.stderr.trim().split("\n").length, 1, refused.stderr);
    assertStringIncludes(refused.stderr, `${directory}/a: not reused: it is graded only in part (partial/)`);
    assertStringIncludes(refused.stderr, "--reuse-ungraded");
  });
});
