// How a view asks for the page to be drawn again, or for another server or recording, without
// importing the layout, which imports every view: layout.js hands its functions over as it loads,
// so that the modules import one another without a cycle.

/** The layout's functions, once layout.js has loaded. */
let layout;

/** Called once by layout.js: the functions that the views reach through this module. */
export function useLayout(functions) {
  layout = functions;
}

/** Draws the server list and the open view again. */
export function renderAll() {
  layout.renderAll();
}

/** Draws the open view again. */
export function renderMain() {
  layout.renderMain();
}

/** Opens a server or recording, on the given tab or its last one. */
export function select(id, tab) {
  layout.select(id, tab);
}
