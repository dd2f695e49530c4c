/**
 * The conformance layer's public surface.
 *
 * @module
 */

export * from "./check.ts";
export * from "./compare.ts";
export * from "./float_bits.ts";
export * from "./report.ts";
export * from "./run.ts";
export * from "./vectors.ts";
