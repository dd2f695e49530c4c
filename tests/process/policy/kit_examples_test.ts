// The policy kit's examples run through run-policy as written: each policy an example declares becomes a
// module of its own, and run-policy must accept it on the fixture.

import { assert, assertEquals } from "../../helpers/assert.ts";
import { fixtureProtocolFlags, ROOT, runCli, taskFlags, withTempDir } from "../../helpers/cli.ts";
import { FIXTURE_DATASET } from "../../helpers/fixture.ts";

const SOURCES = ["lib/policy/kit.ts", "lib/policy/contract.ts"];

/** Every `const NAME: Policy = { … };` of a file's JSDoc examples, as source text without the ` * ` margin. */
function examplePolicies(source: string): { name: string; text: string }[] {
  const lines = source.split("\n").map((line) => line.replace(/^ \* ?/, ""));
  const policies: { name: string; text: string }[] = [];
  lines.forEach((line, index) => {
    const declared = /^const (\w+): Policy = \{$/.exec(line);
    if (declared === null) return;
    const end = lines.indexOf("};", index);
    policies.push({ name: declared[1], text: lines.slice(index, end + 1).join("\n") });
  });
  return policies;
}

for (const path of SOURCES) {
  const policies = examplePolicies(await Deno.readTextFile(`${ROOT}${path}`));
  Deno.test(`${path}: its example policies run through run-policy as written`, async () => {
    assert(policies.length > 0, `no example policy found in ${path}`);
    for (const policy of policies) {
      await withTempDir(async (directory) => {
        const module = `${directory}/${policy.name}.ts`;
        const types = new URL(`../../${path}`, import.meta.url).href;
        await Deno.writeTextFile(
          module,
          `import type { Policy } from "${types}";\n${policy.text}\nexport default ${policy.name};\n`,
        );
        const result = await runCli(
          [
            "run-policy",
            "--dataset",
            FIXTURE_DATASET,
            "--output-dir",
            `${directory}/out`,
            "--policy-module",
            module,
            ...fixtureProtocolFlags(),
          ],
          { flags: taskFlags("cli") },
        );
        assertEquals(result.code, 0, `${path}: ${policy.name}: ${result.stderr}`);
      });
    }
  });
}
