// The dialog that adds a server: a name, then a command with its arguments and environment, or a
// URL with its headers.

import { h, replace } from "./dom.js";
import { api, describeError } from "./api.js";
import { select } from "./layout.js";
import { closeDialog } from "./user_requests.js";
import { $ } from "./widgets.js";

function lines(text, separator) {
  const entries = {};
  for (const line of text.split("\n").map((item) => item.trim()).filter(Boolean)) {
    const at = line.indexOf(separator);
    if (at <= 0) throw new Error(`"${line}": expected name${separator}value`);
    entries[line.slice(0, at).trim()] = line.slice(at + separator.length).trim();
  }
  return entries;
}

/** Opens the dialog that adds a server, unless the dialog is already open. */
export function addServerDialog() {
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
