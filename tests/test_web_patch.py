"""Patches (only what changed, :mod:`cardcore.web.patch`) against the obvious reference: the
new document itself."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import web_patch_reference as reference
from cardcore.web.patch import Mirror, apply, diff, diffs

scalars = st.none() | st.booleans() | st.integers(-3, 3) | st.sampled_from(["a", "b", "7h@1"])
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.sampled_from("abcd"), inner, max_size=4)
    ),
    max_leaves=20,
)
documents = st.dictionaries(st.sampled_from("abcde"), values, max_size=5)


def grown(doc: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    """A document like a view after a move: lists appended to or cut, members changed."""
    out = copy.deepcopy(doc)
    for key in list(out):
        v = out[key]
        choice = data.draw(st.integers(0, 4))
        if isinstance(v, list) and choice == 0:
            v.extend(data.draw(st.lists(values, max_size=2)))
        elif isinstance(v, list) and choice == 1:
            del v[data.draw(st.integers(0, len(v))) :]
        elif choice == 2:
            out[key] = data.draw(values)
        elif choice == 3:
            del out[key]
    return out


@settings(max_examples=150, deadline=None)
@given(documents, documents, st.data())
def test_a_patch_turns_the_old_document_into_the_new(
    old: dict[str, Any], other: dict[str, Any], data: st.DataObject
) -> None:
    for new in (other, grown(old, data)):
        ops = json.loads(json.dumps(diff(old, new)))  # as the page receives them
        held = json.loads(json.dumps(old))
        apply(held, ops)
        assert json.dumps(held, sort_keys=True) == json.dumps(new, sort_keys=True)  # types too
        assert all(op[0] for op in ops)  # never the root


def test_equal_documents_need_no_patch_and_small_changes_small_ones() -> None:
    doc = {"pile": ["Ah@0", "2h@0"], "n": 1, "flag": True, "t": {"sizes": [3, 3]}}
    assert diff(doc, copy.deepcopy(doc)) == []
    new = {"pile": ["Ah@0", "2h@0", "3h@0"], "n": 1, "flag": 1, "t": {"sizes": [3, 4]}}
    assert diff(doc, new) == [
        [["pile", 2], "3h@0"],
        [["flag"], 1],  # 1 is not true in JSON
        [["t", "sizes", 1], 4],
    ]
    assert diff(new, doc) == [[["pile", 2]], [["flag"], True], [["t", "sizes", 1], 3]]


def test_a_mirror_follows_state_and_patches() -> None:
    m = Mirror()
    assert not m.feed({"type": "pong", "seq": 1})
    assert m.feed({"type": "state", "a": [1], "ack": 3})
    assert m.state == {"type": "state", "a": [1]}
    assert m.feed({"type": "patch", "ops": [[["a", 1], 2]], "ack": 4})
    assert m.state == {"type": "state", "a": [1, 2]}


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ({"a": [1]}, {"a": [True]}),
        ({"a": {"b": 0}}, {"a": {"b": False}}),
        ({"a": [[1], 2]}, {"a": [[True], 2]}),
        ({"a": [1]}, {"a": [True, 2]}),  # grown: the kept prefix is not the same JSON
        ({"a": [1, 2]}, {"a": [True]}),  # cut: likewise
        ({"a": [1]}, {"a": [1.0]}),
    ],
)
def test_true_is_not_1_inside_lists_and_objects(old: dict[str, Any], new: dict[str, Any]) -> None:
    held = json.loads(json.dumps(old))
    apply(held, json.loads(json.dumps(diff(old, new))))
    assert json.dumps(held) == json.dumps(new)


@settings(max_examples=300, deadline=None)
@given(documents, documents, st.data())
def test_the_diff_is_the_reference_one(
    old: dict[str, Any], other: dict[str, Any], data: st.DataObject
) -> None:
    # the Rust diff writes the same operations as the plain Python one, also for members
    # that are the same objects in both documents (skipped) and equal copies (compared)
    shared = grown(old, data)
    for new in (other, grown(old, data), {**old, "k": shared}, copy.deepcopy(old)):
        assert diff(old, new) == reference.diff(old, new)
        assert diff({"k": shared, **old}, new) == reference.diff({"k": shared, **old}, new)


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ({"a": [[1, 2], 0.0]}, {"a": [[1, 2], -0.0, 3]}),  # -0.0 is not 0.0 in a kept prefix
        ({"a": [{"x": 1, "y": 2}]}, {"a": [{"y": 2, "x": 1}, 3]}),  # members reordered
        ({"a": [1]}, {"a": [1.0, 2]}),
        ({"a": [10**30]}, {"a": [10**30, 1]}),
        ({"a": {"b": [1, [2]]}}, {"a": {"b": [1, [2, 3]], "c": None}}),
    ],
)
def test_the_diff_is_the_reference_one_in_edge_cases(
    old: dict[str, Any], new: dict[str, Any]
) -> None:
    assert diff(old, new) == reference.diff(old, new)


@settings(max_examples=100, deadline=None)
@given(documents, documents, documents, st.data())
def test_diffs_share_work_but_give_each_pair_its_own_patch(
    shared: dict[str, Any], own: dict[str, Any], other: dict[str, Any], data: st.DataObject
) -> None:
    # two seats' documents share members (the same objects, as public piles are), at the same
    # path and at another one; the same pair under another path is not taken from the memo
    new_shared = grown(shared, data)
    olds = [{"pub": shared, "own": own}, {"pub": shared, "own": other, "moved": shared}]
    news = [{"pub": new_shared, "own": grown(own, data)}, {"pub": new_shared, "own": other}]
    news[1]["moved"] = new_shared
    olds.append({"x": {"pub": shared}})
    news.append({"x": {"pub": new_shared}})
    pairs = list(zip(olds, news, strict=True))
    assert diffs(pairs) == [reference.diff(old, new) for old, new in pairs]


def test_pairs_needing_the_same_operations_get_the_same_list() -> None:
    # (the room writes one text for them); the same JSON only: True is not 1
    a, b, c = {"n": 0, "x": [1]}, {"n": 0, "x": [1]}, {"n": 0, "x": [1]}
    ops = diffs([(a, {"n": 1, "x": [1]}), (b, {"n": 1, "x": [1]}), (c, {"n": True, "x": [1]})])
    assert ops == [[[["n"], 1]], [[["n"], 1]], [[["n"], True]]]
    assert ops[0] is ops[1]
    assert ops[2] is not ops[0]
