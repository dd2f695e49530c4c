/**
 * `author-protocol --cases all` on the demo's dataset: a protocol of every eligible case the rule's balance
 * holds, validated, run through run-policy, run-qa with the stand-in, grade-qa, verify, report and plan; a case
 * removed from its manifest refused by validate; the source protocol never written.
 */

import { assert, assertEquals, assertStringIncludes } from "../../helpers/assert.ts";
import { runCli, taskFlags, unwrap, withTempDir } from "../../helpers/cli.ts";
import { buildDemoProtocol, writeDemoProtocol } from "../../../lib/protocol/mod.ts";
import { loadDemoDataset } from "../../../lib/protocol/demo.ts";
import { eligibleRows } from "../../../lib/protocol/eligible.ts";

const CLI = taskFlags("cli");
const RUN_QA = taskFlags("run-qa");

async function snapshot(directory: string): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of Deno.readDir(directory)) {
    const path = `${directory}/${entry.name}`;
    if (entry.isDirectory) found.push(...await snapshot(path));
    else found.push(`${path} ${(await Deno.readFile(path)).length}`);
  }
  return found.sort();
}

Deno.test("author-protocol --cases all on the demo's dataset runs through every stage and reports as authored", async () => {
  await withTempDir(async (directory) => {
    const source = `${directory}/source`;
    const { dataset } = await writeDemoProtocol(source, await buildDemoProtocol());
    const before = await snapshot(source);
    const protocol = `${directory}/authored`;
    const author = await runCli(
      ["author-protocol", "--from", source, "--dataset", dataset, "--cases", "all", "--output-dir", protocol],
      { flags: CLI },
    );
    assertEquals(author.code, 0, author.stderr);
    const cases = Number(/: (\d+) official cases/.exec(author.stdout)?.[1]);
    assert(cases >= 150, author.stdout);
    assertEquals(await snapshot(source), before);
    const validate = await runCli(["validate", "--protocol", protocol], { flags: CLI });
    assertEquals(validate.code, 0, validate.stderr);
    assertStringIncludes(validate.stdout.replace(/\s+/g, " "), `prepared ${cases + 5} cases`);
    const stages: [string[], string[]][] = [
      [["run-policy", "--protocol", protocol, "--output-dir", `${directory}/policy`], CLI],
      [["run-qa", "--stand-in", "--protocol", protocol, "--output-dir", `${directory}/qa`], RUN_QA],
      [["grade-qa", "--protocol", protocol, "--output-dir", `${directory}/qa`], CLI],
      [["verify", `${directory}/qa`, "--protocol", protocol], CLI],
    ];
    for (const [args, flags] of stages) {
      const result = await runCli(args, { flags });
      assertEquals(result.code, 0, `${args.join(" ")}\n${result.stderr}`);
    }
    const report = await runCli(["report", `${directory}/qa`, "--protocol", protocol], { flags: CLI });
    assertEquals(report.code, 0, report.stderr);
    const opening = report.stdout.split("\n").slice(0, 6).join(" ").replace(/\s+/g, " ");
    assertStringIncludes(opening, "SYNTHETIC");
    assertStringIncludes(opening, "extending deermem-demo-synthetic-v1 by author-protocol");
    assertStringIncludes(opening, "not the pinned pr4789-reproduction-v1");
    assertStringIncludes(report.stdout.replace(/\s+/g, " "), `longmemeval (${cases} cases)`);
    const json = await runCli(["report", `${directory}/qa`, "--protocol", protocol, "--json"], {
      flags: CLI,
    });
    assertEquals(JSON.parse(json.stdout).authored_from, "deermem-demo-synthetic-v1");
    const plan = await runCli([
      "plan",
      `${directory}/qa`,
      "--protocol",
      protocol,
      "--effect",
      "0.1",
      "--json",
    ], {
      flags: CLI,
    });
    assertEquals([plan.code, JSON.parse(plan.stdout).cases], [0, cases], plan.stderr);
  });
});

Deno.test("a case removed from an authored manifest is refused by validate in one line; N and bad ids too", async () => {
  await withTempDir(async (directory) => {
    const source = `${directory}/source`;
    const { dataset } = await writeDemoProtocol(source, await buildDemoProtocol());
    const protocol = `${directory}/authored`;
    const args = ["author-protocol", "--from", source, "--dataset", dataset, "--output-dir"];
    const small = await runCli([...args, protocol, "--cases", "81", "--protocol-id", "demo-80"], {
      flags: CLI,
    });
    assertEquals(small.code, 0, small.stderr);
    assertStringIncludes(small.stdout, "authored demo-80 from deermem-demo-synthetic-v1: 80 official cases");
    const manifest = `${protocol}/manifests/demo-80.json`;
    const value = JSON.parse(await Deno.readTextFile(manifest));
    value.scenarios.access_help.pop();
    await Deno.writeTextFile(manifest, JSON.stringify(value, null, 2));
    const refused = await runCli(["validate", "--protocol", protocol], { flags: CLI });
    assertEquals([refused.code, refused.stdout], [2, ""]);
    assertEquals(refused.stderr.trim().split("\n").length, 1, refused.stderr);
    assertStringIncludes(refused.stderr, "scenarios.access_help: must hold exactly 20 IDs");
    const inside = await runCli([...args, `${source}/manifests/new`, "--cases", "all"], { flags: CLI });
    assertEquals(inside.code, 2, inside.stderr);
    assertStringIncludes(
      inside.stderr,
      "--output-dir: the new protocol cannot be written into the source protocol",
    );
    const badId = await runCli([...args, `${directory}/b`, "--cases", "all", "--protocol-id", "a/b"], {
      flags: CLI,
    });
    assertEquals(badId.code, 2, badId.stderr);
    const badCases = await runCli([...args, `${directory}/c`, "--cases", "some"], { flags: CLI });
    assertStringIncludes(badCases.stderr, "--cases: expected a whole number of official cases");
  });
});

Deno.test("author-protocol --cases N --seed S: same seed same bytes, another seed another draw, validate holds it", async () => {
  await withTempDir(async (directory) => {
    const source = `${directory}/source`;
    const { dataset } = await writeDemoProtocol(source, await buildDemoProtocol());
    const author = (output: string, ...extra: string[]) =>
      runCli(["author-protocol", "--from", source, "--dataset", dataset, "--output-dir", output, ...extra], {
        flags: CLI,
      });
    const seeded = ["--cases", "81", "--seed", "5"];
    const [one, two] = [
      await author(`${directory}/one`, ...seeded),
      await author(`${directory}/two`, ...seeded),
    ];
    assertEquals([one.code, two.code], [0, 0], one.stderr + two.stderr);
    // Named for the 80 cases taken, not the 81 asked for.
    const id = "deermem-demo-synthetic-v1-authored-80-seed-5";
    assertStringIncludes(
      one.stdout.replace(/\s+/g, " "),
      `authored ${id} from deermem-demo-synthetic-v1: 80 official cases (40 per eligible type, drawn by seed 5)`,
    );
    const manifest = (protocol: string, name = id) => Deno.readTextFile(`${protocol}/manifests/${name}.json`);
    for (const name of [`configs/${id}.yaml`, `manifests/${id}.json`, `manifests/synthetic-${id}.json`]) {
      assertEquals(
        await Deno.readFile(`${directory}/one/${name}`),
        await Deno.readFile(`${directory}/two/${name}`),
      );
    }
    const other = await author(`${directory}/other`, "--cases", "81", "--seed", "6", "--protocol-id", "s6");
    assertEquals(other.code, 0, other.stderr);
    const drawn = JSON.parse(await manifest(`${directory}/one`));
    assert(
      JSON.stringify(JSON.parse(await manifest(`${directory}/other`, "s6")).scenarios) !==
        JSON.stringify(drawn.scenarios),
    );
    const validate = await runCli(["validate", "--protocol", `${directory}/one`], { flags: CLI });
    assertEquals(validate.code, 0, validate.stderr);
    assertStringIncludes(validate.stdout.replace(/\s+/g, " "), "prepared 85 cases");
    // validate prints each type's eligible count (the rule over the whole dataset) beside the 40 each takes.
    const eligible = eligibleRows((await loadDemoDataset(await buildDemoProtocol())).dataset, drawn);
    assertStringIncludes(
      validate.stdout.replace(/\s+/g, " "),
      `eligible by the manifest's selection rule: ${
        [...eligible].map(([type, rows]) => `${type} ${rows.length} (takes 40)`).join(", ")
      }; ${[...eligible.values()].reduce((sum, rows) => sum + rows.length, 0)} in all, 80 taken`,
    );
    const json = await runCli(["validate", "--protocol", `${directory}/one`, "--json"], { flags: CLI });
    assertEquals(JSON.parse(json.stdout).eligible, {
      by_type: Object.fromEntries([...eligible].map(([type, rows]) => [type, rows.length])),
      total: [...eligible.values()].reduce((sum, rows) => sum + rows.length, 0),
      taken_per_type: 40,
    });

    // One drawn case swapped for an eligible case the seed did not draw (here: one that seed 6 drew instead).
    const held = new Set(Object.values(drawn.scenarios).flat());
    const drawnBySix = Object.values(JSON.parse(await manifest(`${directory}/other`, "s6")).scenarios).flat();
    const [scenario] = drawn.scenario_order;
    const rows = JSON.parse(await Deno.readTextFile(dataset)) as {
      question_id: string;
      question_type: string;
    }[];
    const typeOf = new Map(rows.map((row) => [row.question_id, row.question_type]));
    const type = typeOf.get(drawn.scenarios[scenario][0]);
    const undrawn = (drawnBySix as string[]).find((item) => !held.has(item) && typeOf.get(item) === type);
    assert(undrawn !== undefined);
    drawn.scenarios[scenario][0] = undrawn;
    const path = `${directory}/one/manifests/${id}.json`;
    await Deno.writeTextFile(path, JSON.stringify(drawn, null, 2));
    const refused = await runCli(["validate", "--protocol", `${directory}/one`], { flags: CLI });
    assertEquals([refused.code, refused.stdout], [2, ""]);
    assertEquals(refused.stderr.trim().split("\n").length, 1, refused.stderr);
    assertStringIncludes(refused.stderr, `${id}.json: scenarios.${scenario}: pinned IDs do not match`);
  });
});

Deno.test("author-protocol --seed with --cases all is refused in one line, exit 2, nothing written", async () => {
  await withTempDir(async (directory) => {
    const source = `${directory}/source`;
    const { dataset } = await writeDemoProtocol(source, await buildDemoProtocol());
    const output = `${directory}/out`;
    const refused = await runCli([
      "author-protocol",
      "--from",
      source,
      "--dataset",
      dataset,
      "--cases",
      "all",
      "--seed",
      "1",
      "--output-dir",
      output,
    ], { flags: CLI });
    assertEquals([refused.code, refused.stdout], [2, ""]);
    assertEquals(refused.stderr.trim().split("\n").length, 1, refused.stderr);
    assertStringIncludes(refused.stderr, "--seed: expected --cases N to draw from, got all");
    const fraction = await runCli(
      ["author-protocol", "--dataset", dataset, "--cases", "8", "--seed", "1.5", "--output-dir", output],
      { flags: CLI },
    );
    assertEquals(
      [fraction.code, fraction.stderr],
      [2, 'deermem-eval author-protocol: --seed: expected a non-negative whole number, got "1.5"\n'],
    );
    assertEquals(await Deno.stat(output).then(() => true, () => false), false);
  });
});

Deno.test("author-protocol without --from authors from the pinned protocol embedded, as --from the checkout does", async () => {
  await withTempDir(async (directory) => {
    const { dataset } = await writeDemoProtocol(`${directory}/demo`, await buildDemoProtocol());
    const args = ["author-protocol", "--dataset", dataset, "--cases", "all", "--output-dir"];
    // From an empty directory, as the bundle runs: the program's own protocol is the source.
    await Deno.mkdir(`${directory}/empty`);
    const embedded = await runCli([...args, "out"], { flags: CLI, cwd: `${directory}/empty` });
    assertEquals(embedded.code, 0, embedded.stderr);
    assertStringIncludes(
      unwrap(embedded.stdout),
      "authored deermem-hybrid-v1-pr4789-reproduction-v1-authored-all from deermem-hybrid-v1-pr4789-reproduction-v1:",
    );
    const checkout = await runCli([...args, `${directory}/checkout`, "--from", "."], { flags: CLI });
    assertEquals(checkout.code, 0, checkout.stderr);
    assertEquals(
      await snapshot(`${directory}/empty/out`).then((files) =>
        files.map((f) => f.slice(directory.length + 10))
      ),
      await snapshot(`${directory}/checkout`).then((files) =>
        files.map((f) => f.slice(directory.length + 9))
      ),
    );
    for (
      const name of [
        "configs/deermem-hybrid-v1-pr4789-reproduction-v1-authored-all.yaml",
        "prompts/answer-v1.txt",
      ]
    ) {
      assertEquals(
        await Deno.readTextFile(`${directory}/empty/out/${name}`),
        await Deno.readTextFile(`${directory}/checkout/${name}`),
        name,
      );
    }
  });
});

Deno.test("author-protocol takes $LONGMEMEVAL_ORACLE_PATH for --dataset, as every --dataset does", async () => {
  await withTempDir(async (directory) => {
    const { dataset } = await writeDemoProtocol(`${directory}/demo`, await buildDemoProtocol());
    const args = ["author-protocol", "--from", `${directory}/demo`, "--cases", "all", "--output-dir"];
    const given = await runCli([...args, `${directory}/given`, "--dataset", dataset], { flags: CLI });
    assertEquals(given.code, 0, given.stderr);
    const env = { LONGMEMEVAL_ORACLE_PATH: dataset };
    const fromEnv = await runCli([...args, `${directory}/env`], { flags: CLI, env });
    assertEquals(fromEnv.code, 0, fromEnv.stderr);
    const names = (files: string[], root: string) => files.map((file) => file.slice(root.length));
    assertEquals(
      names(await snapshot(`${directory}/env`), `${directory}/env`),
      names(await snapshot(`${directory}/given`), `${directory}/given`),
    );
    const neither = await runCli([...args, `${directory}/neither`], { flags: CLI });
    assertEquals([neither.code, neither.stdout], [2, ""]);
    assertEquals(
      neither.stderr,
      "deermem-eval author-protocol: needs --dataset PATH (or $LONGMEMEVAL_ORACLE_PATH)\n",
    );
  });
});
