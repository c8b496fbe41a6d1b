// Creating a tournament from a structure template, and editing one before anyone registers.
//
// The form starts from the template's values; only what the director changes is sent as `settings` (whole
// numbers: money in minor units), so the activity log shows exactly what was changed. The payout preview asks the
// server (director_preview) what a field of a given size would pay with these settings.

import { h } from "../common/format.js";
import {
  CURRENCY, Refusal, act, amountOf, cash, levelsTable, ordinal, outcome, plain, wholeNumber,
} from "./ui.js";

// A sit & go starts when it is full: more players than this many tables seat is a field it will not fill, and a
// guarantee is house money paid to a field that small (issue 22: one made from the Daily kept 10,000 and $1,000).
const SIT_AND_GO_TABLES = 10;

// The whole-number settings the form offers, in the order a director thinks of them.
const GROUPS = [
  ["Money", [
    { name: "buy_in", label: "Buy-in (to the prize pool)", kind: "money" },
    { name: "fee", label: "Fee (to the house)", kind: "money" },
    { name: "bounty", label: "Bounty on each head", kind: "money" },
    { name: "pko_percent", label: "PKO: % of a bounty paid at once", kind: "int", high: 100,
      help: "The rest goes on the winner's own head. 100: a plain knockout." },
    { name: "guarantee", label: "Guaranteed prize pool", kind: "money" },
  ]],
  ["Structure", [
    { name: "starting_stack", label: "Starting stack", kind: "int", low: 1 },
    { name: "level_seconds", label: "Level length (seconds)", kind: "int", low: 1,
      help: "Every level lasts this long. Empty: the template's lengths." },
    { name: "table_size", label: "Table size", kind: "int", low: 2, high: 10 },
    { name: "min_players", label: "Minimum players", kind: "int", low: 2 },
    { name: "max_players", label: "Maximum players", kind: "int", low: 2 },
    { name: "break_after_level", label: "One break after level", kind: "int", low: 1, pair: "break",
      help: "Replaces the template's breaks with this one." },
    { name: "break_seconds", label: "Break length (seconds)", kind: "int", low: 1, pair: "break" },
  ]],
  ["Entries", [
    { name: "late_registration_levels", label: "Late registration (levels)", kind: "int" },
    { name: "re_entries", label: "Re-entries per player", kind: "int" },
    { name: "rebuys", label: "Rebuys per entry", kind: "int" },
    { name: "rebuy_levels", label: "Rebuys open (levels)", kind: "int" },
    { name: "add_on_stack", label: "Add-on chips", kind: "int" },
    { name: "add_on_cost", label: "Add-on cost", kind: "money" },
  ]],
  ["Play", [
    { name: "time_bank", label: "Time bank (seconds)", kind: "int" },
    { name: "deals", label: "Deals allowed", kind: "bool" },
    { name: "director_approves_deals", label: "Deals need a director's approval", kind: "bool" },
    { name: "block_chat_in_hand", label: "No chat from players in the hand", kind: "bool" },
  ]],
];
const FIELDS = GROUPS.flatMap(([, fields]) => fields);

function uniformSeconds(levels) {
  if (!levels || !levels.length) return undefined;
  const first = levels[0].seconds;
  return levels.every((l) => l.seconds === first) ? first : undefined;
}

// A template's (or a tournament's) values as the form's defaults, in the settings' own units.
function templateDefaults(t) {
  const d = {};
  for (const f of FIELDS) if (t[f.name] != null) d[f.name] = typeof t[f.name] === "boolean" ? Number(t[f.name]) : t[f.name];
  d.level_seconds = uniformSeconds(t.levels);
  if (t.breaks && t.breaks.length) {
    d.break_after_level = t.breaks[0].after_level;
    d.break_seconds = t.breaks[0].seconds;
  }
  return d;
}

function detailsDefaults(details) {
  const s = details.tournament;
  const st = details.structure;
  const d = {
    buy_in: s.buy_in, fee: s.fee, bounty: s.bounty, guarantee: s.guarantee, starting_stack: st.starting_stack,
    table_size: st.table_size, late_registration_levels: st.late_registration_levels, re_entries: st.re_entries,
    rebuys: st.rebuys, add_on_stack: st.add_on_stack, deals: st.deals == null ? undefined : Number(st.deals),
    level_seconds: uniformSeconds(st.levels),
  };
  if (st.breaks && st.breaks.length) {
    d.break_after_level = st.breaks[0].after_level;
    d.break_seconds = st.breaks[0].seconds;
  }
  return d;
}

function shown(field, value) {
  if (value == null) return "";
  return field.kind === "money" ? plain(value) : String(value);
}

function input(field) {
  const attrs = { name: field.name, "data-testid": `field-${field.name}` };
  if (field.kind === "bool") {
    return h("select", attrs, h("option", { value: "" }, "unchanged"), h("option", { value: "1" }, "Yes"),
      h("option", { value: "0" }, "No"));
  }
  return h("input", { ...attrs, inputmode: field.kind === "money" ? "decimal" : "numeric", autocomplete: "off" });
}

function parse(field, text) {
  if (field.kind === "money") return amountOf(text, field.label);
  if (field.kind === "bool") return Number(text);
  return wholeNumber(text, field.label, { low: field.low ?? 0, high: field.high ?? 1e12 });
}

export function mount(ctx, container, { view, param }) {
  const editing = view === "edit";
  const status = outcome(editing ? "edit-outcome" : "create-outcome");
  const form = h("form.editor", { "data-testid": editing ? "edit-form" : "create-form", novalidate: true });
  const side = h("aside.editor-side");
  const heading = h("h2", {}, editing ? `Edit ${param}` : "New tournament");
  container.append(h("div.editor-layout", {}, h("section.panel", {}, heading, form), side));
  let defaults = {};
  let template = null;
  let levels = [];
  let breaks = [];

  const inputs = {};
  const fieldsets = GROUPS.map(([title, fields]) => h("fieldset", {}, h("legend", {}, title),
    fields.map((f) => {
      inputs[f.name] = input(f);
      const label = f.kind === "money" ? `${f.label}, ${CURRENCY}` : f.label;
      return h("label", { title: f.help || "" }, label, inputs[f.name], f.help ? h("small.muted", {}, f.help) : null);
    })));

  // ---- the event: template, id, name, game, start, satellite target (create only)
  const templateSelect = h("select", { name: "template", "data-testid": "field-template" });
  const idInput = h("input", { name: "id", maxlength: 32, pattern: "[a-z0-9-]+", "data-testid": "field-id",
    autocomplete: "off" });
  const nameInput = h("input", { name: "name", maxlength: 64, "data-testid": "field-name", autocomplete: "off" });
  const gameSelect = h("select", { name: "game", "data-testid": "field-game" });
  const startSelect = h("select", { name: "start", "data-testid": "field-start" },
    h("option", { value: "sng" }, "Sit & go (when full)"),
    h("option", { value: "scheduled" }, "At a set time"));
  const startIn = h("input", { name: "start_in_minutes", value: "30", inputmode: "numeric",
    "data-testid": "field-start_in" });
  const startAt = h("small.muted");
  const satellite = h("select", { name: "satellite_target", "data-testid": "field-satellite_target" });

  const showStart = () => {
    const scheduled = startSelect.value === "scheduled";
    startIn.disabled = !scheduled;
    const minutes = Number(startIn.value);
    startAt.textContent = scheduled && Number.isFinite(minutes)
      ? `at ${new Date(Date.now() + minutes * 60_000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" })}`
      : "";
  };
  startSelect.addEventListener("change", showStart);
  startIn.addEventListener("input", showStart);

  const submit = h("button.primary", { type: "submit", "data-testid": editing ? "edit-submit" : "create-submit" },
    editing ? "Save changes" : "Create tournament");

  // ---- a sit & go whose template's field or guarantee does not fit one: shown, and adjusted or accepted
  const fitText = h("p", { "data-testid": "sng-fit-text" });
  const adjust = h("button", { type: "button", "data-testid": "sng-adjust" }, "Adjust for a sit & go");
  const keep = h("input", { type: "checkbox", "data-testid": "sng-keep" });
  const fitBox = h("div.notice-box.hidden", { "data-testid": "sng-fit", role: "alert" }, fitText,
    h("div.button-row", {}, adjust, h("label.check", {}, keep, "Create it as it is")));
  const valueOf = (name) => {
    const text = inputs[name].value.trim();
    if (text === "") return defaults[name];
    try {
      return parse(FIELDS.find((f) => f.name === name), text);
    } catch {
      return defaults[name];
    }
  };
  const sitAndGoLimit = () => (valueOf("table_size") || 9) * SIT_AND_GO_TABLES;
  // What does not fit a sit & go in the form as it stands: [] when it fits, or when it starts at a set time.
  const misfits = () => {
    if (editing || startSelect.value !== "sng") return [];
    const out = [];
    const most = valueOf("max_players");
    if (most != null && most > sitAndGoLimit()) {
      out.push(`maximum ${most.toLocaleString("en")} players: a sit & go starts when full, and `
        + `${sitAndGoLimit().toLocaleString("en")} is already ${SIT_AND_GO_TABLES} full tables`);
    }
    const guarantee = valueOf("guarantee");
    if (guarantee) out.push(`a ${cash(guarantee)} guarantee: house money paid to a field of a sit & go`);
    return out;
  };
  const showFit = () => {
    const found = misfits();
    fitBox.classList.toggle("hidden", !found.length);
    if (!found.length) keep.checked = false;
    fitText.textContent = found.length ? `This sit & go keeps the template's ${found.join("; and ")}.` : "";
  };
  adjust.addEventListener("click", () => {
    const size = valueOf("table_size") || 9;
    if (valueOf("max_players") > sitAndGoLimit()) inputs.max_players.value = String(size);
    if (valueOf("min_players") > size) inputs.min_players.value = "2";
    if (valueOf("guarantee")) inputs.guarantee.value = plain(0);
    showFit();
  });
  startSelect.addEventListener("change", showFit);
  for (const name of ["max_players", "min_players", "guarantee", "table_size"]) inputs[name].addEventListener("input", showFit);

  if (editing) {
    form.append(h("fieldset", {}, h("legend", {}, "Event"),
      h("p.muted", {}, "Edits are allowed until the first player registers. Empty fields stay as they are.")),
    ...fieldsets, h("div.form-actions", {}, submit, status));
  } else {
    form.append(h("fieldset", {}, h("legend", {}, "Event"),
      h("label", {}, "Structure template", templateSelect),
      h("label", {}, "Id (letters, digits, -)", idInput),
      h("label.wide", {}, "Name", nameInput),
      h("label", {}, "Game", gameSelect),
      h("label", { title: "A sit & go starts when full, or when a director presses Start now" }, "Start", startSelect),
      h("label", {}, "Starts in (minutes)", startIn, startAt),
      h("label", {}, "Satellite: seats to", satellite)),
    fitBox, ...fieldsets, h("div.form-actions", {}, submit, status));
  }

  // ---- what the director changed, as the request's settings
  const changedSettings = () => {
    const settings = {};
    for (const f of FIELDS) {
      const text = inputs[f.name].value.trim();
      if (text === "") continue;
      const value = parse(f, text);
      if (value !== defaults[f.name]) settings[f.name] = value;
    }
    if ("break_after_level" in settings || "break_seconds" in settings) {      // one break: both halves go
      for (const name of ["break_after_level", "break_seconds"]) {
        if (!(name in settings)) {
          const text = inputs[name].value.trim();
          if (text === "" && defaults[name] == null) throw new Refusal("Give both the break's level and its length.");
          settings[name] = text === "" ? defaults[name] : parse(FIELDS.find((f) => f.name === name), text);
        }
      }
    }
    const accepted = ctx.templates && ctx.templates.settings;
    const unknown = accepted ? Object.keys(settings).filter((name) => !accepted.includes(name)) : [];
    if (unknown.length) throw new Refusal(`The room does not accept the setting ${unknown[0]}.`);
    return settings;
  };

  // ---- the side: payout preview and levels
  const previewEntrants = h("input", { value: "100", inputmode: "numeric", "data-testid": "preview-entrants" });
  const previewButton = h("button", { type: "button", "data-testid": "preview-payouts" }, "Preview payouts");
  const previewStatus = outcome("preview-error");
  const previewResult = h("div", { "data-testid": "payout-preview" });
  const levelsBox = h("div");
  if (!editing) {
    side.append(h("section.panel", {}, h("h3", {}, "Payouts"),
      h("div.inline-form", {}, h("label", {}, "Field size", previewEntrants), previewButton),
      previewStatus, previewResult));
  }
  side.append(h("section.panel", {}, h("h3", {}, "Levels"), levelsBox));

  const showLevels = () => {
    let seconds;
    try {
      const text = inputs.level_seconds.value.trim();
      seconds = text ? wholeNumber(text, "Level length", { low: 1 }) : undefined;
    } catch {
      seconds = undefined;
    }
    let shownBreaks = breaks;
    const after = Number(inputs.break_after_level.value);
    const length = Number(inputs.break_seconds.value);
    if (after && length && (after !== defaults.break_after_level || length !== defaults.break_seconds)) {
      shownBreaks = [{ after_level: after, seconds: length }];
    }
    levelsBox.replaceChildren(levels.length
      ? levelsTable(levels, shownBreaks, { levelSeconds: seconds, testid: "levels-preview" }) : h("p.muted", {}, "—"));
  };
  for (const name of ["level_seconds", "break_after_level", "break_seconds"]) inputs[name].addEventListener("input", showLevels);

  previewButton.addEventListener("click", () => act(previewButton, previewStatus, async () => {
    const entrants = wholeNumber(previewEntrants.value, "The field size", { low: 2, high: 100_000 });
    const answer = await ctx.room.request("director_preview",
      { template: templateSelect.value, entrants, settings: changedSettings() });
    const payouts = answer.payouts;
    const shownRows = payouts.slice(0, 15).map((amount, i) => h("tr", { "data-testid": "payout-row" },
      h("td", {}, ordinal(i + 1)), h("td.num", {}, cash(amount)),
      h("td.num.muted", {}, answer.prize_pool ? `${((100 * amount) / answer.prize_pool).toFixed(1)}%` : "")));
    if (payouts.length > 15) {
      shownRows.push(h("tr", {}, h("td.muted", { colspan: 3 },
        `… ${(payouts.length - 15).toLocaleString("en")} more places, down to ${cash(payouts[payouts.length - 1])}`)));
    }
    previewResult.replaceChildren(
      h("p", {}, `${entrants.toLocaleString("en")} entries at ${cash(answer.entry_cost)}: prize pool `,
        h("b", { "data-testid": "preview-pool" }, cash(answer.prize_pool)), `, ${payouts.length.toLocaleString("en")} paid.`),
      h("table.grid.compact", {}, h("tbody", {}, shownRows)));
  }));

  // ---- filling the form from a template or from the tournament being edited
  const fill = (values) => {
    defaults = values;
    for (const f of FIELDS) {
      const el = inputs[f.name];
      if (f.kind === "bool") {
        el.querySelector("option[value='']").hidden = values[f.name] != null;
        el.value = values[f.name] == null ? "" : String(values[f.name]);
      } else {
        el.value = shown(f, values[f.name]);
        el.placeholder = values[f.name] == null ? (editing ? "unchanged" : "as the template") : "";
      }
    }
    showLevels();
  };

  const chooseTemplate = () => {
    template = ctx.templates.templates.find((t) => t.template === templateSelect.value);
    if (!template) return;
    levels = template.levels || [];
    breaks = template.breaks || [];
    gameSelect.value = template.game;
    satellite.value = template.satellite_target || "";
    if (!nameInput.dataset.touched) nameInput.value = template.name === template.template ? "" : template.name;
    fill(templateDefaults(template));
    previewResult.replaceChildren();
    showFit();
  };
  nameInput.addEventListener("input", () => { nameInput.dataset.touched = "1"; });
  templateSelect.addEventListener("change", chooseTemplate);

  const loadCreate = async () => {
    const answer = await ctx.loadTemplates();
    templateSelect.replaceChildren(...answer.templates.map((t) => h("option", { value: t.template },
      t.name && t.name !== t.template ? `${t.name} (${t.template})` : t.template)));
    gameSelect.replaceChildren(...answer.games.map((g) => h("option", { value: g }, g)));
    await ctx.refreshTournaments().catch(() => []);
    const targets = [...ctx.tournaments.values()].filter((t) => t.state === "registering" || t.state === "running");
    const options = [h("option", { value: "" }, "— not a satellite —")];
    const ids = new Set(targets.map((t) => t.id));
    for (const t of answer.templates) {
      if (t.satellite_target && !ids.has(t.satellite_target)) {
        ids.add(t.satellite_target);
        options.push(h("option", { value: t.satellite_target }, `${t.satellite_target} (as its template says)`));
      }
    }
    options.push(...targets.map((t) => h("option", { value: t.id }, `${t.name} (${t.id})`)));
    satellite.replaceChildren(...options);
    chooseTemplate();
    showStart();
  };

  const loadEdit = async () => {
    const details = await ctx.room.request("tournament_details", { tournament: param });
    heading.textContent = `Edit ${details.tournament.name}`;
    levels = details.structure.levels;
    breaks = details.structure.breaks;
    fill(detailsDefaults(details));
    if (details.tournament.state !== "registering" || details.tournament.entrants > 0) {
      status.textContent = "Players have registered (or it has started): the room no longer accepts edits (TR-REG-2).";
      status.classList.add("error");
    }
  };

  // The settings wait for their values: typed before the tournament (or template) arrives, they were overwritten
  // by it, and saving said "Nothing was changed."
  for (const set of fieldsets) set.disabled = true;
  act(submit, status, async () => {
    try {
      await (editing ? loadEdit : loadCreate)();
    } finally {
      for (const set of fieldsets) set.disabled = false;
    }
  });

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    act(submit, status, async () => {
      const settings = changedSettings();
      if (editing) {
        if (!Object.keys(settings).length) throw new Refusal("Nothing was changed.");
        await ctx.room.request("director_edit", { tournament: param, settings });
        location.hash = `#/t/${encodeURIComponent(param)}`;
        return;
      }
      const id = idInput.value.trim();
      const name = nameInput.value.trim();
      if (!/^[A-Za-z0-9_-]{1,32}$/.test(id)) throw new Refusal("The id is 1 to 32 letters, digits, - or _.");
      if (!name) throw new Refusal("Give the tournament a name.");
      if (misfits().length && !keep.checked) {
        fitBox.scrollIntoView({ block: "center" });
        throw new Refusal("This sit & go keeps the template's maximum players or guarantee: adjust them, or tick "
          + "\u201cCreate it as it is\u201d.");
      }
      const fields = { template: templateSelect.value, id, name, settings };
      fields.start_in = startSelect.value === "scheduled"
        ? wholeNumber(startIn.value, "Starts in (minutes)", { low: 0, high: 7 * 24 * 60 }) * 60
        : null;
      if (template && gameSelect.value && gameSelect.value !== template.game) fields.game = gameSelect.value;
      if (satellite.value && ctx.tournaments.has(satellite.value)) fields.satellite_target = satellite.value;
      await ctx.room.request("director_create", fields);
      await ctx.refreshTournaments();
      location.hash = `#/t/${encodeURIComponent(id)}`;
    });
  });
  return null;
}
