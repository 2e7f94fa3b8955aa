//! `cardcore._core`: thin PyO3 bindings over `cardcore-engine`. No game logic lives here; each
//! submodule converts types, maps errors and releases the GIL around long calls, and the
//! declarative module below lists everything Python sees.

mod boundary;
mod budget;
mod cards;
mod errors;
mod json_diff;
mod meld;
mod nerts;
mod nerts_round;
mod nerts_state;
mod random;
mod realtime;
mod rl;
mod rl_episode;
mod spite;
mod spite_malice;
mod state;
mod three_thirteen;

/// The private extension module; the public API is the `cardcore` Python package.
#[pyo3::pymodule(gil_used = false)]
mod _core {
    use cardcore_engine::games::nerts::moves as nerts;
    use cardcore_engine::three_thirteen_batch as tt_batch;
    use cardcore_engine::three_thirteen_expert::Search;
    use cardcore_engine::{card, rng, spite, spite_episode};

    #[pymodule_export]
    use crate::cards::{Card, card_faces, cards_from_ids, format_cards, format_face, parse_cards};
    #[pymodule_export]
    use crate::json_diff::web_diffs;
    #[pymodule_export]
    use crate::meld::{
        MeldArrangement, ThreeThirteenDecision, ThreeThirteenExpertParams, ThreeThirteenHardParams,
        ThreeThirteenHistory, ThreeThirteenStandings, ThreeThirteenTable, ThreeThirteenView,
        meld_best, meld_deadwood, meld_deadwood_batch, meld_deadwood_packed, meld_discards,
        min_deadwood, min_deadwood_batch, tt_expert_act, tt_expert_decide, tt_hard_act,
        tt_hard_discard, tt_hard_take_pile, tt_win_chance,
    };
    #[pymodule_export]
    use crate::nerts::{
        NertsKnowledge, NertsRacing, NertsRules, NertsSeat, NertsTiming, nerts_builds_down,
        nerts_choose, nerts_count_batch, nerts_fits_foundation, nerts_greedy_move, nerts_knowledge,
        nerts_move_codes, nerts_moves, nerts_moves_batch, nerts_rollouts, nerts_sim_trace,
    };
    #[pymodule_export]
    use crate::nerts_round::{nerts_agent_act, nerts_memory_update};
    #[pymodule_export]
    use crate::nerts_state::{
        nerts_agents, nerts_decks, nerts_inputs, nerts_is_legal, nerts_legal_codes, nerts_log,
        nerts_log_len, nerts_new, nerts_next_event, nerts_observation, nerts_parts, nerts_result,
        nerts_set_decide, nerts_submit_code, nerts_tick, nerts_views,
    };
    #[pymodule_export]
    use crate::random::{Rng, derive_seed, permutations};
    #[pymodule_export]
    use crate::realtime::RealtimeState;
    #[pymodule_export]
    use crate::rl::ThreeThirteenArrays;
    #[pymodule_export]
    use crate::rl_episode::Episode;
    #[pymodule_export]
    use crate::spite::{
        SpiteActions, SpiteDecision, SpiteExpertParams, SpitePlan, SpiteTable, spite_expert_decide,
        spite_plan, spite_weights,
    };
    #[pymodule_export]
    use crate::spite_malice::{
        SpiteMaliceBatch, SpiteMaliceRules, sm_action_move, sm_apply_code, sm_choose_first_player,
        sm_from_parts, sm_get, sm_legal_moves, sm_new, sm_observation, sm_parts, sm_why_illegal,
    };
    #[pymodule_export]
    use crate::state::State;
    #[pymodule_export]
    use crate::three_thirteen::{
        ThreeThirteenBatch, ThreeThirteenRules, tt_apply_code, tt_current, tt_deadwoods,
        tt_from_parts, tt_get, tt_legal_codes, tt_new, tt_observation, tt_parts,
    };

    #[pymodule_export]
    const RNG_VERSION: &str = rng::RNG_VERSION;

    // cards
    #[pymodule_export]
    const NATURALS: u8 = card::NATURALS;
    #[pymodule_export]
    const JOKER0: u8 = card::JOKER0;
    #[pymodule_export]
    const MAX_JOKER: u8 = card::MAX_JOKER;

    // Spite & Malice: the planner's features and position limits
    #[pymodule_export]
    const SPITE_FEATURES: [&str; spite::NUM_FEATURES] = spite::FEATURES;
    #[pymodule_export]
    const SPITE_NUM_FEATURES: usize = spite::NUM_FEATURES;
    #[pymodule_export]
    const SPITE_NO_CARD: u8 = spite::NO_CARD;
    #[pymodule_export]
    const SPITE_MAX_SIDE_DEPTH: usize = spite::MAX_SIDE_DEPTH;
    #[pymodule_export]
    const SPITE_MAX_CENTER: usize = spite::MAX_CENTER;
    #[pymodule_export]
    const SPITE_CENTER_ROWS: usize = spite_episode::CENTER_ROWS;

    // Three-Thirteen: the expert's searches, the tensor faces and the action ids
    #[pymodule_export]
    const THREE_THIRTEEN_SEARCHES: [&str; Search::NAMES.len()] = Search::NAMES;
    #[pymodule_export]
    const THREE_THIRTEEN_FACES: usize = tt_batch::FACES;
    #[pymodule_export]
    const THREE_THIRTEEN_DRAW_STOCK: usize = tt_batch::DRAW_STOCK;
    #[pymodule_export]
    const THREE_THIRTEEN_DRAW_DISCARD: usize = tt_batch::DRAW_DISCARD;
    #[pymodule_export]
    const THREE_THIRTEEN_DISCARD: usize = tt_batch::DISCARD;

    // Nerts: the encoded state's size and work-pile slots, the move-code and state-flag constants
    #[pymodule_export]
    const NERTS_STATE_BYTES: usize = nerts::STATE_BYTES;
    #[pymodule_export]
    const NERTS_MAX_WORK: usize = nerts::MAX_WORK;
    #[pymodule_export]
    const NERTS_UNLIMITED_RECYCLES: u32 = u32::MAX;
    #[pymodule_export]
    const NERTS_NONE: u8 = nerts::NONE;
    #[pymodule_export]
    const NERTS_SRC_WASTE: u8 = nerts::SRC_WASTE;
    #[pymodule_export]
    const NERTS_SRC_NERTS: u8 = nerts::SRC_NERTS;
    #[pymodule_export]
    const NERTS_K_FOUNDATION: u8 = nerts::K_FOUNDATION;
    #[pymodule_export]
    const NERTS_K_WORK: u8 = nerts::K_WORK;
    #[pymodule_export]
    const NERTS_K_FLIP: u8 = nerts::K_FLIP;
    #[pymodule_export]
    const NERTS_K_RECYCLE: u8 = nerts::K_RECYCLE;
    #[pymodule_export]
    const NERTS_K_CALL: u8 = nerts::K_CALL;
    #[pymodule_export]
    const NERTS_F_PARTIAL: u8 = nerts::F_PARTIAL;
    #[pymodule_export]
    const NERTS_F_FILL_ANY: u8 = nerts::F_FILL_ANY;
    #[pymodule_export]
    const NERTS_F_RECYCLE: u8 = nerts::F_RECYCLE;
    #[pymodule_export]
    const NERTS_F_RUNNING: u8 = nerts::F_RUNNING;

    /// `__version__`: the crate's version (a dunder name, which a `const` cannot carry
    /// without a lint allowance); `GAMES`: the name of every game with a rulebook here, the
    /// list `cardcore.games.base` registers the built-in games from.
    #[pymodule_init]
    fn init(m: &pyo3::Bound<'_, pyo3::types::PyModule>) -> pyo3::PyResult<()> {
        use pyo3::types::PyModuleMethods;
        m.add("__version__", env!("CARGO_PKG_VERSION"))?;
        let names = cardcore_engine::games::GAMES.iter().map(|g| g.name);
        m.add("GAMES", pyo3::types::PyTuple::new(m.py(), names)?)
    }
}
