/** The golden fixture protocol and dataset the run-qa benchmarks answer, and the checkout they run from. */

/** The checkout's root, with a trailing slash. */
export const ROOT = new URL("../", import.meta.url).pathname;
const PROTOCOL = `${ROOT}tests/golden/fixture/protocol`;
/** The fixture protocol as the three protocol flags. */
export const PROTOCOL_FLAGS: readonly string[] = [
  "--config",
  `${PROTOCOL}/config.yaml`,
  "--official-manifest",
  `${PROTOCOL}/official.json`,
  "--synthetic-manifest",
  `${PROTOCOL}/synthetic.json`,
];
/** The fixture dataset. */
export const DATASET = `${ROOT}tests/golden/fixture/longmemeval-fixture.json`;
