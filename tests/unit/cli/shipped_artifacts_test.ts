/** The repository's shipped files: the protocol artifacts and published results match their pins (no module). */
import { assertEquals } from "../../helpers/assert.ts";
import { sha256Hex } from "../../../lib/base/hash.ts";
import { PINS, ROOT } from "../../helpers/cli.ts";

const SUMS = `${PINS}/pr4789-reproduction-v1.SHA256SUMS`;

function pinned(): [string, string][] {
  return Deno.readTextFileSync(SUMS).trim().split("\n").map((line) => {
    const [sum, path] = line.split(/\s+/);
    return [sum, path.replace(/^\.\//, "")];
  });
}

Deno.test("shipped protocol artifacts are byte-identical to the pinned ones", async () => {
  const protocolFiles = pinned().filter(([, path]) => !path.startsWith("results/"));
  assertEquals(protocolFiles.length, 4);
  for (const [sum, path] of protocolFiles) {
    assertEquals(await sha256Hex(await Deno.readFile(`${ROOT}${path}`)), sum, path);
  }
});

Deno.test("published results shipped under results/pr4789-reproduction-v1 match the pins", async () => {
  const results = pinned().filter(([, path]) => path.startsWith("results/"));
  assertEquals(results.length, 4);
  for (const [sum, path] of results) {
    const local = `${ROOT}results/pr4789-reproduction-v1/${path.slice("results/".length)}`;
    assertEquals(await sha256Hex(await Deno.readFile(local)), sum, path);
  }
});
