/**
 * `run-qa --help`'s description: what it writes, resuming, the stand-in, epochs, cost and reuse.
 *
 * @module
 */

import { STAND_IN_MODEL } from "../protocol/mod.ts";
import { TOKEN_RULE } from "../qa/mod.ts";

/** What `run-qa --help` says after its usage line. */
export const RUN_QA_DESCRIPTION =
  `Builds the tasks (every case × both policies at the QA capacity) and asks the OpenAI-compatible endpoint,
with identical settings for both policies, from the config: model, temperature, max_tokens, timeout, attempts,
workers. The API key and base URL are read only from the two environment variables the config names (for the
embedded protocol DEERMEM_EVAL_ANSWER_API_KEY and DEERMEM_EVAL_ANSWER_BASE_URL), before the dataset is read.

Writes into DIR:
  qa_run.json               the run's identity: the five artifact SHA-256 values and the QA settings (no key)
  responses/<row_id>.json   one row per answered task, written the moment the answer arrives
  reuse.json                the endpoint's base URL and each reused row's source (no reference tool reads it)

With --policy-module, the module's policy (the candidate) is answered in place of hybrid-v1 against
--baseline (default confidence), with identical settings; its rows carry policy = its name, policy_module and
policy_module_sha256, and qa_run.json records the module's SHA-256 and the baseline: resuming with another
module or baseline is refused. The module is loaded before any call and never given the key.

Running the same command again resumes: a stored row is reused only when it equals its recomputed task (ids,
source, scenario, policy, capacity, kept facts, request fingerprint); any other row is moved to
responses/superseded/ and called again. A DIR made under a different protocol is refused.

While it runs, DIR holds run-qa.lock (pid, start time): another run-qa or a grade-qa there refuses. A 401 or 403 stops the run;
a response body over 4 MiB fails its row; the key's text is never stored or printed ([redacted]). Ctrl-C stops
cleanly (a second one, a second later, quits at once); rows already written stay valid. Exit 1 if any call
failed.

With --stand-in, no endpoint, key or base URL is used (the two variables are not read): the program serves its
own deterministic stand-in answerer on 127.0.0.1 (a free port, stopped when run-qa ends) and calls it through
the same path. The stand-in is not a language model: it answers with the stored fact sharing the most words
with the question, or INSUFFICIENT, so retention decides correctness; its rows record response_model
${STAND_IN_MODEL}.

When the config's temperature is above 0 the stand-in samples: a draw seeded by the request
fingerprint and the run number among the facts sharing a word with the question, so runs vary reproducibly; at
temperature 0 it always gives the same answer. It needs network leave for 127.0.0.1 only. For trying a
protocol or a module without a key.

Epochs: with --epochs K every task is answered K times with identical settings: run 1 into DIR exactly as a
one-run directory, run r into DIR/epoch-r, each a complete run directory the reference's grader can grade;
DIR/epochs.json records K (resuming with another K is refused). The lock on DIR is held for all K runs;
--limit, --max-cost and --dry-run count the K runs' calls in run order; Ctrl-C stops them all. --reuse gives
run r only the answers of each source's run r.

Cost: --dry-run estimates the prompt tokens of the calls still needed by ${TOKEN_RULE}
(no tokenizer for the model is bundled), and with --price-input/--price-output the cost. --max-cost USD calls
only the tasks, in row order, whose summed worst case (that estimate, every completion at max_tokens) fits,
then stops with exit 3; the rows written stay valid and the same command with a larger budget resumes.

--max-cost is the run's total: every attempt (retries included) is recorded in DIR/spend.jsonl, by its
estimated prompt tokens, before it is sent, and counts at its worst case on every rerun. Usage a server reports
below 0 or at 10^12 and above fails its row (bad server output), never priced.

Reuse: with --reuse DIR[,DIR…], a task whose request fingerprint (prompt, model, settings) and endpoint (its
full base URL; the stand-in has one identity, whatever its port) equal a row an earlier run recorded takes that
row's answer, usage, attempts and time, under its own identity; only the rest are called.

A reuse source must be graded, pass verify, and hold each answer exactly as its grades recorded; an ungraded one is refused unless
--reuse-ungraded is given, and verify and report then say its rows are unproved.

A source another run-qa is writing (its lock held) is refused. Sources are read one at a time. Every run records its endpoint and each
reused row's source in reuse.json (qa_run.json and the rows keep the reference's keys). A source under another
protocol or endpoint gives nothing (said on stderr). With --dry-run, the base URL variable (not the key) is read
and only the calls still needed are priced.`;
