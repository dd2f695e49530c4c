/**
 * The program's version and the provenance it records in every run it writes.
 *
 * @module
 */

import denoConfig from "../../deno.json" with { type: "json" };
import type { SourceState } from "../protocol/mod.ts";

/** The program's version (from `deno.json`). */
export const VERSION: string = denoConfig.version;

/** Where the output came from, recorded in place of the reference's git state. */
export const SOURCE_STATE: SourceState = { dirty: null, head: null, tool: `deermem-eval ${VERSION}` };
