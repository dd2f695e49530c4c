/**
 * Python-compatible JSON, in one import: {@linkcode dumps} byte-identical to Python's `json.dumps`, and
 * {@linkcode parsePyJson}, which reads what `json.loads` reads and keeps Python's float/int distinction.
 *
 * @module
 */

export * from "./float.ts";
export * from "./json_dumps.ts";
export * from "./json_parse.ts";
