// SPDX-License-Identifier: GPL-3.0-or-later
#include "export/gallery.h"

#include "methods/cope/cope_method.h"

#include "analysis/spectrum.h"
#include "io/presets.h"

#include <QCoreApplication>

namespace posatlas::ui {
namespace {

// Texts of the free functions below; lupdate reads Gallery::tr("...") under this context.
struct Gallery {
    Q_DECLARE_TR_FUNCTIONS(posatlas::ui::Gallery)
};

Scenario preset(const char* id)
{
    return load_preset(id).scenario;
}

GalleryFigure figure(QString stem, QString description, ViewKind view, Scenario s, ViewSettings v = {})
{
    GalleryFigure f;
    f.stem = std::move(stem);
    f.description = std::move(description);
    f.view = view;
    f.scenario = std::move(s);
    f.settings = std::move(v);
    return f;
}

ViewSettings heatmap(MatrixKind kind, int pixels = 512)
{
    ViewSettings v;
    v.matrix_kind = kind;
    v.pixel_width = v.pixel_height = pixels;
    return v;
}

} // namespace

CurveData comparison_curves(const QString& title, const std::vector<std::pair<QString, RopeParams>>& variants)
{
    CurveData d;
    d.title = title;
    d.x_label = Gallery::tr("pair index i");
    d.y_label = Gallery::tr("θ′ᵢ / θᵢ (scaled / original frequency)");
    d.log_y = false; // ratios of one factor span less than a decade: a linear axis keeps its labels
    for (const auto& [label, params] : variants) {
        // core's spectrum carries the ratio; the figure only plots it.
        const FrequencySpectrum f =
            rope_spectrum(params, params.trained_length(), params.max_position_embeddings);
        CurveSeries s;
        s.name = label;
        s.x.assign(f.pair.begin(), f.pair.end());
        s.y = f.ratio;
        d.series.push_back(std::move(s));
    }
    return d;
}

std::vector<GalleryFigure> standard_gallery()
{
    std::vector<GalleryFigure> g;

    Scenario sin = preset("transformer-base");
    sin.seq_len = 256;
    g.push_back(
        figure("sinusoidal-encoding",
               Gallery::tr("Sinusoidal encoding PE[p, i] of the base Transformer (d_model 512, base 10000), "
                           "Vaswani et al. 2017, interleaved sin/cos"),
               ViewKind::Heatmap, sin, heatmap(MatrixKind::Encoding)));

    Scenario dot = sin;
    dot.content.kind = ContentKind::Zero;
    g.push_back(figure(
        "sinusoidal-dot-product",
        Gallery::tr("PE[i] · PE[j] / √d of the base Transformer: it depends on i − j only and decays away "
                    "from the diagonal (zero content, position terms only)"),
        ViewKind::Heatmap, dot, heatmap(MatrixKind::Logits)));

    Scenario bert = preset("bert-base");
    bert.seq_len = 640;
    g.push_back(figure(
        "learned-table",
        Gallery::tr("BERT-base learned absolute table (seeded N(0, 0.02) stand-in for the trained one): "
                    "positions from 512 on have no embedding (hatched), never zero"),
        ViewKind::Heatmap, bert, heatmap(MatrixKind::Encoding)));

    Scenario shaw;
    shaw.method = Method::Shaw;
    shaw.seq_len = 64;
    shaw.content.kind = ContentKind::Fixed;
    g.push_back(figure("shaw-clipped-index",
                       Gallery::tr("Shaw et al. 2018: relative index clip(j − i, −16, 16)"),
                       ViewKind::Heatmap, shaw, heatmap(MatrixKind::Buckets)));

    Scenario txl;
    txl.method = Method::TransformerXL;
    txl.seq_len = 128;
    txl.content.kind = ContentKind::Random;
    g.push_back(
        figure("transformer-xl-logits",
               Gallery::tr("Transformer-XL relative attention, terms (a)+(b)+(c)+(d), seeded random content"),
               ViewKind::Heatmap, txl, heatmap(MatrixKind::Logits)));

    Scenario t5 = preset("t5-base");
    t5.seq_len = 256;
    g.push_back(figure(
        "t5-bias-per-head",
        Gallery::tr("T5-base relative attention bias per head (seeded table, 32 buckets, max distance 128)"),
        ViewKind::Heatmap, t5, heatmap(MatrixKind::Bias, 900)));
    g.push_back(figure(
        "t5-buckets",
        Gallery::tr("T5 bucket of relative position (key − query), 32 buckets, max distance 128, as in "
                    "Hugging Face T5Attention._relative_position_bucket"),
        ViewKind::Curves, t5));

    Scenario deberta = preset("deberta-v3-base");
    deberta.seq_len = 256;
    deberta.content.kind = ContentKind::Fixed;
    g.push_back(figure("deberta-buckets",
                       Gallery::tr("DeBERTa-v3 log-bucketed relative positions (256 buckets, span 512)"),
                       ViewKind::Curves, deberta));
    g.push_back(
        figure("deberta-logits",
               Gallery::tr(
                   "DeBERTa-v3 disentangled attention logits (c2c + c2p + p2c) for one fixed content vector: "
                   "the position terms vary with the log bucket of i − j"),
               ViewKind::Heatmap, deberta, heatmap(MatrixKind::Logits)));

    Scenario rope = preset("llama-2-7b");
    rope.seq_len = 512;
    g.push_back(
        figure("rope-logits",
               Gallery::tr("RoPE logits of Llama-2-7B (θ 10000, d 128) for all-ones content: the positional "
                           "pattern, Toeplitz in i − j"),
               ViewKind::Heatmap, rope, heatmap(MatrixKind::Logits)));

    ViewSettings decay;
    decay.max_distance = 256;
    decay.log_x = false;
    g.push_back(figure(
        "rope-long-term-decay",
        Gallery::tr("RoFormer long-term decay (Su et al., sec. 3.4.3): (1/(d/2)) Σ|Sⱼ| against relative "
                    "distance, d 128, θ 10000"),
        ViewKind::Curves, rope, decay));
    ViewSettings decay_long;
    decay_long.max_distance = 1'000'000;
    decay_long.log_x = true;
    g.push_back(figure("rope-decay-to-a-million",
                       Gallery::tr("The same bound and mean cos(rθᵢ) out to r = 10⁶ on a log axis"),
                       ViewKind::Curves, rope, decay_long));

    ViewSettings rot;
    rot.query_position = 12;
    rot.key_position = 4;
    g.push_back(figure(
        "rope-rotation",
        Gallery::tr("RoPE rotation of q at m = 12 and k at n = 4 for four pairs, and every pair's hand"),
        ViewKind::Rotation, rope, rot));

    Scenario alibi;
    alibi.method = Method::ALiBi;
    alibi.params<AlibiParams>().num_heads = 8;
    alibi.seq_len = 64;
    g.push_back(
        figure("alibi-bias-per-head",
               Gallery::tr("ALiBi bias −m(i − j) for 8 heads, slopes 1/2 … 1/256 (Press et al. 2022)"),
               ViewKind::Heatmap, alibi, heatmap(MatrixKind::Bias, 900)));
    ViewSettings alibi_decay;
    alibi_decay.max_distance = 256;
    alibi_decay.log_x = false;
    g.push_back(figure("alibi-decay",
                       Gallery::tr("ALiBi's exp(−m r) per head: the attention weight factor at distance r"),
                       ViewKind::Curves, alibi, alibi_decay));

    Scenario cope;
    cope.method = Method::CoPE;
    cope.seq_len = 96;
    cope.content.kind = ContentKind::Random;
    g.push_back(
        figure("cope-positions",
               Gallery::tr("CoPE contextual positions p_ij = Σ_{t=j..i} σ(qᵢ·k_t), seeded random content "
                           "(Golovneva et al. 2024)"),
               ViewKind::Heatmap, cope, heatmap(kCopePositions)));

    g.push_back(figure(
        "yarn-spectrum",
        Gallery::tr("YaRN on Yarn-Llama-2-7b-64k (factor 16, original 4096, β 32/1): wavelengths against "
                    "the original context and the ramp per pair"),
        ViewKind::Spectrum, preset("yarn-llama-2-7b-64k")));
    g.push_back(figure(
        "llama3-bands",
        Gallery::tr("Llama 3.1 8B: high-frequency pairs kept, low-frequency pairs divided by 8, a smooth "
                    "band between (low 1, high 4, original 8192)"),
        ViewKind::Spectrum, preset("llama-3.1-8b")));
    g.push_back(
        figure("longrope-spectrum",
               Gallery::tr("Phi-3-mini-128k LongRoPE: per-pair long factors and the attention factor"),
               ViewKind::Spectrum, preset("phi-3-mini-128k")));

    // Position interpolation against NTK-aware scaling, factor 4 on Llama-2-7B (Chen et al. 2023; bloc97
    // 2023).
    RopeParams base = preset("llama-2-7b").params<RopeParams>();
    RopeParams pi = base, ntk = base, yarn = base;
    pi.rope_type = RopeType::Linear;
    ntk.rope_type = RopeType::Ntk;
    yarn.rope_type = RopeType::Yarn;
    pi.factor = ntk.factor = yarn.factor = 4.0;
    GalleryFigure cmp = figure(
        "pi-vs-ntk",
        Gallery::tr("PI, NTK-aware and YaRN on Llama-2-7B, factor 4 (Chen et al. 2023; bloc97 2023; Peng "
                    "et al. 2023): θ′/θ per pair"),
        ViewKind::Curves, preset("llama-2-7b"));
    cmp.rope_variants = {{Gallery::tr("PI (linear, ×4)"), pi},
                         {Gallery::tr("NTK-aware (×4)"), ntk},
                         {Gallery::tr("YaRN (×4)"), yarn}};
    g.push_back(std::move(cmp));
    for (std::size_t i = 0; i < g.size(); ++i)
        g[i].stem = QStringLiteral("%1-%2").arg(i + 1, 2, 10, QLatin1Char('0')).arg(g[i].stem);
    return g;
}

} // namespace posatlas::ui
