/**
 * The QA report's first block: the claim — per suite both policies' correct answers, the exact McNemar p and
 * the paired bootstrap difference with its interval — before any verification line.
 *
 * @module
 */

import { POLICIES } from "../policy/mod.ts";
import { formatP, formatSigned, fraction } from "./format.ts";
import { escapeHtml } from "./html_escape.ts";
import { suiteName } from "./_names.ts";
import type { QaReport, SuiteReport } from "./run_report.ts";

function suiteCard(suite: SuiteReport, level: number): string {
  const [first, second] = POLICIES;
  const { cases, mcnemar, bootstrap } = suite.stats;
  const discordant = mcnemar.only_first_correct + mcnemar.only_second_correct;
  const lines = [
    `<h3>${escapeHtml(suiteName(suite.name))} <span class="muted">· ${cases} cases</span></h3>`,
    `<p class="score"><span class="p0">${escapeHtml(first)} ${
      fraction(suite.correct[first], cases)
    }</span> vs ` +
    `<span class="p1">${escapeHtml(second)} ${fraction(suite.correct[second], cases)}</span></p>`,
    `<p>exact McNemar p = ${
      formatP(mcnemar.p_value)
    } <span class="muted">(${discordant} discordant: ${mcnemar.only_second_correct} only ${
      escapeHtml(second)
    }, ${mcnemar.only_first_correct} only ${escapeHtml(first)})</span></p>`,
    `<p>difference ${formatSigned(bootstrap.mean_difference)}, ${level}% interval [${
      formatSigned(bootstrap.lower)
    }, ${formatSigned(bootstrap.upper)}]</p>`,
  ];
  return `<div class="suite">${lines.join("")}</div>`;
}

/** The claim block: one card per suite (official, synthetic, overall), and how the numbers were computed. */
export function claimHtml(report: QaReport): string {
  const [first, second] = POLICIES;
  const level = Math.round((1 - report.bootstrap.alpha) * 100);
  return `<section id="claim"><h2>Result: ${escapeHtml(second)} against ${escapeHtml(first)}</h2>
<div class="suites">${report.suites.map((suite) => suiteCard(suite, level)).join("")}</div>
<p class="muted">Correct answers per policy on the same cases; exact two-sided McNemar p on the discordant pairs; the paired bootstrap difference in accuracy (${
    escapeHtml(second)
  } − ${escapeHtml(first)}) with its ${level}% percentile interval. Verification follows.</p></section>`;
}
