//! Training data for the Three-Thirteen learned values (`three_thirteen_value`): self-play.
//!
//!     cargo run --profile dev-fast -p cardcore-research --example tt_value_data -- SEED ROUNDS [PLAYERS] [POLICY]
//!
//! POLICY (`hard`, the default; `value`; `valuedraw`) is how the sampled seat plays
//! (`cardcore_research::tt_value_data::Policy`). Writes one line per sample to stdout (space-separated):
//! `discard` round, seat, option, group, the features, own score, margin; `draw` round, seat,
//! `hard` takes (0/1), group, the draw features, own score after taking and after the stock
//! draw, margin after each. `research/scripts/tt-value-fit` runs it and fits the weights.

use std::io::{self, BufWriter, Write};

use cardcore_research::tt_value_data::{Policy, self_play};

fn main() -> io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: tt_value_data SEED ROUNDS [PLAYERS] [hard|value|valuedraw]";
    let arg = |i: usize, default: u64| -> u64 {
        args.get(i)
            .map_or(Some(default), |a| a.parse().ok())
            .unwrap_or_else(|| panic!("{usage}"))
    };
    let seed = arg(0, 1);
    let rounds = u32::try_from(arg(1, 1100)).expect("rounds");
    let players = usize::try_from(arg(2, 4)).expect("players");
    let policy = args
        .get(3)
        .map_or(Some(Policy::Hard), |a| Policy::named(a))
        .unwrap_or_else(|| panic!("{usage}"));
    let data = self_play(seed, rounds, players, policy);
    let mut out = BufWriter::new(io::stdout().lock());
    for s in data.discards {
        write!(
            out,
            "discard {} {} {} {}",
            s.round, s.seat, s.option, s.group
        )?;
        for x in s.x {
            write!(out, " {x}")?;
        }
        writeln!(out, " {} {}", s.own, s.margin)?;
    }
    for s in data.draws {
        let take = u8::from(s.hard_take);
        write!(out, "draw {} {} {take} {}", s.round, s.seat, s.group)?;
        for x in s.x {
            write!(out, " {x}")?;
        }
        let [own_take, own_stock] = s.own;
        let [take_margin, stock_margin] = s.margin;
        writeln!(out, " {own_take} {own_stock} {take_margin} {stock_margin}")?;
    }
    out.flush()
}
