"""Cash tables and house-rule numbers from ``config/room.toml`` (DESIGN.md idea 5: config is data).

Read once at start with :func:`load_tables`. A mistake in the file is a
``ValueError`` naming the table or key, raised before the room opens.
"""

from __future__ import annotations

import tomllib
from fractions import Fraction
from pathlib import Path
from typing import Any

from pokerroom.poker.rake import RakeSchedule
from pokerroom.poker.variants import VARIANTS, Stakes
from pokerroom.table.rules import DecisionTimes, HitAndRunRules, TableRules, TimeBankRules

DEFAULT_PATH = Path(__file__).resolve().parents[2] / "config" / "room.toml"


def default_path() -> Path:
    """``config/room.toml`` of the checkout the package runs from, else of the current directory."""
    return DEFAULT_PATH if DEFAULT_PATH.exists() else Path.cwd() / "config" / "room.toml"


def load_config(path: str | Path | None = None) -> dict[str, Any]:
    """The whole room config file as data."""
    path = Path(path) if path else default_path()
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except FileNotFoundError:
        raise ValueError(f"no room config at {path}") from None
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"the room config {path} is not valid TOML: {e}") from None


def load_tables(path: str | Path | None = None) -> list[TableRules]:
    """Every ``[[tables]]`` entry of the file as :class:`TableRules`."""
    return tables_from_config(load_config(path))


def tables_from_config(data: dict[str, Any]) -> list[TableRules]:
    house = data.get("house_rules", {})
    rakes = {name: _rake(name, entry) for name, entry in data.get("rake", {}).items()}
    tables = []
    seen: set[str] = set()
    for entry in data.get("tables", []):
        table_id = entry.get("id", "?")
        try:
            rules = _table(entry, house, rakes)
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"table {table_id!r} in the room config: {e}") from e
        if rules.table_id in seen:
            raise ValueError(f"table id {rules.table_id!r} appears twice in the room config")
        seen.add(rules.table_id)
        tables.append(rules)
    return tables


def table_from_entry(data: dict[str, Any], entry: dict[str, Any]) -> TableRules:
    """One table from an entry shaped like ``[[tables]]``, under the config's house rules and rake schedules.

    A director opening a table at run time gets exactly what the config would
    have given the same entry; a bad entry is a ``ValueError`` in a sentence.
    """
    rakes = {name: _rake(name, e) for name, e in data.get("rake", {}).items()}
    try:
        return _table(entry, data.get("house_rules", {}), rakes)
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"table {entry.get('id', '?')!r}: {e}") from e


def _rake(name: str, entry: dict[str, Any]) -> RakeSchedule:
    try:
        caps = tuple(tuple(c) for c in entry.get("caps", ()))
        return RakeSchedule(Fraction(str(entry["percent"])) / 100, caps)
    except (KeyError, TypeError, ValueError) as e:
        raise ValueError(f"rake schedule {name!r} in the room config: {e}") from e


def _table(entry: dict[str, Any], house: dict[str, Any], rakes: dict[str, RakeSchedule]) -> TableRules:
    code = entry["variant"]
    if code not in VARIANTS:
        raise ValueError(f"unknown variant {code!r}; expected one of {sorted(VARIANTS)}")
    stakes = Stakes(entry["small_blind"], entry["big_blind"], entry.get("ante", 0),
                    entry.get("big_blind_ante", False), entry.get("third_blind", 0))
    rake_name = entry.get("rake")
    if rake_name is not None and rake_name not in rakes:
        raise ValueError(f"unknown rake schedule {rake_name!r}")
    times = house.get("decision_seconds", {})
    street_times = entry.get("decision_seconds", times.get(code, times.get("default", {})))
    bank = house.get("time_bank", {})
    hnr = house.get("hit_and_run", {})
    return TableRules(
        table_id=entry["id"], variant=VARIANTS[code], stakes=stakes,
        min_buy_in=entry["min_buy_in"], max_buy_in=entry["max_buy_in"], max_seats=entry.get("seats", 9),
        name=entry.get("name", ""), currency=entry.get("currency", ""),
        rake=rakes[rake_name] if rake_name is not None else None,
        decision_times=DecisionTimes(**{k: float(v) for k, v in street_times.items()}),
        time_bank=TimeBankRules(float(bank.get("initial_seconds", 30)), float(bank.get("refill_seconds", 10)),
                                int(bank.get("every_hands", 10)), float(bank.get("cap_seconds", 60))),
        reconnect_seconds=float(house.get("reconnect_seconds", 20)),
        hit_and_run=HitAndRunRules(
            int(hnr.get("min_hands", 10)), float(hnr.get("window_hours", 12)) * 3600,
            tuple(float(m) * 60 for m in hnr.get("block_minutes", (0, 5, 15, 30, 60)))),
        fast_fold=entry.get("fast_fold", False), all_in_or_fold=entry.get("all_in_or_fold", False),
        owed_posts_memory=float(house.get("owed_posts_memory_minutes", 10)) * 60,
        rat_hole_period=float(house.get("rat_hole_minutes", 60)) * 60,
        max_sit_out=float(house.get("max_sit_out_minutes", 10)) * 60,
        seat_offer=float(house.get("seat_offer_seconds", 60)),
        between_hands=float(house.get("between_hands_seconds", 3)),
        run_it_twice=entry.get("run_it_twice", False),
        block_chat_in_hand=entry.get("block_chat_in_hand", house.get("block_chat_in_hand", False)),
        sit_out_disconnected=house.get("sit_out_disconnected", True),
        max_tables=tuple(sorted(house.get("max_tables", {"desktop": 16, "mobile": 4, "browser": 8}).items())),
    )
