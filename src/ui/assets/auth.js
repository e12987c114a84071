// The auth tab (servers over HTTP): the stored OAuth authorization, logging in step by step with
// each step shown as it happens, and logging out.

import { h, jsonDetails, pretty, replace, safeLink } from "./dom.js";
import { api, describeError } from "./api.js";
import { renderMain } from "./redraw.js";
import { state } from "./state.js";
import { $, busy, toast } from "./widgets.js";

/** Keeps a step of a login, and shows it if its server is the chosen one. */
export function pushAuth(server, step) {
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

/** The auth tab of a server. */
export function authView(server) {
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
