// Cases (SEC-4): open a case on players, attach hands, note findings, decide it; void a player's winnings over
// the case's hands (AC-7: reversing ledger transfers, never an edit); export the hands for outside review.
// `#/cases` lists them and opens new ones; `#/case/ID` is one case.

import { h } from "../common/format.js";
import {
  Refusal, act, badge, confirmed, dataText, download, handLink, outcome, playerLink, playerLinks, reasonInput,
  reasonOf, required, shortWhen, transfersTable,
} from "./ui.js";

function stateBadge(state) {
  return h(`span.badge.case-${state}`, { "data-testid": "case-state" }, state);
}

function names(text) {
  return text.split(/[\s,;]+/).map((s) => s.trim()).filter(Boolean);
}

function openForm(ctx) {
  const draft = ctx.draft || null;
  ctx.draft = null;
  const title = h("input", { maxlength: 120, placeholder: "what the case is about", "data-testid": "case-title",
    value: draft ? draft.title || "" : "", autocomplete: "off" });
  const players = h("input", { maxlength: 240, placeholder: "nicknames, comma separated", "data-testid": "case-players",
    value: draft ? draft.players.join(", ") : "", autocomplete: "off" });
  const reason = reasonInput("case-reason");
  const hands = draft && draft.hands.length ? draft.hands : [];
  const button = h("button.primary", { type: "submit", "data-testid": "case-open" }, "Open case");
  const out = outcome("case-open-outcome");
  const form = h("form.panel", { "data-testid": "case-open-form", novalidate: true },
    h("h2", {}, "Open a case"),
    h("div.inline-form", {}, h("label.grow", {}, "Title", title), h("label.grow", {}, "Players", players),
      h("label.grow", {}, "Reason", reason), button),
    hands.length ? h("p.muted", { "data-testid": "case-draft-hands" }, "With ", hands.map((id) => handLink(id)),
      " attached once it is open.") : null,
    out);
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    act(button, out, async () => {
      const list = names(players.value);
      if (!list.length || list.length > 10) throw new Refusal("Name from 1 to 10 players.");
      const fields = { title: required(title, "a title"), players: list, reason: reasonOf(reason) };
      const { case: id } = await ctx.room.request("security_case_open", fields);
      for (const hand of hands) await ctx.room.request("security_case_attach", { case: id, hand_id: hand });
      ctx.openCases = null;
      location.hash = `#/case/${id}`;
      return id;
    }, (id) => `Opened case ${id}.`);
  });
  if (draft) setTimeout(() => (title.value ? reason : title).focus(), 0);
  return form;
}

function mountList(ctx, container) {
  const filter = h("select", { "data-testid": "cases-filter" },
    h("option", { value: "open" }, "open"), h("option", { value: "decided" }, "decided"), h("option", { value: "" }, "all"));
  filter.value = ctx.casesFilter ?? "open";
  const status = outcome("cases-error");
  const body = h("tbody");
  const empty = h("p.muted.hidden", { "data-testid": "cases-empty" }, "No case.");
  const load = () => act(null, status, async () => {
    ctx.casesFilter = filter.value;
    const { cases } = await ctx.room.request("security_cases", filter.value ? { state: filter.value } : {});
    body.replaceChildren(...cases.map((c) => {
      const open = () => { location.hash = `#/case/${c.id}`; };
      return h("tr.clickable", { "data-testid": "case-row", dataset: { case: c.id }, onclick: open },
        h("td.num", {}, String(c.id)),
        h("td", {}, h("a", { href: `#/case/${c.id}`, "data-testid": "open-case" }, c.title)),
        h("td", { onclick: (e) => e.stopPropagation() }, playerLinks(c.players)),
        h("td", {}, stateBadge(c.state)),
        h("td", {}, c.opened_by, h("div.muted", {}, shortWhen(c.opened_at))),
        h("td", {}, c.decision || "", c.decided_at ? h("div.muted", {}, shortWhen(c.decided_at)) : null));
    }));
    empty.classList.toggle("hidden", cases.length > 0);
  });
  filter.addEventListener("change", load);
  container.append(openForm(ctx),
    h("section.panel", { "data-testid": "cases" },
      h("div.panel-head", {}, h("h2", {}, "Cases"), h("span.spacer"), status, h("label", {}, "Show", filter)),
      h("table.grid", { "data-testid": "cases-list" },
        h("thead", {}, h("tr", {}, ["#", "Title", "Players", "State", "Opened", "Decision"].map((t) => h("th", {}, t)))),
        body),
      empty));
  load();
}

function mountCase(ctx, container, id) {
  const room = ctx.room;
  const status = outcome("case-error");
  const head = h("div.panel", { "data-testid": "case-head" });
  const handsList = h("ul.plain", { "data-testid": "case-hands" });
  const notesList = h("ol.notes", { "data-testid": "case-notes" });
  const actionsList = h("div", { "data-testid": "case-actions" });

  // attach a hand by its id
  const handInput = h("input", { maxlength: 120, placeholder: "hand id", "data-testid": "case-attach-hand", autocomplete: "off" });
  const attach = h("button", { type: "submit", "data-testid": "case-attach" }, "Attach");
  const attachOut = outcome("case-attach-outcome");
  const attachForm = h("form.inline-form.open-only", { novalidate: true }, h("label", {}, "Hand", handInput), attach, attachOut);
  attachForm.addEventListener("submit", (e) => {
    e.preventDefault();
    act(attach, attachOut, async () => {
      await room.request("security_case_attach", { case: id, hand_id: required(handInput, "a hand id") });
      handInput.value = "";
      await load();
    }, "Attached.");
  });

  // notes
  const noteText = h("textarea", { rows: 3, maxlength: 2000, placeholder: "what you found", "data-testid": "case-note-text" });
  const addNote = h("button.primary", { type: "submit", "data-testid": "case-note-add" }, "Add note");
  const noteOut = outcome("case-note-outcome");
  const noteForm = h("form.note-form.open-only", { novalidate: true }, noteText, h("div.button-row", {}, addNote, noteOut));
  noteForm.addEventListener("submit", (e) => {
    e.preventDefault();
    act(addNote, noteOut, async () => {
      await room.request("security_case_note", { case: id, text: required(noteText, "the note") });
      noteText.value = "";
      await load();
    }, "Noted.");
  });

  // void winnings (AC-7)
  const voidPlayer = h("select", { "data-testid": "void-player" });
  const voidHands = h("div.checks", { "data-testid": "void-hands" });
  const voidReason = reasonInput("void-reason");
  const voidButton = h("button.danger", { type: "submit", "data-testid": "void-submit" }, "Void winnings\u2026");
  const voidOut = outcome("void-outcome");
  const voidResult = h("div", { "data-testid": "void-result" });
  const voidForm = h("form.open-only", { "data-testid": "void-form", novalidate: true },
    h("p.muted", {}, "The player's winnings in the chosen hands are taken back by reversing ledger transfers "
      + "(AC-7); nothing already recorded is changed."),
    h("div.inline-form", {}, h("label", {}, "Player", voidPlayer), h("label", {}, "Reason", voidReason), voidButton),
    h("div", {}, h("b", {}, "Hands "), voidHands), voidOut, voidResult);
  voidForm.addEventListener("submit", (e) => {
    e.preventDefault();
    act(voidButton, voidOut, async () => {
      const player = voidPlayer.value;
      if (!player) throw new Refusal("Choose the player whose winnings are voided.");
      const hands = [...voidHands.querySelectorAll("input:checked")].map((box) => box.value);
      if (!hands.length) throw new Refusal("Attach and choose at least one hand first.");
      const reason = reasonOf(voidReason);
      if (!(await confirmed(`Void ${player}'s winnings?`,
        `Over ${hands.length} hand${hands.length === 1 ? "" : "s"} of case ${id}, by reversing transfers. Reason: ${reason}`,
        "Void winnings"))) return null;
      const { transfers } = await room.request("security_void", { player, hands, reason, case: id });
      voidResult.replaceChildren(h("h3", {}, "Reversing transfers"),
        transfers.length ? transfersTable(transfers, player, "void-transfers")
          : h("p.muted", { "data-testid": "void-nothing" }, "Nothing to reverse: no winnings in those hands."),
        h("p", {}, "See them in ", playerLink(player), "'s ledger."));
      await load();
      return transfers;
    }, (transfers) => (transfers == null ? "Not voided."
      : `Voided: ${transfers.length} reversing transfer${transfers.length === 1 ? "" : "s"}.`));
  });

  // decide
  const decision = h("input", { maxlength: 200, placeholder: "the decision", "data-testid": "decide-text", autocomplete: "off" });
  const decideReason = reasonInput("decide-reason");
  const decide = h("button.primary", { type: "submit", "data-testid": "decide-submit" }, "Decide");
  const decideOut = outcome("decide-outcome");
  const decideForm = h("form.inline-form.open-only", { "data-testid": "decide-form", novalidate: true },
    h("label.grow", {}, "Decision", decision), h("label.grow", {}, "Reason", decideReason), decide, decideOut);
  decideForm.addEventListener("submit", (e) => {
    e.preventDefault();
    act(decide, decideOut, async () => {
      await room.request("security_case_decide", { case: id, decision: required(decision, "the decision"),
        reason: reasonOf(decideReason) });
      ctx.openCases = null;
      await load();
    }, "Decided.");
  });

  // export
  const exportOut = outcome("export-outcome");
  const exporter = (format, text, testid) => {
    const button = h("button", { type: "button", "data-testid": testid }, text);
    button.addEventListener("click", () => act(button, exportOut, async () => {
      const answer = await room.request("security_export", { case: id, format });
      download(answer.text, answer.filename);
      return answer.filename;
    }, (filename) => `Saved ${filename}.`));
    return button;
  };

  function render(c) {
    head.replaceChildren(...[
      h("div.title-line", {}, h("h2", { "data-testid": "case-title-shown" }, `Case ${c.id}: ${c.title}`), stateBadge(c.state)),
      h("p", {}, "Players: ", h("span", { "data-testid": "case-players-shown" }, playerLinks(c.players))),
      h("p.muted", {}, `Opened by ${c.opened_by}, ${shortWhen(c.opened_at)}`),
      c.decision ? h("p", { "data-testid": "case-decision" }, h("b", {}, "Decision: "), c.decision,
        h("span.muted", {}, ` \u2014 ${c.decided_by || ""}, ${shortWhen(c.decided_at)}`)) : null].filter(Boolean));
    handsList.replaceChildren(...(c.hands.length ? c.hands.map((hand) => h("li", { "data-testid": "case-hand", dataset: { hand } },
      handLink(hand))) : [h("li.muted", {}, "No hand attached yet. Attach one here or from a replay.")]));
    notesList.replaceChildren(...(c.notes.length ? c.notes.map((n) => h("li", { "data-testid": "case-note" },
      h("div.muted", {}, `${n.by}, ${shortWhen(n.at)}`), h("div.note-text", {}, n.text)))
      : [h("li.muted", {}, "No note yet.")]));
    const records = c.actions || [];
    actionsList.replaceChildren(records.length ? h("table.grid.compact", {},
      h("thead", {}, h("tr", {}, ["When", "What", "Details"].map((t) => h("th", {}, t)))),
      h("tbody", {}, records.map((r) => h("tr", { "data-testid": "case-action", dataset: { kind: r.kind } },
        h("td.nowrap", {}, shortWhen(r.at)), h("td", {}, h("b", {}, r.kind)), h("td.details", {}, dataText(r.data))))))
      : h("p.muted", {}, "Nothing recorded yet."));
    const chosen = voidPlayer.value;
    voidPlayer.replaceChildren(...c.players.map((p) => h("option", { value: p }, p)));
    if (c.players.includes(chosen)) voidPlayer.value = chosen;
    const unticked = new Set([...voidHands.querySelectorAll("input")].filter((b) => !b.checked).map((b) => b.value));
    voidHands.replaceChildren(...(c.hands.length ? c.hands.map((hand) => h("label.check", {},
      h("input", { type: "checkbox", value: hand, checked: !unticked.has(hand), "data-testid": "void-hand" }), hand))
      : [h("span.muted", {}, "no hand attached")]));
    for (const el of container.querySelectorAll(".open-only")) el.classList.toggle("hidden", c.state !== "open");
  }
  async function load() {
    const { case: c } = await room.request("security_case", { case: id });
    render(c);
  }

  container.append(
    h("div.panel-head", {}, h("a.back", { href: "#/cases", "data-testid": "back-to-cases" }, "\u2190 Cases"), status),
    head,
    h("div.case-columns", {},
      h("div", {},
        h("section.panel", {}, h("h3", {}, "Hands"), handsList, attachForm),
        h("section.panel", {}, h("h3", {}, "Notes"), notesList, noteForm),
        h("section.panel", {}, h("h3", {}, "Actions recorded"), actionsList)),
      h("div", {},
        h("section.panel.danger-zone.open-only", { "data-testid": "void-panel" }, h("h3", {}, "Void winnings (AC-7)"), voidForm),
        h("section.panel.open-only", { "data-testid": "decide-panel" }, h("h3", {}, "Decide"), decideForm),
        h("section.panel", { "data-testid": "export-panel" }, h("h3", {}, "Export the hands"),
          h("p.muted", {}, "Every attached hand with all cards shown, as a file."),
          h("div.button-row", {}, exporter("pokerstars", "PokerStars text", "export-pokerstars"),
            exporter("ohh", "Open Hand History (OHH)", "export-ohh")), exportOut))));
  act(null, status, load);
  return null;
}

export function mount(ctx, container, { view, param }) {
  if (view === "case") {
    const id = Number(param);
    if (!Number.isInteger(id) || id < 1) {
      container.append(h("p.error", { "data-testid": "case-error" }, "No such case number."));
      return null;
    }
    return mountCase(ctx, container, id);
  }
  mountList(ctx, container);
  return null;
}
