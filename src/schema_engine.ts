// The Ajv engines behind SchemaValidator, loaded on first need (SchemaValidator.ready()) or by a
// module that validates synchronously and imports this file itself (the tool registry).

import { Ajv2020 } from "ajv/dist/2020.js";
import { Ajv as AjvDraft07 } from "ajv";
import addFormatsModule from "ajv-formats";
import { type Draft, installSchemaEngines } from "./schema.ts";

type AjvInstance = InstanceType<typeof Ajv2020> | InstanceType<typeof AjvDraft07>;

// ajv-formats is CommonJS; its default export arrives wrapped under Deno's interop.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as (ajv: AjvInstance) => AjvInstance;

function engine(draft: Draft, validateSchema: boolean): AjvInstance {
  const options = {
    strict: false,
    allErrors: true,
    // Never register a schema's $id: two tools may reuse one id with different contents.
    addUsedSchema: false,
    validateSchema,
  } as const;
  return addFormats(draft === "draft07" ? new AjvDraft07(options) : new Ajv2020(options));
}

// Checking a schema against its meta-schema first compiles the meta-schema, ~20–70 ms per engine,
// which every connection paid on its first validated call. One checking engine per draft serves
// the whole process (it keeps nothing of what it checks); the engines that compile the tools'
// schemas stay per validator, since they keep every schema they compile, and skip that check.
const checkers: Partial<Record<Draft, AjvInstance>> = {};

installSchemaEngines({
  compiler: (draft) => engine(draft, false),
  checker: (draft) => (checkers[draft] ??= engine(draft, true)),
});
