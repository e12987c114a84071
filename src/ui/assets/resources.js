// The resources tab: the server's resources and resource templates, reading one (and reading it
// again when a subscribed resource is updated), and a template's variables, completed by the
// server, expanded into the URI to read.

import { append, h, replace } from "./dom.js";
import { resourceContents } from "./render.js";
import { api, describeError } from "./api.js";
import { itemList } from "./list.js";
import { state } from "./state.js";
import { completionInput, copy, needsConnection, toast } from "./widgets.js";

const resourceViews = new Map();

/** The resources tab: resources and templates, and the chosen one's contents or form. */
export function resourcesView(server, panel) {
  const missing = needsConnection(server);
  if (missing) return missing;
  const detail = h("div", { class: "detail" }, h("p", { class: "muted" }, "Choose a resource."));
  const resources = itemList({
    label: "Resources",
    load: () => api("resources/list", { server: server.name }),
    text: (resource) => `${resource.uri} ${resource.name ?? ""}`,
    open: (resource) => showResource(server, resource.uri, detail),
    content: (resource) => [
      h("span", { class: "name" }, resource.name ?? resource.uri),
      h("span", { class: "muted" }, ` ${resource.uri}`),
    ],
  });
  // A server without templates may answer resources/templates/list with an error: "None" too.
  const templates = itemList({
    label: "Resource templates",
    load: () => api("resources/templates", { server: server.name }),
    open: (template) => replace(detail, templateForm(server, template, detail)),
    content: (template) => [
      h("span", { class: "name" }, template.name ?? template.uriTemplate),
      h("span", { class: "muted" }, ` ${template.uriTemplate}`),
    ],
    empty: "None",
    failed: () => h("li", { class: "muted" }, "None"),
  });
  append(
    panel,
    h(
      "div",
      { class: "split" },
      h("div", { class: "list" }, resources, h("h4", null, "Templates"), templates),
      detail,
    ),
  );
}

async function showResource(server, uri, detail) {
  const subscribed = state.subscriptions.get(server.name) ?? new Set();
  state.subscriptions.set(server.name, subscribed);
  const body = h("div", { class: "output" }, h("p", { class: "muted" }, "Reading…"));
  const canSubscribe = server.capabilities?.resources?.subscribe === true;
  const copied = h("div");
  const toggle = h("button", {
    type: "button",
    hidden: !canSubscribe,
    onclick: async () => {
      const on = subscribed.has(uri);
      try {
        await api(on ? "resources/unsubscribe" : "resources/subscribe", {
          server: server.name,
          uri,
        });
        if (on) subscribed.delete(uri);
        else subscribed.add(uri);
        toggle.textContent = subscribed.has(uri) ? "Unsubscribe" : "Subscribe";
      } catch (error) {
        toast(describeError(error), "error");
      }
    },
  }, subscribed.has(uri) ? "Unsubscribe" : "Subscribe");
  replace(
    detail,
    h("h3", null, h("code", null, uri)),
    h(
      "div",
      { class: "actions" },
      h("button", { type: "button", onclick: () => read() }, "Read again"),
      toggle,
      h("button", {
        type: "button",
        class: "small",
        onclick: async () =>
          copy(
            (await api("copy", { server: server.name, words: ["resources", "read", uri] })).command,
            copied,
          ),
      }, "Copy as command"),
    ),
    copied,
    body,
  );
  const read = async (note) => {
    try {
      const result = await api("resources/read", { server: server.name, uri });
      replace(
        body,
        note ? h("div", { class: "ok" }, note) : null,
        (result.contents ?? []).map(resourceContents),
      );
    } catch (error) {
      replace(body, h("div", { class: "problem" }, describeError(error)));
    }
  };
  resourceViews.set(`${server.name}\n${uri}`, { body, read });
  await read();
}

/** Reads a resource again when the server says it was updated, if it is still shown. */
export function onResourceUpdated(server, uri) {
  const view = resourceViews.get(`${server}\n${uri}`);
  if (view?.body.isConnected) void view.read(`Updated at ${new Date().toLocaleTimeString()}`);
}

function templateVariables(template) {
  const names = [];
  for (const match of template.matchAll(/\{([+#./;?&]?)([^}]+)\}/g)) {
    for (const name of match[2].split(",")) {
      names.push({ operator: match[1], name: name.replace(/\*$|:\d+$/, "") });
    }
  }
  return names;
}

function expandTemplate(template, values) {
  return template.replace(/\{([+#./;?&]?)([^}]+)\}/g, (_, operator, list) => {
    const names = list.split(",").map((name) => name.replace(/\*$|:\d+$/, ""));
    const present = names.filter((name) => values[name] !== undefined && values[name] !== "");
    const encode = operator === "+" || operator === "#" ? encodeURI : encodeURIComponent;
    if (operator === "?" || operator === "&") {
      return present.length === 0
        ? ""
        : operator + present.map((name) => `${name}=${encodeURIComponent(values[name])}`).join("&");
    }
    const prefix = { "#": "#", ".": ".", "/": "/", ";": ";" }[operator] ?? "";
    return present.length === 0
      ? ""
      : prefix + present.map((name) => encode(values[name])).join(",");
  });
}

function templateForm(server, template, detail) {
  const fields = templateVariables(template.uriTemplate).map((variable) => {
    const box = completionInput(
      variable.name,
      async (value) =>
        (await api("complete", {
          server: server.name,
          ref: { type: "ref/resource", uri: template.uriTemplate },
          argument: { name: variable.name, value },
        })).completion?.values ?? [],
    );
    return { variable, box };
  });
  return h(
    "form",
    {
      onsubmit: (event) => {
        event.preventDefault();
        const values = Object.fromEntries(
          fields.map(({ variable, box }) => [variable.name, box.input.value]),
        );
        void showResource(server, expandTemplate(template.uriTemplate, values), detail);
      },
    },
    h("h3", null, template.name ?? "Template"),
    h("code", null, template.uriTemplate),
    template.description ? h("p", { class: "description" }, template.description) : null,
    fields.map(({ variable, box }) =>
      h("div", { class: "field" }, h("label", { class: "field-label" }, variable.name), box.element)
    ),
    h("button", { type: "submit", class: "primary" }, "Read"),
  );
}
