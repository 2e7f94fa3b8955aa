//! The fitted weights of the Three-Thirteen draw value (`draw_choice`): none fitted yet
//! (all 0: `hard`'s draws).

/// Weights of the draw value, by group and feature (`draw_features`).
pub const DRAW_WEIGHTS: [[f64; super::DRAW_FEATURES]; super::GROUPS] =
    [[0.0; super::DRAW_FEATURES]; super::GROUPS];
