// `mcp-inspect proxy --tools <module>`: a TypeScript (or JavaScript) module that adds local tools
// to the proxy's registry. The module's default export is a function that receives the registry
// (and may register, await, or read the environment), or an array of tool definitions; a named
// `tools` array works too.

import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { LocalTool, ToolRegistry } from "../manager/mod.ts";

/** Why a tools module could not be loaded; the CLI reports it as a usage error. */
export class ToolsModuleError extends Error {
  readonly module: string;

  constructor(module: string, detail: string, options?: ErrorOptions) {
    super(`Cannot load tools from "${module}": ${detail}`, options);
    this.name = "ToolsModuleError";
    this.module = module;
  }
}

/** Imports a tools module and registers what it offers; returns the names added. */
export async function loadToolsModule(path: string, registry: ToolRegistry): Promise<string[]> {
  let module: Record<string, unknown>;
  try {
    module = await import(pathToFileURL(resolve(path)).href);
  } catch (error) {
    throw new ToolsModuleError(path, (error as Error).message.split("\n")[0]!, { cause: error });
  }
  const before = new Set(registry.listBySource("local").map((entry) => entry.name));
  const offered = module.default ?? module.tools;
  try {
    if (typeof offered === "function") {
      await offered(registry);
    } else if (Array.isArray(offered)) {
      for (const tool of offered as LocalTool[]) registry.register(tool);
    } else {
      throw new Error(
        "export a default function receiving the registry, or an array of tools",
      );
    }
  } catch (error) {
    throw new ToolsModuleError(path, (error as Error).message, { cause: error });
  }
  return registry.listBySource("local").map((entry) => entry.name).filter((name) =>
    !before.has(name)
  );
}
