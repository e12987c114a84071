// The overview tab: what is known of a server (status, transport, implementation, revision, era),
// reconnecting, pinging or removing it, copying its config or command line, and its instructions,
// capabilities and protocol faults.

import { h, jsonBlock } from "./dom.js";
import { api, describeError } from "./api.js";
import { renderAll } from "./redraw.js";
import { state } from "./state.js";
import { busy, copy, toast } from "./widgets.js";

/** The overview tab of a server. */
export function overviewView(server) {
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
