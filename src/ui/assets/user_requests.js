// The servers' requests that wait for the user (sampling, elicitation, roots): shown one at a time
// in the page's dialog, in the order they came, each answered, refused or dismissed.

import { h, replace, safeLink } from "./dom.js";
import { schemaForm } from "./form.js";
import { contentBlock } from "./render.js";
import { api, describeError } from "./api.js";
import { state } from "./state.js";
import { $, toast } from "./widgets.js";

/** Closes the dialog, and forgets which request it showed. */
export function closeDialog() {
  const dialog = $("dialog");
  delete dialog.dataset.request;
  if (dialog.open) dialog.close();
}

/** Shows the next waiting request, unless the dialog is already open. */
export function showNextRequest() {
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
