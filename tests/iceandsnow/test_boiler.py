"""Upgrade 8, the Boiler, and the fuel bands (seed l. 308: 「プレイヤーは、航海フェーズ
中に燃料レベルを下げると、スペースに応じて効果を発動します」 — the band effect follows
*lowering* fuel; l. 909: 「燃料レベルを1減らす代わりに1木材を支払う」 — the wood is
paid *instead of* lowering it).  A voyage whose whole fuel cost the Boiler paid
lowers no fuel and so triggers no band; one it paid in part still does."""

from __future__ import annotations

from erebus.games.iceandsnow import kit
from erebus.games.iceandsnow.actions import Action
from erebus.games.iceandsnow.events import TrackChanged
from erebus.games.iceandsnow.state import State
from iceandsnow.rulekit import at_voyage, fresh, resolve

ALL = {"upgrades": "all"}
BOILER = 8


def boiler_voyage(fuel: int, voyage: str, use: bool = True) -> tuple[State, list[object]]:
    st = fresh(options=ALL)
    at_voyage(st, "north_water")
    kit.set_player(st, 0, upgrades=[BOILER], wood=2, fuel=fuel, morale=5, rifles=1, dogs=1)
    kit.set_player(st, 1, fuel=10, morale=5)
    ev: list[object] = list(st.apply(Action("voyage", voyage=voyage)))
    assert st.pending == "boiler" and st.current_player == 0
    ev += st.apply(Action("boiler", use=use))
    return st, ev


def test_open_sea_paid_by_the_boiler_at_fuel_3_demands_no_discard() -> None:
    st, _ = boiler_voyage(3, "open")
    assert not (st.pending == "discard" and st.current_player == 0)
    resolve(st)
    p = st.player(0)
    assert (p["fuel"], p["wood"], p["rifles"], p["dogs"]) == (3, 1, 1, 1)


def band_morale(ev: list[object]) -> set[int]:
    """The seats whose morale the 8–10 fuel band raised."""
    return {e.seat for e in ev if isinstance(e, TrackChanged) and e.reason == "fuel 8–10"}


def test_open_sea_paid_by_the_boiler_at_fuel_10_raises_no_morale() -> None:
    st, ev = boiler_voyage(10, "open")
    assert st.player(0)["fuel"] == 10 and st.player(1)["fuel"] == 9
    assert band_morale(ev) == {1}  # the seat without a Boiler lowered its fuel


def test_coastal_half_paid_by_the_boiler_still_lowers_fuel_and_triggers_the_band() -> None:
    st, _ = boiler_voyage(4, "coastal")  # 2 fuel: 1 wood + 1 fuel → fuel 3
    assert st.pending == "discard" and st.current_player == 0
    resolve(st)
    assert (st.player(0)["fuel"], st.player(0)["wood"]) == (3, 1)


def test_boiler_declined_lowers_fuel_and_triggers_the_band() -> None:
    st, ev = boiler_voyage(10, "open", use=False)
    assert (st.player(0)["fuel"], st.player(0)["wood"]) == (9, 2)
    assert band_morale(ev) == {0, 1}
