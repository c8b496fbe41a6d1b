// Chat: every line the room stored (HR-CHAT-1), blocked ones too, searched by player, table, text and time.
// A line written during a hand links to that hand's replay. `#/chat/NICKNAME` searches that player's lines.

import { h } from "../common/format.js";
import { act, badge, handLink, kept, limitSelect, outcome, playerLink, present, secondsOf, shortWhen } from "./ui.js";

export function chatTable(lines, testid = "chat-lines") {
  return h("table.grid.compact", { "data-testid": testid },
    h("thead", {}, h("tr", {}, ["When", "Table", "Hand", "Player", "Text", ""].map((t) => h("th", {}, t)))),
    h("tbody", {}, lines.map((line) => h(`tr${line.blocked ? ".blocked" : ""}`,
      { "data-testid": "chat-line", dataset: { id: line.id, player: line.player } },
      h("td.nowrap", {}, shortWhen(line.at)),
      h("td", {}, line.table),
      h("td", {}, line.hand_id ? handLink(line.hand_id) : ""),
      h("td", {}, playerLink(line.player)),
      h("td.chat-text", { "data-testid": "chat-text" }, line.text),
      h("td", {}, line.blocked ? badge("blocked", "bad") : "")))));
}

export function mount(ctx, container, { param }) {
  const state = kept(ctx, "chat", { player: "", table: "", text: "", since: "", until: "", limit: "100" });
  if (param) {
    state.fields = { ...state.fields, player: param, table: "", text: "" };
    state.answer = null;
  }
  const f = {
    player: h("input", { maxlength: 20, placeholder: "any player", "data-testid": "chat-player", autocomplete: "off" }),
    table: h("input", { maxlength: 64, placeholder: "any table", "data-testid": "chat-table", autocomplete: "off" }),
    text: h("input", { maxlength: 280, placeholder: "words in the line", "data-testid": "chat-text-search", autocomplete: "off" }),
    since: h("input", { type: "datetime-local", step: 1, "data-testid": "chat-since" }),
    until: h("input", { type: "datetime-local", step: 1, "data-testid": "chat-until" }),
    limit: limitSelect("chat-limit"),
  };
  for (const [key, input] of Object.entries(f)) input.value = state.fields[key] ?? "";
  const search = h("button.primary", { type: "submit", "data-testid": "chat-search" }, "Search");
  const status = outcome("chat-error");
  const results = h("div", { "data-testid": "chat-results" });

  const render = (answer) => {
    results.replaceChildren(answer.lines.length ? chatTable(answer.lines)
      : h("p.muted", { "data-testid": "chat-empty" }, "No chat line matches."));
  };
  const load = () => act(search, status, async () => {
    state.fields = Object.fromEntries(Object.entries(f).map(([key, input]) => [key, input.value]));
    const answer = await ctx.room.request("security_chat", present({
      player: f.player.value.trim(), table: f.table.value.trim(), text: f.text.value.trim(),
      since: secondsOf(f.since, "From"), until: secondsOf(f.until, "To"), limit: Number(f.limit.value),
    }));
    state.answer = answer;
    render(answer);
  });
  const form = h("form.inline-form", { "data-testid": "chat-form", novalidate: true },
    h("label", {}, "Player", f.player), h("label", {}, "Table", f.table), h("label", {}, "Text", f.text),
    h("label", {}, "From", f.since), h("label", {}, "To", f.until), h("label", {}, "Show", f.limit), search);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    load();
  });
  container.append(h("section.panel", { "data-testid": "chat" },
    h("h2", {}, "Chat"),
    h("p.muted", {}, "Every line is kept, never deleted (HR-CHAT-1); lines the filter blocked are marked."),
    form, status, results));
  if (state.answer) render(state.answer);
  else load();
  return null;
}
