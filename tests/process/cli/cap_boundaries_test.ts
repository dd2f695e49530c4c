// Each reader with a cap of its own, at the boundary: a file of exactly the cap passes the cap (what it then
// says of the bytes is its parser's business), one byte more is refused as over the cap. The sizes are spelled
// here in bytes, so a cap changed or checked off by one fails.

import { UnreadableFileError } from "../../../lib/base/errors.ts";
import { VectorFormatError } from "../../../lib/conformance/mod.ts";
import { readVectorFile } from "../../../lib/conformance/run.ts";
import { loadPolicyModule } from "../../../lib/policy/module.ts";
import { embeddedSources, loadContracts } from "../../../lib/protocol/contracts.ts";
import { prepareDataset, readContracts } from "../../../lib/protocol/prepare.ts";
import { assert, assertEquals, assertRejects } from "../../helpers/assert.ts";
import { ROOT, withTempDir } from "../../helpers/cli.ts";

const MIB = 1024 * 1024;

/** `head` padded with a trailing comment line (`#` or `//`) to exactly `size` bytes. */
function padded(head: string, comment: string, size: number): Uint8Array {
  const bytes = new TextEncoder().encode(`${head}\n${comment}`);
  const out = new Uint8Array(size).fill(0x20);
  out.set(bytes);
  out[size - 1] = 0x0a;
  return out;
}

async function refusedMessage(body: () => Promise<unknown>): Promise<string> {
  try {
    await body();
  } catch (error) {
    return (error as Error).message;
  }
  return "accepted";
}

Deno.test("the config at its cap: 262144 bytes are read (and load), 262145 are refused as over the 256 KiB cap", async () => {
  await withTempDir(async (directory) => {
    const path = `${directory}/config.yaml`;
    const config = new TextDecoder().decode(embeddedSources().config.bytes).trimEnd();
    await Deno.writeFile(path, padded(config, "#", 256 * 1024));
    const contracts = await readContracts({ config: path });
    assertEquals(contracts.sources.config, path);
    await Deno.writeFile(path, padded(config, "#", 256 * 1024 + 1));
    const error = await assertRejects(() => readContracts({ config: path }), UnreadableFileError);
    assertEquals(error.message, `${path}: config is 262145 bytes, over the 256 KiB cap`);
  });
});

Deno.test("the dataset at its cap: 134217728 bytes pass the cap (then fail as not JSON), 134217729 are refused as over it", async () => {
  const contracts = await loadContracts(embeddedSources());
  await withTempDir(async (directory) => {
    const path = `${directory}/dataset.json`;
    await Deno.writeFile(path, new Uint8Array(0));
    await Deno.truncate(path, 128 * MIB);
    const atCap = await refusedMessage(() => prepareDataset(contracts, path));
    assert(!atCap.includes("cap") && atCap !== "accepted", atCap);
    await Deno.truncate(path, 128 * MIB + 1);
    assertEquals(
      await refusedMessage(() => prepareDataset(contracts, path)),
      `${path}: dataset is 134217729 bytes, over the 128 MiB cap`,
    );
  });
});

Deno.test("a vector file at its cap: 67108864 bytes are read, 67108865 are refused as over the 64 MiB cap", async () => {
  await withTempDir(async (directory) => {
    const path = `${directory}/libm.jsonl`;
    await Deno.writeFile(path, new Uint8Array(0));
    await Deno.truncate(path, 64 * MIB);
    assertEquals((await readVectorFile(path)).length, 64 * MIB);
    await Deno.truncate(path, 64 * MIB + 1);
    await assertRejects(() => readVectorFile(path), VectorFormatError, "larger than the 64 MiB cap");
  });
});

Deno.test("a policy module at its cap: 1048576 bytes load, 1048577 are refused as over the 1 MiB cap", async () => {
  await withTempDir(async (directory) => {
    const path = `${directory}/recency.ts`;
    const source = (await Deno.readTextFile(`${ROOT}tests/fixtures/policies/recency.ts`)).trimEnd();
    await Deno.writeFile(path, padded(source, "//", MIB));
    assertEquals((await loadPolicyModule(path)).policy.name, "recency");
    await Deno.writeFile(path, padded(source, "//", MIB + 1));
    const error = await assertRejects(() => loadPolicyModule(path), UnreadableFileError);
    assertEquals(error.message, `${path}: policy module is 1048577 bytes, over the 1 MiB cap`);
  });
});
