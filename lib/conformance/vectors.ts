/**
 * The vector files this build knows, each with its checker (one module per family under `checkers/`).
 *
 * @module
 */

import type { AsyncVectorChecker, VectorChecker } from "./compare.ts";
import { checkBoundedNumber } from "./checkers/bounded_number.ts";
import { checkDatetime } from "./checkers/datetime.ts";
import { checkEvidence } from "./checkers/evidence.ts";
import { checkEviction } from "./checkers/eviction.ts";
import { checkGrader } from "./checkers/grader.ts";
import { checkLibm } from "./checkers/libm.ts";
import { checkMt19937 } from "./checkers/mt19937.ts";
import { checkOffset } from "./checkers/offsets.ts";
import { checkPrompt } from "./checkers/prompts.ts";
import { checkPyjsonFloat } from "./checkers/pyjson_floats.ts";
import { checkPyjsonString } from "./checkers/pyjson_strings.ts";
import { checkStats } from "./checkers/stats.ts";

/** Every vector file this build knows, with its checker. */
export const VECTOR_CHECKERS: Readonly<Record<string, VectorChecker | AsyncVectorChecker>> = {
  "eviction.jsonl": checkEviction("core"),
  "eviction-exotic.jsonl": checkEviction("exotic"),
  "datetime.jsonl": checkDatetime,
  "bounded-number.jsonl": checkBoundedNumber,
  "pyjson-floats.jsonl": checkPyjsonFloat,
  "pyjson-strings.jsonl": checkPyjsonString,
  "grader.jsonl": checkGrader,
  "mt19937.jsonl": checkMt19937,
  "stats.jsonl": checkStats,
  "evidence.jsonl": checkEvidence,
  "offsets.jsonl": checkOffset,
  "prompts.jsonl": checkPrompt,
  "libm.jsonl": checkLibm,
};

/** Files whose inputs must keep Python's float/int distinction (a `2.0` answer renders as "2.0"). */
export const PYTHON_FLOAT_FILES: ReadonlySet<string> = new Set(["evidence.jsonl"]);
