/**
 * The HTML report's first block: the claim — per suite (or capacity) each policy's count, the exact McNemar p
 * and the paired bootstrap difference with its interval, and what was checked — drawn from the one result
 * block every renderer shares, before any verification line.
 *
 * @module
 */

import type { Claim, ClaimRow } from "../run/claim.ts";
import { escapeHtml } from "../document/html_escape.ts";
import { pClause } from "../document/format.ts";

/** A policy's name, never broken at its hyphen. */
function name(policy: string): string {
  return `<span class="name">${escapeHtml(policy)}</span>`;
}

function card(claim: Claim, row: ClaimRow): string {
  const scores = row.scores.map(({ policy, count }, index) =>
    `<span class="p${index}">${name(policy)} ${count}/${row.of ?? row.cases}</span>`
  ).join(" vs ");
  const lines = [
    `<h3>${escapeHtml(row.label)} <span class="muted">· ${row.cases} cases</span></h3>`,
    `<p class="score">${row.note === undefined ? scores : escapeHtml(row.note)}</p>`,
  ];
  const statistics = row.statistics;
  if (statistics !== undefined) {
    const [first, second] = claim.policies;
    lines.push(
      `<p>${escapeHtml(statistics.test ?? "exact McNemar")} ${escapeHtml(pClause(statistics.p))}${
        statistics.midP === undefined ? "" : ` · mid-p ${statistics.midP}`
      } <span class="muted">(${
        statistics.test === undefined
          ? `${statistics.discordant} discordant: ${statistics.onlySecond} only ${
            name(second)
          }, ${statistics.onlyFirst} only ${name(first)}`
          : `${statistics.discordant} cases differ: ${statistics.onlySecond} more for ${
            name(second)
          }, ${statistics.onlyFirst} more for ${name(first)}`
      })</span></p>`,
      `<p>difference ${statistics.difference}, ${claim.level}% interval ${statistics.interval}</p>`,
    );
  }
  return `<div class="suite">${lines.join("")}</div>`;
}

/** The claim block: one card per suite or capacity, what was checked, and how the numbers were computed. */
export function claimHtml(claim: Claim): string {
  return `<section id="claim"><h2>${escapeHtml(claim.title)}</h2>
<div class="suites">${claim.rows.map((row) => card(claim, row)).join("")}</div>
<p class="checked">${escapeHtml(claim.checked)}</p>
<p class="muted">${escapeHtml(claim.method)} Verification follows.</p></section>`;
}
