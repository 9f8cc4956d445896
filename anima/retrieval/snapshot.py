"""The built approximate index as bytes for the soul, and back: its graph, never its vectors.

Building the hnswlib graph over 100,000 vectors takes minutes on two cores; reading it back takes a fraction
of a second. It is kept inside the encrypted database (retrieval/indexer.py writes it; nothing is ever written
to a file, not even a temporary one). hnswlib can pickle an index to bytes, but a pickle holds every vector,
and a vector is enough to find the words it was made from again: a forgotten item's vector would live on in
the blob. So what is kept is the graph alone: each node's links and which item it stands for. Every node's
vector bytes are cut out before it is stored and put back, from the `embeddings` table, when it is read; an
item forgotten meanwhile has no vector there, so its node stays empty and is marked deleted.

The format is our own (a JSON header and raw little-endian arrays), not pickle: reading it runs no code. Format 2
keeps the graph's shards (vectors.py: a run of labels each), each with its own arrays; format 1 held one graph and
is built again as shards.
"""

import json
from typing import Any

import hnswlib
import numpy as np
import numpy.typing as npt

from ..store.kinds import RECALLED

Key = tuple[str, int]
FORMAT = 2
# hnswlib's own fields, as __getstate__ gives them: arrays (stored raw) and scalars (in the header).
_ARRAYS = {"label_lookup_external": "<u8", "label_lookup_internal": "<u4", "element_levels": "<i4", "link_lists": "i1"}
_SCALARS = (
    "ser_version",
    "space",
    "dim",
    "index_inited",
    "ep_added",
    "normalize",
    "num_threads",
    "seed",
    "offset_level0",
    "max_elements",
    "cur_element_count",
    "size_data_per_element",
    "label_offset",
    "offset_data",
    "max_level",
    "enterpoint_node",
    "max_M",
    "max_M0",
    "M",
    "mult",
    "ef_construction",
    "ef",
    "has_deletions",
    "size_links_per_element",
    "allow_replace_deleted",
)


class BadSnapshot(ValueError):
    """A stored graph that cannot be used (another format, another hnswlib, damage): it is built again."""


def pack(states: list[dict[str, Any]], keys: list[Key | None], shard: int) -> tuple[dict[str, Any], bytes]:
    """hnswlib's state of each shard (Index.__getstate__()[0]), the item each label stands for (None: removed) and
    the labels per shard -> (header, payload). The payload holds no vector."""
    kinds = list(RECALLED)
    pieces: list[bytes] = []
    offset = 0

    def put(a: npt.NDArray[Any]) -> dict[str, Any]:
        nonlocal offset
        raw = a.tobytes()
        pieces.append(raw)
        offset += len(raw)
        return {"dtype": a.dtype.str, "shape": list(a.shape), "offset": offset - len(raw), "bytes": len(raw)}

    graphs = []
    common = {name: states[0][name] for name in _SCALARS if name in states[0]} if states else {}
    for state in states:
        n, size = state["cur_element_count"], state["size_data_per_element"]
        start, end = _vector_span(state)
        level0 = np.asarray(state["data_level0"], dtype=np.int8).reshape(n, size)
        arrays = {name: np.ascontiguousarray(state[name], dtype=dtype) for name, dtype in _ARRAYS.items()}
        # Every node's links and label, without the bytes of its vector in between.
        arrays["links0"] = np.ascontiguousarray(np.concatenate([level0[:, :start], level0[:, end:]], axis=1))
        own = {name: state[name] for name in _SCALARS if name in state and state[name] != common.get(name)}
        graphs.append({"state": own, "arrays": {name: put(a) for name, a in arrays.items()}})
    key_kinds = put(np.array([-1 if k is None else kinds.index(k[0]) for k in keys], dtype="i1"))
    key_ids = put(np.array([0 if k is None else k[1] for k in keys], dtype="<i8"))
    header = {
        "format": FORMAT,
        "hnswlib": _hnswlib_version(),
        "kinds": kinds,
        "shard": shard,
        "state": common,
        "graphs": graphs,
        "keys": {"key_kinds": key_kinds, "key_ids": key_ids},
    }
    return header, b"".join(pieces)


def unpack(header: dict[str, Any], payload: bytes, dim: int) -> tuple[list[dict[str, Any]], list[Key | None], int]:
    """(header, payload) -> (hnswlib's state of each shard, without vectors; the item of each label; the labels
    per shard). BadSnapshot when it cannot be used. fill() puts the vectors in before a state is given to
    hnswlib."""
    try:
        if header.get("format") != FORMAT or header.get("hnswlib") != _hnswlib_version():
            raise BadSnapshot(f"format {header.get('format')} of hnswlib {header.get('hnswlib')}")
        common = dict(header["state"])
        if common.get("space") != "ip" or common.get("dim") != dim:
            raise BadSnapshot(f"a {common.get('space')} index of dimension {common.get('dim')}")
        states = []
        for graph in header["graphs"]:
            state = {**common, **graph["state"]}
            if state.get("space") != "ip" or state.get("dim") != dim:
                raise BadSnapshot(f"a {state.get('space')} index of dimension {state.get('dim')}")
            arrays = {name: _array(spec, payload) for name, spec in graph["arrays"].items()}
            n = int(state["cur_element_count"])
            start, end = _vector_span(state)
            kept = int(state["size_data_per_element"]) - (end - start)
            if arrays["links0"].shape != (n, kept):
                raise BadSnapshot("its arrays do not fit its header")
            for name in (*_ARRAYS, "links0"):
                state[name] = arrays[name]
            states.append(state)
        kinds = header["kinds"]
        key_kinds, key_ids = (_array(header["keys"][name], payload) for name in ("key_kinds", "key_ids"))
        if len(key_kinds) != len(key_ids):
            raise BadSnapshot("its arrays do not fit its header")
        keys = [
            None if c < 0 else (kinds[c], int(i))
            for c, i in zip(key_kinds.tolist(), key_ids.tolist(), strict=True)  # (checked above)
        ]
        if any(k is not None and k[0] not in RECALLED for k in keys):
            raise BadSnapshot("it names kinds this Anima does not recall")
        return states, keys, int(header["shard"])
    except BadSnapshot:
        raise
    except (KeyError, TypeError, ValueError, IndexError) as e:
        raise BadSnapshot(str(e)) from None


def _array(spec: dict[str, Any], payload: bytes) -> npt.NDArray[Any]:
    offset, length = int(spec["offset"]), int(spec["bytes"])
    if offset < 0 or offset + length > len(payload):
        raise BadSnapshot("an array lies outside the stored bytes")
    dtype = np.dtype(spec["dtype"])
    return np.frombuffer(payload, dtype=dtype, count=length // dtype.itemsize, offset=offset).reshape(spec["shape"])


def labels_of(state: dict[str, Any]) -> npt.NDArray[np.uint64]:
    """The label of each node (its internal id's order), as unpack() gives the state."""
    start, end = _vector_span(state)
    at = int(state["label_offset"]) - (end - start)
    labels: npt.NDArray[np.uint64] = state["links0"][:, at : at + 8].copy().view("<u8").ravel()
    return labels


def fill(state: dict[str, Any], nodes: npt.NDArray[np.int64], vectors: npt.NDArray[np.float32]) -> hnswlib.Index:
    """The index, vectors put back: `vectors[i]` is node `nodes[i]`'s (a node given none, its item gone,
    keeps zeros). The state's links are used as they are."""
    n = int(state["cur_element_count"])
    size = int(state["size_data_per_element"])
    start, end = _vector_span(state)
    level0 = np.zeros((n, size), dtype=np.int8)
    level0[:, :start] = state["links0"][:, :start]
    level0[:, end:] = state["links0"][:, start:]
    if len(nodes):
        level0[nodes, start:end] = (
            np.ascontiguousarray(vectors, dtype="<f4").view(np.int8).reshape(len(nodes), end - start)
        )
    params = {k: v for k, v in state.items() if k != "links0"}
    params["data_level0"] = level0.ravel()
    index = hnswlib.Index.__new__(hnswlib.Index)
    try:
        index.__setstate__((params,))
    except (RuntimeError, ValueError, TypeError, KeyError) as e:
        raise BadSnapshot(f"hnswlib refused it: {e}") from None
    return index


def _vector_span(state: dict[str, Any]) -> tuple[int, int]:
    """Where a node's vector lies in its level-0 record: hnswlib puts it between the links and the label."""
    start, dim = int(state["offset_data"]), int(state["dim"])
    end = start + 4 * dim
    if int(state["label_offset"]) != end or end + 8 > int(state["size_data_per_element"]):
        raise BadSnapshot("an hnswlib record laid out differently from this version's")
    return start, end


def _hnswlib_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("hnswlib")
    except PackageNotFoundError:
        return "unknown"


def dumps_header(header: dict[str, Any]) -> str:
    return json.dumps(header, separators=(",", ":"))
