// The page's JSON API: one operation per `POST /api/<operation>`, its body checked field by field,
// each carried out on the hub. What is wrong with a body becomes a HubError (400) naming the field.

import type { JsonObject } from "../../mod.ts";
import { LoopbackAuthorization } from "../auth/mod.ts";
import type { ServerConfig } from "../config/config.ts";
import { commandLine, configEntries } from "./_copy.ts";
import type { Hub } from "./_hub.ts";
import { HubError } from "./_hub_error.ts";

/** Carries out one operation of the page on the hub; its result becomes the JSON answer. */
export async function operation(hub: Hub, operation: string, body: JsonObject): Promise<unknown> {
  const server = () => text(body, "server");
  switch (operation) {
    case "servers/add":
      return hub.add(text(body, "name"), body.config as unknown as ServerConfig);
    case "servers/remove":
      return await hub.remove(server());
    case "servers/reconnect":
      return await hub.reconnect(server());
    case "ping":
      return await hub.client(server()).ping();
    case "tools/list":
      return await hub.listTools(server());
    case "tools/call":
      return await hub.callTool(
        server(),
        text(body, "name"),
        object(body, "arguments") ?? {},
        text(body, "callId"),
      );
    case "cancel":
      return hub.cancel(text(body, "callId"));
    case "resources/list":
      return await hub.client(server()).listResources({ bypassCache: true });
    case "resources/templates":
      return await hub.client(server()).listResourceTemplates({ bypassCache: true });
    case "resources/read":
      return await hub.client(server()).readResource(text(body, "uri"), { bypassCache: true });
    case "resources/subscribe":
      return await hub.client(server()).subscribeResource(text(body, "uri"));
    case "resources/unsubscribe":
      return await hub.client(server()).unsubscribeResource(text(body, "uri"));
    case "prompts/list":
      return await hub.client(server()).listPrompts({ bypassCache: true });
    case "prompts/get":
      return await hub.client(server()).getPrompt(
        text(body, "name"),
        strings(body, "arguments"),
      );
    case "complete": {
      const ref = object(body, "ref");
      const argument = object(body, "argument");
      if (!ref || !argument) throw new HubError(`"ref" and "argument" are required`);
      const context = strings(body, "context");
      return await hub.client(server()).complete(
        ref as never,
        { name: text(argument, "name"), value: String(argument.value ?? "") },
        Object.keys(context).length > 0 ? { context } : {},
      );
    }
    case "logging/setLevel":
      return await hub.setLogLevel(server(), text(body, "level") as never);
    case "answer": {
      const id = text(body, "id");
      if (typeof body.error === "string") return hub.answer(id, { error: body.error });
      if (!("result" in body)) throw new HubError(`"result" or "error" is required`);
      return hub.answer(id, { result: body.result });
    }
    case "wire":
      return hub.wire(server());
    case "wire/export":
      return hub.recording(server());
    case "copy": {
      const config = hub.config(server());
      const words = body.words;
      if (!Array.isArray(words) || !words.every((word) => typeof word === "string")) {
        throw new HubError(`"words" must be an array of strings`);
      }
      return {
        command: commandLine(config, words as string[], object(body, "arguments")),
        configs: configEntries(server(), config),
      };
    }
    case "auth/status":
      return await hub.authStatus(server());
    case "auth/logout":
      return await hub.logout(server());
    case "auth/login": {
      await using callback = await LoopbackAuthorization.start({ openBrowser: false });
      return await hub.login(server(), callback);
    }
    default:
      throw new HubError(`Unknown operation "${operation}"`, 404);
  }
}

function text(body: JsonObject, key: string): string {
  const value = body[key];
  if (typeof value !== "string") throw new HubError(`"${key}" must be a string`);
  return value;
}

function object(body: JsonObject, key: string): JsonObject | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new HubError(`"${key}" must be an object`);
  }
  return value as JsonObject;
}

function strings(body: JsonObject, key: string): Record<string, string> {
  const value = object(body, key) ?? {};
  for (const [name, item] of Object.entries(value)) {
    if (typeof item !== "string") throw new HubError(`"${key}.${name}" must be a string`);
  }
  return value as Record<string, string>;
}
