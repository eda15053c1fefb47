"""The server's message encoder (table_base.dumps) takes everything a client may make it echo."""

import json

from cardtable.server.tables.table_base import dumps


def test_echoed_ids_beyond_64_bits_are_encoded():
    # a client's message id is echoed in the error it causes; JSON allows any integer
    msg = {"type": "error", "code": "bad_message", "message": "x", "id": 2**70}
    assert json.loads(dumps(msg)) == msg


def test_compact_and_non_string_keys():
    assert dumps({"a": [1, None, "ü"], 2: True}) == '{"a":[1,null,"ü"],"2":true}'
