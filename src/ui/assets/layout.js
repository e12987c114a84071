// The page's frame: the servers and opened recordings on the left, and for the chosen one its
// heading, its tabs and the open tab's view. The views reach renderAll, renderMain and select
// through redraw.js, which this module hands them to as it loads.

import { append, h, replace } from "./dom.js";
import { authView } from "./auth.js";
import { logsView } from "./logs.js";
import { overviewView } from "./overview.js";
import { promptsView } from "./prompts.js";
import { resourcesView } from "./resources.js";
import { current, recording, state } from "./state.js";
import { toolsView } from "./tools.js";
import { $, moveFocus } from "./widgets.js";
import { recordingHeader, wireView } from "./wire.js";
import { useLayout } from "./redraw.js";

const TABS = ["overview", "tools", "resources", "prompts", "logs", "wire", "auth"];

/** Draws the server list and the main column again. */
export function renderAll() {
  renderServerList();
  renderMain();
}

function statusDot(status) {
  return h("span", { class: `dot ${status}`, title: status, "aria-hidden": "true" });
}

/** Draws the list of servers and opened recordings again. */
export function renderServerList() {
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

/** Chooses a server or recording, and a tab when given, and draws the page again. */
export function select(id, tab) {
  state.selected = id;
  if (tab) state.tab = tab;
  if (id.startsWith("recording:")) state.tab = "wire";
  renderAll();
}

/** Draws the main column again: the chosen recording, or the chosen server's open tab. */
export function renderMain() {
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

useLayout({ renderAll, renderMain, select });
