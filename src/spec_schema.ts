/**
 * Validation of JSON-RPC messages against the official JSON Schema of an MCP revision. Used by the
 * test suite on every message the client sends, and by `mcp-inspect check` on what a server
 * sends. The schemas of every revision ship with the package (`src/spec/`), so validation works
 * offline; each is loaded on first use.
 *
 * @module
 */

import type { Ajv2020 } from "ajv/dist/2020.js";
import type { Ajv as AjvDraft07, ValidateFunction } from "ajv";
import type { JsonObject, JsonRpcMessage } from "./jsonrpc.ts";

/**
 * The revisions whose official schema can be loaded.
 *
 * @example Checking that a revision has a schema
 * ```ts
 * import { SPEC_REVISIONS } from "@mcp-inspect/client";
 * console.log(SPEC_REVISIONS.includes("2025-11-25")); // true
 * ```
 */
export const SPEC_REVISIONS: readonly string[] = [
  "2024-11-05",
  "2025-03-26",
  "2025-06-18",
  "2025-11-25",
  "2026-07-28",
];

/**
 * The official schemas, shipped in `src/spec/` as published by the specification repository.
 * One literal import per revision, so that `deno compile` and JSR see every file in the module
 * graph, while a process loads (and parses) only the revision it uses.
 */
const BUNDLED: Record<string, () => Promise<{ default: unknown }>> = {
  "2024-11-05": () => import("./spec/2024-11-05.json", { with: { type: "json" } }),
  "2025-03-26": () => import("./spec/2025-03-26.json", { with: { type: "json" } }),
  "2025-06-18": () => import("./spec/2025-06-18.json", { with: { type: "json" } }),
  "2025-11-25": () => import("./spec/2025-11-25.json", { with: { type: "json" } }),
  "2026-07-28": () => import("./spec/2026-07-28.json", { with: { type: "json" } }),
};

/**
 * Where {@link loadSpecSchema} looks for a schema.
 *
 * @example Loading schemas from a folder of drafts
 * ```ts
 * import type { SpecSchemaOptions } from "@mcp-inspect/client";
 * const options: SpecSchemaOptions = { schemaDir: "../shared/spec" };
 * ```
 */
export interface SpecSchemaOptions {
  /**
   * A folder holding `<revision>/schema.json`, used instead of the schemas shipped with this
   * package (say, to check against a draft of the specification).
   */
  schemaDir?: string | URL;
}

/**
 * Loads the official schema of a revision: from `schemaDir` when given, else the copy shipped
 * with this package. Never uses the network.
 *
 * @example Loading a shipped schema
 * ```ts
 * import { loadSpecSchema } from "@mcp-inspect/client";
 * const schema = await loadSpecSchema("2025-11-25");
 * console.log(Object.keys(schema.$defs as object).includes("CallToolResult")); // true
 * ```
 */
export async function loadSpecSchema(
  revision: string,
  options: SpecSchemaOptions = {},
): Promise<JsonObject> {
  const bundled = BUNDLED[revision];
  if (!SPEC_REVISIONS.includes(revision) || !bundled) {
    throw new Error(`No official schema is known for protocol revision "${revision}"`);
  }
  if (options.schemaDir !== undefined) {
    const dir = String(options.schemaDir).replace(/\/$/, "");
    const path = options.schemaDir instanceof URL
      ? new URL(`${revision}/schema.json`, `${options.schemaDir.href.replace(/\/?$/, "/")}`)
      : `${dir}/${revision}/schema.json`;
    let text: string;
    try {
      text = await Deno.readTextFile(path);
    } catch (error) {
      throw new Error(
        `Cannot read the schema of revision ${revision} from ${path}: ${(error as Error).message}`,
        { cause: error },
      );
    }
    try {
      return JSON.parse(text);
    } catch (error) {
      throw new Error(`Invalid JSON in ${path}: ${(error as Error).message}`, { cause: error });
    }
  }
  // A copy, so that a caller editing the schema cannot change what the next caller loads.
  return structuredClone((await bundled()).default) as JsonObject;
}

/**
 * Known mistakes of the published `schema.json` files, corrected to match `schema.ts`, the source
 * of truth they are generated from.
 *
 * - `ElicitResult.content` values: `schema.ts` (2025-06-18 on) allows `string | number | boolean |
 *   string[]`, but the generated JSON says `integer`, so a form's `number` field (whose default
 *   may be 95.5, as in the conformance scenario elicitation-sep1034-client-defaults) could never
 *   be answered validly.
 */
function applyErrata(schema: JsonObject, defsKey: string): JsonObject {
  const document = structuredClone(schema);
  const defs = document[defsKey] as Record<string, { properties?: Record<string, unknown> }>;
  const content = defs.ElicitResult?.properties?.content as
    | { additionalProperties?: unknown }
    | undefined;
  if (content?.additionalProperties) {
    content.additionalProperties = JSON.parse(
      JSON.stringify(content.additionalProperties).replace(
        '["string","integer","boolean"]',
        '["string","number","boolean"]',
      ),
    );
  }
  return document;
}

/** Which side sent a message. */
type Side = "Client" | "Server";

// Ajv is loaded with the first validator (SpecValidator.load), not with the root module.
let engines: { Ajv2020: typeof Ajv2020; AjvDraft07: typeof AjvDraft07 } | undefined;

async function loadEngines(): Promise<void> {
  const [modern, draft07] = await Promise.all([import("ajv/dist/2020.js"), import("ajv")]);
  engines ??= { Ajv2020: modern.Ajv2020, AjvDraft07: draft07.Ajv };
}

/**
 * Checks messages against the official schema of one revision. Each check returns a list of
 * issues; an empty list means the message is valid.
 *
 * @example Checking what a client sends
 * ```ts
 * import { SpecValidator } from "@mcp-inspect/client";
 * const validator = await SpecValidator.load("2025-11-25");
 * console.log(validator.checkClientMessage({ jsonrpc: "2.0", id: 1, method: "ping" })); // []
 * ```
 */
export class SpecValidator {
  /** The revision whose schema this validator uses. */
  readonly revision: string;
  readonly #ajv: InstanceType<typeof Ajv2020> | InstanceType<typeof AjvDraft07>;
  readonly #defs: Record<string, unknown>;
  readonly #defsKey: string;
  readonly #compiled = new Map<string, ValidateFunction>();

  /**
   * Builds a validator from a schema document already loaded; the engine must be loaded too
   * (any `SpecValidator.load()` loads it, once per process).
   *
   * @example Building a validator from a schema loaded beforehand
   * ```ts
   * import { loadSpecSchema, SpecValidator } from "@mcp-inspect/client";
   * await SpecValidator.load("2025-11-25"); // loads the engine
   * const schema = await loadSpecSchema("2025-06-18");
   * const validator = new SpecValidator("2025-06-18", schema);
   * console.log(validator.revision); // "2025-06-18"
   * ```
   */
  constructor(revision: string, schema: JsonObject) {
    this.revision = revision;
    this.#defsKey = "$defs" in schema ? "$defs" : "definitions";
    const document = applyErrata(schema, this.#defsKey);
    this.#defs = document[this.#defsKey] as Record<string, unknown>;
    const modern = String(schema.$schema ?? "").includes("2020-12");
    if (!engines) {
      throw new Error(
        "The JSON Schema engine is not loaded: build validators with SpecValidator.load()",
      );
    }
    const options = { strict: false, allErrors: true, validateFormats: false } as const;
    this.#ajv = modern ? new engines.Ajv2020(options) : new engines.AjvDraft07(options);
    this.#ajv.addSchema(document, "spec");
  }

  /**
   * Loads the schema of a revision (see {@link loadSpecSchema}) and builds a validator.
   *
   * @example Loading the validator of the oldest revision
   * ```ts
   * import { SpecValidator } from "@mcp-inspect/client";
   * const validator = await SpecValidator.load("2024-11-05");
   * console.log(validator.revision); // "2024-11-05"
   * ```
   */
  static async load(revision: string, options: SpecSchemaOptions = {}): Promise<SpecValidator> {
    const [schema] = await Promise.all([loadSpecSchema(revision, options), loadEngines()]);
    return new SpecValidator(revision, schema);
  }

  /**
   * Checks a message sent by a client. For a response, pass the method of the request it
   * answers, so its result is checked against that method's result type.
   *
   * @example A request and a response that break the schema
   * ```ts
   * import { SpecValidator } from "@mcp-inspect/client";
   * const validator = await SpecValidator.load("2025-11-25");
   * console.log(validator.checkClientMessage({ jsonrpc: "2.0", id: 1, method: "tools/call" }));
   * // the issues of a tools/call without its `params`
   * const answer = { jsonrpc: "2.0" as const, id: 7, result: { roots: "none" } };
   * console.log(validator.checkClientMessage(answer, "roots/list").length > 0); // true
   * ```
   */
  checkClientMessage(message: JsonRpcMessage, answers?: string): string[] {
    return this.#check("Client", message, answers);
  }

  /**
   * Checks a message sent by a server, like {@link checkClientMessage}.
   *
   * @example A tools/list result whose tool lacks its input schema
   * ```ts
   * import { SpecValidator } from "@mcp-inspect/client";
   * const validator = await SpecValidator.load("2025-11-25");
   * const answer = { jsonrpc: "2.0" as const, id: 1, result: { tools: [{ name: "echo" }] } };
   * console.log(validator.checkServerMessage(answer, "tools/list"));
   * ```
   */
  checkServerMessage(message: JsonRpcMessage, answers?: string): string[] {
    return this.#check("Server", message, answers);
  }

  #check(side: Side, message: JsonRpcMessage, answers: string | undefined): string[] {
    if ("method" in message) {
      const kind = "id" in message ? "Request" : "Notification";
      const envelope = this.#run(`JSONRPC${kind}`, message);
      const def = this.#defFor(`${side}${kind}`, message.method);
      if (!def) {
        return [
          ...envelope,
          `${message.method} is not a ${side.toLowerCase()} ${kind.toLowerCase()} in revision ${this.revision}`,
        ];
      }
      return [...envelope, ...this.#run(def, message)];
    }
    if ("error" in message) {
      return this.#run(
        this.#defs.JSONRPCErrorResponse ? "JSONRPCErrorResponse" : "JSONRPCError",
        message,
      );
    }
    const envelope = this.#run(
      this.#defs.JSONRPCResultResponse ? "JSONRPCResultResponse" : "JSONRPCResponse",
      message,
    );
    if (answers === undefined) return envelope;
    const requestDef = this.#defFor(`${side === "Client" ? "Server" : "Client"}Request`, answers);
    const resultDef = requestDef?.replace(/Request$/, "Result");
    const def = resultDef && this.#defs[resultDef] ? resultDef : "Result";
    return [...envelope, ...this.#run(def, message.result, "/result")];
  }

  /** The definition in a union (such as `ClientRequest`) whose `method` is the given one. */
  #defFor(union: string, method: string): string | undefined {
    const members = (this.#defs[union] as { anyOf?: { $ref: string }[] } | undefined)?.anyOf ?? [];
    for (const member of members) {
      const name = member.$ref.split("/").pop() ?? "";
      const def = this.#defs[name] as { properties?: { method?: { const?: string } } } | undefined;
      if (def?.properties?.method?.const === method) return name;
    }
    return undefined;
  }

  #run(def: string, value: unknown, prefix = ""): string[] {
    let validate = this.#compiled.get(def);
    if (!validate) {
      validate = this.#ajv.compile({ $ref: `spec#/${this.#defsKey}/${def}` });
      this.#compiled.set(def, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => {
      const where = `${prefix}${error.instancePath ?? ""}`;
      return `${def}: ${where ? `${where} ` : ""}${error.message ?? "is invalid"}`;
    });
  }
}
