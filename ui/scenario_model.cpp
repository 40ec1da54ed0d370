// SPDX-License-Identifier: GPL-3.0-or-later
#include "scenario_model.h"

#include "undo_commands.h"
#include "validation.h"

#include <QCoreApplication>
#include <QUndoStack>

#include <algorithm>
#include <array>
#include <cmath>

namespace posatlas::ui {
namespace {

constexpr unsigned bit(RopeType t) { return 1u << static_cast<unsigned>(t); }
constexpr unsigned kScaled = bit(RopeType::Linear) | bit(RopeType::Ntk) | bit(RopeType::Dynamic)
                             | bit(RopeType::Yarn) | bit(RopeType::Llama3) | bit(RopeType::LongRope);

const char* const kContentChoices[] = {
    QT_TRANSLATE_NOOP("ParamSpec", "Ones (pure position)"),
    QT_TRANSLATE_NOOP("ParamSpec", "Zero (position terms only)"),
    QT_TRANSLATE_NOOP("ParamSpec", "Fixed random vector"),
    QT_TRANSLATE_NOOP("ParamSpec", "Random per position"), nullptr};
const char* const kLayoutChoices[] = {QT_TRANSLATE_NOOP("ParamSpec", "Interleaved sin/cos"),
                                      QT_TRANSLATE_NOOP("ParamSpec", "Split halves"), nullptr};
const char* const kPairingChoices[] = {QT_TRANSLATE_NOOP("ParamSpec", "Interleaved (2i, 2i+1)"),
                                       QT_TRANSLATE_NOOP("ParamSpec", "Half (i, i + d/2)"), nullptr};
// Order of RopeType.
const char* const kRopeTypeChoices[] = {
    QT_TRANSLATE_NOOP("ParamSpec", "default"), QT_TRANSLATE_NOOP("ParamSpec", "linear (PI)"),
    QT_TRANSLATE_NOOP("ParamSpec", "ntk"),     QT_TRANSLATE_NOOP("ParamSpec", "dynamic NTK"),
    QT_TRANSLATE_NOOP("ParamSpec", "yarn"),    QT_TRANSLATE_NOOP("ParamSpec", "llama3"),
    QT_TRANSLATE_NOOP("ParamSpec", "longrope"), nullptr};
const char* const kBiasChoices[] = {QT_TRANSLATE_NOOP("ParamSpec", "Causal"),
                                    QT_TRANSLATE_NOOP("ParamSpec", "Symmetric"), nullptr};
const char* const kAlibiScalingChoices[] = {QT_TRANSLATE_NOOP("ParamSpec", "None"),
                                            QT_TRANSLATE_NOOP("ParamSpec", "Interpolate"),
                                            QT_TRANSLATE_NOOP("ParamSpec", "NTK-ALiBi"), nullptr};

// Method names are filled in by the table's `method` field; nullopt = common.
using M = Method;
using K = ParamKind;
constexpr double kSeedMax = 1e9;

// clang-format off
const std::array<ParamSpec, kParamCount> kSpecs{{
    {ParamId::Method, K::Choice, std::nullopt, "method", QT_TRANSLATE_NOOP("ParamSpec", "Method"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "The positional-encoding method whose matrices and curves are shown."), 0, 8},
    {ParamId::SeqLen, K::Int, std::nullopt, "seq_len", QT_TRANSLATE_NOOP("ParamSpec", "Sequence length"),
     QT_TRANSLATE_NOOP("ParamSpec", "positions"),
     QT_TRANSLATE_NOOP("ParamSpec", "Number of positions N shown. Large N is downsampled to the view's pixels, never computed in full."),
     8, 1e6, true},
    {ParamId::Head, K::Int, std::nullopt, "head", QT_TRANSLATE_NOOP("ParamSpec", "Head"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Attention head shown by single-panel views of per-head methods (ALiBi, T5)."),
     0, 1023},
    {ParamId::ContentKind, K::Choice, std::nullopt, "content", QT_TRANSLATE_NOOP("ParamSpec", "Content vectors"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "The query/key vectors positions are mixed with: ones show the pure positional pattern; zero keeps only position-position terms (p_i · p_j); random vectors show a real-looking sequence."),
     0, 3, false, 0, 1, kContentChoices},
    {ParamId::ContentSeed, K::Int, std::nullopt, "content_seed", QT_TRANSLATE_NOOP("ParamSpec", "Content seed"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Seed of the random content vectors (same seed, same picture)."), 0, kSeedMax},

    {ParamId::SinDim, K::Int, M::Sinusoidal, "dim", QT_TRANSLATE_NOOP("ParamSpec", "Model dimension d"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "d_model: the number of sin/cos channels (even)."), 2, 2048, false, 0, 2},
    {ParamId::SinBase, K::Real, M::Sinusoidal, "base", QT_TRANSLATE_NOOP("ParamSpec", "Base"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "The 10000 of Vaswani et al.: wavelengths grow geometrically from 2π to 2π·base across the channels."),
     10, 1e8, true, 1, 1},
    {ParamId::SinLayout, K::Choice, M::Sinusoidal, "layout", QT_TRANSLATE_NOOP("ParamSpec", "Layout"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Interleaved sin/cos (the paper) or [sin | cos] halves (tensor2tensor)."),
     0, 1, false, 0, 1, kLayoutChoices},

    {ParamId::LearnedDim, K::Int, M::Learned, "hidden_size", QT_TRANSLATE_NOOP("ParamSpec", "Hidden size"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Width of the learned position table."), 1, 4096},
    {ParamId::LearnedTrained, K::Int, M::Learned, "max_position_embeddings",
     QT_TRANSLATE_NOOP("ParamSpec", "Trained length"), QT_TRANSLATE_NOOP("ParamSpec", "positions"),
     QT_TRANSLATE_NOOP("ParamSpec", "Rows of the learned table (max_position_embeddings): positions beyond it have no embedding."),
     1, 1e6, true},
    {ParamId::LearnedSeed, K::Int, M::Learned, "seed", QT_TRANSLATE_NOOP("ParamSpec", "Table seed"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Seed of the N(0, σ) stand-in for a trained table."), 0, kSeedMax},
    {ParamId::LearnedStddev, K::Real, M::Learned, "initializer_range", QT_TRANSLATE_NOOP("ParamSpec", "Initializer σ"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Standard deviation of the table (initializer_range, 0.02 in BERT and GPT-2)."),
     0.001, 1, true, 4, 0.001},

    {ParamId::ShawHeadDim, K::Int, M::Shaw, "head_dim", QT_TRANSLATE_NOOP("ParamSpec", "Head dimension"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Dimension of queries, keys and the relative embeddings a^K."), 1, 1024},
    {ParamId::ShawMaxRel, K::Int, M::Shaw, "max_relative_position", QT_TRANSLATE_NOOP("ParamSpec", "Clip distance k"),
     QT_TRANSLATE_NOOP("ParamSpec", "positions"),
     QT_TRANSLATE_NOOP("ParamSpec", "Relative distances are clipped to [-k, k]: beyond k every distance looks the same."),
     1, 4096, true},
    {ParamId::ShawSeed, K::Int, M::Shaw, "seed", QT_TRANSLATE_NOOP("ParamSpec", "Table seed"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Seed of the relative embedding tables."), 0, kSeedMax},

    {ParamId::TxlHeadDim, K::Int, M::TransformerXL, "head_dim", QT_TRANSLATE_NOOP("ParamSpec", "Head dimension"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Dimension of the sinusoid R_{i-j} (even)."), 2, 1024, false, 0, 2},
    {ParamId::TxlBase, K::Real, M::TransformerXL, "base", QT_TRANSLATE_NOOP("ParamSpec", "Base"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Base of the relative sinusoid R_{i-j}."), 10, 1e8, true, 1, 1},
    {ParamId::TxlSeed, K::Int, M::TransformerXL, "seed", QT_TRANSLATE_NOOP("ParamSpec", "Projection seed"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Seed of W_{k,R} and the biases u, v."), 0, kSeedMax},
    {ParamId::TxlTermA, K::Bool, M::TransformerXL, "term_a", QT_TRANSLATE_NOOP("ParamSpec", "(a) content × content"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Term (a) of Dai et al. eq. 3: q_i·W_{k,E} x_j."), 0, 1},
    {ParamId::TxlTermB, K::Bool, M::TransformerXL, "term_b", QT_TRANSLATE_NOOP("ParamSpec", "(b) content × position"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Term (b): q_i·W_{k,R} R_{i-j}, the content-dependent positional bias."), 0, 1},
    {ParamId::TxlTermC, K::Bool, M::TransformerXL, "term_c", QT_TRANSLATE_NOOP("ParamSpec", "(c) global content bias"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Term (c): u·W_{k,E} x_j."), 0, 1},
    {ParamId::TxlTermD, K::Bool, M::TransformerXL, "term_d", QT_TRANSLATE_NOOP("ParamSpec", "(d) global position bias"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Term (d): v·W_{k,R} R_{i-j}, a pure function of the distance."), 0, 1},

    {ParamId::T5Buckets, K::Int, M::T5, "relative_attention_num_buckets", QT_TRANSLATE_NOOP("ParamSpec", "Buckets"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "relative_attention_num_buckets: half exact small distances, half log-spaced up to the max distance (even when bidirectional)."),
     2, 1024, true},
    {ParamId::T5MaxDistance, K::Int, M::T5, "relative_attention_max_distance",
     QT_TRANSLATE_NOOP("ParamSpec", "Max distance"), QT_TRANSLATE_NOOP("ParamSpec", "positions"),
     QT_TRANSLATE_NOOP("ParamSpec", "relative_attention_max_distance: every distance beyond it shares the last bucket."),
     2, 1e6, true},
    {ParamId::T5Bidirectional, K::Bool, M::T5, "bidirectional", QT_TRANSLATE_NOOP("ParamSpec", "Bidirectional (encoder)"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Encoder: separate buckets for keys before and after the query. Decoder: causal, one side."), 0, 1},
    {ParamId::T5Heads, K::Int, M::T5, "num_heads", QT_TRANSLATE_NOOP("ParamSpec", "Heads"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Heads of the per-head bias table (one learned scalar per bucket and head)."), 1, 64},
    {ParamId::T5Seed, K::Int, M::T5, "seed", QT_TRANSLATE_NOOP("ParamSpec", "Bias seed"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Seed of the stand-in bias table."), 0, kSeedMax},

    {ParamId::DebHeadDim, K::Int, M::DeBERTa, "head_dim", QT_TRANSLATE_NOOP("ParamSpec", "Head dimension"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Dimension of content and relative position projections."), 1, 1024},
    {ParamId::DebBuckets, K::Int, M::DeBERTa, "position_buckets", QT_TRANSLATE_NOOP("ParamSpec", "Position buckets"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "position_buckets: log buckets beyond ±buckets/2 (0: plain clipped relative positions)."),
     0, 4096},
    {ParamId::DebMaxRel, K::Int, M::DeBERTa, "max_relative_positions",
     QT_TRANSLATE_NOOP("ParamSpec", "Max relative positions"), QT_TRANSLATE_NOOP("ParamSpec", "positions"),
     QT_TRANSLATE_NOOP("ParamSpec", "max_relative_positions: the span the log buckets reach."), 2, 1e6, true},
    {ParamId::DebC2p, K::Bool, M::DeBERTa, "c2p", QT_TRANSLATE_NOOP("ParamSpec", "Content → position (c2p)"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Include the content-to-position term of pos_att_type."), 0, 1},
    {ParamId::DebP2c, K::Bool, M::DeBERTa, "p2c", QT_TRANSLATE_NOOP("ParamSpec", "Position → content (p2c)"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Include the position-to-content term of pos_att_type."), 0, 1},
    {ParamId::DebSeed, K::Int, M::DeBERTa, "seed", QT_TRANSLATE_NOOP("ParamSpec", "Projection seed"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Seed of the stand-in relative embeddings and projections."), 0, kSeedMax},

    {ParamId::RopeHeadDim, K::Int, M::RoPE, "head_dim", QT_TRANSLATE_NOOP("ParamSpec", "Head dimension"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "head_dim: rotary pairs = rotary_dim / 2, one frequency each (even)."),
     2, 1024, false, 0, 2},
    {ParamId::RopeTheta, K::Real, M::RoPE, "rope_theta", QT_TRANSLATE_NOOP("ParamSpec", "Base θ (rope_theta)"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "rope_theta: pair i turns by θ_i = base^(-2i/d) per position. Larger bases make the slowest pairs slower (longer contexts)."),
     10, 1e8, true, 0, 1},
    {ParamId::RopePartial, K::Real, M::RoPE, "partial_rotary_factor", QT_TRANSLATE_NOOP("ParamSpec", "Partial rotary factor"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Fraction of head_dim that is rotated (GPT-NeoX 0.25, Phi-2 0.4); the rest passes through."),
     0.05, 1, false, 2, 0.05},
    {ParamId::RopePairing, K::Choice, M::RoPE, "pairing", QT_TRANSLATE_NOOP("ParamSpec", "Pairing"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Which dimensions rotate together: (2i, 2i+1) as in RoFormer/Meta Llama, or (i, i + d/2) as in GPT-NeoX/Hugging Face."),
     0, 1, false, 0, 1, kPairingChoices},
    {ParamId::RopeType, K::Choice, M::RoPE, "rope_type", QT_TRANSLATE_NOOP("ParamSpec", "Scaling (rope_type)"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "rope_scaling.rope_type: how the frequencies are changed to reach a longer context."),
     0, 6, false, 0, 1, kRopeTypeChoices},
    {ParamId::RopeFactor, K::Real, M::RoPE, "factor", QT_TRANSLATE_NOOP("ParamSpec", "Scaling factor s"), "×",
     QT_TRANSLATE_NOOP("ParamSpec", "rope_scaling.factor: target context / trained context."),
     1, 128, true, 2, 0.25, nullptr, kScaled},
    {ParamId::RopeMaxPos, K::Int, M::RoPE, "max_position_embeddings", QT_TRANSLATE_NOOP("ParamSpec", "Max positions"),
     QT_TRANSLATE_NOOP("ParamSpec", "positions"),
     QT_TRANSLATE_NOOP("ParamSpec", "max_position_embeddings: the model's context (trained, or extended when original_max_position_embeddings is set)."),
     1, 1e7, true},
    {ParamId::RopeOrigMaxPos, K::Int, M::RoPE, "original_max_position_embeddings",
     QT_TRANSLATE_NOOP("ParamSpec", "Original context"), QT_TRANSLATE_NOOP("ParamSpec", "positions"),
     QT_TRANSLATE_NOOP("ParamSpec", "original_max_position_embeddings: the trained context before scaling (0: same as max positions)."),
     0, 1e7, true, 0, 1, nullptr, bit(RopeType::Yarn) | bit(RopeType::Llama3) | bit(RopeType::LongRope), true},
    {ParamId::RopeSeqLen, K::Int, M::RoPE, "rope_seq_len", QT_TRANSLATE_NOOP("ParamSpec", "Current length"),
     QT_TRANSLATE_NOOP("ParamSpec", "positions"),
     QT_TRANSLATE_NOOP("ParamSpec", "The sequence length seen at inference: dynamic NTK and LongRoPE change the frequencies once it exceeds the trained context (0: none)."),
     0, 1e7, true, 0, 1, nullptr, bit(RopeType::Dynamic) | bit(RopeType::LongRope), true},
    {ParamId::RopeBetaFast, K::Real, M::RoPE, "beta_fast", QT_TRANSLATE_NOOP("ParamSpec", "β fast"), QT_TRANSLATE_NOOP("ParamSpec", "rotations"),
     QT_TRANSLATE_NOOP("ParamSpec", "YaRN: pairs that complete more than β_fast rotations over the trained context are left unscaled (extrapolated)."),
     0.5, 1024, true, 2, 1, nullptr, bit(RopeType::Yarn)},
    {ParamId::RopeBetaSlow, K::Real, M::RoPE, "beta_slow", QT_TRANSLATE_NOOP("ParamSpec", "β slow"), QT_TRANSLATE_NOOP("ParamSpec", "rotations"),
     QT_TRANSLATE_NOOP("ParamSpec", "YaRN: pairs that complete fewer than β_slow rotations are fully interpolated (divided by the factor)."),
     0.01, 64, true, 2, 0.1, nullptr, bit(RopeType::Yarn)},
    {ParamId::RopeMscale, K::Real, M::RoPE, "mscale", QT_TRANSLATE_NOOP("ParamSpec", "mscale"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "YaRN (DeepSeek): numerator coefficient of the attention temperature 0.1·mscale·ln(s) + 1 (unset: the default formula)."),
     0, 10, false, 3, 0.1, nullptr, bit(RopeType::Yarn), true},
    {ParamId::RopeMscaleAllDim, K::Real, M::RoPE, "mscale_all_dim", QT_TRANSLATE_NOOP("ParamSpec", "mscale_all_dim"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "YaRN (DeepSeek): denominator coefficient of the attention temperature (unset: not used)."),
     0, 10, false, 3, 0.1, nullptr, bit(RopeType::Yarn), true},
    {ParamId::RopeAttentionFactor, K::Real, M::RoPE, "attention_factor", QT_TRANSLATE_NOOP("ParamSpec", "Attention factor"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Explicit multiplier of cos/sin (logits scale by its square). Unset: derived from the factor."),
     0, 10, false, 3, 0.05, nullptr, bit(RopeType::Yarn) | bit(RopeType::LongRope), true},
    {ParamId::RopeTruncate, K::Bool, M::RoPE, "truncate", QT_TRANSLATE_NOOP("ParamSpec", "Truncate correction range"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "YaRN: round the correction range to whole pairs (gpt-oss sets false)."),
     0, 1, false, 0, 1, nullptr, bit(RopeType::Yarn)},
    {ParamId::RopeLowFreq, K::Real, M::RoPE, "low_freq_factor", QT_TRANSLATE_NOOP("ParamSpec", "Low-frequency factor"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Llama 3: wavelengths longer than original context / low_freq_factor are divided by the factor."),
     0.1, 64, true, 2, 0.5, nullptr, bit(RopeType::Llama3)},
    {ParamId::RopeHighFreq, K::Real, M::RoPE, "high_freq_factor", QT_TRANSLATE_NOOP("ParamSpec", "High-frequency factor"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Llama 3: wavelengths shorter than original context / high_freq_factor are kept; between the two they are blended."),
     0.1, 64, true, 2, 0.5, nullptr, bit(RopeType::Llama3)},

    {ParamId::AlibiHeads, K::Int, M::ALiBi, "num_heads", QT_TRANSLATE_NOOP("ParamSpec", "Heads"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Number of heads: slopes form the geometric sequence 2^(-8h/n)."), 1, 128, true},
    {ParamId::AlibiSlopeScale, K::Real, M::ALiBi, "slope_scale", QT_TRANSLATE_NOOP("ParamSpec", "Slope scale"), "×",
     QT_TRANSLATE_NOOP("ParamSpec", "Multiplies every slope (1 = the paper). Larger slopes make attention more local."),
     0.01, 100, true, 3, 0.1},
    {ParamId::AlibiBias, K::Choice, M::ALiBi, "bias", QT_TRANSLATE_NOOP("ParamSpec", "Bias"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Causal: -m(i - j) for keys before the query. Symmetric: -m|i - j| for encoders."),
     0, 1, false, 0, 1, kBiasChoices},
    {ParamId::AlibiScaling, K::Choice, M::ALiBi, "scaling", QT_TRANSLATE_NOOP("ParamSpec", "Length scaling"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "How slopes change to reach a longer context: interpolate (m·L_train/L_target) or NTK-ALiBi."),
     0, 2, false, 0, 1, kAlibiScalingChoices},
    {ParamId::AlibiTrained, K::Int, M::ALiBi, "trained_length", QT_TRANSLATE_NOOP("ParamSpec", "Trained length"),
     QT_TRANSLATE_NOOP("ParamSpec", "positions"),
     QT_TRANSLATE_NOOP("ParamSpec", "Context the slopes were trained for (used by the scaling modes)."), 1, 1e6, true},
    {ParamId::AlibiTarget, K::Int, M::ALiBi, "target_length", QT_TRANSLATE_NOOP("ParamSpec", "Target length"),
     QT_TRANSLATE_NOOP("ParamSpec", "positions"),
     QT_TRANSLATE_NOOP("ParamSpec", "Context to reach (used by the scaling modes, >= trained length)."), 1, 1e7, true},

    {ParamId::CopeHeadDim, K::Int, M::CoPE, "head_dim", QT_TRANSLATE_NOOP("ParamSpec", "Head dimension"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Dimension of queries, keys and position embeddings."), 1, 1024},
    {ParamId::CopeNpos, K::Int, M::CoPE, "npos_max", QT_TRANSLATE_NOOP("ParamSpec", "Max positions"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "npos_max: number of position embeddings; contextual positions beyond it are clamped."),
     1, 4096, true},
    {ParamId::CopeGate, K::Real, M::CoPE, "gate_scale", QT_TRANSLATE_NOOP("ParamSpec", "Gate scale"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Multiplies q·k inside the gate sigmoid (1 = the paper): larger values make gates closer to 0/1, so positions count tokens more sharply."),
     -10, 10, false, 2, 0.1},
    {ParamId::CopeSeed, K::Int, M::CoPE, "seed", QT_TRANSLATE_NOOP("ParamSpec", "Embedding seed"), "",
     QT_TRANSLATE_NOOP("ParamSpec", "Seed of the position embeddings."), 0, kSeedMax},
}};
// clang-format on

std::uint64_t to_seed(double v) { return v <= 0.0 ? 0 : static_cast<std::uint64_t>(std::llround(v)); }
std::int64_t to_int64(double v) { return static_cast<std::int64_t>(std::llround(v)); }
int to_int(double v) { return static_cast<int>(std::lround(v)); }
std::optional<double> to_optional(double v)
{
    return v > 0.0 ? std::optional<double>(v) : std::nullopt;
}

int heads_of(const Scenario& s)
{
    switch (s.method) {
    case Method::T5: return s.params<T5Params>().num_heads;
    case Method::ALiBi: return s.params<AlibiParams>().num_heads;
    default: return 0;
    }
}

// Keeps the shown head valid when the method or the head count changes (otherwise switching from a
// 12-head T5 to an 8-head ALiBi would be rejected for a field the user did not touch).
void clamp_head(Scenario& s)
{
    const int heads = heads_of(s);
    if (heads > 0 && s.head >= heads)
        s.head = heads - 1;
}

} // namespace

const ParamSpec& param_spec(ParamId id)
{
    const ParamSpec& spec = kSpecs[static_cast<std::size_t>(id)];
    Q_ASSERT(spec.id == id); // the table is in ParamId order
    return spec;
}
std::span<const ParamSpec> all_param_specs() { return kSpecs; }
QString paramText(const char* source)
{
    return source ? QCoreApplication::translate("ParamSpec", source) : QString();
}

double param_value(const Scenario& s, ParamId id)
{
    switch (id) {
    case ParamId::Method: return static_cast<int>(s.method);
    case ParamId::SeqLen: return static_cast<double>(s.seq_len);
    case ParamId::Head: return s.head;
    case ParamId::ContentKind: return static_cast<int>(s.content.kind);
    case ParamId::ContentSeed: return static_cast<double>(s.content.seed);
    case ParamId::SinDim: return s.params<SinusoidalParams>().dim;
    case ParamId::SinBase: return s.params<SinusoidalParams>().base;
    case ParamId::SinLayout: return static_cast<int>(s.params<SinusoidalParams>().layout);
    case ParamId::LearnedDim: return s.params<LearnedParams>().dim;
    case ParamId::LearnedTrained: return static_cast<double>(s.params<LearnedParams>().trained_length);
    case ParamId::LearnedSeed: return static_cast<double>(s.params<LearnedParams>().seed);
    case ParamId::LearnedStddev: return s.params<LearnedParams>().stddev;
    case ParamId::ShawHeadDim: return s.params<ShawParams>().head_dim;
    case ParamId::ShawMaxRel: return s.params<ShawParams>().max_relative_position;
    case ParamId::ShawSeed: return static_cast<double>(s.params<ShawParams>().seed);
    case ParamId::TxlHeadDim: return s.params<TransformerXLParams>().head_dim;
    case ParamId::TxlBase: return s.params<TransformerXLParams>().base;
    case ParamId::TxlSeed: return static_cast<double>(s.params<TransformerXLParams>().seed);
    case ParamId::TxlTermA: return s.params<TransformerXLParams>().term_a;
    case ParamId::TxlTermB: return s.params<TransformerXLParams>().term_b;
    case ParamId::TxlTermC: return s.params<TransformerXLParams>().term_c;
    case ParamId::TxlTermD: return s.params<TransformerXLParams>().term_d;
    case ParamId::T5Buckets: return s.params<T5Params>().num_buckets;
    case ParamId::T5MaxDistance: return s.params<T5Params>().max_distance;
    case ParamId::T5Bidirectional: return s.params<T5Params>().bidirectional;
    case ParamId::T5Heads: return s.params<T5Params>().num_heads;
    case ParamId::T5Seed: return static_cast<double>(s.params<T5Params>().seed);
    case ParamId::DebHeadDim: return s.params<DebertaParams>().head_dim;
    case ParamId::DebBuckets: return s.params<DebertaParams>().position_buckets;
    case ParamId::DebMaxRel: return s.params<DebertaParams>().max_relative_positions;
    case ParamId::DebC2p: return s.params<DebertaParams>().c2p;
    case ParamId::DebP2c: return s.params<DebertaParams>().p2c;
    case ParamId::DebSeed: return static_cast<double>(s.params<DebertaParams>().seed);
    case ParamId::RopeHeadDim: return s.params<RopeParams>().head_dim;
    case ParamId::RopeTheta: return s.params<RopeParams>().rope_theta;
    case ParamId::RopePartial: return s.params<RopeParams>().partial_rotary_factor;
    case ParamId::RopePairing: return static_cast<int>(s.params<RopeParams>().pairing);
    case ParamId::RopeType: return static_cast<int>(s.params<RopeParams>().rope_type);
    case ParamId::RopeFactor: return s.params<RopeParams>().factor;
    case ParamId::RopeMaxPos: return static_cast<double>(s.params<RopeParams>().max_position_embeddings);
    case ParamId::RopeOrigMaxPos: return static_cast<double>(s.params<RopeParams>().original_max_position_embeddings);
    case ParamId::RopeSeqLen: return static_cast<double>(s.params<RopeParams>().seq_len);
    case ParamId::RopeBetaFast: return s.params<RopeParams>().beta_fast;
    case ParamId::RopeBetaSlow: return s.params<RopeParams>().beta_slow;
    case ParamId::RopeMscale: return s.params<RopeParams>().mscale.value_or(0.0);
    case ParamId::RopeMscaleAllDim: return s.params<RopeParams>().mscale_all_dim.value_or(0.0);
    case ParamId::RopeAttentionFactor: return s.params<RopeParams>().attention_factor.value_or(0.0);
    case ParamId::RopeTruncate: return s.params<RopeParams>().truncate;
    case ParamId::RopeLowFreq: return s.params<RopeParams>().low_freq_factor;
    case ParamId::RopeHighFreq: return s.params<RopeParams>().high_freq_factor;
    case ParamId::AlibiHeads: return s.params<AlibiParams>().num_heads;
    case ParamId::AlibiSlopeScale: return s.params<AlibiParams>().slope_scale;
    case ParamId::AlibiBias: return static_cast<int>(s.params<AlibiParams>().bias);
    case ParamId::AlibiScaling: return static_cast<int>(s.params<AlibiParams>().scaling);
    case ParamId::AlibiTrained: return static_cast<double>(s.params<AlibiParams>().trained_length);
    case ParamId::AlibiTarget: return static_cast<double>(s.params<AlibiParams>().target_length);
    case ParamId::CopeHeadDim: return s.params<CopeParams>().head_dim;
    case ParamId::CopeNpos: return s.params<CopeParams>().npos_max;
    case ParamId::CopeGate: return s.params<CopeParams>().gate_scale;
    case ParamId::CopeSeed: return static_cast<double>(s.params<CopeParams>().seed);
    case ParamId::Count_: break;
    }
    return 0.0;
}

void set_param_value(Scenario& s, ParamId id, double v)
{
    const bool b = v != 0.0;
    switch (id) {
    case ParamId::Method:
        s.method = kAllMethods[std::clamp(to_int(v), 0, 8)];
        clamp_head(s);
        break;
    case ParamId::SeqLen: s.seq_len = to_int64(v); break;
    case ParamId::Head: s.head = to_int(v); break;
    case ParamId::ContentKind: s.content.kind = static_cast<ContentKind>(std::clamp(to_int(v), 0, 3)); break;
    case ParamId::ContentSeed: s.content.seed = to_seed(v); break;
    case ParamId::SinDim: s.params<SinusoidalParams>().dim = to_int(v); break;
    case ParamId::SinBase: s.params<SinusoidalParams>().base = v; break;
    case ParamId::SinLayout: s.params<SinusoidalParams>().layout = static_cast<SinusoidalLayout>(std::clamp(to_int(v), 0, 1)); break;
    case ParamId::LearnedDim: s.params<LearnedParams>().dim = to_int(v); break;
    case ParamId::LearnedTrained: s.params<LearnedParams>().trained_length = to_int64(v); break;
    case ParamId::LearnedSeed: s.params<LearnedParams>().seed = to_seed(v); break;
    case ParamId::LearnedStddev: s.params<LearnedParams>().stddev = v; break;
    case ParamId::ShawHeadDim: s.params<ShawParams>().head_dim = to_int(v); break;
    case ParamId::ShawMaxRel: s.params<ShawParams>().max_relative_position = to_int(v); break;
    case ParamId::ShawSeed: s.params<ShawParams>().seed = to_seed(v); break;
    case ParamId::TxlHeadDim: s.params<TransformerXLParams>().head_dim = to_int(v); break;
    case ParamId::TxlBase: s.params<TransformerXLParams>().base = v; break;
    case ParamId::TxlSeed: s.params<TransformerXLParams>().seed = to_seed(v); break;
    case ParamId::TxlTermA: s.params<TransformerXLParams>().term_a = b; break;
    case ParamId::TxlTermB: s.params<TransformerXLParams>().term_b = b; break;
    case ParamId::TxlTermC: s.params<TransformerXLParams>().term_c = b; break;
    case ParamId::TxlTermD: s.params<TransformerXLParams>().term_d = b; break;
    case ParamId::T5Buckets: s.params<T5Params>().num_buckets = to_int(v); break;
    case ParamId::T5MaxDistance: s.params<T5Params>().max_distance = to_int(v); break;
    case ParamId::T5Bidirectional: s.params<T5Params>().bidirectional = b; break;
    case ParamId::T5Heads:
        s.params<T5Params>().num_heads = to_int(v);
        clamp_head(s);
        break;
    case ParamId::T5Seed: s.params<T5Params>().seed = to_seed(v); break;
    case ParamId::DebHeadDim: s.params<DebertaParams>().head_dim = to_int(v); break;
    case ParamId::DebBuckets: s.params<DebertaParams>().position_buckets = to_int(v); break;
    case ParamId::DebMaxRel: s.params<DebertaParams>().max_relative_positions = to_int(v); break;
    case ParamId::DebC2p: s.params<DebertaParams>().c2p = b; break;
    case ParamId::DebP2c: s.params<DebertaParams>().p2c = b; break;
    case ParamId::DebSeed: s.params<DebertaParams>().seed = to_seed(v); break;
    case ParamId::RopeHeadDim: s.params<RopeParams>().head_dim = to_int(v); break;
    case ParamId::RopeTheta: s.params<RopeParams>().rope_theta = v; break;
    case ParamId::RopePartial: s.params<RopeParams>().partial_rotary_factor = v; break;
    case ParamId::RopePairing: s.params<RopeParams>().pairing = static_cast<RopePairing>(std::clamp(to_int(v), 0, 1)); break;
    case ParamId::RopeType: s.params<RopeParams>().rope_type = static_cast<RopeType>(std::clamp(to_int(v), 0, 6)); break;
    case ParamId::RopeFactor: s.params<RopeParams>().factor = v; break;
    case ParamId::RopeMaxPos: s.params<RopeParams>().max_position_embeddings = to_int64(v); break;
    case ParamId::RopeOrigMaxPos: s.params<RopeParams>().original_max_position_embeddings = to_int64(v); break;
    case ParamId::RopeSeqLen: s.params<RopeParams>().seq_len = to_int64(v); break;
    case ParamId::RopeBetaFast: s.params<RopeParams>().beta_fast = v; break;
    case ParamId::RopeBetaSlow: s.params<RopeParams>().beta_slow = v; break;
    case ParamId::RopeMscale: s.params<RopeParams>().mscale = to_optional(v); break;
    case ParamId::RopeMscaleAllDim: s.params<RopeParams>().mscale_all_dim = to_optional(v); break;
    case ParamId::RopeAttentionFactor: s.params<RopeParams>().attention_factor = to_optional(v); break;
    case ParamId::RopeTruncate: s.params<RopeParams>().truncate = b; break;
    case ParamId::RopeLowFreq: s.params<RopeParams>().low_freq_factor = v; break;
    case ParamId::RopeHighFreq: s.params<RopeParams>().high_freq_factor = v; break;
    case ParamId::AlibiHeads:
        s.params<AlibiParams>().num_heads = to_int(v);
        clamp_head(s);
        break;
    case ParamId::AlibiSlopeScale: s.params<AlibiParams>().slope_scale = v; break;
    case ParamId::AlibiBias: s.params<AlibiParams>().bias = static_cast<AlibiBias>(std::clamp(to_int(v), 0, 1)); break;
    case ParamId::AlibiScaling: s.params<AlibiParams>().scaling = static_cast<AlibiScaling>(std::clamp(to_int(v), 0, 2)); break;
    case ParamId::AlibiTrained: s.params<AlibiParams>().trained_length = to_int64(v); break;
    case ParamId::AlibiTarget: s.params<AlibiParams>().target_length = to_int64(v); break;
    case ParamId::CopeHeadDim: s.params<CopeParams>().head_dim = to_int(v); break;
    case ParamId::CopeNpos: s.params<CopeParams>().npos_max = to_int(v); break;
    case ParamId::CopeGate: s.params<CopeParams>().gate_scale = v; break;
    case ParamId::CopeSeed: s.params<CopeParams>().seed = to_seed(v); break;
    case ParamId::Count_: break;
    }
}

void validate_for(const Scenario& s, std::optional<ParamId> changed)
{
    validate(s);
    if (!changed)
        return;
    // validate(Scenario) checks the current method only; an edit of another method's parameter
    // (the panel can show them all after a method switch) must not slip through unchecked.
    const auto method = param_spec(*changed).method;
    if (!method || *method == s.method)
        return;
    switch (*method) {
    case Method::Sinusoidal: validate(s.params<SinusoidalParams>()); break;
    case Method::Learned: validate(s.params<LearnedParams>()); break;
    case Method::Shaw: validate(s.params<ShawParams>()); break;
    case Method::TransformerXL: validate(s.params<TransformerXLParams>()); break;
    case Method::T5: validate(s.params<T5Params>()); break;
    case Method::DeBERTa: validate(s.params<DebertaParams>()); break;
    case Method::RoPE: validate(s.params<RopeParams>()); break;
    case Method::ALiBi: validate(s.params<AlibiParams>()); break;
    case Method::CoPE: validate(s.params<CopeParams>()); break;
    }
}

bool scenarios_equal(const Scenario& a, const Scenario& b)
{
    for (const auto& spec : kSpecs)
        if (param_value(a, spec.id) != param_value(b, spec.id))
            return false;
    // Fields without a parameter-panel row.
    return a.params<LearnedParams>().table_path == b.params<LearnedParams>().table_path && a.params<LearnedParams>().stddev == b.params<LearnedParams>().stddev
           && a.params<ShawParams>().stddev == b.params<ShawParams>().stddev && a.params<TransformerXLParams>().stddev == b.params<TransformerXLParams>().stddev
           && a.params<T5Params>().stddev == b.params<T5Params>().stddev && a.params<DebertaParams>().stddev == b.params<DebertaParams>().stddev
           && a.params<CopeParams>().stddev == b.params<CopeParams>().stddev && a.params<RopeParams>().short_factor == b.params<RopeParams>().short_factor
           && a.params<RopeParams>().long_factor == b.params<RopeParams>().long_factor && a.params<RopeParams>().mscale == b.params<RopeParams>().mscale
           && a.params<RopeParams>().mscale_all_dim == b.params<RopeParams>().mscale_all_dim
           && a.params<RopeParams>().attention_factor == b.params<RopeParams>().attention_factor;
}

// ---------------------------------------------------------------- ScenarioModel

ScenarioModel::ScenarioModel(QObject* parent) : QObject(parent), m_undo(new QUndoStack(this)) {}

bool ScenarioModel::setValue(ParamId id, double value)
{
    Scenario next = m_scenario;
    set_param_value(next, id, value);
    if (scenarios_equal(next, m_scenario))
        return true;
    try {
        validate_for(next, id);
    } catch (const ParameterError& e) {
        emit parameterRejected(QString::fromStdString(e.what()));
        return false;
    }
    const ParamSpec& spec = param_spec(id);
    QString text = tr("Change %1").arg(paramText(spec.label));
    // A scaling type with factor 1 is the identity for most types: picking one would change nothing
    // visible. Give it a typical factor in the same undo step (when that validates).
    if (id == ParamId::RopeType && next.params<RopeParams>().rope_type != RopeType::Default && next.params<RopeParams>().factor == 1.0) {
        Scenario scaled = next;
        scaled.params<RopeParams>().factor = kDefaultScalingFactor;
        try {
            validate_for(scaled, id);
            next = scaled;
            text = tr("Change %1 (factor %2)").arg(paramText(spec.label)).arg(kDefaultScalingFactor);
        } catch (const ParameterError&) {
            // keep factor 1; the figures say that the scaling is the identity
        }
    }
    const int mergeKey = m_interactive ? m_interactiveSerial : -1;
    m_undo->push(new SetScenarioCommand(this, m_scenario, next, text, static_cast<int>(id), mergeKey));
    return true;
}

bool ScenarioModel::setScenario(const Scenario& s, const QString& text)
{
    if (scenarios_equal(s, m_scenario))
        return true;
    try {
        validate_for(s);
    } catch (const ParameterError& e) {
        emit parameterRejected(QString::fromStdString(e.what()));
        return false;
    }
    m_undo->push(new SetScenarioCommand(this, m_scenario, s, text, -1, -1));
    return true;
}

bool ScenarioModel::resetScenario(const Scenario& s)
{
    try {
        validate_for(s);
    } catch (const ParameterError& e) {
        emit parameterRejected(QString::fromStdString(e.what()));
        return false;
    }
    m_undo->clear();
    assign(s);
    return true;
}

void ScenarioModel::beginInteractiveEdit()
{
    m_interactive = true;
    ++m_interactiveSerial;
}

void ScenarioModel::endInteractiveEdit() { m_interactive = false; }

void ScenarioModel::applyFromUndo(const Scenario& s) { assign(s); }

void ScenarioModel::assign(const Scenario& s)
{
    m_scenario = s;
    emit scenarioChanged();
}

} // namespace posatlas::ui
