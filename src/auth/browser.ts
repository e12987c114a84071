/**
 * Opening a URL in the user's browser, safely.
 *
 * @module
 */

import { OAuthError } from "./errors.ts";
import { checkScheme } from "./_safety.ts";

/** The command that opens a URL, per operating system: never a shell. */
function opener(os: typeof Deno.build.os): [string, string[]] {
  if (os === "darwin") return ["open", []];
  // `cmd /c start` would hand the URL to a shell that treats & and ^ as syntax.
  if (os === "windows") return ["rundll32.exe", ["url.dll,FileProtocolHandler"]];
  return ["xdg-open", []];
}

/**
 * Opens an `https:` URL (or an `http:` one to loopback) in the default browser: `open` on macOS,
 * `xdg-open` elsewhere, `rundll32 url.dll,FileProtocolHandler` on Windows, with the URL as one
 * argument and no shell. Any other scheme (`javascript:`, `data:`, `file:`, ...) is refused, and
 * a value that could be read as a flag never reaches the command. Resolves once the opener has
 * exited; false when it could not be run.
 *
 * @example Falling back to printing the URL
 * ```ts ignore
 * import { openBrowser } from "@mcp-inspect/client/auth";
 * if (!await openBrowser("https://auth.example.com/authorize?client_id=abc")) {
 *   console.log("Open the URL yourself");
 * }
 * ```
 */
export async function openBrowser(url: string | URL): Promise<boolean> {
  const checked = checkScheme(url, "URL to open in the browser");
  const href = checked.href;
  if (href.startsWith("-") || /[\0\r\n]/.test(href)) {
    throw new OAuthError("Refusing to open a URL that could be read as an option", "unsafe-url");
  }
  const [command, prefix] = opener(Deno.build.os);
  try {
    const { success } = await new Deno.Command(command, {
      args: [...prefix, href],
      stdin: "null",
      stdout: "null",
      stderr: "null",
    }).output();
    return success;
  } catch {
    return false; // no opener installed (a server, a container): the caller prints the URL
  }
}
