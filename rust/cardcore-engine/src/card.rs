//! Card faces, physical ids and their text notation (`docs/embedding.md`, `cardcore.cards`).
//!
//! A *face* is a `u8`: `suit * 13 + (rank - 1)` for the 52 naturals (suits `c d h s` = 0..3,
//! ranks A=1 … K=13) and `52 + (k - 1)` for joker `Xk` (k = 1..=204, any number a game needs:
//! 3-deck Spite & Malice has `X1..X6`). A *physical id* tells apart
//! the copies in multi-deck games: `deck * 52 + face` for naturals and `num_decks * 52 + (k - 1)`
//! for jokers.

use std::ops::{Add, Div, Mul, Rem, Sub};

use crate::error::CardError;

/// Number of natural faces.
pub const NATURALS: u8 = 52;
/// Face of joker `X1`; `X2`, `X3`, ... follow.
pub const JOKER0: u8 = 52;
/// Highest joker number: `X204` is face 255. Cards, ids and the text notation take any joker
/// up to it.
pub const MAX_JOKER: u8 = u8::MAX - JOKER0 + 1;
/// Rank of the ace.
pub const ACE: u8 = 1;
/// Rank of the king, the highest.
pub const KING: u8 = 13;
/// Most jokers in a Three-Thirteen game (the Three-Thirteen rules page, "Wild cards": 0, 2 or 4), the most the meld solver and the
/// Three-Thirteen agents take (faces up to `X4`).
pub const MAX_JOKERS: u8 = 4;

const RANKS: &[u8; 13] = b"A23456789TJQK";
const SUITS: &[u8; 4] = b"cdhs";

/// Rank 1..=13 of a natural face.
#[inline]
#[must_use]
pub const fn rank(face: u8) -> u8 {
    face % 13 + 1
}

/// Suit index 0..=3 of a natural face.
#[inline]
#[must_use]
pub const fn suit(face: u8) -> u8 {
    face / 13
}

/// Whether `face` is a joker.
#[inline]
#[must_use]
pub const fn is_joker(face: u8) -> bool {
    face >= JOKER0
}

/// Whether a natural face is red (diamonds or hearts).
#[inline]
#[must_use]
pub const fn is_red(face: u8) -> bool {
    matches!(suit(face), 1 | 2)
}

/// Face of a rank (1..=13) and suit (0..=3).
#[inline]
#[must_use]
pub const fn face(rank: u8, suit: u8) -> u8 {
    suit * 13 + rank - 1
}

/// Face of joker `Xk` (`k` = 1..=[`MAX_JOKER`]).
#[inline]
#[must_use]
pub const fn joker(k: u8) -> u8 {
    JOKER0 + (k - 1)
}

/// Number `k` of joker `Xk` (`face` a joker).
#[inline]
#[must_use]
pub const fn joker_number(face: u8) -> u8 {
    face - JOKER0 + 1
}

/// Whether `face` is one of the 52 naturals: below the jokers, so also `false` for a
/// "no card" byte such as 255.
#[inline]
#[must_use]
pub const fn is_natural(face: u8) -> bool {
    face < NATURALS
}

/// Face of the next rank of the same suit (a natural `face` below [`KING`]).
#[inline]
#[must_use]
pub const fn next_in_suit(face: u8) -> u8 {
    face + 1
}

/// Integer types that hold physical card ids, deck numbers and deck counts (the engines use
/// `u8` ids in Nerts, `u16` in Spite & Malice, `usize`, and the bindings wider types while
/// checking Python ints). Ids are never negative.
pub trait CardId:
    Copy
    + Ord
    + From<u8>
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Rem<Output = Self>
{
    /// The value as a byte, for values below 256 (a face, a joker's offset).
    fn low_byte(self) -> u8;
}

macro_rules! card_id_types {
    ($($t:ty),*) => {$(
        impl CardId for $t {
            #[inline]
            fn low_byte(self) -> u8 {
                self as u8
            }
        }
    )*};
}

card_id_types!(u8, u16, u32, u64, usize, i64, i128);

/// Face 0..52 of a natural card's physical id (`deck * 52 + face`; in a game without jokers,
/// of any id).
#[inline]
#[must_use]
pub fn natural_face<T: CardId>(id: T) -> u8 {
    (id % T::from(NATURALS)).low_byte()
}

/// Deck of a natural card's physical id (in Nerts the seat that owns the card).
#[inline]
#[must_use]
pub fn deck_of<T: CardId>(id: T) -> T {
    id / T::from(NATURALS)
}

/// Physical id of copy `deck` of the natural `face`: `deck * 52 + face`.
#[inline]
#[must_use]
pub fn natural_id<T: CardId>(face: u8, deck: T) -> T {
    deck * T::from(NATURALS) + T::from(face)
}

/// Number of natural physical ids in a game of `num_decks` decks (the jokers' ids follow).
#[inline]
#[must_use]
pub fn natural_ids<T: CardId>(num_decks: T) -> T {
    num_decks * T::from(NATURALS)
}

/// Physical id of joker `face` in a game of `num_decks` decks.
#[inline]
#[must_use]
pub fn joker_id<T: CardId>(face: u8, num_decks: T) -> T {
    natural_ids(num_decks) + T::from(face - JOKER0)
}

/// Whether physical id `id` is a joker in a game of `num_decks` decks.
#[inline]
#[must_use]
pub fn is_joker_id<T: CardId>(id: T, num_decks: T) -> bool {
    id >= natural_ids(num_decks)
}

/// Rank 1..=13 of a natural card's physical id.
#[inline]
#[must_use]
pub fn rank_of<T: CardId>(id: T) -> u8 {
    rank(natural_face(id))
}

/// Suit 0..=3 of a natural card's physical id.
#[inline]
#[must_use]
pub fn suit_of<T: CardId>(id: T) -> u8 {
    suit(natural_face(id))
}

/// Whether a natural card's physical id is a diamond or a heart.
#[inline]
#[must_use]
pub fn is_red_id<T: CardId>(id: T) -> bool {
    is_red(natural_face(id))
}

/// Face code of a physical id in a game of `num_decks` decks (jokers keep their own faces).
#[inline]
#[must_use]
pub fn face_of<T: CardId>(id: T, num_decks: T) -> u8 {
    let naturals = natural_ids(num_decks);
    if id < naturals {
        natural_face(id)
    } else {
        JOKER0 + (id - naturals).low_byte()
    }
}

/// Physical id of copy `deck` of `face` in a game of `num_decks` decks.
#[inline]
#[must_use]
pub fn card_id<T: CardId>(face: u8, deck: T, num_decks: T) -> T {
    if is_joker(face) {
        joker_id(face, num_decks)
    } else {
        natural_id(face, deck)
    }
}

/// `(face, deck)` of a physical id in a game of `num_decks` decks.
#[inline]
#[must_use]
pub fn split_id<T: CardId>(id: T, num_decks: T) -> (u8, T) {
    if is_joker_id(id, num_decks) {
        (face_of(id, num_decks), T::from(0))
    } else {
        (natural_face(id), deck_of(id))
    }
}

/// Canonical text of a face: `7h`, `Tc`, `X2`.
#[must_use]
pub fn format_face(face: u8) -> String {
    if is_joker(face) {
        format!("X{}", joker_number(face))
    } else {
        let r = RANKS[usize::from(rank(face) - 1)] as char;
        let s = SUITS[usize::from(suit(face))] as char;
        format!("{r}{s}")
    }
}

/// One parsed token: a face and, when the text gave `@deck`, its deck.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    /// Face code (naturals 0..52, jokers 52..=255).
    pub face: u8,
    /// Deck index from an `@deck` suffix.
    pub deck: Option<u16>,
}

fn parse_rank(text: &str) -> Option<u8> {
    if text == "10" {
        return Some(10);
    }
    let mut chars = text.chars();
    let c = chars.next()?.to_ascii_uppercase();
    if chars.next().is_some() {
        return None;
    }
    RANKS
        .iter()
        .position(|&r| r as char == c)
        .and_then(|p| u8::try_from(p + 1).ok())
}

fn parse_suit(c: char) -> Option<u8> {
    match c {
        'c' | 'C' | '♣' | '♧' => Some(0),
        'd' | 'D' | '♦' | '♢' => Some(1),
        'h' | 'H' | '♥' | '♡' => Some(2),
        's' | 'S' | '♠' | '♤' => Some(3),
        _ => None,
    }
}

/// The common two-letter ASCII token (`7h`, `TD`, `x2`) without the general parser.
#[inline]
fn quick_token(tok: &[u8]) -> Option<Token> {
    let &[r, s] = tok else {
        return None;
    };
    let suit = match s {
        b'c' | b'C' => 0,
        b'd' | b'D' => 1,
        b'h' | b'H' => 2,
        b's' | b'S' => 3,
        _ => return None,
    };
    let rank = match r.to_ascii_uppercase() {
        b'A' => 1,
        d @ b'2'..=b'9' => d - b'0',
        b'T' => 10,
        b'J' => 11,
        b'Q' => 12,
        b'K' => 13,
        _ => return None,
    };
    Some(Token {
        face: face(rank, suit),
        deck: None,
    })
}

/// Parses one token (`7h`, `10d`, `Q♠`, `8h@1`, `X3`); `JK` is resolved by [`parse_cards`].
///
/// # Errors
/// [`CardError::BadToken`] naming the token and what is wrong with it.
pub fn parse_token(token: &str) -> Result<Option<Token>, CardError> {
    let bad = |why: &str| CardError::BadToken {
        token: token.to_owned(),
        why: why.to_owned(),
    };
    let (body, deck) = match token.split_once('@') {
        Some((b, d)) => {
            // Digits only: `str::parse` would also take a leading '+'.
            let deck: u16 = d
                .bytes()
                .all(|c| c.is_ascii_digit())
                .then(|| d.parse().ok())
                .flatten()
                .ok_or_else(|| bad("deck after '@' must be a number 0..65535"))?;
            (b, Some(deck))
        }
        None => (token, None),
    };
    if body.eq_ignore_ascii_case("JK") {
        if deck.is_some() {
            return Err(bad("jokers take no '@deck'"));
        }
        return Ok(None);
    }
    if let Some(k) = body.strip_prefix(['X', 'x']) {
        if deck.is_some() {
            return Err(bad("jokers take no '@deck'"));
        }
        // Digits only, no leading zero: `str::parse` would also take `+1` and `01`.
        let number = (!k.starts_with('0') && k.bytes().all(|c| c.is_ascii_digit()))
            .then(|| k.parse::<u8>().ok())
            .flatten()
            .filter(|n| (1..=MAX_JOKER).contains(n));
        return match number {
            Some(n) => Ok(Some(Token {
                face: joker(n),
                deck: None,
            })),
            None => Err(bad("jokers are X1..X204 or JK")),
        };
    }
    let Some(last) = body.chars().last() else {
        return Err(bad("empty card"));
    };
    let rank_text = &body[..body.len() - last.len_utf8()];
    let suit = parse_suit(last).ok_or_else(|| bad("unknown suit (use c d h s or ♣♦♥♠)"))?;
    let rank = parse_rank(rank_text).ok_or_else(|| bad("unknown rank (use A 2-9 T/10 J Q K)"))?;
    Ok(Some(Token {
        face: face(rank, suit),
        deck,
    }))
}

/// Parses a whitespace- or comma-separated list of cards. Generic `JK` tokens become the lowest
/// joker index not otherwise named in the text.
///
/// # Errors
/// [`CardError::BadToken`] for a malformed token, [`CardError::TooManyJokers`] past `X204`.
pub fn parse_cards(text: &str) -> Result<Vec<Token>, CardError> {
    let mut out = Vec::with_capacity(text.len() / 3 + 1);
    let mut generic = Vec::new();
    let mut used = [false; MAX_JOKER as usize];
    for tok in text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
    {
        let parsed = match quick_token(tok.as_bytes()) {
            Some(t) => Some(t),
            None => parse_token(tok)?,
        };
        match parsed {
            Some(t) => {
                if is_joker(t.face) {
                    used[usize::from(t.face - JOKER0)] = true;
                }
                out.push(t);
            }
            None => {
                generic.push(out.len());
                out.push(Token {
                    face: JOKER0,
                    deck: None,
                });
            }
        }
    }
    let mut free = (0..MAX_JOKER).filter(|&k| !used[usize::from(k)]);
    for pos in generic {
        let k = free.next().ok_or(CardError::TooManyJokers)?;
        out[pos].face = JOKER0 + k;
    }
    Ok(out)
}

/// The faces of a hand written in text, ignoring decks (for analysis helpers and tests).
///
/// # Errors
/// As [`parse_cards`].
pub fn parse_faces(text: &str) -> Result<Vec<u8>, CardError> {
    Ok(parse_cards(text)?.into_iter().map(|t| t.face).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_every_face() {
        for f in 0..=u8::MAX {
            let text = format_face(f);
            assert_eq!(parse_faces(&text).unwrap(), vec![f], "{text}");
        }
    }

    #[test]
    fn aliases() {
        assert_eq!(parse_faces("10d Td 10D").unwrap(), vec![face(10, 1); 3]);
        assert_eq!(parse_faces("Q♠ qs").unwrap(), vec![face(12, 3); 2]);
        assert_eq!(parse_faces("X2 JK JK").unwrap(), vec![53, 52, 54]);
    }

    #[test]
    fn ids() {
        assert_eq!(card_id(face(7, 2), 1u16, 2), 52 + 26 + 6);
        assert_eq!(card_id(JOKER0 + 1, 0u16, 2), 105);
        for nd in 1..4u16 {
            for id in 0..(nd * 52 + 4) {
                let (f, d) = split_id(id, nd);
                assert_eq!(card_id(f, d, nd), id);
            }
        }
    }

    /// The face helpers against each other and against the definition, for every face byte.
    #[test]
    fn face_helpers_agree_for_every_face() {
        let mut per_suit = [0u8; 4];
        for f in 0..=u8::MAX {
            assert_eq!(is_natural(f), !is_joker(f), "{f}");
            if is_joker(f) {
                let k = joker_number(f);
                assert!((1..=MAX_JOKER).contains(&k));
                assert_eq!(joker(k), f);
                assert_eq!(format_face(f), format!("X{k}"));
                continue;
            }
            let (r, s) = (rank(f), suit(f));
            assert!((ACE..=KING).contains(&r) && s < 4, "{f}");
            assert_eq!(face(r, s), f);
            assert_eq!(is_red(f), [false, true, true, false][usize::from(s)]);
            per_suit[usize::from(s)] += 1;
            if r < KING {
                let n = next_in_suit(f);
                assert_eq!((rank(n), suit(n)), (r + 1, s));
            }
        }
        assert_eq!(per_suit, [13; 4]);
        assert_eq!(joker(1), JOKER0);
        assert_eq!(joker(MAX_JOKER), u8::MAX);
    }

    /// The id helpers against each other, in every id type, for every id of games of one to
    /// four decks (Nerts' `u8` ids: every byte, the seat as the deck).
    #[test]
    fn id_helpers_agree_for_every_id() {
        for nd in 1..=4u16 {
            for id in 0..natural_ids(nd) + u16::from(MAX_JOKER) {
                let (f, d) = split_id(id, nd);
                assert_eq!(card_id(f, d, nd), id);
                assert_eq!(face_of(id, nd), f);
                assert_eq!(is_joker_id(id, nd), is_joker(f));
                if is_joker(f) {
                    assert_eq!(joker_id(f, nd), id);
                    assert_eq!(d, 0);
                } else {
                    assert_eq!((natural_face(id), deck_of(id)), (f, d));
                    assert_eq!(natural_id(f, d), id);
                    assert_eq!(rank_of(id), rank(f));
                    assert_eq!(suit_of(id), suit(f));
                    assert_eq!(is_red_id(id), is_red(f));
                }
                let wide = |x: u16| (u32::from(x), u64::from(x), usize::from(x), i64::from(x));
                let (i32_, i64_, iu, is) = wide(id);
                let (n32, n64, nu, ns) = wide(nd);
                assert_eq!(split_id(i32_, n32), (f, u32::from(d)));
                assert_eq!(split_id(i64_, n64), (f, u64::from(d)));
                assert_eq!(split_id(iu, nu), (f, usize::from(d)));
                assert_eq!(split_id(is, ns), (f, i64::from(d)));
                assert_eq!(split_id(i128::from(id), i128::from(nd)), (f, i128::from(d)));
            }
        }
        for id in 0..=u8::MAX {
            let (f, seat) = (natural_face(id), deck_of(id));
            assert_eq!(u16::from(f), u16::from(id) % 52);
            assert_eq!(natural_id(f, seat), id);
            assert_eq!(
                (rank_of(id), suit_of(id), is_red_id(id)),
                (rank(f), suit(f), is_red(f))
            );
        }
    }

    #[test]
    fn errors() {
        for bad in [
            "1h", "Zz", "7x", "X205", "X01", "X+1", "X256", "JK@1", "7h@x", "h", "77h", "7h@+1",
            "7h@", "@1", "7h@1@2", "7h@-1", "7h@65536", "X1@0", "X0", "XX1", "10", "♠", "0h",
            "11h", "1 0h",
        ] {
            assert!(parse_cards(bad).is_err(), "{bad}");
        }
        assert_eq!(
            parse_faces("X1 X2 X3 X4 JK X6 JK").unwrap(),
            vec![52, 53, 54, 55, 56, 57, 58]
        );
        assert_eq!(parse_faces("X204").unwrap(), vec![255]);
        let every = vec!["JK"; 204].join(" ");
        assert_eq!(
            parse_faces(&every).unwrap(),
            (52..=255).collect::<Vec<u8>>()
        );
        assert_eq!(
            parse_cards(&format!("{every} JK")),
            Err(CardError::TooManyJokers)
        );
        match parse_cards("7h 7q") {
            Err(CardError::BadToken { token, .. }) => assert_eq!(token, "7q"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn decks_and_separators() {
        let t = parse_cards("7h@0,8h@12\tX1 \n JK,,9s@65535").unwrap();
        let got: Vec<(u8, Option<u16>)> = t.iter().map(|t| (t.face, t.deck)).collect();
        assert_eq!(
            got,
            vec![
                (face(7, 2), Some(0)),
                (face(8, 2), Some(12)),
                (JOKER0, None),
                (JOKER0 + 1, None),
                (face(9, 3), Some(65_535)),
            ]
        );
        assert_eq!(parse_faces("7h@007").unwrap(), vec![face(7, 2)]);
        assert!(parse_cards("").unwrap().is_empty());
    }
}
