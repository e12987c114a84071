// The list column of the tools, resources and prompts views: the items the server lists, a filter
// box, and arrow keys between them.

import { h, replace } from "./dom.js";
import { describeError } from "./api.js";
import { moveFocus } from "./widgets.js";

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
export function itemList({ label, load, content, open, text, dataset, empty, failed }) {
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
