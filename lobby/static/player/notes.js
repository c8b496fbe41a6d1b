// Notes on other players, kept in this browser (localStorage) under their nickname: the room never sees them.

const KEY = "pokerroom.notes";

function all() {
  try {
    return JSON.parse(localStorage.getItem(KEY) || "{}") || {};
  } catch {
    return {};
  }
}

export function noteOn(player) {
  return all()[player] || "";
}

// Saves the note (an empty one removes it).
export function saveNote(player, text) {
  const notes = all();
  const clean = String(text).trim().slice(0, 1000);
  if (clean) notes[player] = clean;
  else delete notes[player];
  localStorage.setItem(KEY, JSON.stringify(notes));
}
