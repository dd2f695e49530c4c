import { InputError } from "../../lib/base/errors.ts";
import { resolveCredentials } from "../../lib/qa/credentials.ts";
import { assert, assertEquals, assertMatch, assertThrows } from "../helpers/assert.ts";
import { fixtureContracts } from "../helpers/fixture.ts";

const contracts = await fixtureContracts();

function env(values: Record<string, string>) {
  return (name: string) => values[name];
}

Deno.test("credentials come only from the two variables the config names; a missing one is named, never a value", () => {
  const config = contracts.config;
  const key = "sk-secret-runner";
  assertEquals(
    resolveCredentials(
      config,
      env({ DEERMEM_EVAL_ANSWER_API_KEY: key, DEERMEM_EVAL_ANSWER_BASE_URL: "https://x/v1" }),
    ),
    { apiKey: key, baseUrl: "https://x/v1" },
  );
  const missingKey = assertThrows(
    () => resolveCredentials(config, env({ DEERMEM_EVAL_ANSWER_BASE_URL: "https://x/v1" })),
    InputError,
  );
  assertMatch(missingKey.message, /DEERMEM_EVAL_ANSWER_API_KEY \(the config's qa\.api_key_env\) is not set/);
  const missingBoth = assertThrows(() => resolveCredentials(config, env({})), InputError);
  assertEquals(
    missingBoth.message,
    "environment variables DEERMEM_EVAL_ANSWER_API_KEY (the config's qa.api_key_env) and " +
      "DEERMEM_EVAL_ANSWER_BASE_URL (the config's qa.base_url_env) are not set",
  );
  const emptyUrl = assertThrows(
    () =>
      resolveCredentials(config, env({ DEERMEM_EVAL_ANSWER_API_KEY: key, DEERMEM_EVAL_ANSWER_BASE_URL: "" })),
    InputError,
  );
  assertMatch(emptyUrl.message, /DEERMEM_EVAL_ANSWER_BASE_URL/);
  for (const url of ["ftp://host/v1", "file:///etc/passwd", "not a url"]) {
    const error = assertThrows(
      () =>
        resolveCredentials(
          config,
          env({ DEERMEM_EVAL_ANSWER_API_KEY: key, DEERMEM_EVAL_ANSWER_BASE_URL: url }),
        ),
      InputError,
    );
    assertMatch(error.message, /DEERMEM_EVAL_ANSWER_BASE_URL (must be an http\(s\) URL|is not a URL)/);
    assert(!error.message.includes(key) && !error.message.includes(url.slice(6)), error.message);
  }
});
