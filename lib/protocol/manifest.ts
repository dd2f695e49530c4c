/**
 * The two case manifests: official LongMemEval IDs by scenario, and the synthetic correction guards.
 *
 * @module
 */

import * as z from "../base/zod.ts";
import { ContractError, parseWith, type SameType, type Schema } from "../base/mod.ts";
import { laxInt, laxIntLiteral, parsePyJson } from "../py/mod.ts";

/**
 * The four official scenarios, each controlling one thing.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { OFFICIAL_SCENARIOS } from "./manifest.ts";
 * strictEqual(OFFICIAL_SCENARIOS.length, 4);
 * strictEqual(OFFICIAL_SCENARIOS[0], "confirmation_help");
 * ```
 */
export const OFFICIAL_SCENARIOS = [
  "confirmation_help",
  "access_help",
  "confidence_control",
  "noisy_signal_control",
] as const;

/** An official scenario name. */
export type OfficialScenario = typeof OFFICIAL_SCENARIOS[number];

/**
 * The scenario of every synthetic case.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { SYNTHETIC_SCENARIO } from "./manifest.ts";
 * strictEqual(SYNTHETIC_SCENARIO, "correction_reserve");
 * ```
 */
export const SYNTHETIC_SCENARIO = "correction_reserve";

const nonEmpty = z.string().check(z.minLength(1, "must be a non-empty string"));
const lossRank = laxInt({ min: 1, max: 10, message: "must be in [1, 10]" });
/** A case id names its row files (`responses/<id>__<policy>.json`), so it must be a safe file name. */
const caseId = nonEmpty.check(
  z.refine(
    (id) => !/[/\\\0]/.test(id) && !id.startsWith("."),
    "must be usable as a file name (no /, \\ or NUL, not starting with .)",
  ),
);
const uniqueIds = z.array(caseId).check(
  z.refine((ids) => new Set(ids).size === ids.length, "IDs must be unique"),
);

/** A validated official manifest: how the 40 LongMemEval cases were selected, and which they are. */
export interface OfficialManifest {
  /** Always 1. */
  schema_version: 1;
  /** The protocol the manifest belongs to. */
  protocol_id: string;
  /** The selection rules the IDs were drawn with (recorded, checked for consistency). */
  selection: {
    /** The question types cases were drawn from. */
    eligible_question_types: string[];
    /** IDs used in the pilot and therefore excluded. */
    excluded_pilot_ids: string[];
    /** The question-id suffix marking abstention questions (excluded). */
    exclude_abstention_suffix: string;
    /** The shortest eligible answer. */
    answer_min_chars: number;
    /** The longest eligible answer. */
    answer_max_chars: number;
    /** Substrings an eligible answer must not contain. */
    answer_excluded_substrings: string[];
    /** The shortest eligible evidence. */
    evidence_min_chars: number;
    /** The longest eligible evidence. */
    evidence_max_chars: number;
    /** Candidates taken per question type. */
    take_per_question_type: number;
    /** Cases per question type in each scenario. */
    cases_per_type_per_scenario: number;
    /** An authored protocol's seed: each type's cases drawn by `draw_order`, not the first by question_id. */
    seed?: number;
    /** How a seeded protocol drew its cases: always `sha256(seed:question_id)`; present exactly with `seed`. */
    draw_order?: "sha256(seed:question_id)";
  };
  /** The four scenarios, in the order cases are listed. */
  scenario_order: OfficialScenario[];
  /** The support fact's loss rank for each of a scenario's ten cases, in [1, 10]. */
  loss_ranks: number[];
  /** Ten unique case IDs per scenario (no ID in two scenarios). */
  scenarios: Record<OfficialScenario, string[]>;
}

const officialManifestSchema = z.strictObject({
  schema_version: laxIntLiteral(1),
  protocol_id: nonEmpty,
  selection: z.strictObject({
    eligible_question_types: z.array(nonEmpty).check(z.minLength(1, "must not be empty")),
    excluded_pilot_ids: z.array(z.string()),
    exclude_abstention_suffix: nonEmpty,
    answer_min_chars: laxInt({ min: 0 }),
    answer_max_chars: laxInt({ min: 1 }),
    answer_excluded_substrings: z.array(nonEmpty),
    evidence_min_chars: laxInt({ min: 0 }),
    evidence_max_chars: laxInt({ min: 1 }),
    take_per_question_type: laxInt({ min: 1 }),
    cases_per_type_per_scenario: laxInt({ min: 1 }),
    seed: z.optional(laxInt({ min: 0 })),
    draw_order: z.optional(z.literal("sha256(seed:question_id)", "must be sha256(seed:question_id)")),
  }),
  scenario_order: z.array(z.enum(OFFICIAL_SCENARIOS, "must be a registered scenario")).check(
    z.length(4, "must list the four scenarios"),
    z.refine((order) => new Set(order).size === 4, "must be a permutation of the four scenarios"),
  ),
  loss_ranks: z.array(lossRank).check(z.length(10, "must hold exactly ten ranks")),
  scenarios: z.strictObject({
    confirmation_help: uniqueIds,
    access_help: uniqueIds,
    confidence_control: uniqueIds,
    noisy_signal_control: uniqueIds,
  }),
}).check(z.superRefine((manifest, context) => {
  const { selection } = manifest;
  if (selection.answer_min_chars > selection.answer_max_chars) {
    context.addIssue({
      code: "custom",
      path: ["selection", "answer_min_chars"],
      message: "must be ≤ answer_max_chars",
    });
  }
  if (selection.evidence_min_chars > selection.evidence_max_chars) {
    context.addIssue({
      code: "custom",
      path: ["selection", "evidence_min_chars"],
      message: "must be ≤ evidence_max_chars",
    });
  }
  if ((selection.seed === undefined) !== (selection.draw_order === undefined)) {
    context.addIssue({
      code: "custom",
      path: ["selection", selection.seed === undefined ? "draw_order" : "seed"],
      message: "seed and draw_order come together (a seeded draw records both)",
    });
  }
  const types = selection.eligible_question_types.length;
  const size = types * selection.cases_per_type_per_scenario;
  const seen = new Set<string>();
  for (const scenario of OFFICIAL_SCENARIOS) {
    const held = manifest.scenarios[scenario].length;
    if (held !== size) {
      context.addIssue({
        code: "custom",
        path: ["scenarios", scenario],
        message: `must hold exactly ${size} IDs (${types} eligible types × ` +
          `${selection.cases_per_type_per_scenario} cases per type), got ${held}`,
      });
    }
    for (const id of manifest.scenarios[scenario]) {
      if (seen.has(id)) {
        context.addIssue({
          code: "custom",
          path: ["scenarios", scenario],
          message: `ID ${id} appears twice`,
        });
      }
      seen.add(id);
    }
  }
}));

/**
 * The official manifest schema.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources } from "./contracts.ts";
 * import { OfficialManifest } from "./manifest.ts";
 * import { decodeStrictUtf8 } from "../base/utf8.ts";
 * const manifest = JSON.parse(decodeStrictUtf8(embeddedSources().official.bytes));
 * strictEqual(OfficialManifest.parse(manifest).scenarios.access_help.length, 10);
 * strictEqual(OfficialManifest.safeParse({ ...manifest, loss_ranks: [1] }).success, false);
 * ```
 */
export const OfficialManifest: Schema<OfficialManifest> = officialManifestSchema;

/** One synthetic correction case. */
export interface SyntheticCase {
  /** The case's ID (a safe file name). */
  case_id: string;
  /** The correction fact that answers the question. */
  support_fact: string;
  /** The question asked. */
  question: string;
  /** The reference answer. */
  answer: string;
  /** The support fact's loss rank, in [1, 10]. */
  loss_rank: number;
}

const syntheticCaseSchema = z.strictObject({
  case_id: caseId,
  // Plain strings, as in the reference (an answer with no token is refused when graded).
  support_fact: z.string(),
  question: z.string(),
  answer: z.string(),
  loss_rank: lossRank,
});

/**
 * The synthetic case schema.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { SyntheticCase } from "./manifest.ts";
 * const item = { case_id: "c1", support_fact: "F", question: "Q?", answer: "A", loss_rank: 3 };
 * strictEqual(SyntheticCase.parse(item).loss_rank, 3);
 * strictEqual(SyntheticCase.safeParse({ ...item, case_id: "../c1" }).success, false); // not a file name
 * ```
 */
export const SyntheticCase: Schema<SyntheticCase> = syntheticCaseSchema;

/** A validated synthetic manifest: the five correction guards. */
export interface SyntheticManifest {
  /** Always 1. */
  schema_version: 1;
  /** The protocol the manifest belongs to. */
  protocol_id: string;
  /** Always `correction_reserve`. */
  scenario: typeof SYNTHETIC_SCENARIO;
  /** Exactly five cases with unique IDs. */
  cases: SyntheticCase[];
}

const syntheticManifestSchema = z.strictObject({
  schema_version: laxIntLiteral(1),
  protocol_id: nonEmpty,
  scenario: z.literal(SYNTHETIC_SCENARIO, `must be ${SYNTHETIC_SCENARIO}`),
  cases: z.array(syntheticCaseSchema).check(
    z.length(5, "must hold exactly five cases"),
    z.refine(
      (cases) => new Set(cases.map((item) => item.case_id)).size === cases.length,
      "case_id values must be unique",
    ),
  ),
});

/**
 * The synthetic manifest schema.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources } from "./contracts.ts";
 * import { SyntheticManifest } from "./manifest.ts";
 * import { decodeStrictUtf8 } from "../base/utf8.ts";
 * const manifest = JSON.parse(decodeStrictUtf8(embeddedSources().synthetic.bytes));
 * strictEqual(SyntheticManifest.parse(manifest).cases.length, 5);
 * strictEqual(SyntheticManifest.safeParse({ ...manifest, cases: manifest.cases.slice(1) }).success, false);
 * ```
 */
export const SyntheticManifest: Schema<SyntheticManifest> = syntheticManifestSchema;

// The hand-written types must stay the schemas' own: these lines stop compiling when they drift apart.
const _sameOfficial: SameType<OfficialManifest, z.infer<typeof officialManifestSchema>> = true;
const _sameCase: SameType<SyntheticCase, z.infer<typeof syntheticCaseSchema>> = true;
const _sameSynthetic: SameType<SyntheticManifest, z.infer<typeof syntheticManifestSchema>> = true;

/** Read as the reference's `json.load` reads a manifest: Python's JSON, which refuses a leading BOM. */
function parseJson(text: string, path: string): unknown {
  try {
    return parsePyJson(text);
  } catch (error) {
    throw new ContractError(`not valid JSON: ${(error as Error).message}`, { path, cause: error });
  }
}

/**
 * Parses and validates the official manifest.
 *
 * @example
 * ```ts
 * import { strictEqual, throws } from "node:assert/strict";
 * import { embeddedSources } from "./contracts.ts";
 * import { ContractError } from "../base/errors.ts";
 * import { parseOfficialManifest } from "./manifest.ts";
 * import { decodeStrictUtf8 } from "../base/utf8.ts";
 * const text = decodeStrictUtf8(embeddedSources().official.bytes);
 * strictEqual(parseOfficialManifest(text, "official.json").scenario_order.length, 4);
 * throws(() => parseOfficialManifest("\ufeff" + text, "official.json"), ContractError); // json.load refuses a BOM
 * ```
 */
export function parseOfficialManifest(text: string, path: string): OfficialManifest {
  return parseWith(OfficialManifest, parseJson(text, path), path);
}

/**
 * Parses and validates the synthetic manifest.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources } from "./contracts.ts";
 * import { parseSyntheticManifest } from "./manifest.ts";
 * import { decodeStrictUtf8 } from "../base/utf8.ts";
 * const text = decodeStrictUtf8(embeddedSources().synthetic.bytes);
 * strictEqual(parseSyntheticManifest(text, "synthetic.json").cases.length, 5);
 * ```
 */
export function parseSyntheticManifest(text: string, path: string): SyntheticManifest {
  return parseWith(SyntheticManifest, parseJson(text, path), path);
}
