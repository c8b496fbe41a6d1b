// Running an action from a page: the button held while it runs, its outcome (or the room's refusal with its rule
// ID) shown beside it, and refusals the page makes itself before sending anything. Shared by the staff pages.

import { h } from "./format.js";

export function errorText(error) {
  if (error && typeof error.text === "string") return error.text;      // RoomError: sentence (RULE-ID)
  return String((error && error.message) || error);
}

// A refusal made in the page before anything is sent (a missing reason, a number or a time that is not one).
export class Refusal extends Error {
  get text() {
    return this.message;
  }
}

// Runs `work` for a button: the button is disabled meanwhile, and `out` (the element next to it) shows either the
// success sentence or the error answer's sentence with its rule ID. Resolves with the result, or undefined.
export async function act(button, out, work, success) {
  if (out) {
    out.textContent = "";
    out.classList.remove("error", "notice");
  }
  if (button) button.disabled = true;
  try {
    const result = await work();
    if (out && success) {
      out.textContent = typeof success === "function" ? success(result) : success;
      out.classList.add("notice");
    }
    return result;
  } catch (error) {
    if (out) {
      out.textContent = errorText(error);
      out.classList.add("error");
    }
    return undefined;
  } finally {
    if (button) button.disabled = false;
  }
}

// Shows an error answer (or a refusal made in the page) in `out`.
export function failed(out, error) {
  out.textContent = errorText(error);
  out.classList.remove("notice");
  out.classList.add("error");
}

export function outcome(testid) {
  return h("span.outcome", { "data-testid": testid, role: "status", "aria-live": "polite" });
}

// The reason an action needs, from its input; `log` names where it is written with the officer's name.
export function reasonOf(input, log = "the audit log") {
  const reason = input.value.trim();
  if (!reason) {
    input.focus();
    throw new Refusal(`Give a reason first: it is written to ${log} with your name.`);
  }
  return reason;
}
