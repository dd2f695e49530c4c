/**
 * The sweep layer's public surface.
 *
 * @module
 */

export * from "./grid.ts";
export * from "./parameters.ts";
export * from "./engine.ts";
export * from "./neighbourhood.ts";
export * from "./outputs.ts";
export * from "./read_back.ts";
export * from "./record_schema.ts";
export * from "./summary.ts";
export * from "./sweep.ts";
