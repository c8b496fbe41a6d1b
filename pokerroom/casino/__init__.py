"""Live casino games: one shoe, one betting-round life cycle and one settlement path, five games.

``shoe`` deals, ``betting`` keeps a round's bets from open to settled or void,
``table`` is the phase machine every game table shares; the game modules hold
the rules as pure functions of the cards (``baccarat``, ``bet_on_baccarat``,
``blackjack_rules``, ``side_bets``, ``roulette``) and their tables
(``punto_banco``, ``bet_on_baccarat_table``, ``blackjack``,
``infinite_blackjack``, ``roulette_table``). :func:`tables_from_config` builds
them from ``[[casino]]`` in ``config/room.toml``.
"""
