// The prompts tab: the server's prompts, a form for each one's arguments (completed by the server),
// and the messages a prompt gives.

import { append, h, replace } from "./dom.js";
import { promptMessages } from "./render.js";
import { api, describeError } from "./api.js";
import { itemList } from "./list.js";
import { completionInput, copy, needsConnection } from "./widgets.js";

/** The prompts tab: the prompts, and the chosen one's form. */
export function promptsView(server, panel) {
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
