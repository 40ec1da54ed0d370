// SPDX-License-Identifier: GPL-3.0-or-later
// The lab's configuration: its checks, its memory estimate and the core parameters each method's
// positional part is computed from.
#include "lab/lab.h"

#include "io/number_text.h"
#include "methods/nope/nope.h"
#include "methods/xpos/xpos.h"

#include <algorithm>
#include <cmath>

namespace posatlas::lab {

const std::vector<std::string>& lab_methods()
{
    static const std::vector<std::string> m{"nope",  "sinusoidal",     "learned", "t5",
                                            "alibi", "rope",           "xpos",    "cope",
                                            "shaw",  "transformer-xl", "deberta"};
    return m;
}

const std::vector<std::string>& lab_tasks()
{
    static const std::vector<std::string> t{"copy", "recall", "induction", "lm"};
    return t;
}

namespace {

void check_int(const char* option, double v, double lo, double hi)
{
    if (!(v >= lo && v <= hi))
        throw ParameterError(option, "an integer in [" + format_number(lo) + ", " + format_number(hi) + "]",
                             format_number(v));
}

void check_real(const char* option, double v, double lo, double hi)
{
    if (!std::isfinite(v) || v < lo || v > hi)
        throw ParameterError(option, "a number in [" + format_number(lo) + ", " + format_number(hi) + "]",
                             format_number(v));
}

template <typename List> void check_choice(const char* option, const std::string& v, const List& list)
{
    if (std::find(list.begin(), list.end(), v) != list.end())
        return;
    std::string allowed;
    for (const std::string& s : list) {
        if (!allowed.empty())
            allowed += '|';
        allowed += s;
    }
    throw ParameterError(option, allowed, v);
}

bool rotary(const std::string& m)
{
    return m == "rope" || m == "xpos";
}

// The largest train_len in [4, c.train_len] (everything else kept) whose training fits the memory budget;
// 4 when none does.
std::int64_t largest_train_len(const LabConfig& c)
{
    LabConfig t = c;
    std::int64_t lo = 4, hi = c.train_len;
    while (lo < hi) {
        t.train_len = (lo + hi + 1) / 2;
        if (training_bytes(t) <= kLabMemoryBudget)
            lo = t.train_len;
        else
            hi = t.train_len - 1;
    }
    return lo;
}

} // namespace

double training_bytes(const LabConfig& c)
{
    const double L = static_cast<double>(c.train_len), B = c.batch, d = c.d_model, H = c.heads;
    double positional = c.method == "learned" ? static_cast<double>(c.learned_rows()) * d : 0.0;
    if (c.method == "transformer-xl")
        positional = c.layers * (d * d + 2 * d);
    else if (c.method == "deberta")
        positional = 2.0 * c.deberta_position_buckets * d + c.layers * 2 * d * d;
    const double params = c.vocab() * d * 2 + c.layers * (4 * d * d + 2 * c.mlp_ratio * d * d) + positional;
    // Per layer and sequence: the saved activations (x, LN, q, k, v, rotated q and k, attention output, MLP
    // input and hidden) and the H x L x L scores, weights and mask (CoPE keeps four such matrices more, the
    // relative methods their gathered position terms: two to four).
    const bool more =
        c.method == "cope" || c.method == "shaw" || c.method == "transformer-xl" || c.method == "deberta";
    const double per_layer = L * d * (12 + 3 * c.mlp_ratio) + H * L * L * (more ? 8 : 4);
    const double activations = B * (c.layers * per_layer + L * c.vocab() * 3);
    return 4.0 *
           (params * 4 + activations * 2); // float32; weights, grads, two moments; activations and grads
}

int default_warmup(int steps)
{
    return std::min(LabConfig{}.warmup, steps / 10);
}

void validate(const LabConfig& c)
{
    check_choice("task", c.task, lab_tasks());
    check_choice("method", c.method, lab_methods());
    check_int("layers", c.layers, 1, 12);
    check_int("d-model", c.d_model, 8, 1024);
    check_int("heads", c.heads, 1, 64);
    if (c.d_model % c.heads != 0)
        throw ParameterError("heads", "a divisor of --d-model " + std::to_string(c.d_model),
                             std::to_string(c.heads));
    if (rotary(c.method) && c.head_dim() % 2 != 0)
        throw ParameterError("heads",
                             "a count that leaves an even head dimension (d-model / heads) for " + c.method,
                             std::to_string(c.heads));
    check_int("mlp-ratio", c.mlp_ratio, 1, 8);
    check_int("alphabet", c.alphabet, 2, 1000);
    check_int("vocab", c.vocab_size, 0, 65536);
    if (!c.language_model() && c.vocab_size != 0)
        throw ParameterError("vocab", "0 for " + c.task + " (its vocabulary is --alphabet + 3)",
                             std::to_string(c.vocab_size));
    check_int("train-len", static_cast<double>(c.train_len), 4, 65536);
    check_int("steps", c.steps, 1, 10000000);
    check_int("batch", c.batch, 1, 4096);
    check_real("lr", c.lr, 1e-6, 1.0);
    check_int("warmup", c.warmup, 0, c.steps);
    check_real("weight-decay", c.weight_decay, 0.0, 1.0);
    check_int("threads", c.threads, 1, 256);
    check_int("log-every", c.log_every, 1, 1000000);
    check_int("checkpoint-every", c.checkpoint_every, 1, 10000000);
    check_real("rope-theta", c.rope_theta, 2.0, 1e9);
    check_real("partial-rotary-factor", c.partial_rotary_factor, 0.0, 1.0);
    if (c.method == "rope") {
        const int r = static_cast<int>(c.head_dim() * c.partial_rotary_factor);
        if (r < 2 || r % 2 != 0)
            throw ParameterError("partial-rotary-factor",
                                 "a fraction of the head dimension " + std::to_string(c.head_dim()) +
                                     " that is an even number of at least 2 components",
                                 format_number(c.partial_rotary_factor));
    }
    check_int("max-positions", static_cast<double>(c.max_positions), 0, 1 << 20);
    check_int("t5-num-buckets", c.t5_num_buckets, 2, 4096);
    check_int("t5-max-distance", c.t5_max_distance, 2, 1 << 20);
    check_real("xpos-scale-base", c.xpos_scale_base, 1.0, 1e9);
    check_int("cope-npos-max", c.cope_npos_max, 2, 65536);
    check_int("shaw-max-relative-position", c.shaw_max_relative_position, 1, 65536);
    check_int("deberta-position-buckets", c.deberta_position_buckets, 2, 65536);
    check_int("deberta-max-relative-positions", c.deberta_max_relative_positions, 2, 1 << 20);
    // core's DeBERTa: log buckets need max_relative_positions - 1 > position_buckets / 2.
    if (c.deberta_max_relative_positions - 1 <= c.deberta_position_buckets / 2)
        throw ParameterError("deberta-max-relative-positions",
                             "more than --deberta-position-buckets / 2 + 1 = " +
                                 std::to_string(c.deberta_position_buckets / 2 + 1),
                             std::to_string(c.deberta_max_relative_positions));
    check_real("sinusoidal-base", c.sinusoidal_base, 2.0, 1e9);
    if ((c.method == "sinusoidal" || c.method == "transformer-xl") && c.d_model % 2 != 0)
        throw ParameterError("d-model", "an even number for " + c.method, std::to_string(c.d_model));
    if (c.task == "recall" && c.train_len < 8)
        throw ParameterError("train-len", "at least 8 for recall", std::to_string(c.train_len));
    if (c.task == "recall" && c.alphabet < 4)
        throw ParameterError("alphabet", "at least 4 for recall", std::to_string(c.alphabet));
    if (training_bytes(c) > kLabMemoryBudget) {
        LabConfig t = c;
        const std::int64_t lo = largest_train_len(c);
        t.train_len = lo;
        if (training_bytes(t) > kLabMemoryBudget) {
            std::int64_t b = c.batch;
            t = c;
            while (b > 1 && (t.batch = static_cast<int>(b), training_bytes(t) > kLabMemoryBudget))
                b /= 2;
            throw ParameterError("batch",
                                 "at most " + std::to_string(b) + " (memory budget " +
                                     format_number(kLabMemoryBudget / (1 << 30)) + " GiB)",
                                 std::to_string(c.batch));
        }
        throw ParameterError("train-len",
                             "at most " + std::to_string(lo) + " with --batch " + std::to_string(c.batch) +
                                 " (memory budget " + format_number(kLabMemoryBudget / (1 << 30)) + " GiB)",
                             std::to_string(c.train_len));
    }
}

double EvalRow::perplexity() const
{
    return std::exp(loss);
}

double EvalRow::bits_per_character() const
{
    return loss / std::log(2.0);
}

double finetune_lr(const LabConfig& c, const FineTune& f)
{
    return f.lr > 0 ? f.lr : c.lr * kFineTuneLrRatio;
}

int finetune_warmup(const LabConfig& c, const FineTune& f)
{
    return std::min(c.warmup, f.steps / 10);
}

void check_finetune(const LabConfig& c, const FineTune& f)
{
    if (!f.active())
        return;
    check_int("finetune-steps", f.steps, 1, 1000000);
    check_int("finetune-len", static_cast<double>(f.length), 4, 65536);
    if (f.lr != 0.0)
        check_real("finetune-lr", f.lr, 1e-7, 1.0);
    if (c.task == "recall" && f.length < 8)
        throw ParameterError("finetune-len", "at least 8 for recall", std::to_string(f.length));
    if (c.method == "learned" && f.length > c.learned_rows())
        throw ParameterError("finetune-len",
                             "at most " + std::to_string(c.learned_rows()) + " (the learned table's rows)",
                             std::to_string(f.length));
    LabConfig t = c;
    t.max_positions = c.learned_rows(); // the run's table keeps its rows
    t.train_len = f.length;
    if (training_bytes(t) > kLabMemoryBudget)
        throw ParameterError("finetune-len",
                             "at most " + std::to_string(largest_train_len(t)) + " with the run's batch " +
                                 std::to_string(c.batch) + " (memory budget " +
                                 format_number(kLabMemoryBudget / (1 << 30)) + " GiB)",
                             std::to_string(f.length));
}

RopeParams rope_params(const LabConfig& c, std::int64_t seq_len, const TestScaling& scaling)
{
    RopeParams p;
    p.head_dim = c.head_dim();
    p.rope_theta = c.rope_theta;
    p.partial_rotary_factor = c.partial_rotary_factor;
    p.pairing = c.rope_pairing;
    p.rope_type = scaling.rope_type;
    p.factor = scaling.rope_type == RopeType::Default ? 1.0 : scaling.factor;
    p.original_max_position_embeddings = c.train_len;
    // The context the scaling reaches (YaRN's and LongRoPE's attention factor come from it), except for
    // dynamic NTK, whose max_position_embeddings is the trained length itself: the base grows as soon as
    // the sequence passes it (HF _compute_dynamic_ntk_parameters).
    p.max_position_embeddings =
        scaling.rope_type == RopeType::Dynamic
            ? c.train_len
            : std::max<std::int64_t>(c.train_len,
                                     static_cast<std::int64_t>(std::llround(c.train_len * p.factor)));
    p.seq_len = scaling.rope_type == RopeType::Dynamic ? seq_len : 0;
    if (scaling.rope_type == RopeType::LongRope) {
        // Phi3LongRoPEScaledRotaryEmbedding switches on the sequence's length (max position + 1) against
        // original_max_position_embeddings; core's longrope does the same with seq_len.
        p.seq_len = seq_len;
        p.long_factor = scaling.long_factor;
        p.short_factor = scaling.short_factor.empty()
                             ? std::vector<double>(static_cast<std::size_t>(p.rotary_dim() / 2), 1.0)
                             : scaling.short_factor;
    }
    return p;
}

AlibiParams alibi_params(const LabConfig& c, std::int64_t seq_len, const TestScaling& scaling)
{
    AlibiParams p;
    p.num_heads = c.heads;
    p.bias = AlibiBias::Causal;
    p.scaling = scaling.alibi;
    p.trained_length = c.train_len;
    p.target_length = std::max(seq_len, c.train_len);
    return p;
}

T5Params t5_params(const LabConfig& c)
{
    T5Params p;
    p.num_buckets = c.t5_num_buckets;
    p.max_distance = c.t5_max_distance;
    p.bidirectional = false; // a decoder: causal buckets
    p.num_heads = c.heads;
    return p;
}

// "decoder.": core reads a T5 table of that name as trained on causal buckets (t5_trained_bias).
std::string t5_tensor(int layer)
{
    return "decoder.layers." + std::to_string(layer) + ".attn.t5_bias";
}
std::string cope_tensor(int layer)
{
    return "layers." + std::to_string(layer) + ".attn.cope_pos_emb";
}

std::string shaw_tensor(int layer, const std::string& table)
{
    return "layers." + std::to_string(layer) + ".attn.shaw_" + table;
}
std::string txl_tensor(int layer, int head, const std::string& table)
{
    return "layers." + std::to_string(layer) + ".attn." + table + ".head" + std::to_string(head);
}
std::string deberta_tensor(int layer, int head, const std::string& table)
{
    return "layers." + std::to_string(layer) + ".attn." + table + ".head" + std::to_string(head);
}

ShawParams shaw_params(const LabConfig& c)
{
    ShawParams p;
    p.head_dim = c.head_dim();
    p.max_relative_position = c.shaw_max_relative_position;
    return p;
}

TransformerXLParams txl_params(const LabConfig& c)
{
    TransformerXLParams p;
    p.head_dim = c.head_dim();
    p.base = c.sinusoidal_base;
    return p;
}

DebertaParams deberta_params(const LabConfig& c)
{
    DebertaParams p;
    p.head_dim = c.head_dim();
    p.position_buckets = c.deberta_position_buckets;
    p.max_relative_positions = c.deberta_max_relative_positions;
    return p;
}

Scenario core_scenario(const LabConfig& c, std::int64_t seq_len, int head, const TestScaling& scaling,
                       const std::string& weights, int layer)
{
    Scenario s;
    s.seq_len = seq_len;
    s.head = head;
    s.causal = true;
    const std::string& m = c.method;
    if (m == "nope" || m == "sinusoidal" || m == "learned") {
        s.method = kNoPE;
        s.params<NopeParams>().head_dim = c.head_dim();
    } else if (m == "rope") {
        s.method = Method::RoPE;
        s.params<RopeParams>() = rope_params(c, seq_len, scaling);
    } else if (m == "alibi") {
        s.method = Method::ALiBi;
        s.params<AlibiParams>() = alibi_params(c, seq_len, scaling);
    } else if (m == "t5") {
        s.method = Method::T5;
        T5Params& p = s.params<T5Params>();
        p = t5_params(c);
        p.bias_path = weights;
        p.bias_tensor = weights.empty() ? "" : t5_tensor(layer);
    } else if (m == "xpos") {
        s.method = kXPos;
        XposParams& p = s.params<XposParams>();
        p.head_dim = c.head_dim();
        p.base = c.rope_theta;
        p.scale_base = c.xpos_scale_base;
        p.causal = true;
    } else if (m == "cope") {
        s.method = Method::CoPE;
        CopeParams& p = s.params<CopeParams>();
        p.head_dim = c.head_dim();
        p.npos_max = c.cope_npos_max;
        p.pos_emb = weights;
        p.pos_emb_tensor = weights.empty() ? "" : cope_tensor(layer);
    } else if (m == "shaw") {
        s.method = Method::Shaw;
        ShawParams& p = s.params<ShawParams>();
        p = shaw_params(c);
        if (!weights.empty()) {
            p.key_table = p.value_table = weights;
            p.key_table_tensor = shaw_tensor(layer, "key");
            p.value_table_tensor = shaw_tensor(layer, "value");
        }
    } else if (m == "transformer-xl") {
        s.method = Method::TransformerXL;
        TransformerXLParams& p = s.params<TransformerXLParams>();
        p = txl_params(c);
        if (!weights.empty()) {
            p.r_net = p.r_w_bias = p.r_r_bias = weights;
            p.r_net_tensor = txl_tensor(layer, head, "r_net");
            p.r_w_bias_tensor = txl_tensor(layer, head, "r_w_bias");
            p.r_r_bias_tensor = txl_tensor(layer, head, "r_r_bias");
        }
    } else if (m == "deberta") {
        s.method = Method::DeBERTa;
        DebertaParams& p = s.params<DebertaParams>();
        p = deberta_params(c);
        if (!weights.empty()) {
            p.rel_embeddings = p.pos_key_proj = p.pos_query_proj = weights;
            p.rel_embeddings_tensor = kDebertaRelTensor;
            p.pos_key_proj_tensor = deberta_tensor(layer, head, "pos_key_proj");
            p.pos_query_proj_tensor = deberta_tensor(layer, head, "pos_query_proj");
        }
    }
    return s;
}

Scenario absolute_scenario(const LabConfig& c, std::int64_t seq_len, const std::string& weights)
{
    Scenario s;
    s.seq_len = seq_len;
    if (c.method == "sinusoidal") {
        s.method = Method::Sinusoidal;
        SinusoidalParams& p = s.params<SinusoidalParams>();
        p.dim = c.d_model;
        p.base = c.sinusoidal_base;
        p.layout = SinusoidalLayout::Interleaved;
    } else {
        s.method = Method::Learned;
        LearnedParams& p = s.params<LearnedParams>();
        p.dim = c.d_model;
        p.trained_length = c.learned_rows();
        p.table_path = weights;
        p.table_tensor = weights.empty() ? "" : kLearnedTensor;
    }
    return s;
}

} // namespace posatlas::lab
