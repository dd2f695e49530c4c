/** Run before the browser tier: one line saying how to install Chromium when it is missing, and exit 1. */

import { CHROMIUM_MISSING, findChromium } from "./chromium.ts";

if (findChromium() === undefined) {
  console.error(`test:browser: ${CHROMIUM_MISSING}`);
  Deno.exit(1);
}
