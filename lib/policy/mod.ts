/**
 * The policy layer's public surface.
 *
 * @module
 */

export * from "./builtins.ts";
export * from "./candidate_name.ts";
export * from "./contract.ts";
export * from "./evaluate.ts";
export * from "./lenient.ts";
export * from "./module.ts";
export * from "./outputs.ts";
export * from "./sandbox.ts";
export * from "./selection_types.ts";
export * from "./selector.ts";
