/**
 * The conformance layer's public surface.
 *
 * @module
 */

export { VectorFormatError } from "./errors.ts";

export { checkVectorText } from "./check.ts";
export { formatConformance } from "./report.ts";
export { decodeVectorFile, readVectorFile, runConformance } from "./run.ts";
export { VECTOR_CHECKERS } from "./vectors.ts";
