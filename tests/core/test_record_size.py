"""The size cap of a record read by `read_record` / `load_record` (core/record.py,
MAX_RECORD_BYTES): a file, text or bytes over it is refused with a RecordError before it is
read whole or parsed; the server's replay API takes bodies of the same size."""

from __future__ import annotations

import json
import os
import threading
import tracemalloc

import pytest

from cardtable.core import load_record, new_game, read_record
from cardtable.core.errors import RecordError
from cardtable.core.record import MAX_RECORD_BYTES


def _padded(size: int) -> str:
    """A record of a real game whose JSON text is exactly `size` bytes (padded with spaces
    before its closing brace: valid JSON, the same record)."""
    text = json.dumps(new_game("kombio", players=2, seed=1).record())
    assert len(text) < size
    return text[:-1] + " " * (size - len(text)) + "}"


def test_the_server_takes_bodies_of_the_same_size():
    from cardtable.server.guard.security import MAX_REPLAY_BODY

    assert MAX_REPLAY_BODY == MAX_RECORD_BYTES


def test_a_record_of_the_cap_is_read_one_byte_more_is_refused(tmp_path):
    ok, big = _padded(MAX_RECORD_BYTES), _padded(MAX_RECORD_BYTES + 1)
    path_ok, path_big = tmp_path / "ok.json", tmp_path / "big.json"
    path_ok.write_text(ok)
    path_big.write_text(big)
    for source in (ok, ok.encode(), path_ok, str(path_ok)):
        assert read_record(source)["game"] == "kombio"
        assert load_record(source).players == 2
    for source in (big, big.encode(), bytearray(big.encode()), path_big, str(path_big)):
        with pytest.raises(RecordError) as e:
            read_record(source)
        assert e.value.code == "record.too_big"
        assert e.value.params == {"size": MAX_RECORD_BYTES // 1024 + 1,
                                  "most": MAX_RECORD_BYTES // 1024}
        assert "at most 512 KiB" in str(e.value)
        with pytest.raises(RecordError):
            load_record(source)


def test_a_text_counts_its_utf8_bytes_not_its_characters():
    rec = new_game("kombio", players=2, seed=1).record()
    rec["seats"] = [{"name": "Ä"}, {"name": "Ö"}]
    text = json.dumps(rec, ensure_ascii=False)
    # a filler of two-byte characters: fewer characters than the cap, more bytes
    chars = (MAX_RECORD_BYTES - len(text.encode())) // 2 + 1
    big = text[:-1] + ', "note": "' + "é" * chars + '"}'
    assert len(big) < MAX_RECORD_BYTES < len(big.encode())
    with pytest.raises(RecordError) as e:
        read_record(big)
    assert e.value.code == "record.too_big"


def test_a_huge_file_is_refused_before_it_is_read(tmp_path):
    """A 56 MB file (sparse: no disk) is refused by its size; reading it would allocate 56 MB
    (before the cap, `read_text` did, and 602 MB went to parsing such a record)."""
    path = tmp_path / "huge.json"
    with open(path, "wb") as f:
        f.truncate(56 * 1024 * 1024)
    tracemalloc.start()
    try:
        with pytest.raises(RecordError) as e:
            load_record(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert e.value.params["size"] == 56 * 1024
    assert peak < MAX_RECORD_BYTES, peak


def test_a_pipe_without_a_size_is_read_no_further_than_the_cap(tmp_path):
    """A FIFO (`cardtable replay <(...)`) reports no size: it is read up to the cap + 1 byte,
    then refused."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    written = []

    def writer():
        try:
            with open(fifo, "wb") as f:
                chunk = b" " * 65536
                for _ in range(4 * MAX_RECORD_BYTES // len(chunk)):
                    f.write(chunk)
                    written.append(len(chunk))
        except BrokenPipeError:             # the reader stopped at the cap and closed
            pass

    t = threading.Thread(target=writer)
    t.start()
    try:
        with pytest.raises(RecordError) as e:
            read_record(fifo)
    finally:
        t.join()
    assert e.value.code == "record.too_big"
    assert sum(written) < 4 * MAX_RECORD_BYTES        # the writer was cut off
