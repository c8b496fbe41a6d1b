// The casino games the player client can play, each with its board: board(view, {betting, mySeat}) draws it,
// label(market) names a bet for a person.
import { baccarat, betOnBaccarat, blackjack, infiniteBlackjack } from "./casino-cards.js";
import * as roulette from "./casino-roulette.js";

export const BOARDS = {
  roulette,
  blackjack,
  baccarat,
  bet_on_baccarat: betOnBaccarat,
  infinite_blackjack: infiniteBlackjack,
};
