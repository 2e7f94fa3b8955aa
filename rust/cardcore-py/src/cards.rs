//! The `Card` value type (`cardcore.cards.Card`), card text, and hands read from Python objects.
//!
//! Every public function that takes cards reads them through [`read_faces`]: card text is parsed
//! here, and a list or tuple of `Card` objects is read field by field without a Python call per
//! card.

use cardcore_engine::card::{self, MAX_JOKER};
use pyo3::prelude::*;
use pyo3::pyclass::CompareOp;
use pyo3::types::{PyBool, PyBytes, PyInt, PyList, PyString, PyTuple, PyType};

use crate::errors::{card_parse_error, int_arg, iter_arg, py_err, str_arg, type_error};

/// What a hand argument may be.
const HAND: &str = "card text or an iterable of Card";

/// An immutable playing card: a face code (0..=255: naturals 0..52, joker `Xk` at `51 + k`) and
/// a deck index.
///
/// Cards compare and hash by `(face, deck)` and sort in physical-id order: deck, then suit,
/// then rank, with jokers last. `str()` gives the face (`"7h"`); `full()` adds the deck.
#[pyclass(module = "cardcore.cards", name = "Card", frozen)]
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct Card {
    face: u8,
    deck: u32,
}

/// An `int` argument (never a `bool`; `ArgumentTypeError` otherwise). Ints beyond `i128` read
/// as `i128::MAX`: out of range for every use here, so the caller's range check rejects them.
fn card_int(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<i128> {
    if obj.is_instance_of::<PyBool>() || !obj.is_instance_of::<PyInt>() {
        let ty = obj.get_type().name()?;
        return Err(type_error(format!("{name} must be an int, not {ty}")));
    }
    Ok(obj.extract::<i128>().unwrap_or(i128::MAX))
}

impl Card {
    fn checked(face: i128, deck: i128) -> PyResult<Self> {
        let Ok(f) = u8::try_from(face) else {
            return Err(card_parse_error(format!(
                "face code {face} out of range 0..255"
            )));
        };
        match u32::try_from(deck) {
            Ok(d) if !(card::is_joker(f) && d != 0) => Ok(Self { face: f, deck: d }),
            _ => Err(card_parse_error(format!(
                "bad deck {deck} for {}",
                card::format_face(f)
            ))),
        }
    }

    fn key(self) -> (bool, u32, u8) {
        (card::is_joker(self.face), self.deck, self.face)
    }

    fn text(self) -> String {
        card::format_face(self.face)
    }
}

#[pymethods]
impl Card {
    /// `Card(face, deck=0)`: a natural card by face (`suit * 13 + rank - 1`, 0..=51). A joker
    /// face needs its deck given (`Card(52, 0)`, as pickles write it; `Card.joker(k)` reads
    /// better): a lone int past the naturals is far more often a physical card id, which
    /// `Card.from_id(card_id, num_decks)` reads.
    #[new]
    #[pyo3(signature = (face, deck = None), text_signature = "(face, deck=0)")]
    fn py_new(face: &Bound<'_, PyAny>, deck: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let f = card_int(face, "face")?;
        let Some(deck) = deck else {
            let naturals = i128::from(card::NATURALS);
            if (naturals..naturals + i128::from(MAX_JOKER)).contains(&f) {
                return Err(card_parse_error(format!(
                    "Card({f}): {f} is not a natural face (0..{}); a physical card id is \
                     Card.from_id({f}, num_decks), a joker Card.joker({})",
                    naturals - 1,
                    f - naturals + 1
                )));
            }
            return Self::checked(f, 0);
        };
        Self::checked(f, card_int(deck, "deck")?)
    }

    /// The card of `rank` (1..13) and `suit` (0..3).
    #[classmethod]
    #[pyo3(signature = (rank, suit, deck = None), text_signature = "(rank, suit, deck=0)")]
    fn of(
        _cls: &Bound<'_, PyType>,
        rank: &Bound<'_, PyAny>,
        suit: &Bound<'_, PyAny>,
        deck: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Self> {
        let (rank, suit) = (card_int(rank, "rank")?, card_int(suit, "suit")?);
        let deck = deck.map_or(Ok(0), |d| card_int(d, "deck"))?;
        let face = u8::try_from(rank)
            .ok()
            .zip(u8::try_from(suit).ok())
            .filter(|&(r, s)| (card::ACE..=card::KING).contains(&r) && s < 4)
            .map(|(r, s)| card::face(r, s));
        let Some(face) = face else {
            return Err(card_parse_error(format!(
                "no card with rank {rank} and suit {suit}"
            )));
        };
        Self::checked(i128::from(face), deck)
    }

    /// Joker `Xk` (k = 1..204).
    #[classmethod]
    fn joker(_cls: &Bound<'_, PyType>, k: &Bound<'_, PyAny>) -> PyResult<Self> {
        let k = card_int(k, "k")?;
        let face = u8::try_from(k)
            .ok()
            .filter(|n| (1..=MAX_JOKER).contains(n))
            .map(card::joker);
        let Some(face) = face else {
            return Err(card_parse_error(format!(
                "jokers are X1..X{MAX_JOKER}, not X{k}"
            )));
        };
        Self::checked(i128::from(face), 0)
    }

    /// The card with physical id `card_id` in a game of `num_decks` decks.
    #[classmethod]
    fn from_id(
        _cls: &Bound<'_, PyType>,
        card_id: &Bound<'_, PyAny>,
        num_decks: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let (id, nd) = (
            card_int(card_id, "card id")?,
            card_int(num_decks, "num_decks")?,
        );
        // saturating: `nd` may be any int (a deck count past every id is simply out of range)
        let naturals = nd.saturating_mul(i128::from(card::NATURALS));
        let end = naturals.saturating_add(i128::from(MAX_JOKER));
        if nd < 0 || !(0..end).contains(&id) {
            return Err(card_parse_error(format!(
                "card id {id} out of range 0..{} for {nd} deck(s)",
                end - 1
            )));
        }
        if id >= naturals {
            return Self::checked(i128::from(card::face_of(id, nd)), 0);
        }
        Self::checked(i128::from(card::natural_face(id)), card::deck_of(id))
    }

    /// One card from text such as `"7h"`, `"10d"`, `"Q♠"`, `"8h@1"` or `"X2"`.
    #[classmethod]
    fn parse(cls: &Bound<'_, PyType>, text: &Bound<'_, PyAny>) -> PyResult<Self> {
        let text = str_arg(text, "card text")?;
        let cards = parse_text(text)?;
        if cards.len() != 1 {
            let shown = PyString::new(cls.py(), text).repr()?;
            return Err(card_parse_error(format!(
                "expected one card, got {} in {shown}",
                cards.len()
            )));
        }
        Ok(cards[0])
    }

    #[getter(face)]
    fn py_face(&self) -> u8 {
        self.face
    }

    #[getter]
    fn deck(&self) -> u32 {
        self.deck
    }

    #[getter]
    fn is_joker(&self) -> bool {
        card::is_joker(self.face)
    }

    /// 1..13; 0 for a joker.
    #[getter]
    fn rank(&self) -> u8 {
        if card::is_joker(self.face) {
            0
        } else {
            card::rank(self.face)
        }
    }

    /// 0..3 (c d h s); -1 for a joker.
    #[getter]
    fn suit(&self) -> i8 {
        if card::is_joker(self.face) {
            -1
        } else {
            i8::try_from(card::suit(self.face)).unwrap_or(-1)
        }
    }

    #[getter]
    fn is_red(&self) -> bool {
        !card::is_joker(self.face) && card::is_red(self.face)
    }

    /// Physical id in a game of `num_decks` decks (the card's deck must be below it).
    fn id(&self, num_decks: &Bound<'_, PyAny>) -> PyResult<i64> {
        let num_decks: i64 = int_arg(num_decks, "num_decks", 0, i128::from(u32::MAX))?;
        if card::is_joker(self.face) {
            return Ok(card::joker_id(self.face, num_decks));
        }
        if i64::from(self.deck) >= num_decks {
            return Err(card_parse_error(format!(
                "{} is not in a game of {num_decks} deck(s)",
                self.full()
            )));
        }
        Ok(card::natural_id(self.face, i64::from(self.deck)))
    }

    /// Text with the deck: `"7h@1"` (jokers need no suffix).
    fn full(&self) -> String {
        if card::is_joker(self.face) {
            self.text()
        } else {
            format!("{}@{}", self.text(), self.deck)
        }
    }

    fn __str__(&self) -> String {
        self.text()
    }

    fn __repr__(&self) -> String {
        if self.deck == 0 {
            format!("Card('{}')", self.text())
        } else {
            format!("Card('{}')", self.full())
        }
    }

    fn __hash__(&self) -> u64 {
        u64::from(self.face) | u64::from(self.deck) << 8
    }

    fn __richcmp__(&self, other: &Bound<'_, PyAny>, op: CompareOp) -> Py<PyAny> {
        let py = other.py();
        let Ok(other) = other.cast::<Card>() else {
            return py.NotImplemented();
        };
        let holds = op.matches(self.key().cmp(&other.get().key()));
        PyBool::new(py, holds).to_owned().into_any().unbind()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (u8, u32)) {
        let c = slf.get();
        (slf.get_type(), (c.face, c.deck))
    }

    fn __copy__(slf: Bound<'_, Self>) -> Bound<'_, Self> {
        slf
    }

    fn __deepcopy__<'py>(slf: Bound<'py, Self>, _memo: &Bound<'py, PyAny>) -> Bound<'py, Self> {
        slf
    }
}

/// Cards from text (generic `JK` numbered per text).
fn parse_text(text: &str) -> PyResult<Vec<Card>> {
    let tokens = card::parse_cards(text).map_err(py_err)?;
    Ok(tokens.into_iter().map(token_card).collect())
}

fn not_a_card(item: &Bound<'_, PyAny>) -> PyErr {
    // an int is most often a physical card id from an observation or a record
    let hint = if item.is_instance_of::<PyInt>() && !item.is_instance_of::<PyBool>() {
        " (an int: a physical card id reads as Card.from_id(card_id, num_decks))"
    } else {
        ""
    };
    match item.repr() {
        Ok(r) => card_parse_error(format!("not a card: {r}{hint}")),
        Err(e) => e,
    }
}

/// Reads a hand into `out`: card text (each token through `token`), or any iterable of `Card`
/// (each through `card`; lists and tuples read without a Python call per card).
fn read_hand<T>(
    obj: &Bound<'_, PyAny>,
    out: &mut Vec<T>,
    card: impl Fn(Card) -> T,
    token: impl Fn(card::Token) -> T,
) -> PyResult<()> {
    let one = |item: &Bound<'_, PyAny>| -> PyResult<T> {
        item.cast::<Card>()
            .map(|c| card(*c.get()))
            .map_err(|_| not_a_card(item))
    };
    if let Ok(list) = obj.cast::<PyList>() {
        for item in list.iter() {
            out.push(one(&item)?);
        }
    } else if let Ok(tuple) = obj.cast::<PyTuple>() {
        for item in tuple.iter() {
            out.push(one(&item)?);
        }
    } else if let Ok(text) = obj.cast::<PyString>() {
        let tokens = card::parse_cards(text.to_str()?).map_err(py_err)?;
        out.extend(tokens.into_iter().map(token));
    } else {
        for item in iter_arg(obj, "cards", HAND)? {
            out.push(one(&item?)?);
        }
    }
    Ok(())
}

/// Appends the faces of a hand (card text or an iterable of `Card`) to `out`.
pub fn read_faces(obj: &Bound<'_, PyAny>, out: &mut Vec<u8>) -> PyResult<()> {
    read_hand(obj, out, |c| c.face, |t| t.face)
}

fn token_card(t: card::Token) -> Card {
    Card {
        face: t.face,
        deck: t.deck.map_or(0, u32::from),
    }
}

/// Space-separated text of `cards` (bottom to top for piles); `full` adds decks, `sort` sorts
/// them first.
#[pyfunction]
#[pyo3(signature = (cards, *, full = false, sort = false))]
pub(crate) fn format_cards(cards: &Bound<'_, PyAny>, full: bool, sort: bool) -> PyResult<String> {
    let mut hand: Vec<Card> = Vec::new();
    read_hand(cards, &mut hand, |c| c, token_card)?;
    if sort {
        hand.sort_by_key(|c| c.key());
    }
    let texts: Vec<String> = hand
        .iter()
        .map(|c| if full { c.full() } else { c.text() })
        .collect();
    Ok(texts.join(" "))
}

/// The `Card`s of physical ids (`bytes` or an iterable of ints) in a game of `num_decks` decks.
#[pyfunction]
pub(crate) fn cards_from_ids<'py>(
    ids: &Bound<'py, PyAny>,
    num_decks: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyList>> {
    let num_decks: u16 = int_arg(num_decks, "num_decks", 0, i128::from(u16::MAX))?;
    let nd = u32::from(num_decks);
    let end = card::natural_ids(nd) + u32::from(MAX_JOKER);
    let card = |id: u32| -> PyResult<Card> {
        if id < end {
            let (face, deck) = card::split_id(id, nd);
            Ok(Card { face, deck })
        } else {
            Err(card_parse_error(format!(
                "card id {id} out of range 0..{} for {num_decks} deck(s)",
                end - 1
            )))
        }
    };
    let out: Vec<Card> = if let Ok(b) = ids.cast::<PyBytes>() {
        b.as_bytes()
            .iter()
            .map(|&id| card(u32::from(id)))
            .collect::<PyResult<_>>()?
    } else {
        let mut v = Vec::new();
        for id in iter_arg(ids, "ids", "bytes or an iterable of ints")? {
            v.push(card(int_arg(&id?, "card id", 0, i128::from(u32::MAX))?)?);
        }
        v
    };
    PyList::new(ids.py(), out)
}

/// Cards from text, or the `Card` objects of an iterable as a list (each checked).
#[pyfunction]
pub(crate) fn parse_cards<'py>(text: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    let py = text.py();
    if let Ok(s) = text.cast::<PyString>() {
        let cards = parse_text(s.to_str()?)?;
        return PyList::new(py, cards);
    }
    let list = PyList::empty(py);
    for item in iter_arg(text, "cards", HAND)? {
        let item = item?;
        if item.cast::<Card>().is_err() {
            return Err(not_a_card(&item));
        }
        list.append(item)?;
    }
    Ok(list)
}

/// The face codes of a hand (card text or `Card` objects) as `bytes`.
#[pyfunction]
pub(crate) fn card_faces<'py>(hand: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
    let mut out = Vec::new();
    read_faces(hand, &mut out)?;
    Ok(PyBytes::new(hand.py(), &out))
}

/// Canonical text of a face code (0..=255).
#[pyfunction]
pub(crate) fn format_face(face: &Bound<'_, PyAny>) -> PyResult<String> {
    let face: u8 = int_arg(face, "face code", 0, 255)?;
    Ok(card::format_face(face))
}
