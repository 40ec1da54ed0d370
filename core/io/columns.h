// SPDX-License-Identifier: GPL-3.0-or-later
// The names of the numbers PosAtlas writes: CSV column headers and JSON keys, shared by
// `posatlas compute`, `posatlas export` and the GUI's data exports, so that a column means the same
// thing, in the same unit, wherever it comes from. One convention: snake_case ASCII, the unit as the
// last word when the quantity has one (_tokens for positions and distances, _rad for angles,
// _rad_per_token for frequencies, _nats for entropies); dimensionless quantities carry none.
// Machine names only: the figures' axis titles are the translated, human texts.
#pragma once

namespace posatlas::columns {

// Per rotary pair i (RoPE): the pair index, its frequency theta_i before and after scaling, its
// wavelength 2 pi / theta_i, their ratio and YaRN's ramp gamma_i.
inline constexpr const char* kPair = "pair";
inline constexpr const char* kInvFreq = "inv_freq_rad_per_token";                  // scaled theta_i
inline constexpr const char* kInvFreqOriginal = "inv_freq_original_rad_per_token"; // unscaled theta_i
inline constexpr const char* kWavelength = "wavelength_tokens";                    // 2 pi / scaled theta_i
inline constexpr const char* kWavelengthOriginal = "wavelength_original_tokens";
inline constexpr const char* kRatio = "ratio_scaled_to_original"; // scaled theta_i / unscaled theta_i
inline constexpr const char* kRamp = "yarn_ramp";                 // YaRN gamma_i in [0, 1]
inline constexpr const char* kRegime = "regime";                  // pair_regime_id()
inline constexpr const char* kTrainedMaxAngle = "trained_max_angle_rad";
inline constexpr const char* kTargetMaxAngle = "target_max_angle_rad";
inline constexpr const char* kUnseenRotation = "unseen_rotation";

// Angles of each pair: at one position (compute rope-angles), at the query and key positions and at
// their offset (the rotation view); all reduced into [0, 2 pi) as rope_angles() does.
inline constexpr const char* kAngle = "angle_rad";
inline constexpr const char* kAngleQuery = "angle_query_rad";
inline constexpr const char* kAngleKey = "angle_key_rad";
inline constexpr const char* kAngleRelative = "angle_relative_rad";

// Curves against relative distance r = i - j >= 0.
inline constexpr const char* kDistance = "distance_tokens";
inline constexpr const char* kSeries = "series";              // a curve's id in a long-format table
inline constexpr const char* kBound = "bound";                // RoFormer's bound, absolute
inline constexpr const char* kMeanCos = "mean_cos";           // mean over pairs of cos(r theta_i)
inline constexpr const char* kRelativeSize = "relative_size"; // a RoPE curve divided by its value at r = 0
inline constexpr const char* kWeightFactor = "weight_factor"; // ALiBi's exp(-m r)
inline constexpr const char* kLogit = "logit";

// Relative positions j - i and their buckets (T5, DeBERTa).
inline constexpr const char* kRelativePosition = "relative_position";
inline constexpr const char* kBucket = "bucket";
inline constexpr const char* kBucketUsed = "bucket_used";
inline constexpr const char* kBias = "bias"; // T5's learned scalar of a bucket and head

// Matrices: the row and column axes (MatrixResult::row_name, col_name) and one head per slope.
inline constexpr const char* kQueryPosition = "query_position";
inline constexpr const char* kKeyPosition = "key_position";
inline constexpr const char* kPosition = "position";
inline constexpr const char* kDimension = "dimension";
inline constexpr const char* kHead = "head";
inline constexpr const char* kSlope = "slope";

// Multimodal RoPE: each token's kind (text, image, video) and its three position ids (Qwen2-VL
// get_rope_index).
inline constexpr const char* kTokenKind = "token_kind";
inline constexpr const char* kTimeId = "t_id";
inline constexpr const char* kHeightId = "h_id";
inline constexpr const char* kWidthId = "w_id";
// The axis a rotary pair follows (mrope_pair_axes): "t", "h" or "w".
inline constexpr const char* kPairAxis = "pair_axis";

// The patch grid (analysis/patch_grid.h): each key patch, its row and column on the grid and its value.
inline constexpr const char* kPatch = "patch";
inline constexpr const char* kGridRow = "row";
inline constexpr const char* kGridColumn = "column";
inline constexpr const char* kValue = "value";

// Attention entropy against context length.
inline constexpr const char* kLength = "length_tokens";
inline constexpr const char* kEntropy = "entropy_nats";
inline constexpr const char* kEntropyWithTemperature = "entropy_with_temperature_nats";
inline constexpr const char* kEntropyWithQueryScale = "entropy_with_query_scale_nats";

} // namespace posatlas::columns
