//! Training data for the Three-Thirteen learned value (`three_thirteen_value`): `hard` self-play.
//!
//!     cargo run --profile dev-fast -p cardcore-engine --example tt_value_data -- SEED ROUNDS [PLAYERS]
//!
//! Writes one line per sample to stdout: round, seat, option, group, the features, own score,
//! margin
//! (space-separated). `scripts/tt-value-fit` runs it and fits the weights.

use std::io::{self, BufWriter, Write};

use cardcore_engine::three_thirteen_value::self_play;

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: u64| -> u64 {
        args.get(i)
            .map_or(Some(default), |a| a.parse().ok())
            .unwrap_or_else(|| panic!("usage: tt_value_data SEED ROUNDS [PLAYERS]"))
    };
    let seed = arg(0, 1);
    let rounds = u32::try_from(arg(1, 1100)).expect("rounds");
    let players = usize::try_from(arg(2, 4)).expect("players");
    let mut out = BufWriter::new(io::stdout().lock());
    for s in self_play(seed, rounds, players) {
        write!(out, "{} {} {} {}", s.round, s.seat, s.option, s.group)?;
        for x in s.x {
            write!(out, " {x}")?;
        }
        writeln!(out, " {} {}", s.own, s.margin)?;
    }
    out.flush()
}
