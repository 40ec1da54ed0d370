// SPDX-License-Identifier: GPL-3.0-or-later
// The lab's transformer. Its positional part is computed by core's method code (lab.h); this file only
// moves those numbers into tensors and applies them as core's logit definitions say
// (compute/attention_logits.h), which test_lab_core_equality checks cell by cell.
#include "lab/lab_model_torch.h"

#include "io/safetensors.h"
#include "io/safetensors_write.h"
#include "methods/alibi/alibi.h"
#include "methods/rope/rope.h"
#include "methods/rope/rope_scaling.h"
#include "methods/sinusoidal/sinusoidal.h"
#include "methods/t5/t5_buckets.h"
#include "methods/xpos/xpos.h"

#include <cmath>

namespace posatlas::lab {

namespace {

torch::Tensor from_rows(const Eigen::MatrixXd& m, torch::Dtype dtype)
{
    Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> r = m;
    return torch::from_blob(r.data(), {r.rows(), r.cols()}, torch::kFloat64).clone().to(dtype);
}

// Pairs (first[i], second[i]) of the head's components and the permutation from [firsts | seconds | rest]
// back to the head's layout (RoPE's pairings, rope.h).
void pair_layout(Positional& p, int head_dim, int rotary_dim, RopePairing pairing)
{
    const int half = rotary_dim / 2;
    std::vector<std::int64_t> first(half), second(half), back(head_dim);
    for (int i = 0; i < half; ++i) {
        first[i] = pairing == RopePairing::Half ? i : 2 * i;
        second[i] = pairing == RopePairing::Half ? i + half : 2 * i + 1;
        back[first[i]] = i;
        back[second[i]] = half + i;
    }
    for (int j = rotary_dim; j < head_dim; ++j)
        back[j] = j;
    const auto opts = torch::TensorOptions().dtype(torch::kInt64);
    p.first = torch::tensor(first, opts);
    p.second = torch::tensor(second, opts);
    p.to_layout = torch::tensor(back, opts);
    p.rotary_dim = rotary_dim;
}

} // namespace

Positional make_positional(const LabConfig& c, std::int64_t L, const TestScaling& scaling, torch::Dtype dtype)
{
    Positional p;
    p.length = L;
    p.causal = torch::ones({L, L}, torch::kBool).triu(1);
    const std::string& m = c.method;
    if (m == "rope") {
        const RopeFrequencies f = compute_rope_frequencies(rope_params(c, L, scaling));
        Eigen::MatrixXd cs(L, f.pairs()), sn(L, f.pairs());
        for (std::int64_t t = 0; t < L; ++t)
            for (int i = 0; i < f.pairs(); ++i) {
                const double a = static_cast<double>(t) * f.inv_freq[i]; // as rope_rotate forms it
                cs(t, i) = std::cos(a) * f.attention_factor;
                sn(t, i) = std::sin(a) * f.attention_factor;
            }
        p.cos = from_rows(cs, dtype);
        p.sin = from_rows(sn, dtype);
        p.softmax_scale = f.softmax_scale;
        pair_layout(p, c.head_dim(), f.rotary_dim, c.rope_pairing);
    } else if (m == "xpos") {
        XposParams xp;
        xp.head_dim = c.head_dim();
        xp.base = c.rope_theta;
        xp.scale_base = c.xpos_scale_base;
        const Eigen::VectorXd theta = xpos_theta(xp), zeta = xpos_zeta(xp);
        const int pairs = static_cast<int>(theta.size());
        Eigen::MatrixXd cs(L, pairs), sn(L, pairs), qs(L, pairs), ks(L, pairs);
        const double centre = static_cast<double>(L / 2); // the reference's min_pos = -(length // 2)
        for (std::int64_t t = 0; t < L; ++t)
            for (int i = 0; i < pairs; ++i) {
                const double a = static_cast<double>(t) * theta[i];
                cs(t, i) = std::cos(a);
                sn(t, i) = std::sin(a);
                qs(t, i) = std::pow(zeta[i], (static_cast<double>(t) - centre) / xp.scale_base);
                ks(t, i) = 1.0 / qs(t, i);
            }
        p.cos = from_rows(cs, dtype);
        p.sin = from_rows(sn, dtype);
        p.q_scale = from_rows(qs, dtype);
        p.k_scale = from_rows(ks, dtype);
        pair_layout(p, c.head_dim(), c.head_dim(), RopePairing::Interleaved); // xPos: rotate_every_two
    } else if (m == "alibi") {
        const std::vector<double> slopes = alibi_scaled_slopes(alibi_params(c, L, scaling));
        std::vector<double> b(static_cast<std::size_t>(c.heads * L * L));
        for (int h = 0; h < c.heads; ++h)
            for (std::int64_t i = 0; i < L; ++i)
                for (std::int64_t j = 0; j < L; ++j)
                    b[(h * L + i) * L + j] = alibi_bias(slopes[h], i, j, AlibiBias::Causal);
        p.alibi = torch::tensor(b, torch::kFloat64).view({c.heads, L, L}).to(dtype);
    } else if (m == "t5") {
        const T5Bucketer bucket(t5_params(c));
        std::vector<std::int64_t> b(static_cast<std::size_t>(L * L));
        for (std::int64_t i = 0; i < L; ++i)
            for (std::int64_t j = 0; j < L; ++j)
                b[i * L + j] = bucket(j - i); // relative_position = key - query
        p.buckets = torch::tensor(b, torch::kInt64);
    } else if (m == "sinusoidal") {
        SinusoidalParams sp;
        sp.dim = c.d_model;
        sp.base = c.sinusoidal_base;
        sp.layout = SinusoidalLayout::Interleaved;
        p.absolute = from_rows(sinusoidal_encoding(sp, 0, L), dtype);
    } else if (relative_method(m))
        relative_positional(p, c, L, dtype);
    return p;
}

torch::Tensor& Model::at(const std::string& name)
{
    for (auto& [n, t] : params)
        if (n == name)
            return t;
    throw std::logic_error("lab model: no parameter " + name);
}

std::vector<std::pair<std::string, std::vector<std::int64_t>>> Model::shapes(const LabConfig& c)
{
    const std::int64_t d = c.d_model, V = c.vocab(), hidden = d * c.mlp_ratio;
    std::vector<std::pair<std::string, std::vector<std::int64_t>>> s{{"tok_emb", {V, d}}};
    if (c.method == "learned")
        s.push_back({kLearnedTensor, {c.learned_rows(), d}});
    if (c.method == "deberta") // shared by the layers, as HF DebertaV2Encoder.rel_embeddings
        s.push_back({kDebertaRelTensor, {2 * static_cast<std::int64_t>(c.deberta_position_buckets), d}});
    const std::int64_t dh = c.head_dim();
    for (int l = 0; l < c.layers; ++l) {
        const std::string p = "layers." + std::to_string(l) + ".";
        for (const char* n : {"ln1.weight", "ln1.bias"})
            s.push_back({p + n, {d}});
        for (const char* n : {"attn.wq", "attn.wk", "attn.wv", "attn.wo"})
            s.push_back({p + n, {d, d}});
        if (c.method == "t5")
            s.push_back({t5_tensor(l), {c.t5_num_buckets, c.heads}});
        if (c.method == "cope")
            s.push_back({cope_tensor(l), {c.cope_npos_max, dh}});
        if (c.method == "shaw") // a^K, a^V shared by the heads (Shaw et al. section 3.2)
            for (const char* t : {"key", "value"})
                s.push_back({shaw_tensor(l, t),
                             {2 * static_cast<std::int64_t>(c.shaw_max_relative_position) + 1, dh}});
        // Transformer-XL: each head's rows of r_net (W_{k,R}: R_{i-j} of d_model dimensions to the head), its
        // r_w_bias (u) and r_r_bias (v); DeBERTa: each head's rows of pos_key_proj and pos_query_proj. One
        // tensor per head: what core reads as the head's table.
        for (int h = 0; h < c.heads && c.method == "transformer-xl"; ++h) {
            s.push_back({txl_tensor(l, h, "r_net"), {dh, d}});
            s.push_back({txl_tensor(l, h, "r_w_bias"), {1, dh}});
            s.push_back({txl_tensor(l, h, "r_r_bias"), {1, dh}});
        }
        for (int h = 0; h < c.heads && c.method == "deberta"; ++h)
            for (const char* t : {"pos_key_proj", "pos_query_proj"})
                s.push_back({deberta_tensor(l, h, t), {dh, d}});
        for (const char* n : {"ln2.weight", "ln2.bias"})
            s.push_back({p + n, {d}});
        s.push_back({p + "mlp.fc1.weight", {d, hidden}});
        s.push_back({p + "mlp.fc1.bias", {hidden}});
        s.push_back({p + "mlp.fc2.weight", {hidden, d}});
        s.push_back({p + "mlp.fc2.bias", {d}});
    }
    s.push_back({"ln_f.weight", {d}});
    s.push_back({"ln_f.bias", {d}});
    s.push_back({"head.weight", {d, V}});
    return s;
}

Model Model::init(const LabConfig& c, torch::Dtype dtype)
{
    torch::manual_seed(c.seed);
    Model m;
    m.config = c;
    m.dtype = dtype;
    const auto opts = torch::TensorOptions().dtype(dtype);
    const double out_std = 0.02 / std::sqrt(2.0 * c.layers);
    for (const auto& [name, shape] : shapes(c)) {
        torch::Tensor t;
        const auto ends = [&](const char* s) {
            const std::string e(s);
            return name.size() >= e.size() && name.compare(name.size() - e.size(), e.size(), e) == 0;
        };
        if (ends("ln1.weight") || ends("ln2.weight") || ends("ln_f.weight"))
            t = torch::ones(shape, opts);
        else if (ends(".bias") || ends("cope_pos_emb")) // the CoPE listing starts e at zero
            t = torch::zeros(shape, opts);
        else if (ends("attn.wo") || ends("fc2.weight"))
            t = torch::randn(shape, opts) * out_std;
        else
            t = torch::randn(shape, opts) * 0.02;
        m.params.emplace_back(name, t.requires_grad_(true));
    }
    return m;
}

torch::Tensor Model::forward(const torch::Tensor& tokens, const Positional& pos,
                             std::vector<HeadProbe>* probe, int probe_layer,
                             std::vector<double>* entropy_sums)
{
    const LabConfig& c = config;
    const std::int64_t B = tokens.size(0), L = tokens.size(1), d = c.d_model, H = c.heads, dh = c.head_dim();
    torch::Tensor x = at("tok_emb").index_select(0, tokens.flatten()).view({B, L, d});
    if (c.method == "sinusoidal")
        x = x + pos.absolute.unsqueeze(0);
    if (c.method == "learned")
        x = x + at(kLearnedTensor).narrow(0, 0, L).unsqueeze(0);
    const double inv_sqrt = 1.0 / std::sqrt(static_cast<double>(dh));
    const auto rotate = [&](const torch::Tensor& v, const torch::Tensor* scale) {
        // v [B, H, L, dh]: each pair (x1, x2) -> (x1 cos - x2 sin, x1 sin + x2 cos) (rope.h), xPos also
        // scaled.
        torch::Tensor x1 = v.index_select(-1, pos.first), x2 = v.index_select(-1, pos.second);
        torch::Tensor y1 = x1 * pos.cos - x2 * pos.sin, y2 = x1 * pos.sin + x2 * pos.cos;
        if (scale) {
            y1 = y1 * *scale;
            y2 = y2 * *scale;
        }
        return torch::cat({y1, y2, v.narrow(-1, pos.rotary_dim, dh - pos.rotary_dim)}, -1)
            .index_select(-1, pos.to_layout);
    };
    for (int l = 0; l < c.layers; ++l) {
        const std::string p = "layers." + std::to_string(l) + ".";
        torch::Tensor h = torch::layer_norm(x, {d}, at(p + "ln1.weight"), at(p + "ln1.bias"));
        const auto heads = [&](const char* w) {
            return h.matmul(at(p + w)).view({B, L, H, dh}).permute({0, 2, 1, 3});
        };
        torch::Tensor q = heads("attn.wq"), k = heads("attn.wk"), v = heads("attn.wv");
        const torch::Tensor q0 = q, k0 = k;
        if (c.method == "rope") {
            q = rotate(q, nullptr);
            k = rotate(k, nullptr);
        } else if (c.method == "xpos") {
            q = rotate(q, &pos.q_scale);
            k = rotate(k, &pos.k_scale);
        }
        torch::Tensor scores = relative_method(c.method)
                                   ? relative_scores(*this, l, q, k, pos)
                                   : q.matmul(k.transpose(-2, -1)) * (inv_sqrt * pos.softmax_scale);
        if (c.method == "alibi")
            scores = scores + pos.alibi.unsqueeze(0);
        else if (c.method == "t5")
            scores =
                scores +
                at(t5_tensor(l)).index_select(0, pos.buckets).view({L, L, H}).permute({2, 0, 1}).unsqueeze(0);
        else if (c.method == "cope") {
            // cope.h: gates sigmoid(logits0) (0 where masked), positions the reverse cumulative sum clamped
            // to npos_max - 1, the interpolated q . e[p] added.
            const torch::Tensor gates = torch::sigmoid(scores).masked_fill(pos.causal, 0.0);
            const torch::Tensor positions =
                gates.flip({-1}).cumsum(-1).flip({-1}).clamp_max(static_cast<double>(c.cope_npos_max - 1));
            const torch::Tensor lo = positions.floor(), hi = positions.ceil();
            const torch::Tensor w = positions - lo;
            const torch::Tensor z = q.matmul(at(cope_tensor(l)).transpose(0, 1)); // [B, H, L, npos]
            const torch::Tensor z_lo = z.gather(-1, lo.to(torch::kInt64)),
                                z_hi = z.gather(-1, hi.to(torch::kInt64));
            scores = scores + z_hi * w + z_lo * (1 - w);
        }
        if (probe && l == probe_layer) {
            probe->assign(static_cast<std::size_t>(H), {});
            const torch::Tensor masked = scores.masked_fill(pos.causal, std::nan(""));
            for (int hh = 0; hh < H; ++hh) {
                const auto to_eigen = [](const torch::Tensor& t) {
                    const torch::Tensor f = t.detach().to(torch::kFloat32).contiguous();
                    return Eigen::MatrixXf(
                        Eigen::Map<
                            const Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(
                            f.data_ptr<float>(), f.size(0), f.size(1)));
                };
                (*probe)[hh] = {to_eigen(q0[0][hh]), to_eigen(k0[0][hh]), to_eigen(masked[0][hh])};
            }
        }
        scores = scores.masked_fill(pos.causal, -std::numeric_limits<double>::infinity());
        const torch::Tensor weights = torch::softmax(scores, -1);
        if (entropy_sums) {
            // xlogy(p, p) is 0 where p = 0 (the masked keys), p ln p elsewhere; summed in double.
            (*entropy_sums)[static_cast<std::size_t>(l)] -=
                torch::xlogy(weights.detach(), weights.detach()).to(torch::kFloat64).sum().item<double>();
        }
        torch::Tensor mixed = weights.matmul(v);
        if (c.method == "shaw")
            mixed = mixed + relative_values(*this, l, weights, pos);
        const torch::Tensor att = mixed.permute({0, 2, 1, 3}).reshape({B, L, d});
        x = x + att.matmul(at(p + "attn.wo"));
        h = torch::layer_norm(x, {d}, at(p + "ln2.weight"), at(p + "ln2.bias"));
        h = torch::gelu(h.matmul(at(p + "mlp.fc1.weight")) + at(p + "mlp.fc1.bias"));
        x = x + h.matmul(at(p + "mlp.fc2.weight")) + at(p + "mlp.fc2.bias");
    }
    x = torch::layer_norm(x, {d}, at("ln_f.weight"), at("ln_f.bias"));
    return x.matmul(at("head.weight"));
}

void save_weights(const Model& m, const std::string& path, int step)
{
    std::vector<SafetensorsF32> out;
    for (const auto& [name, t] : m.params) {
        const torch::Tensor f = t.detach().to(torch::kFloat32).contiguous();
        SafetensorsF32 s{name, f.sizes().vec(), {}};
        s.values.assign(f.data_ptr<float>(), f.data_ptr<float>() + f.numel());
        out.push_back(std::move(s));
    }
    write_safetensors(path, out, {{"format", "posatlas-lab"}, {"step", std::to_string(step)}});
}

Model load_weights(const LabConfig& c, const std::string& path)
{
    const SafetensorsCatalog cat = read_safetensors(path); // SafetensorsError: an InputFileError
    Model m;
    m.config = c;
    const auto expected = Model::shapes(c);
    if (cat.tensors.size() != expected.size())
        throw LabRunError(path + ": holds " + std::to_string(cat.tensors.size()) +
                          " tensors, the run's config.json needs " + std::to_string(expected.size()) + " (" +
                          cat.listing(8) + ")");
    for (const auto& [name, shape] : expected) {
        const SafetensorsTensor* t = cat.find(name);
        if (!t)
            throw LabRunError(path + ": no tensor " + name + " (" + cat.listing(8) + ")");
        if (t->dtype != "F32" || t->shape != shape) {
            std::string want;
            for (std::int64_t s : shape) {
                if (!want.empty())
                    want += 'x';
                want += std::to_string(s);
            }
            throw LabRunError(path + ": tensor " + name + " is " + t->dtype + " " + t->shape_text() +
                              ", the run's config.json needs F32 " + want);
        }
        std::vector<float> v = read_safetensors_f32(*t, t->elements());
        for (float x : v)
            if (!std::isfinite(x))
                throw LabRunError(path + ": tensor " + name + " holds a value that is not finite");
        torch::Tensor tt = torch::from_blob(v.data(), shape, torch::kFloat32).clone();
        m.params.emplace_back(name, tt);
    }
    return m;
}

} // namespace posatlas::lab
