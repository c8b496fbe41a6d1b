// The auto-muck choice (issue 22): on (the default), a beaten hand is mucked at showdown; off, it is shown anyway --
// your own cards only, nobody else's (SEC-2). One choice for all your tables, kept in this browser (localStorage)
// and told to each table you sit at: `options` at a cash table, `tournament_options` at a tournament's.
const KEY = "pokerroom.autoMuck";

export function autoMuck() {
  return localStorage.getItem(KEY) !== "off";
}

export function setAutoMuck(on) {
  localStorage.setItem(KEY, on ? "on" : "off");
}
