/**
 * Headless Chromium for render tests: found on PATH (CI installs Debian's `chromium`), never downloaded, run
 * with no proxy and only file:// pages. {@linkcode openBrowser} drives it over the DevTools protocol on
 * 127.0.0.1, because the command line's `--window-size` never lays a page out narrower than 500 px.
 */

const NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];

/** What a test prints and fails with when Chromium is missing: a render test must not pass unrendered. */
export const CHROMIUM_MISSING =
  "headless Chromium is not on PATH: the HTML render and layout tests need it (install it: apt-get install -y chromium)";

/** The path of a Chromium binary on PATH, or undefined. */
export function findChromium(): string | undefined {
  const path = Deno.env.get("PATH") ?? "";
  for (const directory of path.split(":").filter((entry) => entry !== "")) {
    for (const name of NAMES) {
      try {
        const info = Deno.statSync(`${directory}/${name}`);
        if (info.isFile || info.isSymlink) return `${directory}/${name}`;
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/** The Chromium binary, or an error saying how to install it. */
export function requireChromium(): string {
  const chromium = findChromium();
  if (chromium === undefined) throw new Error(CHROMIUM_MISSING);
  return chromium;
}

const BASE_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--hide-scrollbars",
  "--no-first-run",
  "--no-default-browser-check",
  "--no-proxy-server",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Renders an HTML file to a PNG screenshot of the given window size; `dark` asks for the dark colour scheme. */
export async function screenshot(
  chromium: string,
  htmlPath: string,
  pngPath: string,
  options: { width: number; height: number; dark?: boolean },
): Promise<void> {
  const profile = await Deno.makeTempDir({ prefix: "deermem-eval-chromium-" });
  try {
    const output = await new Deno.Command(chromium, {
      args: [
        ...BASE_ARGS,
        `--user-data-dir=${profile}`,
        // Blink's preferred colour scheme: 0 dark, 1 light.
        `--blink-settings=preferredColorScheme=${options.dark ? 0 : 1}`,
        `--window-size=${options.width},${options.height}`,
        `--screenshot=${pngPath}`,
        `file://${htmlPath}`,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!output.success) {
      throw new Error(
        `chromium failed (${output.code}): ${new TextDecoder().decode(output.stderr).slice(-2000)}`,
      );
    }
  } finally {
    await Deno.remove(profile, { recursive: true });
  }
}

/** A page in a running headless Chromium. */
export interface BrowserPage {
  /** Loads a local file at a viewport of `width` × `height` CSS pixels (device scale 1). */
  load(htmlPath: string, width: number, height: number): Promise<void>;
  /** Evaluates an expression in the page and returns its JSON value. */
  evaluate<T>(expression: string): Promise<T>;
  /** The whole page (or only the viewport: what a reader sees first) as PNG bytes. */
  screenshot(options?: { viewportOnly?: boolean }): Promise<Uint8Array>;
}

/** A headless Chromium on a DevTools port of 127.0.0.1, its profile in a temporary directory. */
export interface Browser {
  page(): Promise<BrowserPage>;
  close(): Promise<void>;
}

/** The DevTools WebSocket address Chromium prints on standard error when it starts. */
async function devtoolsAddress(stderr: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  const deadline = setTimeout(() => reader.cancel(), 30_000);
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`chromium printed no DevTools address: ${seen.slice(-1000)}`);
      seen += value;
      const match = seen.match(/DevTools listening on (ws:\/\/127\.0\.0\.1:\d+\/\S+)/);
      if (match !== null) {
        // Keep draining, so a chatty Chromium never blocks on a full pipe.
        (async () => {
          try {
            while (!(await reader.read()).done) { /* drain */ }
          } catch { /* closed */ }
        })();
        return match[1];
      }
    }
  } finally {
    clearTimeout(deadline);
  }
}

/** Starts headless Chromium with DevTools on 127.0.0.1 (a free port), no proxy, a fresh profile. */
export async function openBrowser(chromium: string = requireChromium()): Promise<Browser> {
  const profile = await Deno.makeTempDir({ prefix: "deermem-eval-chromium-" });
  const child = new Deno.Command(chromium, {
    args: [
      ...BASE_ARGS,
      "--remote-debugging-address=127.0.0.1",
      "--remote-debugging-port=0",
      `--user-data-dir=${profile}`,
      "about:blank",
    ],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const socket = new WebSocket(await devtoolsAddress(child.stderr));
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = () => reject(new Error("could not connect to Chromium's DevTools on 127.0.0.1"));
  });
  let next = 0;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const listeners: ((message: { method?: string; sessionId?: string }) => void)[] = [];
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    const waiting = message.id === undefined ? undefined : pending.get(message.id);
    if (waiting !== undefined) {
      pending.delete(message.id);
      if (message.error !== undefined) waiting.reject(new Error(`DevTools: ${message.error.message}`));
      else waiting.resolve(message.result);
    } else for (const listener of listeners) listener(message);
  };
  // deno-lint-ignore no-explicit-any
  const send = (method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<any> => {
    const id = ++next;
    socket.send(JSON.stringify({ id, method, params, sessionId }));
    return new Promise((resolve, reject) => pending.set(id, { resolve, reject }));
  };
  const page = async (): Promise<BrowserPage> => {
    const { targetId } = await send("Target.createTarget", { url: "about:blank" });
    const { sessionId } = await send("Target.attachToTarget", { targetId, flatten: true });
    await send("Page.enable", {}, sessionId);
    return {
      async load(htmlPath, width, height) {
        await send("Emulation.setDeviceMetricsOverride", {
          width,
          height,
          deviceScaleFactor: 1,
          mobile: false,
        }, sessionId);
        const loaded = new Promise<void>((resolve) => {
          listeners.push((message) => {
            if (message.method === "Page.loadEventFired" && message.sessionId === sessionId) resolve();
          });
        });
        await send("Page.navigate", { url: `file://${htmlPath}` }, sessionId);
        await loaded;
      },
      async evaluate<T>(expression: string): Promise<T> {
        const { result, exceptionDetails } = await send(
          "Runtime.evaluate",
          { expression, returnByValue: true, awaitPromise: true },
          sessionId,
        );
        if (exceptionDetails !== undefined) {
          throw new Error(`in the page: ${JSON.stringify(exceptionDetails)}`);
        }
        return result.value as T;
      },
      async screenshot() {
        const { data } = await send(
          "Page.captureScreenshot",
          { format: "png", captureBeyondViewport: true },
          sessionId,
        );
        return Uint8Array.from(atob(data), (char) => char.charCodeAt(0));
      },
    };
  };
  return {
    page,
    async close() {
      try {
        await send("Browser.close");
      } catch { /* already gone */ }
      socket.close();
      await child.status;
      await Deno.remove(profile, { recursive: true });
    },
  };
}
