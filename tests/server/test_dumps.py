"""The server's message encoder (table_base.dumps) takes everything a client may make it echo."""

import json

from cardtable.server.tables.table_base import Shared, dumps


def test_echoed_ids_beyond_64_bits_are_encoded():
    # a client's message id is echoed in the error it causes; JSON allows any integer
    msg = {"type": "error", "code": "bad_message", "message": "x", "id": 2**70}
    assert json.loads(dumps(msg)) == msg


def test_compact_and_non_string_keys():
    assert dumps({"a": [1, None, "ü"], 2: True}) == '{"a":[1,null,"ü"],"2":true}'


def test_a_shared_message_is_encoded_once():
    # the broadcast hands one message to every connection of a viewer: one encoding for all
    msg = Shared({"type": "state", "index": 3, "view": {"hand": [1, 2]}})
    text = dumps(msg)
    assert json.loads(text) == msg
    assert dumps(msg) is text
