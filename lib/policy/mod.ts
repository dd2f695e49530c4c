/**
 * The policy layer's public surface.
 *
 * @module
 */

export * from "./outputs.ts";
export * from "./policies.ts";
export * from "./selector.ts";
