"""The "whose turn and why" line in state messages (issue 30): the server words it once, with
the game's narration (`web_why`), for each connection in that connection's language and from
what that viewer may see: a seat's own view (and its snap-window part), a spectator's public
view. Two connections of the same seat in two languages get the same line in two languages."""

from __future__ import annotations

import random

from helpers import Client, Replay, check_messages, expected_why, play, run_async
from cardtable.server.tables.views import seat_names


def _states(client: Client) -> dict[int, dict]:
    """The last state message of each index (a window's answer sends a second one)."""
    return {m["index"]: m for m in client.messages if m["type"] == "state"}


def test_why_per_language_per_seat_and_for_spectators(server):
    async def main():
        out = server.create(game="kombio", players=2, target=20, snap_seconds=0.4, name="Ann",
                            seats=[{"kind": "human"}, {"kind": "bot", "bot": "easy"}])
        code, token = out["table"]["code"], out["join"]["token"]
        ann = await Client(server.ws_base, code, token, since=0).connect()
        ann_de = await Client(server.ws_base, code, token, lang="de", since=0).connect()
        spec = await Client(server.ws_base, code, lang="de", since=0).connect()
        await play(ann, "kombio", random.Random(3))
        for c in (ann_de, spec):
            await c.wait_for(lambda m: m["type"] == "state" and m["status"] == "over")
        rows = server.get(f"/api/tables/{code}").json()["seats"]
        rp = Replay(server.record(code))
        # every state of all three: the line of the message's own view (a seat's own view, the
        # spectator's public view: checked against the record replayed) in its language
        for c, seat in ((ann, 0), (ann_de, 0), (spec, None)):
            assert check_messages(c, seat, rp, rows) > 20
        en, de, sp = _states(ann), _states(ann_de), _states(spec)
        names = {lang: seat_names(rows, lang) for lang in ("en", "de")}
        both = sorted(set(en) & set(de) & set(sp))   # (a batch of bot moves: one state)
        for i in both:
            assert en[i]["why"] and de[i]["why"] and en[i]["why"] != de[i]["why"], i
        # the seat's turn: its own words; the spectator's words of the same moment are
        # another's (no seat's own view, no "you")
        mine = [i for i in both if en[i]["view"]["awaiting"] == "turn"
                and en[i]["view"]["to_move"] == 0 and en[i]["status"] == "playing"]
        assert mine
        for i in mine:
            assert en[i]["why"] == ("Your turn: draw a card, take the top discard card into a "
                                    "slot, or call Kombio (KO-5).")
            assert de[i]["why"].startswith("Du bist dran:")
            assert sp[i]["why"] == ("Ann ist dran: ziehen, die oberste Karte des "
                                    "Ablagestapels nehmen oder Kombio rufen (KO-5).")
        # a snap window the seat may answer: the line asks it to; the spectator's does not
        windows = [m for m in ann.messages if m["type"] == "state" and m["window"]
                   and m["window"]["eligible"] and m["legal"]]
        assert windows
        for m in windows:
            assert "click it to snap" in m["why"], m["why"]
        watch = [m for m in spec.messages if m["type"] == "state" and m["window"]]
        assert watch and all("die anderen entscheiden" in m["why"] for m in watch)
        # a spectator's line is never a seat's: from the seat's view it would differ at times
        seat_lines = sum(expected_why("kombio", dict(m, view=rp.views[m["index"]][0]), 0,
                                      names["de"], "de") != m["why"]
                         for m in spec.messages if m["type"] == "state")
        assert seat_lines > 0
        for c in (ann, ann_de, spec):
            await c.close()

    run_async(main())
