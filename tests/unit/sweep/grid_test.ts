import { assert, assertEquals, assertMatch, assertThrows } from "../../helpers/assert.ts";
import { fixtureContracts } from "../../helpers/fixture.ts";
import { embeddedArtifact } from "../../../lib/protocol/contracts.ts";
import { parseConfig } from "../../../lib/protocol/config.ts";
import { InputError } from "../../../lib/base/errors.ts";
import {
  defaultGrid,
  MAX_GRID_POINTS,
  parseGrid,
  simplexWeights,
  type SweepGrid,
} from "../../../lib/sweep/mod.ts";

const { config } = await fixtureContracts();

Deno.test("grid weights are multiples of the step on the simplex, each a config the protocol accepts", () => {
  const weights = simplexWeights(20);
  assertEquals(weights.length, 231);
  // 1 - 0.65 - 0.25 is 0.09999999999999998: computing the third weight by subtraction would miss the published one.
  assert(1 - 0.65 - 0.25 !== 0.1);
  assert(weights.some((w) => w.confidence === 0.65 && w.confirmation === 0.25 && w.access === 0.1));
  const yaml = embeddedArtifact("configs/pr4789-reproduction-v1.yaml");
  const text = new TextDecoder().decode(yaml.bytes);
  const block = /( {4}weights:\n {6}confidence: .*\n {6}confirmation: .*\n {6}access: .*\n)/;
  assertMatch(text, block);
  for (const w of weights) {
    const changed = text.replace(
      block,
      `    weights:\n      confidence: ${w.confidence}\n      confirmation: ${w.confirmation}\n      access: ${w.access}\n`,
    );
    const parsed = parseConfig(changed, "grid-point.yaml").policies.hybrid_v1.weights;
    assertEquals([parsed.confidence, parsed.confirmation, parsed.access], [
      w.confidence,
      w.confirmation,
      w.access,
    ]);
  }
});

Deno.test("the default grid: 231 weights, half-lives at ½×, 1×, 2×, reserve 0 and published, capacities 1…pool size", () => {
  const grid = defaultGrid(config);
  assertEquals(grid.weights.length, 231);
  assertEquals(grid.confirmationHalfLifeDays, [45, 90, 180]);
  assertEquals(grid.accessHalfLifeDays, [15, 30, 60]);
  assertEquals(grid.correctionReservedFraction, [0, 0.1]);
  assertEquals(grid.correctionReservedMax, [10]);
  assertEquals(grid.capacities, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
});

Deno.test("a bad grid file is one InputError naming the file and the field", () => {
  const bad = (text: string, expected: string) =>
    assertEquals(assertThrows(() => parseGrid(text, "g.yaml", config), InputError).message, expected);
  bad("weights_step: 0.3\n", "g.yaml: weights_step: must be 1/n for a whole n from 1 to 100 (e.g. 0.05)");
  bad("capacities: [5, 11]\n", "g.yaml: capacities.1: must be in [1, 10] (the pool size)");
  bad("capacities: [0]\n", "g.yaml: capacities.0: must be ≥ 1");
  bad(
    "confirmation_half_life_days: [90, 90]\n",
    "g.yaml: confirmation_half_life_days: must not repeat a value",
  );
  bad(
    "access_half_life_days: [1.5]\n",
    "g.yaml: access_half_life_days.0: must be an integer, got a number with a fractional part",
  );
  bad("correction_reserved_fraction: [1.5]\n", "g.yaml: correction_reserved_fraction.0: must be in [0, 1]");
  bad("correction_reserved_max: []\n", "g.yaml: correction_reserved_max: must not be empty");
  bad("half_life: 3\n", "g.yaml: (root): unknown key(s): half_life");
  assertMatch(
    assertThrows(() => parseGrid("a: [", "g.yaml", config), InputError).message,
    /^g\.yaml: not valid YAML/,
  );
  // An empty file is the default grid.
  assertEquals(parseGrid("", "g.yaml", config), defaultGrid(config));
});

/** A parse's value, or `refused: ` and the reason (the message without its file and field). */
function outcome(read: () => unknown): unknown {
  try {
    return read();
  } catch (error) {
    if (error instanceof InputError) return `refused: ${error.detail}`;
    throw error;
  }
}

Deno.test("the grid reads each number as the config reads a field of its type: PyYAML, then pydantic's lax mode", () => {
  // PyYAML reads 5e-2 as a string (a YAML 1.1 float needs a dot); a config float field turns it into 0.05.
  assertEquals(
    parseGrid("weights_step: 5e-2\n", "g.yaml", config),
    parseGrid("weights_step: 0.05\n", "g.yaml", config),
  );
  const text = new TextDecoder().decode(embeddedArtifact("configs/pr4789-reproduction-v1.yaml").bytes);
  const asConfig = (
    key: string,
    spelling: string,
    read: (parsed: ReturnType<typeof parseConfig>) => unknown,
  ) =>
    outcome(() => {
      const changed = text.replace(new RegExp(`^( *${key}: ).*$`, "m"), `$1${spelling}`);
      assert(changed !== text, key);
      return read(parseConfig(changed, "c.yaml"));
    });
  const asGrid = (key: string, spelling: string, read: (grid: SweepGrid) => unknown) =>
    outcome(() => read(parseGrid(`${key}: ${spelling}\n`, "g.yaml", config)));
  const ints = [
    "7",
    "'7'",
    "' 7 '",
    "7.0",
    "'7.0'",
    "0x7",
    "07",
    "1:30",
    "true",
    "1e1",
    "'1e1'",
    "7.5",
    ".inf",
    "0",
    "-3",
    "abc",
    "[7]",
  ];
  const floats = ["0.1", "'0.1'", "1e-1", "'1e-1'", "1.0e-1", "true", "0", "'nan'", "1.5", "abc", "'0x1p-1'"];
  const hybrid = (key: string) => (parsed: ReturnType<typeof parseConfig>) =>
    (parsed.policies.hybrid_v1 as Record<string, unknown>)[key];
  for (const key of ["confirmation_half_life_days", "access_half_life_days", "correction_reserved_max"]) {
    for (const spelling of ints) {
      const grid = asGrid(
        key,
        `[${spelling}]`,
        (grid) => (grid as unknown as Record<string, number[]>)[camel(key)][0],
      );
      assertEquals(grid, asConfig(key, spelling, hybrid(key)), `${key}: ${spelling}`);
    }
  }
  for (const spelling of ints) {
    // A capacity is an int ≥ 1 like a half-life, and at most the pool size.
    const expected = asConfig("confirmation_half_life_days", spelling, hybrid("confirmation_half_life_days"));
    const capacity = asGrid("capacities", `[${spelling}]`, (grid) => grid.capacities[0]);
    const poolSize = "refused: must be in [1, 10] (the pool size)";
    assertEquals(capacity, typeof expected === "number" && expected > 10 ? poolSize : expected, spelling);
  }
  for (const spelling of floats) {
    const key = "correction_reserved_fraction";
    const grid = asGrid(key, `[${spelling}]`, (grid) => grid.correctionReservedFraction[0]);
    assertEquals(grid, asConfig(key, spelling, hybrid(key)), `${key}: ${spelling}`);
  }
  for (const spelling of ["0.05", "5e-2", "'0.25'", "' 0.5 '", "true", "1", "abc"]) {
    // weights_step is a float (then 1/n); the config's float field qa.temperature converts it the same way.
    const expected = asConfig("temperature", spelling, (parsed) => parsed.qa.temperature);
    const step = asGrid("weights_step", spelling, (grid) => grid.weightStep);
    assertEquals(step, expected, `weights_step: ${spelling}`);
  }
});

function camel(key: string): string {
  return key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

Deno.test("a grid too large to evaluate is refused in one line naming the product of its dimensions", () => {
  const days = Array.from({ length: 200 }, (_, index) => index + 1).join(", ");
  const text =
    `weights_step: 0.01\nconfirmation_half_life_days: [${days}]\naccess_half_life_days: [${days}]\n`;
  const error = assertThrows(() => parseGrid(text, "grid.yaml", config), InputError);
  assertEquals(
    error.message,
    "grid.yaml: the grid has 5151 weight points × 200 × 200 half-lives × 2 × 1 reserve values × 10 capacities = " +
      "4,120,800,000 grid points, more than the 84,000 one sweep evaluates",
  );
});

Deno.test("the grid bound leaves room: the default grid fits twice over, 83,160 points are evaluated, 97,020 refused", () => {
  const days = (count: number) => `[${Array.from({ length: count }, (_, index) => index + 1).join(", ")}]`;
  const points = (grid: SweepGrid) =>
    grid.weights.length * grid.confirmationHalfLifeDays.length * grid.accessHalfLifeDays.length *
    grid.correctionReservedFraction.length * grid.correctionReservedMax.length * grid.capacities.length;
  assertEquals(points(defaultGrid(config)), 41_580);
  assert(points(defaultGrid(config)) * 2 <= MAX_GRID_POINTS);
  const grid = (access: number) =>
    parseGrid(
      `confirmation_half_life_days: ${days(3)}\naccess_half_life_days: ${days(access)}\n`,
      "g.yaml",
      config,
    );
  assertEquals(points(grid(6)), 83_160);
  assertThrows(() => grid(7), InputError, "= 97,020 grid points, more than the 84,000 one sweep evaluates");
});
