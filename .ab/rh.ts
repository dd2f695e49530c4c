import { createHash } from "node:crypto";
const path = "/tmp/exp/pipe/dataset.json";
const mode = Deno.args[0];
const s = performance.now();
let hex = "";
if (mode === "whole") {
  const bytes = await Deno.readFile(path);
  hex = createHash("sha256").update(bytes).digest("hex");
} else {
  const file = Deno.openSync(path);
  const size = file.statSync().size;
  const bytes = new Uint8Array(size);
  const hash = createHash("sha256");
  let at = 0;
  while (at < size) {
    const n = file.readSync(bytes.subarray(at, Math.min(size, at + (1 << 20))));
    if (n === null || n === 0) break;
    hash.update(bytes.subarray(at, at + n));
    at += n;
  }
  file.close();
  hex = hash.digest("hex");
}
console.log(mode, (performance.now() - s).toFixed(1), hex.slice(0, 8));
