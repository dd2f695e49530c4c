/** Seeded test inputs shared by several test files: a generator, timestamp spellings, LongMemEval-shaped rows. */

/** A seeded generator in [0, 1), so a failing case can be replayed. */
export function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** An ISO timestamp in the canonical shape, with out-of-range fields and odd fractions and zones mixed in. */
export function randomIsoTimestamp(next: () => number): string {
  const pad = (value: number, width: number) => String(value).padStart(width, "0");
  const fraction = [".123", ".123456", "", ".5", ".1234567"][Math.floor(next() * 5)];
  const zone = ["", "Z", "+05:30", "-11:59", "+24:00", "+00:60"][Math.floor(next() * 6)];
  return `${pad(Math.floor(next() * 3000), 4)}-${pad(Math.floor(next() * 14), 2)}-${
    pad(Math.floor(next() * 32), 2)
  }T${pad(Math.floor(next() * 25), 2)}:${pad(Math.floor(next() * 61), 2)}:${
    pad(Math.floor(next() * 61), 2)
  }${fraction}${zone}`;
}

// deno-lint-ignore no-explicit-any
export type SourceRow = Record<string, any>;

/** A LongMemEval row with one user turn of evidence. */
export function sourceRow(id: string, type: string, answer: unknown, evidenceText: string): SourceRow {
  return {
    question_id: id,
    question_type: type,
    question: "Q?",
    answer,
    haystack_session_ids: ["s"],
    haystack_dates: ["d"],
    haystack_sessions: [[{ role: "user", content: evidenceText }]],
  };
}
