// The security team's review pages: signing in, the session and the views (hands and their replay, chat, the
// ranked pairs, a player, cases, the audit log).
//
// The page holds no authority: the room checks the role on every security_* request and answers `forbidden`
// otherwise. The page only keeps an account without the role away from views it could not fill.

import { startStaffPage } from "../common/staff.js";
import * as hands from "./hands.js";
import * as replay from "./replay.js";
import * as chat from "./chat.js";
import * as pairs from "./pairs.js";
import * as player from "./player.js";
import * as cases from "./cases.js";
import * as audit from "./audit.js";

const SECURITY_ROLES = new Set(["security", "admin"]);

// What the views share: the connection, who is signed in, and the searches they keep while you look around.
export const ctx = {
  room: null,
  me: null,                       // {nickname, role}
  kept: new Map(),                // view name -> {fields, answer}
  openCases: null,                // the open cases, for "attach to case" (fetched when needed)

  async loadOpenCases(fresh = false) {
    if (!this.openCases || fresh) this.openCases = (await this.room.request("security_cases", { state: "open" })).cases;
    return this.openCases;
  },
};

startStaffPage({
  ctx, roles: SECURITY_ROLES, home: "hands",
  views: { hands, hand: replay, chat, pairs, pair: pairs, player, cases, case: cases, audit },
  tabs: { hand: "hands", pair: "pairs", case: "cases" },
});
