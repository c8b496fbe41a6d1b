"""The directors' cash-table desk on a test room, in its two parts: the desk on the gateway's side and, beside the
table host, the opener it asks (``tables.open``)."""

from __future__ import annotations

from pokerroom.shell.composition import RoomServices
from pokerroom.shell.table_desk import TableDesk
from pokerroom.shell.table_opener import TableOpener


def directors_desk(room: RoomServices, config: dict, *, restore: bool = False) -> TableDesk:
    """Both parts installed (and, with ``restore``, the directors' stored tables opened again, as at a start)."""
    opener = TableOpener(room.tables, room.cash_tenant, room.store, room.bus, config)
    opener.install()
    desk = TableDesk(room.lobby, room.gateway, room.recorder, room.store, room.reactor, room.bus, config)
    desk.install()
    if restore:
        opener.restore()
        desk.restore()
    return desk
