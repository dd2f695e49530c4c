import {
  createdAtStamp,
  elapsedSeconds,
  fromIsoFormat,
  instantToEpochMicroseconds,
  isoformatUtc,
  isoformatZulu,
  parseCanonicalIso,
} from "../../../lib/py/time.ts";
import { assert, assertEquals } from "../../helpers/assert.ts";
import { random, randomIsoTimestamp } from "../../helpers/generate.ts";

Deno.test("timestamps are written as Python writes them", () => {
  assertEquals(isoformatZulu({ day: 20498, microsecond: 0 }), "2026-02-14T00:00:00Z");
  assertEquals(isoformatZulu({ day: 20498, microsecond: 1_500 }), "2026-02-14T00:00:00.001500Z");
  assertEquals(isoformatZulu({ day: 20498, microsecond: -1 }), "2026-02-13T23:59:59.999999Z");
});

Deno.test("fromIsoFormat reads Python 3.11's spellings and refuses what it refuses", () => {
  assertEquals(fromIsoFormat("2026-08-13"), { day: 20678, microsecond: 0 });
  assertEquals(fromIsoFormat("2026-08-13T00:00:00Z"), { day: 20678, microsecond: 0 });
  assertEquals(fromIsoFormat("20260813T010203.5+01:00"), { day: 20678, microsecond: 2 * 60e6 + 3.5e6 });
  assertEquals(fromIsoFormat("2026-08-13 00:00:00-00:30"), { day: 20678, microsecond: 1_800_000_000 });
  for (
    const bad of ["2026-02-29", "2026-13-01", "2026-08-13T24:00:00", "2026-08-13T00:00:00+24:00", "2026", ""]
  ) {
    assertEquals(fromIsoFormat(bad), undefined, bad);
  }
});

Deno.test("parseCanonicalIso gives fromIsoFormat's instant for every canonical spelling it accepts", () => {
  const next = random(23);
  const out = new Float64Array(2);
  let accepted = 0;
  for (let trial = 0; trial < 3000; trial++) {
    const text = randomIsoTimestamp(next);
    if (!parseCanonicalIso(text, out)) continue;
    accepted++;
    assertEquals({ day: out[0], microsecond: out[1] }, fromIsoFormat(text.replaceAll("Z", "+00:00")), text);
  }
  assert(accepted > 300, `only ${accepted} spellings took the fast path`);
  assert(parseCanonicalIso("2026-08-13T00:00:00Z", out));
  assertEquals([...out], [20678, 0]);
});

Deno.test("isoformatUtc writes +00:00 and microseconds only when non-zero", () => {
  assertEquals(isoformatUtc({ day: 20678, microsecond: 0 }), "2026-08-13T00:00:00+00:00");
  assertEquals(
    isoformatUtc(fromIsoFormat("2026-08-13T08:00:00.25+08:00")!),
    "2026-08-13T00:00:00.250000+00:00",
  );
  assertEquals(isoformatUtc({ day: 0, microsecond: -1 }), "1969-12-31T23:59:59.999999+00:00");
});

Deno.test("createdAtStamp writes Python's microseconds: none for whole seconds, else three zeros appended", () => {
  assertEquals(createdAtStamp(new Date(Date.UTC(2026, 7, 13))), "2026-08-13T00:00:00Z");
  assertEquals(createdAtStamp(new Date(Date.UTC(2026, 7, 13, 1, 2, 3, 45))), "2026-08-13T01:02:03.045000Z");
});

Deno.test("elapsedSeconds is total_seconds() of exact microseconds, also beyond 100,000 days", () => {
  assertEquals(elapsedSeconds({ day: 1, microsecond: 500_000 }, { day: 0, microsecond: 0 }), 86400.5);
  assertEquals(elapsedSeconds({ day: 0, microsecond: 0 }, { day: 0, microsecond: 1 }), -0.000001);
  const later = fromIsoFormat("9999-12-31T23:59:59.999999")!;
  const earlier = fromIsoFormat("0001-01-01T00:00:00")!;
  const micros = instantToEpochMicroseconds(later) - instantToEpochMicroseconds(earlier);
  assertEquals(micros, 315537897599999999n);
  assertEquals(elapsedSeconds(later, earlier), 315537897600); // Python 3.11 prints 315537897600.0
  const stamp = fromIsoFormat("2026-08-13T00:00:00.000001")!;
  assertEquals(elapsedSeconds(stamp, fromIsoFormat("1700-01-01T00:00:00")!), 10306915200.000002); // as Python
});
