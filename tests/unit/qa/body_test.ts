import { BodyBudget, readBody, UNRESERVED_BODY_BYTES } from "../../../lib/qa/answer/_body.ts";
import { assert, assertEquals, assertRejects } from "../../helpers/assert.ts";

const encoder = new TextEncoder();

Deno.test("the body budget grants in arrival order, holds a waiter to nothing, and an abort ends its wait", async () => {
  const budget = new BodyBudget(10);
  const order: string[] = [];
  const first = await budget.reserve(6);
  const waiting = new AbortController();
  const aborted = budget.reserve(6, waiting.signal);
  const second = budget.reserve(4).then((release) => (order.push("second"), release));
  // The second fits beside the first but comes after a waiter: it waits its turn.
  await new Promise((resolve) => setTimeout(resolve, 10));
  assertEquals(order, []);
  waiting.abort(new Error("timed out"));
  await assertRejects(() => aborted, Error, "timed out");
  (await second)();
  assertEquals(order, ["second"]);
  first();
  first(); // a second release changes nothing
  const whole = await budget.reserve(10);
  whole();
  // A reservation larger than the budget is the whole budget, never a wait forever.
  (await budget.reserve(1000))();
});

/** A response streaming `chunks`, with the given headers. */
function streamed(chunks: Uint8Array[], headers: Record<string, string> = {}): Response {
  return new Response(ReadableStream.from(chunks), { headers });
}

Deno.test("a body reserves room only past the unreserved bytes, and then its declared size", async () => {
  const reserved: number[] = [];
  const reserve = (bytes: number) => (reserved.push(bytes), Promise.resolve());
  const small = new Uint8Array(UNRESERVED_BODY_BYTES).fill(0x61);
  assertEquals(await readBody(streamed([small]), { limit: 1 << 20, reserve }), small);
  assertEquals(reserved, []);
  const large = [small, encoder.encode("b")];
  const declared = { "content-length": String(UNRESERVED_BODY_BYTES + 1) };
  const bytes = await readBody(streamed(large, declared), { limit: 1 << 20, reserve });
  assert(bytes instanceof Uint8Array && bytes.byteLength === UNRESERVED_BODY_BYTES + 1);
  await readBody(streamed(large), { limit: 1 << 20, reserve });
  assertEquals(reserved, [UNRESERVED_BODY_BYTES + 1, 1 << 20]);
});

Deno.test("a body in a coding not asked for is refused unread; the limit is exact", async () => {
  let pulled = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      controller.enqueue(encoder.encode("x"));
    },
  }, { highWaterMark: 0 });
  const refused = await readBody(new Response(body, { headers: { "content-encoding": "br" } }), {
    limit: 10,
  });
  assertEquals([refused, pulled], [{
    problem: "response is compressed as br, which was not asked for",
    retryable: false,
  }, 0]);
  const ten = encoder.encode("0123456789");
  assertEquals(await readBody(streamed([ten.subarray(0, 4), ten.subarray(4)]), { limit: 10 }), ten);
  assertEquals(await readBody(streamed([ten, encoder.encode("!")]), { limit: 10 }), {
    problem: "response too large (over 10 bytes)",
    retryable: false,
  });
});
