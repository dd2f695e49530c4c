import { InputError } from "../../../lib/base/errors.ts";
import { resolveCredentials } from "../../../lib/qa/answer/credentials.ts";
import { assert, assertEquals, assertMatch, assertThrows } from "../../helpers/assert.ts";
import { fixtureContracts } from "../../helpers/fixture.ts";

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

Deno.test("an API key a header cannot carry is refused naming the variable, never the key or its characters", () => {
  const config = contracts.config;
  const url = "https://x/v1";
  for (const key of ["sk-a\nb", "sk-ключ", "sk-\x7f", "sk-\r1", "sk-\0", "sk-é", "sk-x1 ", "sk-x1\t"]) {
    const error = assertThrows(
      () =>
        resolveCredentials(
          config,
          env({ DEERMEM_EVAL_ANSWER_API_KEY: key, DEERMEM_EVAL_ANSWER_BASE_URL: url }),
        ),
      InputError,
    );
    assertMatch(
      error.message,
      /^environment variable DEERMEM_EVAL_ANSWER_API_KEY \(the config's qa\.api_key_env\) (holds a character an HTTP header cannot carry \(a control character or one beyond ASCII\)|ends in whitespace, which an HTTP header drops)$/,
    );
    assert(!error.message.includes(key.slice(3)), error.message);
  }
  // Spaces and tabs inside a key, and every printable ASCII character, can be sent.
  const printable = Array.from({ length: 95 }, (_, code) => String.fromCharCode(0x20 + code)).join("") +
    "\tz";
  assertEquals(
    resolveCredentials(
      config,
      env({ DEERMEM_EVAL_ANSWER_API_KEY: printable, DEERMEM_EVAL_ANSWER_BASE_URL: url }),
    ).apiKey,
    printable,
  );
});
