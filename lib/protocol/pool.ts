/**
 * Pool construction: one support fact and nine distractors per case, with the scenario's metadata rule
 * (confidence, confirmation, access heat) relative to the fixed evaluation clock. Facts are sorted by ID, since
 * the selector breaks score ties by input order.
 *
 * @module
 */

import { type Instant, isoformatZulu } from "../py/mod.ts";
import type { PreparedCase } from "./cases.ts";
import { compareCodePoints } from "../base/mod.ts";

/** A memory fact as DeerMem stores it (the fields the selector and prompt read). */
export interface Fact {
  /** The fact's ID. */
  id: string;
  /** The fact's text. */
  content: string;
  /** The fact's category (`correction` facts may take reserved slots). */
  category: string;
  /** The stored confidence. */
  confidence: number;
  /** When the fact was created (ISO timestamp). */
  createdAt: string;
  /** Where the fact came from. */
  source: string;
  /** When the fact was last confirmed (ISO timestamp), if ever. */
  lastConfirmedAt?: string;
  /** How often the fact was confirmed. */
  confirmationCount?: number;
}

/** A usage sidecar entry. */
export interface UsageEntry {
  /** The access heat at `lastAccessedAt`. */
  accessHeat: number;
  /** How often the fact was accessed. */
  accessCount: number;
  /** When the fact was last accessed (ISO timestamp). */
  lastAccessedAt: string;
}

/** A case's pool: facts sorted by ID, the usage sidecar, and the support fact's ID. */
export interface Pool {
  /** The facts, sorted by ID. */
  facts: Fact[];
  /** The usage sidecar: fact ID → usage. */
  usage: Record<string, UsageEntry>;
  /** The IDs of the facts that answer the question. */
  supportFactIds: string[];
}

interface Metadata {
  confidence: number;
  category?: string;
  createdDaysAgo: number;
  confirmedDaysAgo?: number;
  heat?: number;
}

const SOURCE_PREFIX = "deermem-eviction-eval:";
const HEAT = 8;

function supportMetadata(scenario: string): Metadata {
  switch (scenario) {
    case "confirmation_help":
      return { confidence: 0.70, createdDaysAgo: 180, confirmedDaysAgo: 7 };
    case "access_help":
      return { confidence: 0.70, createdDaysAgo: 180, heat: HEAT };
    case "confidence_control":
      return { confidence: 0.95, createdDaysAgo: 30 };
    case "noisy_signal_control":
      return { confidence: 0.90, createdDaysAgo: 180 };
    case "correction_reserve":
      return { confidence: 0.65, category: "correction", createdDaysAgo: 180 };
  }
  throw new RangeError(`unknown scenario: ${scenario}`);
}

/** Distractor i's metadata; confidences are computed in floating point exactly as the reference writes them. */
function distractorMetadata(scenario: string, index: number, lossRank: number): Metadata {
  const n = lossRank - 1;
  const signal = index % 2 === 1 ? { confirmedDaysAgo: 7 } : { heat: HEAT };
  switch (scenario) {
    case "confirmation_help":
    case "access_help":
      return { confidence: index < n ? 0.94 - 0.02 * index : 0.68 - 0.02 * (index - n), createdDaysAgo: 180 };
    case "confidence_control":
      return index < 5
        ? { confidence: 0.94 - 0.02 * index, createdDaysAgo: 180 }
        : { confidence: 0.70, createdDaysAgo: 180, ...signal };
    case "noisy_signal_control":
      return index < n
        ? { confidence: 0.70, createdDaysAgo: 180, ...signal }
        : { confidence: 0.70, createdDaysAgo: 180 };
    case "correction_reserve":
      return { confidence: index < n ? 0.90 - 0.03 * index : 0.60 - 0.02 * (index - n), createdDaysAgo: 180 };
  }
  throw new RangeError(`unknown scenario: ${scenario}`);
}

function daysBefore(clock: Instant, days: number): string {
  return isoformatZulu({ day: clock.day - days, microsecond: clock.microsecond });
}

/**
 * Builds a case's pool against the evaluation clock.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { buildDemoProtocol, prepareDemoProtocol } from "./demo.ts";
 * import { buildPool } from "./pool.ts";
 * const { contracts, cases } = await prepareDemoProtocol(await buildDemoProtocol()); // generated, pinned data
 * const pool = buildPool(cases[0], contracts.config.evaluation_time);
 * strictEqual(pool.facts.length, contracts.config.pool.size); // the support fact and nine distractors
 * strictEqual(pool.supportFactIds.every((id) => pool.facts.some((fact) => fact.id === id)), true);
 * ```
 */
export function buildPool(prepared: PreparedCase, clock: Instant): Pool {
  const facts: Fact[] = [];
  const usage: Record<string, UsageEntry> = {};
  const lastAccessedAt = isoformatZulu(clock);
  const add = (id: string, content: string, source: string, category: string, metadata: Metadata) => {
    const fact: Fact = {
      id,
      content,
      category: metadata.category ?? category,
      confidence: metadata.confidence,
      createdAt: daysBefore(clock, metadata.createdDaysAgo),
      source: `${SOURCE_PREFIX}${source}`,
    };
    if (metadata.confirmedDaysAgo !== undefined) {
      fact.lastConfirmedAt = daysBefore(clock, metadata.confirmedDaysAgo);
      fact.confirmationCount = 1;
    }
    if (metadata.heat !== undefined) {
      usage[id] = { accessHeat: metadata.heat, accessCount: metadata.heat, lastAccessedAt };
    }
    facts.push(fact);
  };
  const supportId = `gold_${prepared.caseId}`;
  add(supportId, prepared.supportContent, prepared.caseId, "context", supportMetadata(prepared.scenario));
  prepared.distractors.forEach((row, index) => {
    const category = row.questionType === "single-session-preference" ? "preference" : "context";
    add(
      `d_${prepared.caseId}_${index}_${row.questionId}`,
      row.evidence,
      row.questionId,
      category,
      distractorMetadata(prepared.scenario, index, prepared.lossRank),
    );
  });
  facts.sort((a, b) => compareCodePoints(a.id, b.id));
  return { facts, usage, supportFactIds: [supportId] };
}
