/**
 * The sweep layer's public surface.
 *
 * @module
 */

export * from "./sweep.ts";
