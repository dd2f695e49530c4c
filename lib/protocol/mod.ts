/**
 * The protocol layer's public surface.
 *
 * @module
 */

export * from "./cases.ts";
export * from "./config.ts";
export * from "./contracts.ts";
export * from "./dataset.ts";
export * from "./demo.ts";
export * from "./identity.ts";
export * from "./manifest.ts";
export * from "./pool.ts";
export * from "./prepare.ts";
export * from "./protocol_dir.ts";
export * from "./versions.ts";
export * from "./published.ts";
