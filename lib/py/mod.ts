/**
 * The py layer's public surface.
 *
 * @module
 */

export * from "./builtins.ts";
export * from "./json.ts";
export * from "./libm.ts";
export * from "./pydantic_datetime.ts";
export * from "./pydantic_lax.ts";
export * from "./random.ts";
export * from "./time.ts";
export * from "./yaml.ts";
