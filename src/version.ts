/**
 * The version of this package, read from `deno.json` so that it has one source.
 *
 * @module
 */

import denoJson from "../deno.json" with { type: "json" };

/**
 * The package version, as in `deno.json`.
 *
 * @example Printing the package version
 * ```ts
 * import { VERSION } from "@mcp-inspect/client";
 * console.log(VERSION);
 * ```
 */
export const VERSION: string = denoJson.version;
