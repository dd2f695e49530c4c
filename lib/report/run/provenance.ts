/**
 * The provenance section: where a run came from — protocol, model, grader or dataset, the artifact hashes,
 * the run date and the tool that wrote it — read from the run's own record (`qa_run.json` or `run.json`).
 *
 * @module
 */

import type { Contracts } from "../../protocol/mod.ts";
import { compareCodePoints } from "../../base/mod.ts";
import type { GradedRow } from "../../qa/mod.ts";
import { type Section, table } from "../document/model.ts";
import type { Provenance } from "./run_report.ts";

/** What wrote the run: this tool's name, or the reference harness at a git commit (clean or dirty). */
function toolOf(git: unknown): string {
  const record = (git ?? {}) as { tool?: unknown; head?: unknown; dirty?: unknown };
  if (typeof record.tool === "string") return record.tool;
  if (typeof record.head === "string") {
    return `reference harness at git ${record.head}${
      record.dirty === true ? " (dirty)" : record.dirty === false ? " (clean)" : ""
    }`;
  }
  return "not recorded";
}

/** A record's artifact hashes as entries, in the key order the reference writes them (code points). */
function artifactEntries(artifacts: Record<string, unknown>): [string, string][] {
  return Object.keys(artifacts).sort(compareCodePoints).map((key) => [key, String(artifacts[key])]);
}

/**
 * A QA run's provenance from its `qa_run.json` (when there is one), its rows and the contracts.
 *
 * @example
 * ```ts
 * import { strictEqual } from "node:assert/strict";
 * import { embeddedSources, loadContracts } from "../../protocol/contracts.ts";
 * import { qaProvenance } from "./provenance.ts";
 * const entries = new Map(qaProvenance(undefined, [], await loadContracts(embeddedSources())).entries);
 * strictEqual(entries.get("artifacts"), "not recorded (no qa_run.json)");
 * ```
 */
export function qaProvenance(
  marker: Record<string, unknown> | undefined,
  rows: readonly GradedRow[],
  contracts: Contracts,
): Provenance {
  const qa = (marker?.qa ?? {}) as Record<string, unknown>;
  const models = new Map<string, number>();
  for (const row of rows) {
    const model = row.response_model ?? "(none)";
    models.set(model, (models.get(model) ?? 0) + 1);
  }
  const seen = [...models].sort(([a], [b]) => compareCodePoints(a, b))
    .map(([model, count]) => `${model} (${count} rows)`).join(", ");
  const entries: [string, string][] = [
    ["protocol", String(marker?.protocol_id ?? contracts.config.protocol_id)],
    ["configured model", String(qa.model ?? contracts.config.qa.model)],
    ["response models seen", seen],
    ["grader", rows[0]?.grader_version ?? ""],
  ];
  const candidate = marker?.candidate as Record<string, unknown> | undefined;
  if (candidate !== undefined) {
    entries.push(
      [
        "candidate",
        `${candidate.policy} from ${candidate.policy_module}, SHA-256 ${candidate.policy_module_sha256}`,
      ],
      ["baseline", String(candidate.baseline)],
    );
  }
  if (marker === undefined) {
    entries.push(["artifacts", "not recorded (no qa_run.json)"]);
  } else {
    entries.push(...artifactEntries((marker.artifacts ?? {}) as Record<string, unknown>));
    entries.push(["run date", String(marker.created_at ?? "not recorded")]);
    entries.push(["tool", toolOf(marker.git)]);
  }
  return { entries };
}

/**
 * A policy run's provenance from its `run.json` (empty when unreadable).
 *
 * @example
 * ```ts
 * import { deepStrictEqual } from "node:assert/strict";
 * import { policyProvenance } from "./provenance.ts";
 * const { entries } = policyProvenance({ protocol_id: "demo", git: { head: "01f9", dirty: false } });
 * deepStrictEqual([entries[0], entries.at(-1)], [["protocol", "demo"], ["tool", "reference harness at git 01f9 (clean)"]]);
 * ```
 */
export function policyProvenance(record: Record<string, unknown>): Provenance {
  const dataset = (record.dataset ?? {}) as Record<string, unknown>;
  return {
    entries: [
      ["protocol", String(record.protocol_id ?? "")],
      ["dataset", `${dataset.repository ?? "?"}@${dataset.revision ?? "?"} ${dataset.filename ?? ""}`.trim()],
      ["dataset_sha256", String(dataset.sha256 ?? "")],
      ...artifactEntries((record.artifacts ?? {}) as Record<string, unknown>),
      ["evaluation clock", String(record.evaluation_time ?? "")],
      ["run date", String(record.created_at ?? "")],
      ["tool", toolOf(record.git)],
    ],
  };
}

/** Provenance as a section: one two-column table of labels and values. */
export function provenanceSection(provenance: Provenance): Section {
  return {
    id: "provenance",
    title: "Provenance",
    lines: [],
    tables: [table(["", ""], provenance.entries.map(([label, value]) => [label, value]), [false, false])],
  };
}
