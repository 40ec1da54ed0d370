// SPDX-License-Identifier: GPL-3.0-or-later
// Each method's own learned tables from files instead of their seeded stand-ins: Shaw's a^K
// and a^V, Transformer-XL's W_{k,R} (r_net), u (r_w_bias) and v (r_r_bias), DeBERTa's relative
// embeddings and projections, CoPE's position embeddings. Fixtures are written byte by byte
// (tests/support/weights_fixtures.h; .csv by hand), with values exact in float32, so every comparison
// of a stored value is exact (tolerance 0); the logits are checked against the papers' formulas written
// out here, to 1e-12 relative (double sums of a few dozen products):
//   Shaw et al. 2018 eq. 4        e_ij = q_i . (k_j + a^K_{clip(j - i, -k, k)}) / sqrt(d)
//   Dai et al. 2019 eq. 3         (b) + (d) = (q_i + v) . W_{k,R} R_{i-j}, R = [sin(r w) | cos(r w)]
//                                 (kimiyoung/transformer-xl PositionalEmbedding, w_k = base^(-2k/e))
//   HF DebertaV2 disentangled     K^r = rel_embeddings W_k^T, Q^r = rel_embeddings W_q^T
//   Golovneva et al. 2024 listing e[r] = pos_emb row r
#include "compute/attention_logits.h"
#include "methods/cope/cope.h"
#include "methods/deberta/deberta.h"
#include "methods/registry.h"
#include "methods/shaw/shaw.h"
#include "methods/table_files.h"
#include "methods/transformer_xl/transformer_xl.h"
#include "scenario/content.h"
#include "scenario/content_file.h"
#include "scenario/validation.h"
#include "weights_fixtures.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

using namespace posatlas;
using namespace posatlas::test;
namespace fs = std::filesystem;

namespace {

std::string write(const std::string& name, const std::string& bytes)
{
    const fs::path dir = fs::temp_directory_path() / ("posatlas_method_tables_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path p = dir / name;
    std::ofstream(p, std::ios::binary) << bytes;
    return p.string();
}

// rows x cols, entry (r, c) = (r * cols + c) / 8 - shift: distinct, exact in float32.
std::vector<float> ramp(std::int64_t rows, std::int64_t cols, float shift = 1.0f)
{
    std::vector<float> v;
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < cols; ++c)
            v.push_back(static_cast<float>(r * cols + c) / 8.0f - shift);
    return v;
}

double ramp_at(std::int64_t r, std::int64_t c, std::int64_t cols, double shift = 1.0)
{
    return static_cast<double>(r * cols + c) / 8.0 - shift;
}

std::string csv(std::int64_t rows, std::int64_t cols, float shift)
{
    const std::vector<float> v = ramp(rows, cols, shift);
    std::string text;
    for (std::int64_t r = 0; r < rows; ++r)
        for (std::int64_t c = 0; c < cols; ++c)
            text += std::to_string(v[static_cast<std::size_t>(r * cols + c)]) + (c + 1 < cols ? "," : "\n");
    return text;
}

std::optional<ParameterError> refusal(const Scenario& s)
{
    try {
        validate(s);
    } catch (const ParameterError& e) {
        return e;
    }
    return std::nullopt;
}

Scenario shaw_scenario(int k = 2, int d = 4)
{
    Scenario s;
    s.method = Method::Shaw;
    s.seq_len = 12;
    s.content.kind = ContentKind::Random;
    s.params<ShawParams>().max_relative_position = k;
    s.params<ShawParams>().head_dim = d;
    return s;
}

} // namespace

TEST(MethodTables, EveryTableFieldHasItsTensorFieldAndNoPanelRow)
{
    int tables = 0;
    for (const MethodDescriptor& d : methods())
        for (const Field& f : d.fields)
            if (f.table_shape) {
                ++tables;
                EXPECT_EQ(f.type, FieldType::Text) << f.key;
                EXPECT_TRUE(f.path) << f.key;
                EXPECT_FALSE(f.panel) << f.key;
                const Field* t = d.field(f.key + "_tensor");
                ASSERT_NE(t, nullptr) << f.key;
                EXPECT_FALSE(t->path);
                EXPECT_EQ(t->option_name(), f.option_name() + "-tensor");
            }
    // Shaw 2, Transformer-XL 3, DeBERTa 3, CoPE 1, RoPE-Mixed 1, Swin 1, ViT 1.
    EXPECT_EQ(tables, 12);
}

TEST(MethodTables, ShawKeyTableFromSafetensorsIsUsedAsStoredAndTheValueTableStaysSeeded)
{
    Scenario s = shaw_scenario();
    const ShawTables seeded = make_shaw_tables(s.params<ShawParams>());
    auto& p = s.params<ShawParams>();
    p.key_table = write("shaw.safetensors", safetensors_file({f32_tensor("aK", 5, 4, ramp(5, 4))}));
    p.key_table_tensor = "aK";
    ASSERT_NO_THROW(validate(s));
    const ShawTables t = make_shaw_tables(p);
    for (int r = 0; r < 5; ++r)
        for (int c = 0; c < 4; ++c)
            ASSERT_EQ(t.a_key(r, c), ramp_at(r, c, 4)) << r << ", " << c;
    EXPECT_EQ(t.a_value, seeded.a_value); // the other table is still the stand-in, unchanged
    // The seed no longer moves a^K.
    p.seed = 77;
    EXPECT_EQ(make_shaw_tables(p).a_key, t.a_key);

    // The logits follow eq. 4 with the stored a^K.
    p.seed = 0;
    const MatrixResult m = compute_matrix(s, MatrixKind::Logits, {});
    std::vector<std::int64_t> positions(12);
    for (std::int64_t i = 0; i < 12; ++i)
        positions[static_cast<std::size_t>(i)] = i;
    const Eigen::MatrixXd q = content_queries(s.content, 4, positions),
                          k = content_keys(s.content, 4, positions);
    for (std::int64_t i = 0; i < 12; ++i)
        for (std::int64_t j = 0; j < 12; ++j) {
            const std::int64_t rel = std::clamp<std::int64_t>(j - i, -2, 2);
            double e = 0.0;
            for (int c = 0; c < 4; ++c)
                e += q(i, c) * (k(j, c) + ramp_at(rel + 2, c, 4));
            e /= 2.0; // sqrt(4)
            ASSERT_NEAR(m.values(i, j), e, 1e-12 * std::max(1.0, std::abs(e))) << i << ", " << j;
        }
}

TEST(MethodTables, ShawValueTableFromCsv)
{
    Scenario s = shaw_scenario();
    s.params<ShawParams>().value_table = write("aV.csv", csv(5, 4, 2.0f));
    ASSERT_NO_THROW(validate(s));
    const ShawTables t = make_shaw_tables(s.params<ShawParams>());
    EXPECT_EQ(t.a_value(4, 3), ramp_at(4, 3, 4, 2.0));
    EXPECT_EQ(t.a_value(0, 0), -2.0);
}

TEST(MethodTables, AWrongShapeNamesTheFieldTheShapeNeededAndTheShapeFound)
{
    Scenario s = shaw_scenario(8, 4); // needs 17 x 4
    s.params<ShawParams>().key_table = write("aK_5x4.csv", csv(5, 4, 0.0f));
    const auto e = refusal(s);
    ASSERT_TRUE(e) << "a 5 x 4 table accepted where 17 x 4 is needed";
    EXPECT_EQ(e->parameter(), "key_table");
    EXPECT_NE(e->allowed().find("17 x 4"), std::string::npos) << e->allowed();
    EXPECT_NE(e->allowed().find("max_relative_position"), std::string::npos) << e->allowed();
    EXPECT_NE(e->got().find("5 x 4"), std::string::npos) << e->got();
    EXPECT_THROW(make_shaw_tables(s.params<ShawParams>()), ParameterError);
}

TEST(MethodTables, UnreadableAndHostileFilesAreRefusedWithTheOptionAndTheFile)
{
    Scenario s = shaw_scenario();
    auto& p = s.params<ShawParams>();
    p.key_table = "/nonexistent/aK.npy";
    {
        const auto e = refusal(s);
        ASSERT_TRUE(e);
        EXPECT_EQ(e->parameter(), "key_table");
        EXPECT_NE(e->got().find("--key-table"), std::string::npos) << e->got();
        EXPECT_NE(e->got().find("aK.npy"), std::string::npos) << e->got();
    }
    // A safetensors header that claims more bytes than the file has.
    const std::string header = R"({"aK":{"dtype":"F32","shape":[5,4],"data_offsets":[0,80]}})";
    p.key_table = write("truncated.safetensors", safetensors_raw(header, std::string(8, '\0')));
    p.key_table_tensor = "aK";
    EXPECT_TRUE(refusal(s));
    // A header length far beyond the file: refused before anything of that size is allocated.
    p.key_table = write("huge.safetensors", le_bytes(std::uint64_t{1} << 60, 8) + "{}");
    EXPECT_TRUE(refusal(s));
    // A .safetensors file without a tensor name, and a tensor name without a file.
    p.key_table = write("shaw2.safetensors", safetensors_file({f32_tensor("aK", 5, 4, ramp(5, 4))}));
    p.key_table_tensor.clear();
    {
        const auto e = refusal(s);
        ASSERT_TRUE(e);
        EXPECT_NE(e->got().find("--key-table-tensor"), std::string::npos) << e->got();
    }
    p.key_table.clear();
    p.key_table_tensor = "aK";
    {
        const auto e = refusal(s);
        ASSERT_TRUE(e);
        EXPECT_EQ(e->parameter(), "key_table_tensor");
    }
    // NaN in a table.
    p.key_table_tensor.clear();
    p.key_table = write("nan.csv", "1,2,3,nan\n1,2,3,4\n1,2,3,4\n1,2,3,4\n1,2,3,4\n");
    EXPECT_TRUE(refusal(s));
}

TEST(MethodTables, TransformerXlRNetOfAnotherWidthAndBiasVectorsInEitherOrientation)
{
    Scenario s;
    s.method = Method::TransformerXL;
    s.seq_len = 10;
    s.content.kind = ContentKind::Random;
    auto& p = s.params<TransformerXLParams>();
    p.head_dim = 4;
    const int e = 6; // R_{i-j} in 6 dimensions, as a checkpoint's r_net maps d_model to one head
    p.r_net = write("r_net.safetensors", safetensors_file({f32_tensor("layers.0.r_net", 4, e, ramp(4, e))}));
    p.r_net_tensor = "layers.0.r_net";
    p.r_w_bias = write("u.csv", csv(4, 1, 3.0f));  // 4 x 1
    p.r_r_bias = write("v.csv", csv(1, 4, -1.0f)); // 1 x 4
    ASSERT_NO_THROW(validate(s));
    const TxlModel m = make_txl_model(p);
    ASSERT_EQ(m.w_k_r.rows(), 4);
    ASSERT_EQ(m.w_k_r.cols(), e);
    for (int c = 0; c < 4; ++c) {
        EXPECT_EQ(m.u[c], ramp_at(c, 0, 1, 3.0));
        EXPECT_EQ(m.v[c], ramp_at(0, c, 4, -1.0));
    }
    // W_{k,R} R_r with R_r = [sin(r w_0..2) | cos(r w_0..2)], w_k = base^(-2k/e), written out.
    for (std::int64_t r : {-7, 0, 3, 9}) {
        const Eigen::VectorXd got = txl_projected_relative(m, r);
        for (int row = 0; row < 4; ++row) {
            double want = 0.0;
            for (int k = 0; k < e / 2; ++k) {
                const double w = std::pow(p.base, -2.0 * k / e);
                want += ramp_at(row, k, e) * std::sin(static_cast<double>(r) * w) +
                        ramp_at(row, e / 2 + k, e) * std::cos(static_cast<double>(r) * w);
            }
            EXPECT_NEAR(got[row], want, 1e-12 * std::max(1.0, std::abs(want))) << r << ", " << row;
        }
    }
    // An odd e, and a bias of the wrong length.
    p.r_net = write("r_net_odd.csv", csv(4, 5, 0.0f));
    p.r_net_tensor.clear();
    EXPECT_EQ(refusal(s)->parameter(), "r_net");
    p.r_net.clear();
    p.r_w_bias = write("u5.csv", csv(5, 1, 0.0f));
    {
        const auto err = refusal(s);
        ASSERT_TRUE(err);
        EXPECT_EQ(err->parameter(), "r_w_bias");
        EXPECT_NE(err->allowed().find("4 values"), std::string::npos) << err->allowed();
    }
}

TEST(MethodTables, DebertaRelativeEmbeddingsFromACheckpointByTheirKnownNameWithTheirOwnWidth)
{
    Scenario s;
    s.method = Method::DeBERTa;
    s.seq_len = 16;
    s.content.kind = ContentKind::Random;
    auto& p = s.params<DebertaParams>();
    p.head_dim = 4;
    p.position_buckets = 4; // att_span 4: 8 rows
    p.max_relative_positions = 16;
    const int e = 6; // the checkpoint's hidden size
    p.rel_embeddings = write(
        "deberta.safetensors",
        safetensors_file({f32_tensor("deberta.embeddings.word_embeddings.weight", 3, e, ramp(3, e)),
                          f32_tensor("deberta.encoder.rel_embeddings.weight", 8, e, ramp(8, e, 2.0f))}));
    p.pos_key_proj = write("wk.csv", csv(4, e, 0.5f));
    ASSERT_NO_THROW(validate(s)) << "the known tensor was not found without a name";
    const DebertaModel m = make_deberta_model(p);
    ASSERT_EQ(m.rel_embeddings.rows(), 8);
    ASSERT_EQ(m.rel_embeddings.cols(), e);
    EXPECT_EQ(m.rel_embeddings(7, 5), ramp_at(7, 5, e, 2.0));
    // K^r = rel_embeddings W_k^T (nn.Linear), with the stored W_k.
    for (int r = 0; r < 8; ++r)
        for (int c = 0; c < 4; ++c) {
            double want = 0.0;
            for (int x = 0; x < e; ++x)
                want += ramp_at(r, x, e, 2.0) * ramp_at(c, x, e, 0.5);
            EXPECT_NEAR(m.pos_key(r, c), want, 1e-12 * std::max(1.0, std::abs(want)));
        }
    // W_q stays seeded, now 4 x 6: Q^r has the head's 4 columns.
    EXPECT_EQ(m.pos_query.rows(), 8);
    EXPECT_EQ(m.pos_query.cols(), 4);
    // A projection must have the relative embeddings' width.
    p.pos_query_proj = write("wq_bad.csv", csv(4, 4, 0.0f));
    {
        const auto err = refusal(s);
        ASSERT_TRUE(err);
        EXPECT_EQ(err->parameter(), "pos_query_proj");
        EXPECT_NE(err->allowed().find("4 x 6"), std::string::npos) << err->allowed();
    }
    // 2 att_span rows: another bucket count refuses the table.
    p.pos_query_proj.clear();
    p.position_buckets = 8;
    EXPECT_EQ(refusal(s)->parameter(), "rel_embeddings");
}

TEST(MethodTables, CopePositionEmbeddingsFromNpyAreUsedAsStored)
{
    Scenario s;
    s.method = Method::CoPE;
    s.seq_len = 8;
    s.content.kind = ContentKind::Random;
    auto& p = s.params<CopeParams>();
    p.head_dim = 2;
    p.npos_max = 3;
    p.pos_emb = std::string(POSATLAS_TEST_DATA) + "/learned_4x3.csv"; // 4 x 3: neither shape fits
    EXPECT_EQ(refusal(s)->parameter(), "pos_emb");
    p.npos_max = 4;
    p.head_dim = 3;
    ASSERT_NO_THROW(validate(s));
    const Eigen::MatrixXd e = cope_position_embeddings(p);
    ASSERT_EQ(e.rows(), 4);
    EXPECT_EQ(e(0, 1), 0.25);
    EXPECT_EQ(e(3, 2), 3.5);
    // A seed does not move a trained table; the logits change with the table (z_ir = q_i . e[r]).
    // (Masked cells, keys after the query, are NaN: compared on the causal triangle.)
    const auto causal_cells_equal = [](const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
        for (Eigen::Index i = 0; i < a.rows(); ++i)
            for (Eigen::Index j = 0; j <= i; ++j)
                if (a(i, j) != b(i, j))
                    return false;
        return true;
    };
    const MatrixResult with_file = compute_matrix(s, MatrixKind::Logits, {});
    p.seed = 5;
    EXPECT_TRUE(causal_cells_equal(compute_matrix(s, MatrixKind::Logits, {}).values, with_file.values));
    p.pos_emb.clear();
    EXPECT_FALSE(causal_cells_equal(compute_matrix(s, MatrixKind::Logits, {}).values, with_file.values));
}

TEST(MethodTables, TheStandInsSeedHasAPanelRowOnlyWhileATableIsSeeded)
{
    Scenario s = shaw_scenario();
    const MethodDescriptor& d = descriptor(Method::Shaw);
    const Field& seed = *d.field("seed");
    const Field& spread = *d.field("initializer_range");
    ASSERT_TRUE(seed.shown && spread.shown);
    EXPECT_TRUE(seed.shown(s));
    s.params<ShawParams>().key_table = "aK.csv";
    EXPECT_TRUE(seed.shown(s)); // a^V is still drawn from the seed
    s.params<ShawParams>().value_table = "aV.csv";
    EXPECT_FALSE(seed.shown(s));
    EXPECT_FALSE(spread.shown(s));
}
