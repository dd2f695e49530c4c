/**
 * The base layer's public surface.
 *
 * @module
 */

export * from "./errors.ts";
export * from "./failure.ts";
export * from "./fs.ts";
export * from "./group.ts";
export * from "./hash.ts";
export * from "./lock.ts";
export * from "./schema.ts";
export * from "./utf8.ts";
export * from "./order.ts";
export * from "./terminal.ts";
export * from "./visible.ts";
