// The casino games the player client can play, each with its board: board(view, {betting, mySeat}) draws it,
// label(market) names a bet for a person.
import { blackjack } from "./casino-cards.js";
import * as roulette from "./casino-roulette.js";

export const BOARDS = {
  roulette,
  blackjack,
};
