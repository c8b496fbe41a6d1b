"""Every error code a client can receive, what it means, and the rules behind it.

A refusal's ``error`` carries a ``code`` for machines; a client decides what to
do from the code alone, so the codes are a closed set: this catalogue. A test
(tests/protocol/test_catalogue.py) finds every code the code base raises and
fails on one that is not here, or on one here that nothing raises; the
reference part of docs/protocol.md is generated from it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Code:
    meaning: str
    rules: tuple[str, ...] = ()         # the RULES.md (or docs/engine.md) IDs it is raised under


def _c(meaning: str, *rules: str) -> Code:
    return Code(meaning, rules)


PROTOCOL = {
    "bad_message": _c("the message is not a map with a type"),
    "unknown_type": _c("the message's type is not a request this room answers"),
    "bad_rid": _c("rid is not a whole number from 0 to 2147483647"),
    "unknown_field": _c("the request carries a field its type does not have"),
    "missing_field": _c("the request lacks a field its type needs"),
    "bad_field": _c("a field's value is of the wrong kind or out of its bounds"),
    "bad_frame": _c("the frame is not valid msgpack or JSON, or nests too deep"),
    "frame_too_large": _c("the frame is over the 16 KiB limit"),
    "wrong_frame": _c("a text frame on the msgpack subprotocol, or a binary frame on the JSON one"),
    "rate_limited": _c("more messages a second than the connection may send"),
    "too_many_waiting": _c("more requests sent ahead of an answer not given yet than a connection may have "
                           "waiting (16): wait for answers"),
    "server_error": _c("a bug on the server's side: the request did nothing"),
    "connection_closed": _c("the connection closed while the request was answered"),
}

SESSION = {
    "not_logged_in": _c("the request needs a login first"),
    "bad_login": _c("that nickname and password do not match"),
    "bad_token": _c("the session token has ended (logout, a newer login, a ban)", "STAFF-3"),
    "session_expired": _c("the session was unused longer than the room's idle time", "STAFF-3"),
    "too_many_attempts": _c("too many password attempts from this address, network or account"),
    "busy": _c("the room's password checks are all taken: try again in a few seconds"),
    "unknown_client_type": _c("the login names a client type the room does not know", "AC-8"),
    "forbidden": _c("the request needs a role the session does not have", "SEC-4", "STAFF-1", "STAFF-3"),
    "own_role": _c("an admin cannot change their own role", "STAFF-3"),
    "account_closed": _c("the account is closed (closed or banned)", "AC-1"),
    "account_frozen": _c("the account is frozen while the security team reviews it (no play, deposit or "
                         "withdrawal)", "SEC-4"),
    "restricted_country": _c("players from that country may not play or deposit here (they may withdraw)", "AC-2"),
    "self_excluded": _c("the player has excluded themselves from play for now", "AC-5"),
    "deposit_limit": _c("the deposit would go over the player's 24-hour deposit limit", "AC-5"),
    "under_age": _c("the player is younger than the room's minimum age", "AC-1"),
    "bad_birth_date": _c("the date of birth is not a possible date", "AC-1"),
    "bad_nickname": _c("a nickname is 3 to 20 letters, digits, '_' or '-'", "AC-3"),
    "nickname_refused": _c("the nickname names a staff role or holds an offensive word", "AC-3"),
    "nickname_taken": _c("another account has that nickname, ignoring case", "AC-3"),
    "same_nickname": _c("the account has that nickname already", "AC-3"),
    "not_verified": _c("the security team has not verified the player's identity yet", "AC-4"),
    "staff_may_not_play": _c("security and admin accounts do not play, deposit or get credits", "SEC-2",
                             "STAFF-1"),
    "linked_accounts": _c("an account linked to this one sits at the table", "SEC-4"),
    "player_busy": _c("the player is in play (a table, a tournament, a casino bet) and cannot be changed now",
                      "AC-3", "SEC-2"),
    "bad_player_id": _c("a player id is a non-empty string"),
    "node_unanswered": _c("a process of the room did not answer whether the player is in play there: nothing was "
                          "changed; try again once it answers or has left the room", "AC-3", "SEC-2"),
}

CHAT = {
    "chat_blocked": _c("the text holds a link or an offensive word, however spelt", "HR-CHAT-2"),
    "chat_too_fast": _c("one chat line a second", "HR-CHAT-2"),
    "muted": _c("the player is muted at this table or room-wide", "HR-CHAT-3"),
    "chat_in_hand": _c("this table closes chat to players dealt into the running hand", "HR-CHAT-4"),
}

MONEY = {
    "insufficient_funds": _c("the account to pay from does not hold the amount", "CR-3", "STAFF-1", "TR-REG-6",
                             "TR-STAKE-1"),
    "bad_amount": _c("an amount is a positive whole number of minor units within the bounds", "BET-3", "CR-3",
                     "HR-STAKE-2", "HR-STAKE-4"),
    "amount_out_of_range": _c("a deposit or withdrawal outside the cashier's bounds (config [cashier])"),
    "already_welcomed": _c("the account was given the welcome balance already: it is paid once per account"),
    "no_such_deposit": _c("no deposit of that reference, player and amount was asked of the cashier: nothing is "
                          "credited"),
    "deposit_settled": _c("the deposit of that reference was credited or refused already: nothing more is credited"),
    "bad_reference": _c("a withdrawal's reference is malformed or was held already: nothing is held"),
    "payment_refused": _c("the payment provider refused: nothing was credited, or the withdrawal is back in the "
                          "wallet"),
    "payment_unavailable": _c("the payment provider did not answer: nothing is credited yet; a payment it took is "
                              "credited once it answers"),
    "cashier_busy": _c("the player's last deposit or withdrawal is still being answered"),
    "cashier_too_fast": _c("more deposits and withdrawals a minute than a player may ask for"),
}

CASH_TABLE = {
    "no_such_table": _c("there is no cash table of that id"),
    "table_moving": _c("the table is between servers: its own stopped and another is opening it where it left off; "
                       "ask again in a few seconds"),
    "not_at_table": _c("the request is for a table the player has not joined"),
    "not_watching": _c("a resume names a table the session neither watches nor sits at"),
    "bad_seq": _c("a resume's seq for a table is beyond the table's newest event"),
    "not_seated": _c("the player has no seat at that table", "BJ-3", "TR-PLAY-4"),
    "already_seated": _c("the player has a seat at that table already", "BJ-3"),
    "seat_taken": _c("someone sits in that seat", "BJ-3", "TR-PLAY-4"),
    "no_such_seat": _c("the table has no seat of that number", "BJ-3"),
    "seat_reserved": _c("the seat is kept for a player from the waiting list"),
    "seat_available": _c("a seat is free: take it instead of joining the waiting list"),
    "table_full": _c("no seat is free: join the waiting list"),
    "table_closing": _c("a director is closing the table: no new players or hands"),
    "already_waiting": _c("the player is on the waiting list already"),
    "not_waiting": _c("the player is not on the waiting list"),
    "already_sitting_out": _c("the player is sitting out already"),
    "not_sitting_out": _c("the player is not sitting out"),
    "already_leaving": _c("the player leaves after this hand already"),
    "leaving": _c("the player is leaving this table"),
    "no_chips": _c("a player with no chips adds some before sitting in", "HR-STAKE-2"),
    "buy_in_out_of_range": _c("the buy-in is outside the table's range", "HR-STAKE-4"),
    "below_min_buy_in": _c("adding these chips leaves the stack below the table minimum", "HR-STAKE-4"),
    "above_max_buy_in": _c("adding these chips puts the stack above the table maximum", "HR-STAKE-2"),
    "between_hands_only": _c("chips are added only between hands", "HR-STAKE-2"),
    "rat_holing": _c("the player left a table of this game with more chips a short while ago", "HR-STAKE-3"),
    "hit_and_run_block": _c("the player left too many tables of this blind level too soon", "HR-HNR-5"),
    "not_due": _c("no seat offer to the player has run out", "HR-TIME-5"),
    "bad_option": _c("a table option is true or false"),
}

HAND = {
    "no_hand": _c("the table has no hand in play", "BET-1"),
    "no_hand_away": _c("the table has no hand of that id played away from its director", "TR-PLAY-4"),
    "bad_hand_result": _c("a hand's result does not match the hand sent to be played", "TR-PLAY-4"),
    "hand_unreachable": _c("the process playing the hand does not answer: if it stopped, the hand is void and every "
                           "stack goes back to where it began", "TR-REFUND-1"),
    "hand_over": _c("the hand is over", "BET-1"),
    "hand_running": _c("a hand is running: wait for it to end", "BET-1", "TR-PLAY-4", "TR-REG-6"),
    "not_your_turn": _c("another player is to act", "BET-1", "BJ-4"),
    "not_your_seat": _c("the action names a seat the player does not sit in", "BET-1"),
    "unknown_seat": _c("that seat is not dealt into the hand", "BET-1"),
    "unknown_command": _c("the command is not a poker action", "BET-1"),
    "unknown_read": _c("a casino table has no such read (asked between the room's own processes)"),
    "cannot_check": _c("a check while a bet is owed: call, raise or fold", "BET-2"),
    "nothing_to_call": _c("a call with nothing to call: check instead", "BET-2"),
    "bet_already_made": _c("a bet when there is one already: raise instead", "BET-3"),
    "no_bet_to_raise": _c("a raise when there is no bet: bet instead", "BET-3"),
    "bet_too_small": _c("the bet is below the smallest allowed", "BET-3"),
    "raise_too_small": _c("the raise is below the smallest allowed", "BET-3"),
    "not_enough_chips": _c("the player's stack does not reach that amount", "HR-STAKE-1"),
    "betting_not_reopened": _c("an all-in for less than a full raise does not reopen the betting", "BET-4"),
    "over_pot_limit": _c("the bet or raise is above the pot limit", "BET-5"),
    "fixed_limit_size": _c("fixed limit bets and raises are of exactly one size", "BET-5"),
    "raise_cap_reached": _c("the betting is capped for this round", "BET-6"),
    "no_one_to_raise": _c("nobody left in the hand could call a raise", "BET-7"),
    "stale_decision": _c("the action names a decision that is not the player's current one (over, or never "
                         "theirs): it did nothing; act on the newest decision id sent", "BET-1", "BJ-4", "IB-4"),
    "answer_run_it_twice": _c("the decision now is whether to run it twice", "BET-1"),
    "bad_answer": _c("run it twice is answered yes or no", "BET-1"),
    "no_run_it_twice_vote": _c("nobody has offered to run it twice", "BET-1"),
}

TOURNAMENT = {
    "unknown_tournament": _c("there is no tournament of that id in the lobby"),
    "unknown_template": _c("there is no structure template of that name"),
    "tournament_exists": _c("a tournament of that id exists already", "TR-REG-1"),
    "bad_structure": _c("the settings do not make a tournament", "TR-PLAY-1", "TR-PLAY-6"),
    "already_open": _c("a tournament is edited before anyone registers", "TR-REG-2"),
    "already_started": _c("the tournament has started already", "TR-REG-1"),
    "too_few_players": _c("the tournament has fewer entrants than it needs to start", "TR-REG-1"),
    "tournament_full": _c("the tournament has all the players it takes", "TR-REG-4"),
    "registration_closed": _c("registration is closed", "TR-REG-4"),
    "already_registered": _c("the player has an entry already", "TR-REG-6"),
    "not_registered": _c("the player has no entry", "TR-REG-5", "TR-STAKE-1"),
    "unregister_closed": _c("unregistering closed before the start", "TR-REG-5"),
    "unregister_forbidden": _c("the tournament does not allow unregistering", "TR-REG-5"),
    "no_entries_left": _c("the player has used every entry allowed", "TR-REG-6"),
    "rebuys_closed": _c("rebuys are closed", "TR-REG-6"),
    "no_rebuys_left": _c("the player has used every rebuy allowed", "TR-REG-6"),
    "too_many_chips": _c("a rebuy is allowed at or below the starting stack", "TR-REG-6"),
    "add_on_closed": _c("the add-on is not open", "TR-REG-6"),
    "no_add_on_left": _c("the player has taken the add-on already", "TR-REG-6"),
    "not_playing": _c("the player is not playing in the tournament", "TR-PLAY-4", "TR-REG-6"),
    "seats_being_drawn": _c("the tournament has started and its seats are being drawn: play begins in a moment",
                            "TR-REG-3"),
    "not_running": _c("the tournament is not running", "TR-PLAY-4", "TR-REFUND-7", "TR-REG-1"),
    "paused": _c("the tournament is paused already", "TR-REG-1"),
    "not_paused": _c("the tournament is not paused", "TR-REG-1"),
    "on_break": _c("the tournament is on a break", "TR-PLAY-2"),
    "not_on_break": _c("the tournament is not on a break", "TR-PLAY-2"),
    "table_waiting": _c("the table may not deal now (hand for hand, a break, a pause)", "TR-PLAY-2"),
    "bad_move": _c("the player cannot be moved to that table", "TR-PLAY-4"),
    "bad_break": _c("the table cannot be broken: it is not there or is the last", "TR-PLAY-4"),
    "bad_substitute": _c("the place has no fixed prize to substitute, or the package is not valid", "TR-PRIZE-4"),
    "deal_with_package": _c("a substituted prize still to be won cannot be shared in a deal", "TR-PRIZE-4"),
    "deals_not_allowed": _c("the tournament does not allow deals", "TR-DEAL-1"),
    "deal_before_money": _c("deals are made in the money", "TR-DEAL-1"),
    "deal_pending": _c("a deal is on the table already", "TR-DEAL-1"),
    "bad_deal": _c("a deal is icm or chip_chop", "TR-DEAL-1"),
    "no_deal": _c("no deal is offered to the player", "TR-DEAL-1"),
    "already_answered": _c("the player has accepted this deal already", "TR-DEAL-1"),
    "deal_not_agreed": _c("a deal is approved once every remaining player accepted it", "TR-DEAL-1"),
    "bad_share": _c("a share is a whole percent, more than 0 and at most 100", "TR-STAKE-1"),
    "bad_markup": _c("the markup is from 1 (at cost) to 2", "TR-STAKE-1"),
    "bad_backer": _c("a player cannot back themselves", "TR-STAKE-1"),
    "no_offer": _c("the seller does not offer that share of their action", "TR-STAKE-1"),
    "sold_out": _c("no more than 100% of an entry can be sold", "TR-STAKE-1"),
    "over_limit": _c("a buy-in, fee, guarantee or house deposit (one, an admin's in a day, all in a day) above the "
                     "room's bounds", "STAFF-1"),
    "guarantee_not_covered": _c("the promotions account does not hold the guarantee", "STAFF-1"),
    "awaiting_approval": _c("the event waits for an admin to approve its guarantee", "STAFF-1"),
    "not_awaiting_approval": _c("the event is not waiting for approval", "STAFF-1"),
    "granted_by_creator": _c("the event's creator gave the approving admin their role within the cooling period",
                             "STAFF-1"),
    "own_event": _c("an admin does not approve an event they created", "STAFF-1"),
    "too_many_events": _c("the room's or the director's cap on events is reached", "STAFF-1"),
    "no_invitation": _c("the player has no open invitation to the event", "STAFF-2"),
    "invitation_outdated": _c("the event changed since the invitation (price, stack or structure): it is withdrawn",
                               "STAFF-2"),
    "already_invited": _c("the player has an open invitation to the event already", "STAFF-2"),
    "invitation_declined": _c("the player declined an invitation to the event; it is not sent again", "STAFF-2"),
    "too_many_invitations": _c("the event or the player has the most open invitations allowed", "STAFF-2"),
}

DIRECTORS_TABLES = {
    "bad_table": _c("the table's stakes or rake schedule cannot run", "HR-RAKE-1", "HR-STAKE-4"),
    "table_exists": _c("a table of that id exists, or existed: ids are never reused"),
    "too_many_tables": _c("the room's or the director's cap on open tables is reached", "AC-8"),
}

CASINO = {
    "unknown_table": _c("there is no casino table of that id"),
    "unknown_market": _c("the game has no such market", "BA-5", "BJ-3", "BOB-3", "IB-9"),
    "market_closed": _c("the market takes no bets this round", "BOB-3", "IB-10"),
    "illegal_bet": _c("the roulette bet is not a position of the layout", "RO-5"),
    "betting_closed": _c("no more bets: betting on this round has closed", "CR-2"),
    "bet_placed": _c("a bet on the table cannot be cancelled", "CR-2"),
    "round_in_play": _c("the round is still in play", "CR-2"),
    "round_state": _c("the round cannot change to that state now", "CR-2"),
    "below_minimum": _c("the bet is below the market's minimum", "CR-3"),
    "above_maximum": _c("the bet is above the market's maximum", "CR-3"),
    "no_seats": _c("the game has no seats, or none is free", "CR-3", "IB-1"),
    "hand_in_play": _c("the player's hand is in play: leave after the round", "CR-6"),
    "no_decision": _c("the player has no hand waiting for a decision", "BET-1", "BJ-4", "IB-4"),
    "no_decisions": _c("the game has no player decisions"),
    "not_this_hand": _c("another of the player's hands is the one to play", "BJ-4", "IB-4"),
    "unknown_move": _c("the blackjack move is not one the game knows", "BJ-4", "IB-4"),
    "illegal_move": _c("the blackjack move is not allowed with this hand now", "BJ-4", "BJ-5", "BJ-6", "BJ-7", "IB-4"),
    "no_insurance_now": _c("insurance is offered only under an ace, before any other decision", "BJ-8", "IB-8"),
    "no_round": _c("no round is in play to void", "CR-5"),
    "not_staff": _c("only the room's staff may void a round", "CR-5"),
    "unknown_round": _c("the table has no finished round of that number"),
    "claim_already_open": _c("the player has an open claim about that round", "BOB-6"),
    "claim_too_late": _c("claims are accepted for a limited number of days after the draw", "BOB-6"),
    "claims_too_fast": _c("more claims an hour than a player may file"),
}

SECURITY = {
    "hand_in_progress": _c("the hand is still being played: its cards are shown once it ends", "SEC-2"),
    "no_such_hand": _c("there is no hand of that id", "AC-7", "SEC-4"),
    "no_such_case": _c("there is no case of that number", "SEC-4"),
    "no_such_player": _c("there is no account of that nickname", "SEC-4", "STAFF-2", "STAFF-3"),
    "case_decided": _c("the case is decided: open a new one", "SEC-4"),
    "same_player": _c("a restriction links two different accounts", "SEC-4"),
    "void_short": _c("the player's wallet cannot cover the reversal yet", "AC-7"),
    "already_void": _c("those winnings are void already", "AC-7"),
    "not_cash_hand": _c("the hand moved no money: only cash-game winnings are voided", "AC-7"),
    "nothing_won": _c("the player won nothing in those hands", "AC-7"),
}

ERRORS: dict[str, Code] = {**PROTOCOL, **SESSION, **CHAT, **MONEY, **CASH_TABLE, **HAND, **TOURNAMENT,
                           **DIRECTORS_TABLES, **CASINO, **SECURITY}
"""Every error code a client can receive."""

SECTIONS: dict[str, dict[str, Code]] = {
    "Protocol": PROTOCOL, "Sessions and accounts": SESSION, "Chat": CHAT, "Money": MONEY,
    "Cash tables": CASH_TABLE, "Hands": HAND, "Tournaments": TOURNAMENT, "Directors' cash tables": DIRECTORS_TABLES,
    "Casino": CASINO, "Security": SECURITY,
}
"""The catalogue as docs/protocol.md lists it."""
