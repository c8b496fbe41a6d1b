"""The composition root: every service of the room built once, with its collaborators typed, and started and
stopped in one lifecycle.

Theory of operation
-------------------
Each job is a service of its own (docs/architecture.md draws them):

* :class:`~pokerroom.gateway.routes.Gateway` -- connections, sessions, the
  route table, forwarding what the bus brings;
* :class:`~pokerroom.shell.recorder.Recorder` -- the one writer, and what it
  records of every table's full stream (hands, audit chain, facts);
* :class:`~pokerroom.shell.wallet.Wallet` -- the one money path (AC-5, AC-6);
  :class:`~pokerroom.shell.wallet_desk.WalletDesk` answers beside it what the
  gateway's side asks of the money;
* :class:`~pokerroom.shell.table_host.TableHost` -- the cash tables and their
  timers; each event redacted once, per audience, where it is made;
* :class:`~pokerroom.shell.lobby_feed.LobbyFeed`,
  :class:`~pokerroom.shell.accounts.Accounts`,
  :class:`~pokerroom.shell.cash_play.CashPlay`,
  :class:`~pokerroom.shell.table_chat.TableChat`,
  :class:`~pokerroom.shell.responsible_gaming.ResponsibleGaming`,
  :class:`~pokerroom.shell.histories.Histories` -- each one family of requests;
* given the room's config (``pokerroom serve``): the tournament hall, the
  cashier, the promotions and security desks, the directors' cash tables and
  the casino floor.

**Roles.** The services stand on two sides of the process line (docs/architecture.md): the gateway's side
(the gateway, accounts, cash and casino play, chat, the lobby feed, histories, the cashier, the desks, the
tournament requests, the security desk, the session watch, the may-play check, responsible gaming) and the table
side (the table host, the wallet and its desks, the recorder's table recording, the tournament hall, the casino
floor, the security moves). ``role`` builds one side (``"gateway"``, ``"tables"``: ``pokerroom serve --role``,
two processes on one NATS room and one database) or both (``"both"``, the default: one process); in ``both``
every service is built in the same order as one process always built them. Everything that crosses the line is
a bus request or record, so the two sides need nothing of each other but the bus and the shared store; each
side has its own recorder (the one writer of its process).

:class:`RoomServices` is a Twisted ``MultiService``: ``startService`` runs the
restores (crash recovery, the ledger, the seating memory) and then each
service's start (the session watch, the password desk's pool, the cashier's and
the hall's recoveries, the casino's first rounds); ``stopService`` stops them in
reverse (the casino floor's round timers among them) and flushes the writer last.
Nobody is handed the root, nor a bundle of its parts: each service gets the
collaborators it uses, one by one, typed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from twisted.application.service import MultiService
from twisted.internet import defer
from twisted.internet.interfaces import IReactorTime
from twisted.python.threadpool import ThreadPool

from pokerroom import players
from pokerroom.bus import Bus, make_bus
from pokerroom.bus.subjects import CASINO_PLAYING, TOURNAMENTS_PLAYING
from pokerroom.casino.config import tables_from_config as casino_tables
from pokerroom.gateway.metrics import Metrics
from pokerroom.gateway.routes import Gateway
from pokerroom.money.accounts import PROMOTIONS
from pokerroom.security.moderation import Moderation
from pokerroom.shell.accounts import Accounts
from pokerroom.shell.cash_play import CashPlay
from pokerroom.shell.cashier import Cashier
from pokerroom.shell.cashier_moves import CashierMoves
from pokerroom.shell.casino_floor import CasinoFloor
from pokerroom.shell.casino_play import CasinoPlay
from pokerroom.shell.chat_conduct import ChatConduct
from pokerroom.shell.display_names import DecidedNames, DisplayNames
from pokerroom.shell.every_node import count_nodes_with
from pokerroom.shell.histories import Histories
from pokerroom.shell.house_deposits import HouseDeposits
from pokerroom.shell.leases import LeaseKeeper, LeaseThread
from pokerroom.shell.lifecycle import SHUTDOWN_FLUSH_SECONDS, Decisions, Restores, Step, Writer
from pokerroom.shell.lobby_feed import LobbyFeed
from pokerroom.shell.own_threads import OwnThreads
from pokerroom.shell.password_desk import PasswordDesk
from pokerroom.shell.payments import CashierBounds, PlayMoney
from pokerroom.shell.play_check import PlayCheck
from pokerroom.shell.promotions_desk import PromotionsDesk, fund_promotions
from pokerroom.shell.recorder import Recorder
from pokerroom.shell.responsible_gaming import ResponsibleGaming
from pokerroom.shell.roster import OneNode, Roster
from pokerroom.shell.seating_store import StoredSeatingHistory
from pokerroom.shell.security_desk import SecurityDesk
from pokerroom.shell.security_moves import SecurityMoves
from pokerroom.shell.session_watch import SessionWatch
from pokerroom.shell.shared_wallet import SharedWallet
from pokerroom.shell.table_chat import TableChat
from pokerroom.shell.table_desk import TableDesk
from pokerroom.shell.table_host import TableHost
from pokerroom.shell.table_opener import TableOpener
from pokerroom.shell.tenancy import CashTenant, CasinoTenant, EscrowRecovery, Tenancy, TournamentTenant
from pokerroom.shell.tournaments import BankRefill, TournamentHall
from pokerroom.shell.tournaments.hall_line import HallLine
from pokerroom.shell.tournaments.hand_host import HandHost
from pokerroom.shell.tournaments.requests import serve_tournament_requests
from pokerroom.shell.wallet import Wallet
from pokerroom.shell.wallet_desk import WalletDesk
from pokerroom.store.hand_records import Recovery
from pokerroom.store.room_store import RoomStore
from pokerroom.table import TableRules
from tournament.bounds import EventBounds

DEMO_PROMOTIONS = 1_000_000        # play money the demo house keeps for guarantees
MONEY_THREADS = 4                  # locked moves waiting on rows at once, per process (each holds a connection)
ROLES = ("both", "gateway", "tables")   # which side of the process line a process runs (``serve --role``)


class RoomServices(MultiService):
    """The room's services, each built once, in one lifecycle; ``config`` (the room's TOML, parsed) adds the hall,
    the cashier, the staff desks and the casino floor, as ``pokerroom serve`` runs them; ``role`` which side of the
    process line is built (``"both"``: all of it; a side not built leaves its services None)."""

    demo = False                # serve --demo: play money; /health says so, and `pokerroom bots` needs no secret
    hall: TournamentHall | None = None
    hand_host: HandHost | None = None
    cashier: Cashier | None = None
    table_desk: TableDesk | None = None
    table_opener: TableOpener | None = None
    casino_floor: CasinoFloor | None = None
    casino_play: CasinoPlay | None = None
    wallet_desk: WalletDesk | None = None
    cashier_moves: CashierMoves | None = None
    # the gateway's side: None in a ``tables`` process
    gateway: Gateway | None = None
    lobby: LobbyFeed | None = None
    accounts: Accounts | None = None
    session_watch: SessionWatch | None = None
    # the table side: None in a ``gateway`` process
    wallet: Wallet | None = None
    tables: TableHost | None = None
    restores: Restores | None = None

    def __init__(self, tables: list[TableRules], store: RoomStore, reactor: IReactorTime, *,
                 account_rules: players.AccountRules | None = None,
                 shuffle: Callable[[], list[int]] | None = None, writer: ThreadPool | None = None,
                 password_desk: PasswordDesk | None = None, bus: Bus | None = None,
                 config: Mapping[str, Any] | None = None, demo: bool = False,
                 casino_clock: IReactorTime | None = None, node: str = "main", shared_money: bool = False,
                 role: str = "both", leases: bool = False) -> None:
        super().__init__()
        if role not in ROLES:
            raise ValueError(f"role {role[:40]!r}: a process runs the gateway's side, the tables' or both "
                             f"({', '.join(ROLES)})")
        self.role = role
        self.gateway_side = gateway_side = role in ("both", "gateway")
        self.table_side = table_side = role in ("both", "tables")
        self.reactor = reactor
        self.node = node                    # this process's name in the room (``serve --node``; /health shows it)
        self.store = store
        self.account_rules = rules = account_rules or players.AccountRules()
        self.demo = demo
        self.bus = bus or make_bus(reactor)
        self.metrics = Metrics()
        if gateway_side:
            self.moderation = Moderation()                            # the security team's standing decisions
            self.display_names = DecidedNames(self.bus)   # AC-4: who shows their verified name, decided and published
        if table_side:
            table_names = DisplayNames()                  # the table process's copy, from the records (AC-3, AC-4)
            table_names.follow(self.bus)
        if gateway_side:
            self.gateway = gateway = Gateway(self.bus, self.metrics)
        self.recorder = recorder = Recorder(store, reactor, writer)     # each process's one writer
        # RoomServices.roster: how many table sides answer a gathered read (one process: 1; several: their leases)
        several = leases or shared_money
        money: OwnThreads | None = None
        # a server's (it has a writer thread): the leases' own thread; a test's room writes them inline
        lease_threads = OwnThreads(reactor, "leases") if several and writer is not None else None
        lease_line = LeaseThread(recorder, lease_threads) if several else None
        self.roster = (Roster(reactor, store.leases, lease_line, node, counted=table_side) if lease_line is not None
                       else OneNode())
        count_nodes_with(self.bus, self.roster)
        if table_side:
            # one process: the in-memory wallet; several over one database: shared accounts under its lock
            self.wallet = wallet = (SharedWallet if shared_money else Wallet)(recorder, reactor, rules)
            if isinstance(wallet, SharedWallet) and writer is not None:     # locked moves off the reactor
                money = OwnThreads(reactor, "money", MONEY_THREADS)
                wallet.move_off_reactor(money.pool)
            self.history = StoredSeatingHistory(recorder, store)
            self.tables = TableHost(reactor, self.bus, wallet, recorder, self.history, self.metrics,
                                    display_names=table_names, shuffle=shuffle, landed=recorder.landed,
                                    seating=self.history.at)
            SecurityMoves(self.bus, wallet, self.tables, recorder)      # the security desk's asks (AC-3, AC-7)
            self.wallet_desk = WalletDesk(self.bus, wallet, recorder, rules)   # the gateway side's asks of the money
            self.cashier_moves = CashierMoves(self.bus, wallet, recorder)     # the cashier's (deposits, withdrawals)
        if gateway_side:
            self._gateway_services(gateway, recorder, rules, password_desk)
        keeper = None
        # several processes: a table is played where its lease is held (tenancy), and the cashier settles in the one
        # process holding cashier:settlements; one process plays them all and settles alone
        self.tenancy = tenancy = Tenancy(reactor)
        if leases:
            keeper = LeaseKeeper(reactor, store.leases, lease_line, node, tenancy.lost, tenancy.takeover,
                                 wants=tenancy.serves)      # a lease that ran out is taken over where it is served
            tenancy.attach(keeper)
        if table_side:
            if keeper is not None:
                tenancy.answer_moving(self.bus)     # a table nobody answers for: between owners, or no table
                recorder.fence_with(keeper)     # every leased table's writes fenced by the epoch held
            self.recovery_of_tables = EscrowRecovery(store, wallet, reactor) if leases else None
            self.cash_tenant = CashTenant(self.tables, tenancy, self.recovery_of_tables, tables)
            if keeper is None:
                for table_rules in tables:
                    self.cash_tenant.open(table_rules, announce=False)
        # the lifecycle: started in this order, stopped in the reverse (the writer last)
        Writer(recorder, reactor, writer).setServiceParent(self)
        # stopped just before the writer: the money threads after every table and desk, the leases' after every
        # lease is let go
        self._with_room(money, lease_threads)
        if table_side:
            self.restores = Restores(store, reactor, wallet, self.tables, self.history, recover_all=keeper is None)
            self.restores.setServiceParent(self)
        roster = Step("roster", self.roster.start, self.roster.stop)
        roster.setServiceParent(self)
        if gateway_side:
            Decisions(store, reactor, self.moderation).setServiceParent(self)
            self._with_room(self.password_desk.own)
            Step("session watch", self.session_watch.start, self.session_watch.stop).setServiceParent(self)
            if not table_side:           # a gateway process asks the tables already running for their lines
                Step("lobby", self.lobby.ask).setServiceParent(self)
            # every node's tables, opened before this one started, asked of them once the roster has counted them
            Step("lobby catch-up", lambda: self.roster.counted().addCallback(lambda _: self.lobby.catch_up())
                 ).setServiceParent(self)
        if table_side and not gateway_side:     # a table process asks for the names decided before it started
            Step("shown names", lambda: DisplayNames.ask(self.bus)).setServiceParent(self)
        if keeper is not None:          # stopped after the tables: their leases go once no timer of theirs fires
            released = Step("leases", None, lambda: self._release_when_written(keeper))
            released.setServiceParent(self)
            if lease_threads is not None:       # the leases let go, and the node's own, on the leases' thread
                lease_threads.used_at_stop_by(roster, released)
        if table_side:
            Step("cash tables", (lambda: self.cash_tenant.open_all(tables)) if keeper is not None else None,
                 self.tables.stop).setServiceParent(self)
        if config is not None:
            self._furnish(config, casino_clock)
        if keeper is not None:          # renewing and taking over once every kind of table says how it opens one
            Step("lease watch", keeper.start).setServiceParent(self)

    def _with_room(self, *own: OwnThreads | None) -> None:
        """Threads of a job's own, started and stopped with the room, in this place of its lifecycle (a test's room
        has none)."""
        for threads in own:
            if threads is not None:
                threads.setServiceParent(self)

    def _release_when_written(self, keeper: LeaseKeeper) -> defer.Deferred:
        """The leases let go once the tables' queued writes landed (or the writer's stop gave up on them): fenced by
        the leases, they would be refused once another process took the tables."""
        d = self.recorder.flushed().addTimeout(SHUTDOWN_FLUSH_SECONDS, self.reactor)
        return d.addBoth(lambda _: keeper.stop())

    def ready(self) -> defer.Deferred:
        """Fires once the room may listen: on several processes, when its tables' leases are asked and answered
        (the tables it won are open); at once on one."""
        return self.cash_tenant.ready() if self.table_side else defer.succeed(None)

    def _gateway_services(self, gateway: Gateway, recorder: Recorder, rules: players.AccountRules,
                          password_desk: PasswordDesk | None) -> None:
        """The gateway's side of the process line: the lobby feed, the may-play check, the password desk, accounts,
        the session watch and each family of requests, served on the gateway's route table."""
        reactor, store = self.reactor, self.store
        self.lobby = LobbyFeed(reactor, self.bus, gateway.follow_lobby)
        self.play_check = PlayCheck(rules, reactor, self.moderation, store, recorder)   # on every path (STAFF-2)
        # chosen once, here: the server's desk has a pool of its own (app.build_room); a test's borrows the reactor's
        self.password_desk = password_desk or PasswordDesk(threads=rules.password_threads,
                                                           queue=rules.password_queue,
                                                           per_network=rules.password_queue_per_network)
        self.accounts = Accounts(reactor, gateway, recorder, self.moderation, rules, self.password_desk,
                                 self.display_names, rules.session_idle_hours * 3600.0)
        self.session_watch = SessionWatch(reactor, store, recorder, rules, self.moderation, gateway, self.bus,
                                          self.accounts)    # STAFF-3: role changes and bans, at once
        self.responsible_gaming = ResponsibleGaming(reactor, self.bus, recorder)
        self.histories = Histories(recorder, self.bus)
        self.cash_play = CashPlay(gateway, self.bus, self.moderation, self.play_check.session, self.metrics)
        self.chat_conduct = ChatConduct(reactor, self.moderation, rules, self.display_names)   # every table's chat
        self.table_chat = TableChat(self.bus, self.chat_conduct)
        for service in (self.lobby, self.accounts, self.responsible_gaming, self.session_watch, self.histories,
                        self.cash_play, self.table_chat):
            gateway.serve(service)

    @property
    def recovery(self) -> Recovery | None:
        """What the restores found of a crash (voided hands, stakes returned); None before the room starts, and in
        a gateway process (recovery is the table side's)."""
        return self.restores.recovery if self.restores is not None else None

    def _furnish(self, config: Mapping[str, Any], casino_clock: IReactorTime | None) -> None:
        """The tournament hall, the cashier, the promotions and security desks, the directors' cash tables and the
        casino floor, each started after the restores (their own recoveries read the loaded ledger)."""
        settings = config.get("tournaments", {})
        bounds = EventBounds.from_config(config)
        table_side, gateway_side = self.table_side, self.gateway_side
        anywhere = play_hands(settings)
        if table_side:       # several processes: each event directed where its lease is held
            events = TournamentTenant(self.tenancy, self.recovery_of_tables) if self.recovery_of_tables else None
            self.hall = hall = TournamentHall(self.reactor, self.bus, self.store, self.recorder, self.wallet,
                                              decision_seconds=float(settings.get("decision_seconds", 20)),
                                              between_hands=float(settings.get("between_hands_seconds", 1)),
                                              clock_scale=float(settings.get("clock_scale", 1)),
                                              bounds=bounds,
                                              time_bank_refill=BankRefill.from_config(settings.get("time_bank", {})),
                                              leases=events, hands_away=anywhere,
                                              live_nodes=self.live_nodes_now if events is not None else None)
            hall.install()
            if anywhere:            # a tournament's hands are played by any of the room's table processes
                self.hand_host = HandHost(self.reactor, self.bus, self.recorder, self.node)
                self.hand_host.install()
            if events is not None:
                events.serve(hall)
        if gateway_side:
            serve_tournament_requests(self.gateway, self.bus, self.reactor, self.recorder, self.store,
                                      self.play_check, self.account_rules.banned_words,
                                      bounds.keep_ended_minutes, self.chat_conduct)       # the gateway's side
            self.session_watch.count_in_play("is entered in a tournament", TOURNAMENTS_PLAYING)   # SEC-2: asked
        if table_side:
            # promotions deposits and wallet credits (STAFF-1)
            house_deposits = HouseDeposits(self.reactor, self.store, lambda: bounds)
            self.wallet_desk.install_promotions(house_deposits)          # bounded where the money is (STAFF-1)
            self.cashier_moves.install_credits(house_deposits)           # an admin's credits: the same bounds
        if gateway_side:
            self.gateway.serve(PromotionsDesk(self.bus, self.recorder, HallLine(self.bus, bounds.keep_ended_minutes)))
            # the admin's house money for events: the wallet desk and the hall asked on the bus
            money = CashierBounds.from_config(config)
            self.cashier = cashier = Cashier(self.reactor, self.store, self.recorder, self.account_rules,
                                             self.play_check, self.moderation, self.bus, PlayMoney(money), money)
            self.gateway.serve(cashier)                                  # deposits, withdrawals, an admin's credit
            if self.tenancy.keeper is not None:          # on leases: one process settles what is unanswered
                cashier.settle_through(self.tenancy)
        if table_side:                                                # a director's table opened beside the host
            self.table_opener = opener = TableOpener(self.tables, self.cash_tenant, self.store, self.bus, config)
            opener.install()
        if gateway_side:                                              # the directors' requests, asking it
            self.table_desk = desk = TableDesk(self.lobby, self.gateway, self.recorder, self.store, self.reactor,
                                               self.bus, config)
            desk.install()
        if table_side:
            leased = self.recovery_of_tables is not None         # several processes: each table where it is leased
            configured = casino_tables(config)
            self.casino_floor = floor = CasinoFloor(() if leased else configured, clock=casino_clock or self.reactor,
                                                     store=self.store, bus=self.bus, wallet=self.wallet,
                                                     recorder=self.recorder)
            floor.install()                          # the table process's side: the tables' commands and reads
            if leased:
                self.casino_tenant = CasinoTenant(floor, self.tenancy, self.recovery_of_tables, configured)
        if gateway_side:
            self.casino_play = casino_play = CasinoPlay(self.gateway, self.bus, self.store, self.recorder,
                                                        casino_clock or self.reactor, self.play_check.session)
            casino_play.install()                                     # the players' side: may-play, streams, claims
            self.session_watch.count_in_play("has a casino bet open", CASINO_PLAYING)     # SEC-2: asked of the floor
            self.gateway.serve(SecurityDesk(store=self.store, reactor=self.reactor, bus=self.bus,
                                            recorder=self.recorder, account_rules=self.account_rules,
                                            moderation=self.moderation, display_names=self.display_names,
                                            gateway=self.gateway, accounts=self.accounts,
                                            histories=self.histories))   # review, actions (SEC)
        # withdrawals held and deposits asked when the room stopped: asked again; tournaments it stopped during are
        # refunded (TR-REFUND); the cash tables directors opened, opened again; the casino's first rounds
        if gateway_side:
            Step("cashier", cashier.recover, cashier.stop).setServiceParent(self)
        if table_side:
            if self.demo:
                Step("demo promotions", self.demo_promotions).setServiceParent(self)
            Step("tournament hall", hall.recover, hall.stop).setServiceParent(self)
            if self.hand_host is not None:
                Step("tournament hands", None, self.hand_host.stop).setServiceParent(self)
        if table_side:
            Step("directors' tables", opener.restore).setServiceParent(self)
        if gateway_side:
            Step("table desk", desk.restore).setServiceParent(self)
        if table_side:
            Step("casino floor", floor.start, floor.stop).setServiceParent(self)
            if self.recovery_of_tables is not None:
                Step("casino tables", self.casino_tenant.open_all).setServiceParent(self)
        if gateway_side:
            Step("casino claims", casino_play.start).setServiceParent(self)

    def live_nodes_now(self) -> defer.Deferred:
        """The live nodes read afresh from the leases (not as of the roster's last beat): a hand played on a process
        that died is void within the lease's ttl of it (:mod:`~pokerroom.shell.tournaments.hands_away`)."""
        return self.roster.recounted().addCallback(lambda _: self.roster.live())

    def hands_played_here(self) -> int:
        """Tournament hands this process plays now for a director elsewhere (``/health``)."""
        return 0 if self.hand_host is None else len(self.hand_host.hands)

    def demo_promotions(self) -> None:
        """A demo room's house tops its promotions account up with a play-money deposit, so demo events can
        carry a guarantee (STAFF-1: it is still house money, deposited and recorded, never minted)."""
        short = DEMO_PROMOTIONS - self.wallet.held(PROMOTIONS)
        if short > 0:
            fund_promotions(self.wallet, self.recorder, "deposit", short, "demo",
                            "play money for the demo's guarantees", at_once=True)


def play_hands(settings: Mapping[str, Any]) -> bool:
    """``[tournaments] play_hands``: ``"here"`` (the default) deals each event's hands beside its director;
    ``"anywhere"`` has any of the room's table processes play them (several processes: :mod:`~pokerroom.shell.
    tournaments.hands_away`)."""
    where = settings.get("play_hands", "here")
    if where not in ("here", "anywhere"):
        raise ValueError(f"[tournaments] play_hands: \"here\" or \"anywhere\", not {str(where)[:40]!r}")
    return where == "anywhere"
