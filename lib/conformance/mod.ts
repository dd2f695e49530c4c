/**
 * The conformance layer's public surface.
 *
 * @module
 */

export * from "./conformance.ts";
export * from "./float_bits.ts";
