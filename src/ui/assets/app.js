// The inspector's page: servers on the left; for the chosen one, its overview, tools, resources,
// prompts, logs, wire log and OAuth state. One live channel (/api/events) keeps it current; the
// server's requests (sampling, elicitation, roots) open as dialogs. Built with the DOM API only:
// no markup is ever parsed from a string.

import { append, h, jsonBlock, jsonDetails, pretty, replace, safeLink } from "./dom.js";
import { schemaForm } from "./form.js";
import { contentBlock, promptMessages, resourceContents, toolResult } from "./render.js";

const TABS = ["overview", "tools", "resources", "prompts", "logs", "wire", "auth"];
const LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
const MAX_LOG_ENTRIES = 2000;
const MAX_WIRE_ROWS = 1000;

const state = {
  servers: [],
  selected: undefined,
  tab: "overview",
  pending: new Map(),
  wire: new Map(),
  logs: new Map(),
  auth: new Map(),
  recordings: [],
  subscriptions: new Map(),
  wireFilter: { text: "", dir: "all" },
  live: false,
};

const $ = (id) => document.getElementById(id);

// ---------------------------------------------------------------------------------------------
// The API and the live channel

async function api(operation, body = {}) {
  const response = await fetch(`/api/${operation}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  let answer;
  try {
    answer = await response.json();
  } catch {
    answer = { error: { message: `HTTP ${response.status} ${response.statusText}` } };
  }
  if (!response.ok || answer.error) {
    const error = new Error(answer.error?.message ?? `HTTP ${response.status}`);
    error.detail = answer.error;
    throw error;
  }
  return answer.result;
}

function describeError(error) {
  const detail = error.detail;
  if (detail?.code !== undefined) return `${error.message} (code ${detail.code})`;
  return error.message;
}

function connectLive() {
  const events = new EventSource("/api/events");
  events.onopen = () => setLive(true);
  events.onerror = () => setLive(false);
  events.onmessage = (message) => {
    let event;
    try {
      event = JSON.parse(message.data);
    } catch {
      return;
    }
    onEvent(event);
  };
}

function setLive(live) {
  state.live = live;
  const badge = $("live");
  badge.textContent = live ? "live" : "reconnecting…";
  badge.className = live ? "live on" : "live";
}

function onEvent(event) {
  switch (event.type) {
    case "hello":
      state.servers = event.servers;
      state.pending = new Map(event.pending.map((request) => [request.id, request]));
      for (const server of state.servers) void loadWire(server.name);
      if (state.selected === undefined && state.servers.length > 0) {
        state.selected = state.servers[0].name;
      }
      renderAll();
      showNextRequest();
      break;
    case "servers": {
      const before = current();
      state.servers = event.servers;
      renderServerList();
      const after = current();
      // The page is rebuilt when the chosen server's connection changed, not on every fault.
      if (before?.status !== after?.status || state.tab === "overview") renderMain();
      break;
    }
    case "wire":
      pushWire(event.server, event.entry);
      break;
    case "log":
    case "stderr":
      pushLog(event.server, event);
      break;
    case "changed":
      toast(`${event.server}: the ${event.list} list changed`);
      if (event.server === state.selected && state.tab === event.list) renderMain();
      break;
    case "updated":
      toast(`${event.server}: ${event.uri} was updated`);
      onResourceUpdated(event.server, event.uri);
      break;
    case "progress":
      onProgress(event);
      break;
    case "request":
      state.pending.set(event.request.id, event.request);
      showNextRequest();
      break;
    case "request-done":
      state.pending.delete(event.id);
      if ($("dialog").dataset.request === event.id) closeDialog();
      showNextRequest();
      break;
    case "auth":
      pushAuth(event.server, event.step);
      break;
  }
}

async function loadWire(server) {
  try {
    state.wire.set(server, await api("wire", { server }));
    if (server === state.selected && state.tab === "wire") renderMain();
  } catch { /* the server went away meanwhile */ }
}

// ---------------------------------------------------------------------------------------------
// Layout

function current() {
  return state.servers.find((server) => server.name === state.selected);
}

function recording() {
  const match = /^recording:(\d+)$/.exec(state.selected ?? "");
  return match ? state.recordings[Number(match[1])] : undefined;
}

function renderAll() {
  renderServerList();
  renderMain();
}

function statusDot(status) {
  return h("span", { class: `dot ${status}`, title: status, "aria-hidden": "true" });
}

function renderServerList() {
  const list = $("server-list");
  const items = [
    ...state.servers.map((server) => ({
      id: server.name,
      label: server.name,
      status: server.status,
      faults: server.diagnostics.length,
    })),
    ...state.recordings.map((rec, index) => ({
      id: `recording:${index}`,
      label: rec.name,
      status: "recording",
      faults: 0,
    })),
  ];
  replace(
    list,
    items.map((item) =>
      h(
        "li",
        { role: "option", "aria-selected": String(item.id === state.selected) },
        h(
          "button",
          {
            type: "button",
            class: item.id === state.selected ? "server selected" : "server",
            dataset: { server: item.id },
            onclick: () => select(item.id),
            onkeydown: (event) => moveFocus(event, list, "button"),
          },
          statusDot(item.status),
          h("span", { class: "name" }, item.label),
          item.faults > 0
            ? h("span", { class: "badge warn", title: "protocol faults" }, String(item.faults))
            : null,
        ),
      )
    ),
    items.length === 0 ? h("li", { class: "muted empty" }, "No server yet") : null,
  );
}

function select(id, tab) {
  state.selected = id;
  if (tab) state.tab = tab;
  if (id.startsWith("recording:")) state.tab = "wire";
  renderAll();
}

/** Arrow keys move between the focusable items of a list. */
function moveFocus(event, container, selector) {
  if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
  const items = [...container.querySelectorAll(selector)];
  const index = items.indexOf(document.activeElement);
  const next = items[index + (event.key === "ArrowDown" ? 1 : -1)];
  if (next) {
    event.preventDefault();
    next.focus();
  }
}

function renderMain() {
  const main = $("main");
  const rec = recording();
  if (rec) {
    replace(
      main,
      h("h2", null, rec.name, " ", h("span", { class: "badge" }, "recording")),
      recordingHeader(rec),
      wireView(rec.messages, undefined),
    );
    return;
  }
  const server = current();
  if (!server) {
    replace(
      main,
      h(
        "div",
        { class: "welcome" },
        h("h2", null, "No server selected"),
        h("p", null, "Add a server, or start mcp-inspect ui with -- <command>, --url or --config."),
      ),
    );
    return;
  }
  const tabs = TABS.filter((tab) => tab !== "auth" || server.transport !== "stdio");
  if (!tabs.includes(state.tab)) state.tab = "overview";
  const tabList = h(
    "div",
    { class: "tabs", role: "tablist", "aria-label": "Views" },
    tabs.map((tab, index) =>
      h("button", {
        type: "button",
        role: "tab",
        id: `tab-${tab}`,
        "aria-selected": String(tab === state.tab),
        tabindex: tab === state.tab ? "0" : "-1",
        title: `${tab} (Alt+${index + 1})`,
        onclick: () => select(server.name, tab),
        onkeydown: (event) => {
          if (event.key !== "ArrowRight" && event.key !== "ArrowLeft") return;
          const next =
            tabs[(index + (event.key === "ArrowRight" ? 1 : tabs.length - 1)) % tabs.length];
          select(server.name, next);
          $(`tab-${next}`)?.focus();
        },
      }, tab)
    ),
  );
  const panel = h("section", {
    class: "panel",
    role: "tabpanel",
    "aria-labelledby": `tab-${state.tab}`,
  });
  replace(
    main,
    h(
      "div",
      { class: "server-head" },
      statusDot(server.status),
      h("h2", null, server.name),
      h(
        "span",
        { class: "muted" },
        `${server.status}${
          server.serverInfo ? ` · ${server.serverInfo.name} ${server.serverInfo.version}` : ""
        }`,
      ),
    ),
    tabList,
    panel,
  );
  const view = {
    overview: overviewView,
    tools: toolsView,
    resources: resourcesView,
    prompts: promptsView,
    logs: logsView,
    wire: () => wireView(state.wire.get(server.name) ?? [], server.name),
    auth: authView,
  }[state.tab];
  const built = view(server, panel);
  if (built) append(panel, built);
}

function needsConnection(server) {
  if (server.status === "connected") return undefined;
  return h(
    "div",
    { class: "problem" },
    `Not connected (${server.status})${server.error ? `: ${server.error}` : ""}`,
  );
}

function toast(text, kind = "info") {
  const element = h("div", { class: `toast ${kind}` }, text);
  $("toasts").append(element);
  setTimeout(() => element.remove(), 4000);
}

async function copy(text, target) {
  if (target) replace(target, h("pre", { class: "copied", "data-testid": "copied" }, text));
  try {
    await navigator.clipboard.writeText(text);
    toast("Copied");
  } catch {
    toast("Shown below: the clipboard is not available");
  }
}

function busy(button, promise) {
  button.disabled = true;
  return promise.finally(() => button.disabled = false);
}

// ---------------------------------------------------------------------------------------------
// Overview

function overviewView(server) {
  const copied = h("div");
  const row = (name, value) =>
    value === undefined || value === null
      ? null
      : h("tr", null, h("th", null, name), h("td", null, value));
  return h(
    "div",
    { class: "overview" },
    h(
      "table",
      { class: "facts" },
      row("Status", server.status + (server.error ? `: ${server.error}` : "")),
      row("Transport", server.transport),
      row("Server", server.target),
      row(
        "Implementation",
        server.serverInfo
          ? `${server.serverInfo.title ?? server.serverInfo.name} ${server.serverInfo.version}`
          : undefined,
      ),
      row("Revision", server.protocolVersion),
      row("Era", server.era),
    ),
    h(
      "div",
      { class: "actions" },
      h("button", {
        type: "button",
        onclick: (event) =>
          busy(
            event.target,
            api("servers/reconnect", { server: server.name }).catch((error) =>
              toast(describeError(error), "error")
            ),
          ),
      }, "Reconnect"),
      h("button", {
        type: "button",
        onclick: (event) =>
          busy(
            event.target,
            api("ping", { server: server.name }).then(() => toast("The server answered"), (error) =>
              toast(describeError(error), "error")),
          ),
      }, "Ping"),
      h("button", {
        type: "button",
        class: "danger",
        onclick: async () => {
          if (!confirm(`Remove ${server.name}?`)) return;
          await api("servers/remove", { server: server.name }).catch((error) =>
            toast(describeError(error), "error")
          );
          state.selected = state.servers.find((item) => item.name !== server.name)?.name;
          renderAll();
        },
      }, "Remove"),
    ),
    h(
      "div",
      { class: "actions" },
      ["claudeDesktop", "vscode", "claudeCode"].map((shape) =>
        h(
          "button",
          {
            type: "button",
            class: "small",
            onclick: async () => {
              const answer = await api("copy", { server: server.name, words: ["info"] });
              await copy(answer.configs[shape], copied);
            },
          },
          `Copy config: ${
            { claudeDesktop: "Claude Desktop", vscode: "VS Code", claudeCode: "Claude Code" }[shape]
          }`,
        )
      ),
      h("button", {
        type: "button",
        class: "small",
        onclick: async () =>
          copy((await api("copy", { server: server.name, words: ["info"] })).command, copied),
      }, "Copy command line"),
    ),
    copied,
    server.instructions
      ? [h("h3", null, "Instructions"), h("pre", { class: "text" }, server.instructions)]
      : null,
    server.capabilities ? [h("h3", null, "Capabilities"), jsonBlock(server.capabilities)] : null,
    h("h3", null, `Protocol faults (${server.diagnostics.length})`),
    server.diagnostics.length === 0 ? h("p", { class: "muted" }, "None so far.") : h(
      "ul",
      { class: "faults", "data-testid": "faults" },
      server.diagnostics.map((fault) =>
        h(
          "li",
          null,
          h("span", { class: "badge warn" }, fault.kind),
          " ",
          fault.message,
          fault.data ? h("pre", { class: "text" }, fault.data) : null,
        )
      ),
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// Tools

const ANNOTATIONS = [
  ["readOnlyHint", "read-only"],
  ["destructiveHint", "destructive"],
  ["idempotentHint", "idempotent"],
  ["openWorldHint", "open world"],
];

function filterBox(placeholder, onInput) {
  return h("input", {
    type: "search",
    class: "filter",
    placeholder: `${placeholder} (/)`,
    "aria-label": placeholder,
    oninput: (event) => onInput(event.target.value.toLowerCase()),
  });
}

/**
 * The list column of a view: the items `load()` gives, each a button showing `content(item)` that
 * calls `open(item)`, with a filter box over `text(item)` when `text` is given. Arrow keys move
 * between the items. `failed(error)` is shown when loading fails (default: the error).
 */
function itemList({ label, load, content, open, text, dataset, empty, failed }) {
  const list = h("ul", { class: "items", "aria-label": label });
  let items = [];
  let wanted = "";
  const draw = () =>
    replace(
      list,
      items.filter((item) => !text || text(item).toLowerCase().includes(wanted)).map((item) =>
        h(
          "li",
          null,
          h(
            "button",
            {
              type: "button",
              class: "item",
              dataset: dataset?.(item),
              onclick: () => open(item),
              onkeydown: (event) => moveFocus(event, list, "button"),
            },
            content(item),
          ),
        )
      ),
      items.length === 0 && empty ? h("li", { class: "muted" }, empty) : null,
    );
  load().then(
    (answer) => {
      items = answer;
      draw();
    },
    (error) =>
      replace(list, failed?.(error) ?? h("li", { class: "problem" }, describeError(error))),
  );
  const filter = text
    ? filterBox(`Filter ${label.toLowerCase()}`, (value) => {
      wanted = value;
      draw();
    })
    : null;
  return [filter, list];
}

function toolsView(server, panel) {
  const missing = needsConnection(server);
  if (missing) return missing;
  const detail = h("div", { class: "detail" }, h("p", { class: "muted" }, "Choose a tool."));
  // The config's lists may hide some of the server's tools: the page says how many, so that a
  // shorter list than the server's is never a silent surprise.
  const hidden = h("div", { "data-testid": "hidden-tools" });
  const list = itemList({
    label: "Tools",
    load: async () => {
      const answer = await api("tools/list", { server: server.name });
      if (answer.hidden > 0) {
        const tools = answer.hidden === 1 ? "1 tool" : `${answer.hidden} tools`;
        replace(
          hidden,
          h("p", { class: "help" }, `${tools} hidden by this server's allow/deny lists`),
        );
      }
      return answer.tools;
    },
    text: (tool) => `${tool.name} ${tool.title ?? ""} ${tool.description ?? ""}`,
    dataset: (tool) => ({ tool: tool.name }),
    open: (tool) => replace(detail, toolDetail(server, tool)),
    content: (tool) => [
      h("span", { class: "name" }, tool.name),
      ANNOTATIONS.filter(([key]) => tool.annotations?.[key] === true).map(([, label]) =>
        h("span", { class: `badge ${label === "destructive" ? "warn" : ""}` }, label)
      ),
    ],
  });
  append(panel, h("div", { class: "split" }, h("div", { class: "list" }, hidden, list), detail));
}

let callCounter = 0;
const progressBars = new Map();

function toolDetail(server, tool) {
  const form = schemaForm(tool.inputSchema, { label: `${tool.name} arguments as JSON` });
  const output = h("div", { class: "output" });
  const progress = h("div", { class: "progress", hidden: true });
  const copied = h("div");
  let callId;
  const cancel = h("button", {
    type: "button",
    hidden: true,
    onclick: () => callId && api("cancel", { callId }).catch(() => {}),
  }, "Cancel");
  const call = h("button", { type: "submit", class: "primary" }, "Call");
  const submit = async (event) => {
    event.preventDefault();
    let args;
    try {
      args = form.read();
    } catch (error) {
      replace(output, h("div", { class: "problem", role: "alert" }, error.message));
      return;
    }
    callId = `c${Date.now()}-${++callCounter}`;
    progressBars.set(callId, progress);
    replace(output, h("p", { class: "muted" }, "Calling…"));
    call.disabled = true;
    cancel.hidden = false;
    const started = performance.now();
    try {
      const answer = await api("tools/call", {
        server: server.name,
        name: tool.name,
        arguments: args,
        callId,
      });
      replace(
        output,
        h("div", { class: "muted" }, `${Math.round(performance.now() - started)} ms`),
        toolResult(answer),
      );
    } catch (error) {
      replace(
        output,
        h(
          "div",
          { class: "problem", role: "alert", "data-testid": "tool-error" },
          describeError(error),
          error.detail?.data !== undefined ? h("pre", null, pretty(error.detail.data)) : null,
        ),
      );
    } finally {
      progressBars.delete(callId);
      progress.hidden = true;
      call.disabled = false;
      cancel.hidden = true;
    }
  };
  return h(
    "form",
    { class: "tool", onsubmit: submit, "data-testid": "tool-form", dataset: { form: tool.name } },
    h("h3", null, tool.title ?? tool.name),
    tool.title ? h("div", { class: "muted" }, tool.name) : null,
    tool.description ? h("p", { class: "description" }, tool.description) : null,
    form.element,
    h(
      "div",
      { class: "actions" },
      call,
      cancel,
      h("button", {
        type: "button",
        class: "small",
        onclick: async () => {
          let args = {};
          try {
            args = form.read();
          } catch { /* copy what can be read */ }
          copy(
            (await api("copy", {
              server: server.name,
              words: ["tools", "call", tool.name],
              arguments: args,
            })).command,
            copied,
          );
        },
      }, "Copy as command"),
    ),
    copied,
    progress,
    output,
    tool.outputSchema ? jsonDetails("Output schema", tool.outputSchema) : null,
  );
}

function onProgress(event) {
  const bar = progressBars.get(event.callId);
  if (!bar) return;
  bar.hidden = false;
  const total = event.total;
  replace(
    bar,
    h("progress", total ? { value: event.progress, max: total } : {}),
    ` ${event.progress}${total ? ` / ${total}` : ""}${event.message ? ` ${event.message}` : ""}`,
  );
}

// ---------------------------------------------------------------------------------------------
// Resources

const resourceViews = new Map();

function resourcesView(server, panel) {
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

function onResourceUpdated(server, uri) {
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

function completionInput(label, onComplete) {
  const listId = `complete-${Math.random().toString(36).slice(2)}`;
  const options = h("datalist", { id: listId });
  let timer;
  const input = h("input", {
    list: listId,
    "aria-label": label,
    name: label,
    oninput: () => {
      clearTimeout(timer);
      timer = setTimeout(async () => {
        try {
          const values = await onComplete(input.value);
          replace(options, values.map((value) => h("option", { value })));
        } catch { /* no completion for this one */ }
      }, 150);
    },
  });
  return { input, element: h("span", null, input, options) };
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

// ---------------------------------------------------------------------------------------------
// Prompts

function promptsView(server, panel) {
  const missing = needsConnection(server);
  if (missing) return missing;
  const detail = h("div", { class: "detail" }, h("p", { class: "muted" }, "Choose a prompt."));
  const list = itemList({
    label: "Prompts",
    load: () => api("prompts/list", { server: server.name }),
    open: (prompt) => replace(detail, promptForm(server, prompt)),
    content: (prompt) => h("span", { class: "name" }, prompt.name),
  });
  append(panel, h("div", { class: "split" }, h("div", { class: "list" }, list), detail));
}

function promptForm(server, prompt) {
  const output = h("div", { class: "output" });
  const copied = h("div");
  const values = () =>
    Object.fromEntries(
      fields.map(({ argument, box }) => [argument.name, box.input.value]).filter(([, value]) =>
        value !== ""
      ),
    );
  const fields = (prompt.arguments ?? []).map((argument) => ({
    argument,
    box: completionInput(argument.name, async (value) => {
      const context = values();
      delete context[argument.name];
      return (await api("complete", {
        server: server.name,
        ref: { type: "ref/prompt", name: prompt.name },
        argument: { name: argument.name, value },
        context,
      })).completion?.values ?? [];
    }),
  }));
  return h(
    "form",
    {
      onsubmit: async (event) => {
        event.preventDefault();
        const missing = fields.filter(({ argument, box }) =>
          argument.required && box.input.value === ""
        );
        if (missing.length > 0) {
          replace(
            output,
            h(
              "div",
              { class: "problem" },
              `Required: ${missing.map(({ argument }) => argument.name).join(", ")}`,
            ),
          );
          return;
        }
        try {
          replace(
            output,
            promptMessages(
              await api("prompts/get", {
                server: server.name,
                name: prompt.name,
                arguments: values(),
              }),
            ),
          );
        } catch (error) {
          replace(output, h("div", { class: "problem" }, describeError(error)));
        }
      },
    },
    h("h3", null, prompt.title ?? prompt.name),
    prompt.description ? h("p", { class: "description" }, prompt.description) : null,
    fields.map(({ argument, box }) =>
      h(
        "div",
        { class: "field" },
        h(
          "label",
          { class: "field-label" },
          argument.name,
          argument.required ? h("span", { class: "required" }, " *") : null,
        ),
        box.element,
        argument.description ? h("div", { class: "help" }, argument.description) : null,
      )
    ),
    h(
      "div",
      { class: "actions" },
      h("button", { type: "submit", class: "primary" }, "Get"),
      h("button", {
        type: "button",
        class: "small",
        onclick: async () =>
          copy(
            (await api("copy", {
              server: server.name,
              words: ["prompts", "get", prompt.name],
              arguments: values(),
            })).command,
            copied,
          ),
      }, "Copy as command"),
    ),
    copied,
    output,
  );
}

// ---------------------------------------------------------------------------------------------
// Logs

function logRow(entry) {
  if (entry.type === "stderr") {
    return h(
      "li",
      { class: "log stderr" },
      h("span", { class: "time" }, entry.time),
      h("span", { class: "badge" }, "stderr"),
      " ",
      entry.line,
    );
  }
  return h(
    "li",
    { class: `log level-${entry.level}` },
    h("span", { class: "time" }, entry.time),
    h("span", { class: "badge" }, entry.level),
    entry.logger ? h("span", { class: "muted" }, ` ${entry.logger}`) : null,
    " ",
    typeof entry.data === "string" ? entry.data : h("code", null, JSON.stringify(entry.data)),
  );
}

function pushLog(server, event) {
  const logs = state.logs.get(server) ?? [];
  state.logs.set(server, logs);
  const entry = { ...event, time: new Date().toLocaleTimeString() };
  logs.push(entry);
  if (logs.length > MAX_LOG_ENTRIES) logs.shift();
  const list = document.querySelector("#log-list");
  if (list && server === state.selected) {
    list.append(logRow(entry));
    if (list.children.length > MAX_LOG_ENTRIES) list.firstElementChild.remove();
  }
}

function logsView(server) {
  const canSet = server.status === "connected" && server.capabilities?.logging !== undefined;
  return h(
    "div",
    null,
    h(
      "div",
      { class: "actions" },
      h("label", { for: "log-level" }, "Level "),
      h(
        "select",
        {
          id: "log-level",
          disabled: !canSet,
          onchange: (event) =>
            api("logging/setLevel", { server: server.name, level: event.target.value }).then(
              () => toast(`Log level: ${event.target.value}`),
              (error) => toast(describeError(error), "error"),
            ),
        },
        h("option", { value: "" }, "(server default)"),
        LEVELS.map((level) => h("option", { value: level }, level)),
      ),
      canSet ? null : h("span", { class: "muted" }, " the server does not declare logging"),
      h("button", {
        type: "button",
        class: "small",
        onclick: () => {
          state.logs.set(server.name, []);
          renderMain();
        },
      }, "Clear"),
    ),
    h(
      "ul",
      { id: "log-list", class: "logs", "aria-live": "polite" },
      (state.logs.get(server.name) ?? []).map(logRow),
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// Wire log

function pushWire(server, entry) {
  const wire = state.wire.get(server) ?? [];
  state.wire.set(server, wire);
  wire.push(entry);
  if (wire.length > 5000) wire.shift();
  if (server === state.selected && state.tab === "wire") {
    const table = document.querySelector("#wire-rows");
    if (table && matches(entry)) table.append(...wireRows(entry, timings(wire)));
  }
}

function matches(entry) {
  const { text, dir } = state.wireFilter;
  if (dir !== "all" && entry.dir !== dir) return false;
  return text === "" || JSON.stringify(entry.msg).toLowerCase().includes(text);
}

/** For each answer, how long after its request it came (both ways: the server asks too). */
function timings(entries) {
  const asked = new Map();
  const took = new Map();
  for (const entry of entries) {
    const { msg } = entry;
    if (msg.method !== undefined && msg.id !== undefined) {
      asked.set(`${entry.dir}:${JSON.stringify(msg.id)}`, entry);
    } else if (msg.method === undefined && msg.id !== undefined) {
      const request = asked.get(
        `${entry.dir === "recv" ? "send" : "recv"}:${JSON.stringify(msg.id)}`,
      );
      if (request) took.set(entry, { ms: entry.t - request.t, method: request.msg.method });
    }
  }
  return took;
}

/**
 * A time of the wire log as the table shows it: whole milliseconds. The log keeps the recorder's
 * microseconds (an export is a recording), but a column of them is noise to read, and a
 * difference of two of them can carry float dust (0.30000000000000004).
 */
function milliseconds(ms) {
  return `${Math.round(ms)} ms`;
}

function describeMessage(msg) {
  if (msg.method !== undefined) return msg.method;
  if (msg.error !== undefined) return `error ${msg.error.code ?? ""}: ${msg.error.message ?? ""}`;
  return "result";
}

function wireRows(entry, took) {
  const time = took.get(entry);
  const details = h(
    "tr",
    { class: "wire-detail", hidden: true },
    h("td", { colspan: "5" }, jsonBlock(entry.msg)),
  );
  const row = h(
    "tr",
    {
      class: `wire ${entry.dir}${entry.msg.error ? " error" : ""}`,
      tabindex: "0",
      onclick: () => details.hidden = !details.hidden,
      onkeydown: (event) => {
        if (event.key === "Enter" || event.key === " ") {
          event.preventDefault();
          details.hidden = !details.hidden;
        }
      },
    },
    h("td", { class: "time" }, milliseconds(entry.t)),
    h("td", {
      class: "dir",
      title: entry.dir === "send" ? "sent to the server" : "received from the server",
    }, entry.dir === "send" ? "→" : "←"),
    h("td", { class: "id" }, entry.msg.id === undefined ? "" : JSON.stringify(entry.msg.id)),
    h(
      "td",
      { class: "what" },
      describeMessage(entry.msg),
      time?.method ? h("span", { class: "muted" }, ` (${time.method})`) : null,
    ),
    h("td", { class: "took" }, time ? milliseconds(time.ms) : ""),
  );
  return [row, details];
}

function wireView(entries, server) {
  const took = timings(entries);
  const rows = h("tbody", { id: "wire-rows" });
  const draw = () => {
    const shown = entries.filter(matches).slice(-MAX_WIRE_ROWS);
    replace(rows, shown.map((entry) => wireRows(entry, took)));
  };
  draw();
  return h(
    "div",
    { class: "wire-view" },
    h(
      "div",
      { class: "actions" },
      h("input", {
        type: "search",
        class: "filter",
        placeholder: "Filter messages (/)",
        "aria-label": "Filter messages",
        value: state.wireFilter.text,
        oninput: (event) => {
          state.wireFilter.text = event.target.value.toLowerCase();
          draw();
        },
      }),
      h(
        "select",
        {
          "aria-label": "Direction",
          onchange: (event) => {
            state.wireFilter.dir = event.target.value;
            draw();
          },
        },
        [["all", "both ways"], ["send", "sent →"], ["recv", "received ←"]].map(([value, label]) =>
          h("option", { value, selected: state.wireFilter.dir === value }, label)
        ),
      ),
      server === undefined ? null : h("button", {
        type: "button",
        id: "export-wire",
        onclick: async () => {
          try {
            download(`${server}.jsonl`, await api("wire/export", { server }));
          } catch (error) {
            toast(describeError(error), "error");
          }
        },
      }, "Export recording"),
      h("span", { class: "muted" }, ` ${entries.length} messages`),
    ),
    h(
      "table",
      { class: "wire-log" },
      h(
        "thead",
        null,
        h(
          "tr",
          null,
          h("th", null, "time"),
          h("th", null, ""),
          h("th", null, "id"),
          h("th", null, "message"),
          h("th", null, "took"),
        ),
      ),
      rows,
    ),
  );
}

function download(name, text) {
  const url = URL.createObjectURL(new Blob([text], { type: "application/jsonl" }));
  const link = h("a", { href: url, download: name, hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function recordingHeader(rec) {
  const header = rec.header;
  return h(
    "p",
    { class: "muted" },
    `${header.server} · ${
      header.protocolVersion ?? "no revision"
    } · recorded ${header.started} by mcp-inspect ${header.tool}`,
  );
}

async function importRecording(file) {
  const text = await file.text();
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  try {
    const header = JSON.parse(lines[0] ?? "");
    if (header.format !== "mcp-inspect-recording") {
      throw new Error("line 1 is not an mcp-inspect recording header");
    }
    const messages = lines.slice(1).map((line, index) => {
      let entry;
      try {
        entry = JSON.parse(line);
      } catch (error) {
        throw new Error(`line ${index + 2}: ${error.message}`);
      }
      if (
        (entry.dir !== "send" && entry.dir !== "recv") || typeof entry.msg !== "object" ||
        entry.msg === null
      ) {
        throw new Error(`line ${index + 2}: expected { t, dir, msg }`);
      }
      return entry;
    });
    state.recordings.push({ name: file.name, header, messages });
    select(`recording:${state.recordings.length - 1}`);
  } catch (error) {
    toast(`${file.name}: ${error.message}`, "error");
  }
}

// ---------------------------------------------------------------------------------------------
// Auth

function pushAuth(server, step) {
  const steps = state.auth.get(server) ?? [];
  state.auth.set(server, steps);
  steps.push(step);
  const list = document.querySelector("#auth-steps");
  if (list && server === state.selected) list.append(authStep(step));
}

function authStep(step) {
  return h(
    "li",
    { class: `auth-step ${step.phase}` },
    h("span", { class: "badge" }, step.phase),
    " ",
    step.label,
    step.phase === "authorize" && step.detail?.url
      ? h("div", null, safeLink(step.detail.url, "Open the authorization page"))
      : null,
    step.detail !== undefined && step.phase !== "authorize"
      ? jsonDetails("details", step.detail)
      : null,
  );
}

function authView(server) {
  const status = h("pre", { class: "json" }, "…");
  api("auth/status", { server: server.name }).then(
    (answer) => status.textContent = answer === null ? "No stored authorization." : pretty(answer),
    (error) => status.textContent = describeError(error),
  );
  return h(
    "div",
    null,
    h("h3", null, "Stored authorization"),
    status,
    h(
      "div",
      { class: "actions" },
      h("button", {
        type: "button",
        class: "primary",
        onclick: (event) => {
          state.auth.set(server.name, []);
          replace($("auth-steps"));
          busy(
            event.target,
            api("auth/login", { server: server.name }).then(
              () => {
                toast("Authorized");
                renderMain();
              },
              (error) => toast(describeError(error), "error"),
            ),
          );
        },
      }, "Log in step by step"),
      h("button", {
        type: "button",
        onclick: () =>
          api("auth/logout", { server: server.name }).then(
            () => renderMain(),
            (error) => toast(describeError(error), "error"),
          ),
      }, "Log out"),
    ),
    h("h3", null, "Steps"),
    h(
      "ol",
      { id: "auth-steps", class: "auth-steps" },
      (state.auth.get(server.name) ?? []).map(authStep),
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// Dialogs: the server's requests, and adding a server

function closeDialog() {
  const dialog = $("dialog");
  delete dialog.dataset.request;
  if (dialog.open) dialog.close();
}

function showNextRequest() {
  const dialog = $("dialog");
  if (dialog.open) return;
  const [request] = state.pending.values();
  if (!request) return;
  dialog.dataset.request = request.id;
  const answer = (body) =>
    api("answer", { id: request.id, ...body }).catch((error) =>
      toast(describeError(error), "error")
    ).finally(() => {
      state.pending.delete(request.id);
      closeDialog();
      showNextRequest();
    });
  const view =
    { sampling: samplingDialog, elicitation: elicitationDialog, roots: rootsDialog }[request.kind];
  replace(
    dialog,
    h(
      "div",
      { class: "request", "data-testid": `request-${request.kind}` },
      h("h2", null, `${request.server} asks: ${request.kind}`),
      view(request.params ?? {}, answer),
    ),
  );
  dialog.showModal();
}

function samplingDialog(params, answer) {
  const reply = h("textarea", {
    rows: 4,
    "aria-label": "Reply",
    placeholder: "The assistant's reply",
  });
  const model = h("input", { value: "mcp-inspect", "aria-label": "Model" });
  return h(
    "form",
    {
      onsubmit: (event) => {
        event.preventDefault();
        void answer({
          result: {
            role: "assistant",
            content: { type: "text", text: reply.value },
            model: model.value || "mcp-inspect",
            stopReason: "endTurn",
          },
        });
      },
    },
    params.systemPrompt
      ? h(
        "div",
        null,
        h("h4", null, "System prompt"),
        h("pre", { class: "text" }, params.systemPrompt),
      )
      : null,
    (params.messages ?? []).map((message) =>
      h(
        "div",
        { class: "message" },
        h("div", { class: "role" }, String(message.role)),
        [message.content].flat().map(contentBlock),
      )
    ),
    h("p", { class: "muted" }, `max tokens: ${params.maxTokens ?? "?"}`),
    h("div", { class: "field" }, h("label", { class: "field-label" }, "Reply"), reply),
    h("div", { class: "field" }, h("label", { class: "field-label" }, "Model"), model),
    dialogActions(answer, submitButton("Send reply"), [
      ["Decline", { error: "The user declined the sampling request" }],
    ]),
  );
}

/** The ways to refuse an elicitation, as the spec names them. */
const ELICITATION_REFUSALS = [
  ["Decline", { result: { action: "decline" } }],
  ["Cancel", { result: { action: "cancel" } }],
];

/** A dialog's primary button. */
function submitButton(label) {
  return h("button", { type: "submit", class: "primary" }, label);
}

/** A dialog's buttons: its primary one, then one per `[label, reply]` that answers with `reply`. */
function dialogActions(answer, primary, replies) {
  return h(
    "div",
    { class: "actions" },
    primary,
    replies.map(([label, reply]) =>
      h("button", { type: "button", onclick: () => answer(reply) }, label)
    ),
  );
}

function elicitationDialog(params, answer) {
  const error = h("div");
  if (params.mode === "url") {
    return h(
      "div",
      null,
      h("p", null, params.message ?? ""),
      h("p", null, safeLink(params.url ?? "", params.url ?? "(no URL)")),
      dialogActions(
        answer,
        h("button", {
          type: "button",
          class: "primary",
          onclick: () => answer({ result: { action: "accept" } }),
        }, "Done"),
        ELICITATION_REFUSALS,
      ),
    );
  }
  const form = schemaForm(params.requestedSchema ?? { type: "object" }, {
    label: "Answer as JSON",
  });
  return h(
    "form",
    {
      onsubmit: (event) => {
        event.preventDefault();
        try {
          void answer({ result: { action: "accept", content: form.read() } });
        } catch (problem) {
          replace(error, h("div", { class: "problem", role: "alert" }, problem.message));
        }
      },
    },
    h("p", { class: "message-text" }, params.message ?? ""),
    form.element,
    error,
    dialogActions(answer, submitButton("Accept"), ELICITATION_REFUSALS),
  );
}

function rootsDialog(_params, answer) {
  const remembered = localStorage.getItem("mcp-inspect-roots") ?? "";
  const text = h("textarea", {
    rows: 4,
    "aria-label": "Roots",
    placeholder: "file:///home/me/project (one URI per line)",
    value: remembered,
  });
  return h(
    "form",
    {
      onsubmit: (event) => {
        event.preventDefault();
        localStorage.setItem("mcp-inspect-roots", text.value);
        const roots = text.value.split("\n").map((line) => line.trim()).filter(Boolean).map((
          uri,
        ) => ({ uri, name: uri.split("/").filter(Boolean).pop() ?? uri }));
        void answer({ result: roots });
      },
    },
    h(
      "p",
      null,
      "The server asks which folders it may work in. One URI per line; none is an answer too.",
    ),
    text,
    dialogActions(answer, submitButton("Send roots"), [
      ["Decline", { error: "The user declined the roots request" }],
    ]),
  );
}

function lines(text, separator) {
  const entries = {};
  for (const line of text.split("\n").map((item) => item.trim()).filter(Boolean)) {
    const at = line.indexOf(separator);
    if (at <= 0) throw new Error(`"${line}": expected name${separator}value`);
    entries[line.slice(0, at).trim()] = line.slice(at + separator.length).trim();
  }
  return entries;
}

function addServerDialog() {
  const dialog = $("dialog");
  if (dialog.open) return;
  const name = h("input", {
    required: true,
    "aria-label": "Name",
    pattern: "[A-Za-z0-9][A-Za-z0-9_.\\-]*",
  });
  const type = h(
    "select",
    { "aria-label": "Transport" },
    h("option", { value: "stdio" }, "stdio (a command)"),
    h("option", { value: "http" }, "Streamable HTTP (falls back to SSE)"),
    h("option", { value: "sse" }, "legacy HTTP+SSE"),
  );
  const command = h("input", { "aria-label": "Command", placeholder: "npx" });
  const args = h("textarea", {
    rows: 3,
    "aria-label": "Arguments",
    placeholder: "one argument per line",
  });
  const env = h("textarea", {
    rows: 2,
    "aria-label": "Environment",
    placeholder: "NAME=value, one per line",
  });
  const url = h("input", {
    "aria-label": "URL",
    placeholder: "https://example.com/mcp",
    type: "url",
  });
  const headers = h("textarea", {
    rows: 2,
    "aria-label": "Headers",
    placeholder: "Name: value, one per line",
  });
  const error = h("div");
  const stdioFields = h(
    "div",
    null,
    h("div", { class: "field" }, h("label", { class: "field-label" }, "Command"), command),
    h("div", { class: "field" }, h("label", { class: "field-label" }, "Arguments"), args),
    h("div", { class: "field" }, h("label", { class: "field-label" }, "Environment"), env),
  );
  const httpFields = h(
    "div",
    { hidden: true },
    h("div", { class: "field" }, h("label", { class: "field-label" }, "URL"), url),
    h("div", { class: "field" }, h("label", { class: "field-label" }, "Headers"), headers),
  );
  type.addEventListener("change", () => {
    stdioFields.hidden = type.value !== "stdio";
    httpFields.hidden = type.value === "stdio";
  });
  replace(
    dialog,
    h(
      "form",
      {
        "data-testid": "add-server",
        onsubmit: async (event) => {
          event.preventDefault();
          try {
            const config = type.value === "stdio"
              ? {
                command: command.value.trim(),
                args: args.value.split("\n").filter((line) => line !== ""),
                env: lines(env.value, "="),
              }
              : { url: url.value.trim(), type: type.value, headers: lines(headers.value, ":") };
            await api("servers/add", { name: name.value.trim(), config });
            closeDialog();
            select(name.value.trim(), "overview");
          } catch (problem) {
            replace(error, h("div", { class: "problem", role: "alert" }, describeError(problem)));
          }
        },
      },
      h("h2", null, "Add a server"),
      h("div", { class: "field" }, h("label", { class: "field-label" }, "Name"), name),
      h("div", { class: "field" }, h("label", { class: "field-label" }, "Transport"), type),
      stdioFields,
      httpFields,
      error,
      h(
        "div",
        { class: "actions" },
        h("button", { type: "submit", class: "primary" }, "Add"),
        h("button", { type: "button", onclick: closeDialog }, "Cancel"),
      ),
    ),
  );
  dialog.showModal();
}

// ---------------------------------------------------------------------------------------------
// Theme and keyboard

function applyTheme(theme) {
  if (theme) document.documentElement.dataset.theme = theme;
}

function toggleTheme() {
  const dark = document.documentElement.dataset.theme
    ? document.documentElement.dataset.theme === "dark"
    : matchMedia("(prefers-color-scheme: dark)").matches;
  const theme = dark ? "light" : "dark";
  localStorage.setItem("mcp-inspect-theme", theme);
  applyTheme(theme);
}

function typing(target) {
  return target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement || target?.isContentEditable;
}

document.addEventListener("keydown", (event) => {
  if (event.altKey && /^[1-7]$/.test(event.key)) {
    const buttons = document.querySelectorAll(".tabs [role=tab]");
    buttons[Number(event.key) - 1]?.click();
    document.querySelector(".tabs [aria-selected=true]")?.focus();
    event.preventDefault();
    return;
  }
  if (typing(event.target) || event.ctrlKey || event.metaKey || event.altKey) return;
  if (event.key === "/") {
    const filter = document.querySelector("#main .filter");
    if (filter) {
      event.preventDefault();
      filter.focus();
    }
  } else if (event.key === "t") {
    toggleTheme();
  }
});

$("dialog").addEventListener("cancel", (event) => {
  // Escape on a server's request declines it rather than leaving it waiting unseen.
  const id = $("dialog").dataset.request;
  if (id === undefined) return;
  event.preventDefault();
  const request = state.pending.get(id);
  const body = request?.kind === "elicitation"
    ? { result: { action: "cancel" } }
    : { error: "The user dismissed the request" };
  api("answer", { id, ...body }).catch(() => {}).finally(() => {
    state.pending.delete(id);
    closeDialog();
    showNextRequest();
  });
});

$("theme").addEventListener("click", toggleTheme);
$("add-server").addEventListener("click", addServerDialog);
$("import").addEventListener("change", (event) => {
  const file = event.target.files?.[0];
  if (file) void importRecording(file);
  event.target.value = "";
});

applyTheme(localStorage.getItem("mcp-inspect-theme"));
renderAll();
connectLive();
