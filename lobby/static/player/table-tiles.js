// Several cash tables at once (issue #22, multi-tabling): one TableView per table in its own tile inside the
// table view. A table you only watch is let go when you open another; a table you sit at keeps its tile. On a
// wide screen (1200 px and more) with "Tile my tables" on, every tile shows side by side, each with its own
// action bar; the tile whose table waits for your action is marked and put first, and it has the keyboard. On a
// narrow screen (or tiling off) one table shows at a time and the switcher above it names your other tables,
// marking the one that needs you. Your tournament table is one of the tiles too (tournament-view.js): opened from
// the top bar's link, it stays beside your cash tables, with its own action bar, marked and first when it waits
// for you; on a phone it is one more table in the switcher.
import { h } from "/static/common/format.js";
import { TableView } from "./table-view.js";
import { TournamentTableView } from "./tournament-view.js";

const WIDE = "(min-width: 1200px)";
const TILE_KEY = "pokerroom.tileTables";

export class TableTiles {
  constructor(app) {
    this.app = app;
    this.section = document.getElementById("table-view");
    this.views = [];                  // a TableView per tile, in the order opened
    this.focused = null;              // the table the address names
    this.made = 0;
    this.wide = window.matchMedia(WIDE);
    this.wide.addEventListener("change", () => this.draw());
    this.tileOn = localStorage.getItem(TILE_KEY) !== "off";
    this.toggle = h("input", { type: "checkbox", "data-testid": "tile-toggle" });
    this.toggle.checked = this.tileOn;
    this.toggle.addEventListener("change", () => {
      this.tileOn = this.toggle.checked;
      localStorage.setItem(TILE_KEY, this.tileOn ? "on" : "off");
      this.draw();
    });
    this.links = h("span.switcher-tables");
    this.switcher = h("nav.table-switcher.hidden", { "data-testid": "table-switcher", "aria-label": "Your tables" },
      h("span.muted", {}, "Your tables:"), this.links, h("span.spacer"),
      h("label.check.tile-choice", {}, this.toggle, " Tile my tables"));
    this.grid = h("div.table-tiles", { "data-testid": "table-tiles" });
    this.section.append(this.switcher, this.grid);
    const root = h("div.table-tile.tournament-tile.hidden", { id: "tournament-view", "data-testid": "tournament-view" });
    this.tourney = new TournamentTableView(app, root);   // a tile (in the page) once a tournament is opened
  }

  // Every tile: the tournament's (once opened) first, then the cash tables in the order opened.
  tiles() {
    return this.tourney.current ? [this.tourney, ...this.views] : this.views;
  }

  // The tiles show side by side: a wide screen, tiling chosen, more than one table.
  tiled() {
    return this.wide.matches && this.tileOn && this.tiles().length > 1;
  }

  find(tableId) {
    return this.views.find((v) => v.tableId === tableId) || null;
  }

  openTournament(tid) {
    this.dropWatched(null);
    this.focused = this.tourney;
    this.tourney.open(tid);               // its `current` makes it a tile; drawn into the page by draw()
    this.draw();
    this.wake(this.tourney);
  }

  // The tiles not in front, not drawn while off the screen: drawn now, their clocks going.
  wake(front) {
    for (const v of this.tiles()) {
      if (v === front) continue;
      v.startTicking();
      if (v.visible()) v.render();
    }
  }

  // A table only watched is let go when another is opened; a table you sit at keeps its tile.
  dropWatched(tableId) {
    for (const v of [...this.views]) {
      if (v.tableId !== tableId && !seated(v)) {
        v.leaveView();                // a watched table stops being watched
        this.drop(v);
      }
    }
  }

  open(tableId) {
    this.dropWatched(tableId);
    let view = this.find(tableId);
    if (!view) {
      this.made += 1;
      const root = h("div.table-tile", { id: `table-tile-${this.made}`, "data-testid": "table-tile" });
      this.grid.append(root);
      view = new TableView(this.app, root);
      this.views.push(view);
    }
    this.focused = view;
    view.open(tableId);                   // it names its table at once; the snapshot follows
    this.draw();
    this.wake(view);
  }

  leaveView() {
    this.tourney.leaveView();
    for (const v of [...this.views]) {
      v.leaveView();
      if (!v.tableId) this.drop(v);
    }
  }

  drop(view) {
    view.forget();
    document.removeEventListener("keydown", view.keyHandler);
    view.root.remove();
    this.views = this.views.filter((v) => v !== view);
    if (this.focused === view) this.focused = null;
  }

  forget() {
    for (const v of [...this.views]) this.drop(v);
    this.tourney.forget();
    this.draw();
  }

  // The auto-muck switch changed on one tile: every table we sit at is told, every tile redrawn.
  muckChanged() {
    for (const v of this.tiles()) v.tellMuck();
  }

  // ------------------------------------------------------------ the room's pushes, to the tile of their table

  onSnapshot(m) { this.each((v) => v.onSnapshot(m)); }

  onEvents(m) { this.each((v) => v.onEvents(m)); }

  onChat(m) { this.each((v) => v.onChat(m)); }

  onClosed(m) { this.each((v) => v.onClosed(m)); }

  onMoved(m) {
    let told = false;
    this.each((v) => { told = v.onMoved(m) || told; });
    return told;
  }

  each(fn) {
    for (const v of [...this.views]) fn(v);
    for (const v of [...this.views]) if (!v.tableId && v !== this.focused) this.drop(v);   // a table closed
    this.draw();
  }

  seenSeqs() {
    return Object.assign({}, ...this.views.map((v) => v.seenSeqs()));
  }

  // ------------------------------------------------------------ drawing the tiles and the switcher

  draw() {
    const tiled = this.tiled();
    const onView = document.body.dataset.view === "table-view";
    const tiles = this.tiles();
    const waiting = tiles.filter((v) => v.tableId && v.state && v.state.legal);
    // the keys: the first table waiting for you when tiled, else the one shown
    const keyed = tiled ? (waiting[0] || this.focused) : this.focused;
    this.grid.classList.toggle("tiled", tiled);
    const root = this.tourney.root;
    if (!tiles.includes(this.tourney)) root.remove();
    else if (!root.isConnected) this.grid.prepend(root);
    for (const v of tiles) {
      const shown = tiled || v === this.focused;
      const needs = waiting.includes(v);
      const was = !v.root.classList.contains("hidden");
      v.root.classList.toggle("hidden", !shown);
      v.root.classList.toggle("needs-action", needs && tiles.length > 1);
      v.root.dataset.table = v.tableId || "";
      v.root.dataset.needsAction = String(needs);
      v.keysOff = v !== keyed;
      if (shown && !was && onView) v.render();
    }
    this.switcher.classList.toggle("hidden", tiles.length < 2);
    const drawn = JSON.stringify(tiles.map((v) => [v.tableId, v.state && v.state.info.name, waiting.includes(v),
                                                   v === this.focused]));
    if (drawn === this.drawn) return;                 // the links are redrawn only when they change
    this.drawn = drawn;
    this.links.replaceChildren(...tiles.filter((v) => v.tableId || v === this.tourney).map((v) => {
      const needs = waiting.includes(v);
      const mine = v === this.tourney;
      const name = (v.state && v.state.info.name) || (mine ? v.current : v.tableId);
      const href = mine ? `#tournament/${encodeURIComponent(v.current)}` : `#table/${encodeURIComponent(v.tableId)}`;
      const link = h("a.switch", { href, "data-testid": "switch-table",
                                   dataset: { table: v.tableId || "", needsAction: String(needs),
                                              kind: mine ? "tournament" : "cash" } },
        mine ? "\u2660 " : null, name, needs ? h("span.badge", {}, "Your turn") : null);
      link.classList.toggle("current", v === this.focused);
      link.classList.toggle("needs-action", needs);
      if (v === this.focused) link.setAttribute("aria-current", "page");
      return link;
    }));
  }
}

function seated(view) {
  return Boolean(view.tableId && view.state && view.state.mySeat != null);
}
