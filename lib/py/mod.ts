/**
 * The py layer's public surface.
 *
 * @module
 */

export { type Instant, MICROS_PER_DAY } from "./_calendar.ts";
export { codePointLength, pyFloatOf, pyLower, pyStr, pyStrip, pyTruthy, pyUpper } from "./builtins.ts";
export { floatRepr, PyFloat } from "./float.ts";
export { fromIsoFormat, parseCanonicalIso } from "./fromisoformat.ts";
export { dumps, dumpsString, type PyJson } from "./json_dumps.ts";
export {
  checkJsonLimits,
  JSON_LIMITS,
  jsonBomRefusal,
  type JsonLimits,
  parsePyJson,
  parsePyJsonBytes,
  PY_INT_MAX_STR_DIGITS,
} from "./json_parse.ts";
export { log1p, pow } from "./libm.ts";
export { parseEvaluationTime } from "./pydantic_datetime.ts";
export { laxBigInt, laxBool, laxFloat, laxInt, laxIntLiteral } from "./pydantic_lax.ts";
export { PythonRandom } from "./random.ts";
export {
  createdAtStamp,
  elapsedSeconds,
  instantToEpochMicroseconds,
  isoformatUtc,
  isoformatZulu,
} from "./time.ts";
export { jsonObjectOf, type JsonTextOptions, parseJsonText, parseJsonTextWith } from "./json_text.ts";
export { parsePyYamlFile } from "./yaml.ts";
export { type DumpsOptions, pyFloat } from "./json.ts";
