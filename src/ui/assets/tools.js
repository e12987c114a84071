// The tools tab: the server's tools, a form for each made from its input schema, calls with
// progress and a cancel button, and their results.

import { append, h, jsonDetails, pretty, replace } from "./dom.js";
import { schemaForm } from "./form.js";
import { toolResult } from "./render.js";
import { api, describeError } from "./api.js";
import { itemList } from "./list.js";
import { copy, needsConnection } from "./widgets.js";

const ANNOTATIONS = [
  ["readOnlyHint", "read-only"],
  ["destructiveHint", "destructive"],
  ["idempotentHint", "idempotent"],
  ["openWorldHint", "open world"],
];

/** The tools tab: the tools, and the chosen one's form. */
export function toolsView(server, panel) {
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

/** Shows a progress notification on the bar of the call it belongs to, if that call is running. */
export function onProgress(event) {
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
