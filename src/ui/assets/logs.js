// The logs tab: a server's log notifications and stderr lines as they come (the newest 2000 kept),
// and the level the server is asked to log at.

import { h } from "./dom.js";
import { api, describeError } from "./api.js";
import { renderMain } from "./redraw.js";
import { state } from "./state.js";
import { toast } from "./widgets.js";

const LEVELS = ["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"];
const MAX_LOG_ENTRIES = 2000;

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

/** Keeps a log notification or stderr line, and shows it if its server is the chosen one. */
export function pushLog(server, event) {
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

/** The logs tab of a server. */
export function logsView(server) {
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
