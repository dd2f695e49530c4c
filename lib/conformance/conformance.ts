/**
 * `conformance`: this build checked against reference vector files (deer-flow's golden vectors' format): every
 * line run through the library and compared exactly, doubles as bit patterns. The reference values come from
 * CPython on x86_64 glibc with FMA; only for vector files made on another platform may `tolerateUlps` accept
 * doubles a few ulps apart, and then every such line is counted and listed. The runner is run.ts, the report
 * report.ts, the checkers checkers/; cli.ts imports the command's two functions from here.
 *
 * @module
 */

export { runConformance } from "./run.ts";
export { formatConformance } from "./report.ts";
