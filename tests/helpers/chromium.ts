/** Headless Chromium for render tests: found on PATH (CI installs Debian's `chromium`), never downloaded. */

const NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];

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
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        "--no-first-run",
        "--no-default-browser-check",
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
