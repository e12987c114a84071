// Small pieces the page's parts share: its elements by id, arrow keys in lists, toasts, copying,
// buttons kept disabled while their request runs, and inputs the server completes.

import { h, replace } from "./dom.js";

/** The page's element with this id. */
export const $ = (id) => document.getElementById(id);

/** Arrow keys move between the focusable items of a list. */
export function moveFocus(event, container, selector) {
  if (event.key !== "ArrowDown" && event.key !== "ArrowUp") return;
  const items = [...container.querySelectorAll(selector)];
  const index = items.indexOf(document.activeElement);
  const next = items[index + (event.key === "ArrowDown" ? 1 : -1)];
  if (next) {
    event.preventDefault();
    next.focus();
  }
}

/** What a view shows instead of itself while its server is not connected (else undefined). */
export function needsConnection(server) {
  if (server.status === "connected") return undefined;
  return h(
    "div",
    { class: "problem" },
    `Not connected (${server.status})${server.error ? `: ${server.error}` : ""}`,
  );
}

/** Shows a short notice for four seconds. */
export function toast(text, kind = "info") {
  const element = h("div", { class: `toast ${kind}` }, text);
  $("toasts").append(element);
  setTimeout(() => element.remove(), 4000);
}

/** Copies text, and shows it in `target` too: the clipboard may not be available. */
export async function copy(text, target) {
  if (target) replace(target, h("pre", { class: "copied", "data-testid": "copied" }, text));
  try {
    await navigator.clipboard.writeText(text);
    toast("Copied");
  } catch {
    toast("Shown below: the clipboard is not available");
  }
}

/** Keeps a button disabled until the promise settles. */
export function busy(button, promise) {
  button.disabled = true;
  return promise.finally(() => button.disabled = false);
}

/** A text input whose suggestions `onComplete(value)` gives, asked 150 ms after typing stops. */
export function completionInput(label, onComplete) {
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
