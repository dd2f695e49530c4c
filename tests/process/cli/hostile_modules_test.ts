/**
 * Hostile policy modules: each attack is contained and named — refused in one line naming the module (and the
 * case), exit 2, nothing written; or, where the attack can only touch the module's own sandbox, the host's rows,
 * module name and SHA-256 exactly those of the benign module — and no file outside the output directory touched.
 */

import { assert, assertEquals, assertMatch } from "../../helpers/assert.ts";
import { fixtureProtocolFlags, ROOT, runCli, taskFlags, withTempDir } from "../../helpers/cli.ts";
import { FIXTURE_DATASET } from "../../helpers/fixture.ts";
import { sha256Hex } from "../../../lib/base/hash.ts";

const HOSTILE = `${ROOT}tests/fixtures/policies/hostile`;
const OUTSIDE = ["hostile-write", "hostile-run", "hostile-late"].map((name) =>
  `/tmp/deermem-eval-${name}.txt`
);

function runModule(output: string, module: string, extra: string[] = [], env?: Record<string, string>) {
  return runCli(
    [
      "run-policy",
      "--dataset",
      FIXTURE_DATASET,
      "--output-dir",
      output,
      "--policy-module",
      module,
      ...extra,
      ...fixtureProtocolFlags(),
    ],
    { flags: taskFlags("cli"), env },
  );
}

async function listDir(directory: string): Promise<string[]> {
  const names = [];
  for await (const entry of Deno.readDir(directory)) names.push(entry.name);
  return names.sort();
}

async function outsideFiles(): Promise<string[]> {
  const found = [];
  for (const path of OUTSIDE) {
    try {
      await Deno.lstat(path);
      found.push(path);
    } catch {
      // Absent, as it must be.
    }
  }
  return found;
}

/** The benign module's rows, with its own name and SHA-256 taken out (each module's are checked apart). */
const benign = await withTempDir(async (directory) => {
  const result = await runModule(directory, `${HOSTILE}/keep_first.ts`);
  assertEquals(result.code, 0, result.stderr);
  return await readOutputs(directory);
});

async function readOutputs(directory: string) {
  // The module's rows follow the published pair's, which no module touches.
  const rows = (await Deno.readTextFile(`${directory}/policy.raw.jsonl`)).trimEnd().split("\n")
    .filter((line) => JSON.parse(line).policy_module !== undefined);
  const modules = new Set(rows.map((line) => {
    const row = JSON.parse(line);
    return `${row.policy_module} ${row.policy_module_sha256}`;
  }));
  const strip = (text: string) => text.replace(/"policy_module(_sha256)?": ?"[^"]*",? ?/g, "");
  // summary.json and run.json record the module: its policy's name is compared, its file and hash apart.
  const record = async (path: string) => {
    const value = JSON.parse(await Deno.readTextFile(path));
    delete value.created_at;
    delete value.policy_module?.file;
    delete value.policy_module?.sha256;
    return value;
  };
  return {
    rows: rows.map(strip),
    modules: [...modules],
    summary: await record(`${directory}/summary.json`),
    run: await record(`${directory}/run.json`),
  };
}

const REFUSED: [module: string, expected: RegExp, extra?: string[]][] = [
  [
    "reads_file.ts",
    /: case \w+ at capacity 5: the policy threw NotCapable: Requires read access to "\/etc\/hosts"/,
  ],
  ["writes_file.ts", /: case \w+ at capacity 5: the policy threw NotCapable: Requires write access to /],
  ["fetches.ts", /: cannot load the module: NotCapable: Requires net access to "127\.0\.0\.1:8"/],
  ["reads_env.ts", /: case \w+ at capacity 5: the policy threw NotCapable: Requires env access to "HOME"/],
  ["runs.ts", /: case \w+ at capacity 5: the policy threw NotCapable: Requires run access to "\/bin\/sh"/],
  [
    "ffi.ts",
    /: case \w+ at capacity 5: the policy threw (NotCapable: Requires ffi access|TypeError: Deno\.dlopen)/,
  ],
  [
    "imports_npm.ts",
    /: cannot load the module: it imports code, and a policy module may import types only \(npm specifiers were requested; but --no-npm is specified\)$/,
  ],
  [
    "imports_https.ts",
    /: cannot load the module: it imports code, and a policy module may import types only \(Requires import access to "127\.0\.0\.1:9"/,
  ],
  [
    "imports_relative.ts",
    /: cannot load the module: it imports code, and a policy module may import types only \(.*(relative URL|not a dependency and not in import map)/,
  ],
  ["exits.ts", /: case \w+ at capacity 5: ended its sandbox \(exit code 0\) without answering$/],
  [
    "unhandled_rejection.ts",
    /: cannot load the module: an unhandled promise rejection: Error: nobody awaits this at \S+\/unhandled_rejection\.ts:3:16$/,
  ],
  ["never_settles.ts", /: cannot load the module: did not finish within the time limit of 1 s$/, [
    "--policy-time-limit",
    "1",
  ]],
  ["endless_loop.ts", /: case \w+ at capacity 5: did not finish within the time limit of 1 s$/, [
    "--policy-time-limit",
    "1",
  ]],
  [
    "huge_allocation.ts",
    /: case \w+ at capacity 5: ran out of memory \(the limit is 1024 MiB in all, 512 MiB of it heap\)$/,
  ],
  ["writes_stdout.ts", /: case \w+ at capacity 5: its sandbox sent an answer that is not UTF-8$/],
  [
    "nested_answer.ts",
    /: case \w+ at capacity 5: its sandbox sent an answer nested more than 900 levels deep$/,
  ],
  // The memory attacks get a long time limit: the memory bound, not the clock, must stop them.
  [
    "wasm_memory.ts",
    /: case \w+ at capacity 5: the policy threw NotCapable: WebAssembly is not available to a policy module at \S+\/wasm_memory\.ts:\d+:\d+$/,
    ["--policy-time-limit", "60"],
  ],
  [
    "workers.ts",
    /: cannot load the module: NotCapable: Worker is not available to a policy module at \S+\/workers\.ts:\d+:\d+$/,
    ["--policy-time-limit", "60"],
  ],
  [
    "node_workers.ts",
    /: cannot load the module: (NotCapable: process\.cwd is not available to a policy module( at \S+:\d+:\d+)?|ran out of memory \(.*\))$/,
    ["--policy-time-limit", "60"],
  ],
  [
    "wasm_import.ts",
    /: cannot load the module: ran out of memory \(the limit is 1024 MiB in all, 512 MiB of it heap\)$/,
    ["--policy-time-limit", "60"],
  ],
  [
    "array_buffers.ts",
    /: case \w+ at capacity 5: ran out of memory \(the limit is 1024 MiB in all, 512 MiB of it heap\)$/,
    ["--policy-time-limit", "60"],
  ],
  [
    "name_escapes.ts",
    /: default\.name: must be printable text without control characters: "keep-first\\u\{1b\}\[2J\\u\{a\}not a line of ours"$/,
  ],
];

for (const [module, expected, extra] of REFUSED) {
  Deno.test(`a hostile module is refused in one line naming it, exit 2, nothing written: ${module}`, async () => {
    for (const path of OUTSIDE) await Deno.remove(path).catch(() => {});
    await withTempDir(async (directory) => {
      const result = await runModule(directory, `${HOSTILE}/${module}`, extra);
      assertEquals(result.code, 2, result.stderr);
      const lines = result.stderr.trimEnd().split("\n");
      assertEquals(lines.length, 1, result.stderr);
      assert(lines[0].startsWith(`deermem-eval run-policy: ${HOSTILE}/${module}: `), lines[0]);
      assertMatch(lines[0], expected);
      assert(!/\p{Cc}/u.test(lines[0]), lines[0]);
      assertEquals(result.stdout, "");
      assertEquals(await listDir(directory), []);
      assertEquals(await outsideFiles(), []);
    });
  });
}

const CONTAINED = [
  "mutates_input.ts",
  "patches_object_prototype.ts",
  "patches_text_encoder.ts",
  "patches_json.ts",
  "late_timer.ts",
];

for (const module of CONTAINED) {
  Deno.test(`a hostile module touches only its sandbox: the host's rows, name and SHA-256 unchanged: ${module}`, async () => {
    for (const path of OUTSIDE) await Deno.remove(path).catch(() => {});
    await withTempDir(async (directory) => {
      const output = `${directory}/out`;
      const result = await runModule(output, `${HOSTILE}/${module}`);
      assertEquals(result.code, 0, result.stderr);
      assertEquals(result.stderr, "");
      const sha256 = await sha256Hex(await Deno.readFile(`${HOSTILE}/${module}`));
      const written = await readOutputs(output);
      assertEquals(written.modules, [`${module} ${sha256}`]);
      assertEquals(written.rows, benign.rows);
      assertEquals(written.summary, benign.summary);
      assertEquals(written.run, benign.run);
      // Long after the command printed success, no timer of the module has written anything anywhere.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      assertEquals(await readOutputs(output), written);
      assertEquals(await listDir(directory), ["out"]);
      assertEquals(await outsideFiles(), []);
    });
  });
}

Deno.test("a module reading a side file cannot make different results under the same SHA-256: it is refused", async () => {
  await withTempDir(async (directory) => {
    await Deno.writeTextFile(`${directory}/side.json`, '{"keep": "all"}');
    const module = `${directory}/side_reader.ts`;
    await Deno.writeTextFile(
      module,
      `const side = JSON.parse(Deno.readTextFileSync(${JSON.stringify(`${directory}/side.json`)}));\n` +
        `export default { name: "side", select: () => side };\n`,
    );
    const result = await runModule(`${directory}/out`, module);
    assertEquals(result.code, 2, result.stderr);
    assertEquals(
      result.stderr,
      `deermem-eval run-policy: ${module}: cannot load the module: NotCapable: Requires read access to "${directory}/side.json", run again with the --allow-read flag at ${module}:1:30\n`,
    );
    await Deno.writeTextFile(
      module,
      `import side from "./side.json" with { type: "json" };\nexport default side;\n`,
    );
    const imported = await runModule(`${directory}/out`, module);
    assertEquals(imported.code, 2, imported.stderr);
    assertMatch(imported.stderr, /^deermem-eval run-policy: [^\n]+: cannot load the module: [^\n]+\n$/);
  });
});

Deno.test("no offline command makes the module loader fetch: a module's npm: and https: imports reach no registry", async () => {
  const requests: string[] = [];
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, (request) => {
    requests.push(request.url);
    return new Response("export default 1;", { headers: { "content-type": "application/javascript" } });
  });
  try {
    const registry = `http://127.0.0.1:${server.addr.port}/`;
    await withTempDir(async (directory) => {
      for (
        const [name, specifier] of [
          ["npm", `"npm:exfil-" + "0123abcd"`],
          ["https", `"https://127.0.0.1:${server.addr.port}/" + "exfil.js"`],
          ["http", `"${registry}" + "exfil.js"`],
        ]
      ) {
        const module = `${directory}/${name}.ts`;
        await Deno.writeTextFile(
          module,
          `await import(${specifier});\nexport default { name: "x", select: () => ({}) };\n`,
        );
        const env = { NPM_CONFIG_REGISTRY: registry, DENO_NO_UPDATE_CHECK: "1" };
        const result = await runModule(`${directory}/out`, module, [], env);
        assertEquals(result.code, 2, result.stderr);
        assertMatch(result.stderr, /^deermem-eval run-policy: [^\n]+: cannot load the module: [^\n]+\n$/);
      }
    });
    assertEquals(requests, []);
  } finally {
    await server.shutdown();
  }
});

Deno.test("--policy-time-limit takes seconds in (0, 3600] and only with --policy-module", async () => {
  await withTempDir(async (directory) => {
    for (const value of ["0", "-1", "1e3", "3601", "soon"]) {
      const result = await runModule(directory, `${HOSTILE}/keep_first.ts`, [`--policy-time-limit=${value}`]);
      assertEquals(
        [result.code, result.stderr],
        [
          2,
          `deermem-eval run-policy: --policy-time-limit: expected a number of seconds in (0, 3600], got "${value}"\n`,
        ],
      );
    }
    const alone = await runCli(
      ["run-policy", "--dataset", FIXTURE_DATASET, "--output-dir", directory, "--policy-time-limit", "2"],
      { flags: taskFlags("cli") },
    );
    assertEquals([alone.code, alone.stderr], [
      2,
      "deermem-eval run-policy: --policy-time-limit is for --policy-module\n",
    ]);
    assertEquals(await listDir(directory), []);
  });
});

/** Every file under `directory` with its size and modification time, or [] when it does not exist. */
async function tree(directory: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (path: string) => {
    for await (const entry of Deno.readDir(path)) {
      const child = `${path}/${entry.name}`;
      const info = await Deno.lstat(child);
      found.push(`${child} ${info.size} ${info.mtime?.getTime()}`);
      if (info.isDirectory) await walk(child);
    }
  };
  await walk(directory).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  });
  return found.sort();
}

Deno.test("a module's localStorage and caches keep nothing: a second run finds nothing, no Deno dir grows", async () => {
  // The Deno dir a child with an empty environment would use (its location_data holds web storage).
  const info = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"], clearEnv: true }).output();
  const locationData = `${JSON.parse(new TextDecoder().decode(info.stdout)).denoDir}/location_data`;
  const before = await tree(locationData);
  await withTempDir(async (directory) => {
    for (const run of ["first", "second"]) {
      const output = `${directory}/${run}`;
      const result = await runModule(output, `${HOSTILE}/stores.ts`);
      assertEquals([result.code, result.stderr], [0, ""]);
      assertEquals((await readOutputs(output)).rows, benign.rows, run);
    }
    assertEquals(await listDir(directory), ["first", "second"]);
  });
  assertEquals(await tree(locationData), before);
});

Deno.test("a module learns neither the working directory nor the executable's path nor the host's pid", async () => {
  await withTempDir(async (directory) => {
    const cwd = await Deno.makeTempDir({ dir: directory, prefix: "user-cwd-" });
    const result = await runCli(
      [
        "run-policy",
        "--dataset",
        FIXTURE_DATASET,
        "--output-dir",
        `${cwd}/out`,
        "--policy-module",
        `${HOSTILE}/leaks_paths.ts`,
        ...fixtureProtocolFlags(),
      ],
      { flags: taskFlags("cli"), cwd },
    );
    assertEquals([result.code, result.stderr], [0, ""]);
    const written = await readOutputs(`${cwd}/out`);
    assertEquals(
      written.rows.map((row) => row.replace(/"policy": ?"[^"]*"/, "")),
      benign.rows.map((row) => row.replace(/"policy": ?"[^"]*"/, "")),
    );
    // Each way is withheld: node:process is not there to import, nor process as a global.
    assertEquals(JSON.parse(written.rows[0]).policy, "paths - - - - - - - - - -");
  });
});

Deno.test("without prlimit to bound its memory, no module runs, even with deno granted: one line saying what to grant, exit 2", async () => {
  await withTempDir(async (directory) => {
    // deno alone is granted, as the tasks did before the sandbox's memory was bounded.
    const flags = taskFlags("cli").map((flag) => flag.startsWith("--allow-run=") ? "--allow-run=deno" : flag);
    const result = await runCli(
      [
        "run-policy",
        "--dataset",
        FIXTURE_DATASET,
        "--output-dir",
        `${directory}/out`,
        "--policy-module",
        `${HOSTILE}/keep_first.ts`,
        ...fixtureProtocolFlags(),
      ],
      { flags },
    );
    assertEquals([result.code, result.stderr], [
      2,
      `deermem-eval run-policy: ${HOSTILE}/keep_first.ts: a policy module runs in a child deno with no ` +
      "permissions under prlimit (util-linux), which needs --allow-run=/usr/bin/prlimit\n",
    ]);
    assertEquals(await listDir(directory), []);
  });
});

Deno.test("a prlimit earlier on PATH is never run: the sandbox starts /usr/bin/prlimit by its absolute path", async () => {
  await withTempDir(async (directory) => {
    // A prlimit that sets no limit: it notes that it ran, drops its limit arguments and runs the rest.
    await Deno.mkdir(`${directory}/bin`);
    await Deno.writeTextFile(
      `${directory}/bin/prlimit`,
      `#!/bin/sh\ntouch '${directory}/fake-ran'\nshift; shift\nexec "$@"\n`,
      { mode: 0o755 },
    );
    const result = await runCli(
      [
        "run-policy",
        "--dataset",
        FIXTURE_DATASET,
        "--output-dir",
        `${directory}/out`,
        "--policy-module",
        `${HOSTILE}/keep_first.ts`,
        ...fixtureProtocolFlags(),
      ],
      { flags: taskFlags("cli"), env: { PATH: `${directory}/bin:${Deno.env.get("PATH")}` } },
    );
    assertEquals(result.code, 0, result.stderr);
    assertEquals((await listDir(directory)).includes("fake-ran"), false);
  });
});
