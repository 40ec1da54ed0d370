// SPDX-License-Identifier: GPL-3.0-or-later
// The user's own queries and keys from files (scenario/content_file.h): .npy float16/32/64 and
// safetensors tensors, the shape rules, the cache, the session keys, and logits checked against a
// rotation written out by hand (Su et al. 2021, eq. 34; Hugging Face apply_rotary_pos_emb with
// rotate_half, the default "half" pairing).
#include "compute/attention_logits.h"
#include "io/scenario_json.h"
#include "methods/registry.h"
#include "scenario/content.h"
#include "scenario/content_file.h"
#include "scenario/types.h"
#include "scenario/validation.h"
#include "weights_fixtures.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace posatlas;
using namespace posatlas::test;

namespace {

std::string temp_path(const std::string& name)
{
    // Per process: ctest runs each case in its own process, two at a time, and they must not share files.
    return (std::filesystem::temp_directory_path() /
            ("posatlas_content_file_" + std::to_string(::getpid()) + "_" + name))
        .string();
}

void write_bytes(const std::string& path, const std::string& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
}

// A .npy v1.0 file (numpy.lib.format): magic, version, header length, the dict padded with spaces to a
// multiple of 64 bytes ending in '\n', then the C-order data.
std::string npy_bytes(const std::string& descr, int rows, int cols, const std::string& data)
{
    std::string dict = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': (" +
                       std::to_string(rows) + ", " + std::to_string(cols) + "), }";
    while ((10 + dict.size() + 1) % 64 != 0)
        dict += ' ';
    dict += '\n';
    return std::string("\x93NUMPY\x01\x00", 8) + le_bytes(dict.size(), 2) + dict + data;
}

std::string f64_data(const std::vector<double>& v)
{
    std::string s;
    for (const double x : v)
        s += f64_bytes(x);
    return s;
}

// Queries q_p = (p + 1, 0.5, -1, 2 - p) and keys k_p = (1, p, 0.25, -0.5) for p = 0, 1, 2: N = 3, d = 4.
const std::vector<double> kQ = {1, 0.5, -1, 2, 2, 0.5, -1, 1, 3, 0.5, -1, 0};
const std::vector<double> kK = {1, 0, 0.25, -0.5, 1, 1, 0.25, -0.5, 1, 2, 0.25, -0.5};

Scenario rope_with_files(const std::string& q, const std::string& k)
{
    Scenario s;
    s.method = Method::RoPE;
    s.seq_len = 3;
    s.params<RopeParams>().head_dim = 4;
    s.params<RopeParams>().rope_theta = 10000.0;
    s.content.queries.path = q;
    s.content.keys.path = k;
    return s;
}

// RoPE by hand, half pairing: x' = x cos(p w) + rotate_half(x) sin(p w), w_i = theta^(-2i/d) for the
// pair (i, i + d/2), rotate_half(x) = (-x_2, -x_3, x_0, x_1).
std::vector<double> rotate(const double* x, double p)
{
    const double w[2] = {1.0, std::pow(10000.0, -0.5)};
    const double c[4] = {std::cos(p * w[0]), std::cos(p * w[1]), std::cos(p * w[0]), std::cos(p * w[1])};
    const double s[4] = {std::sin(p * w[0]), std::sin(p * w[1]), std::sin(p * w[0]), std::sin(p * w[1])};
    const double half[4] = {-x[2], -x[3], x[0], x[1]};
    std::vector<double> out(4);
    for (int j = 0; j < 4; ++j)
        out[static_cast<std::size_t>(j)] = x[j] * c[j] + half[j] * s[j];
    return out;
}

class ContentFiles : public ::testing::Test
{
protected:
    void SetUp() override
    {
        clear_content_file_cache();
        q = temp_path("q.npy");
        k = temp_path("k.npy");
        write_bytes(q, npy_bytes("<f8", 3, 4, f64_data(kQ)));
        write_bytes(k, npy_bytes("<f8", 3, 4, f64_data(kK)));
    }
    void TearDown() override
    {
        std::filesystem::remove(q);
        std::filesystem::remove(k);
        clear_content_file_cache();
    }
    std::string q, k;
};

} // namespace

TEST_F(ContentFiles, RopeLogitsEqualTheHandRotatedDotProduct)
{
    const Scenario s = rope_with_files(q, k);
    const MatrixResult r = compute_matrix(s, MatrixKind::Logits, {});
    ASSERT_EQ(r.values.rows(), 3);
    ASSERT_EQ(r.values.cols(), 3);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) {
            const auto qi = rotate(&kQ[static_cast<std::size_t>(4 * i)], i);
            const auto kj = rotate(&kK[static_cast<std::size_t>(4 * j)], j);
            double dot = 0.0;
            for (int c = 0; c < 4; ++c)
                dot += qi[static_cast<std::size_t>(c)] * kj[static_cast<std::size_t>(c)];
            // Tolerance: a few ulps of values of order 10 (cos/sin and the sums in another order).
            EXPECT_NEAR(r.values(i, j), dot / 2.0, 1e-12) << "i=" << i << " j=" << j;
        }
}

TEST_F(ContentFiles, EveryMethodReadsTheFileRowsAsItsContent)
{
    // The content vectors themselves: row p of each file, for query and key, in every accessor.
    Scenario s = rope_with_files(q, k);
    validate(s);
    EXPECT_FALSE(content_is_position_independent(s.content));
    for (std::int64_t p = 0; p < 3; ++p) {
        const Eigen::VectorXd qp = content_query(s.content, 4, p);
        double into[4];
        content_vector_into(s.content, true, 4, p, into);
        for (int c = 0; c < 4; ++c) {
            EXPECT_EQ(qp[c], kQ[static_cast<std::size_t>(4 * p + c)]);
            EXPECT_EQ(into[c], kK[static_cast<std::size_t>(4 * p + c)]);
        }
    }
    const Eigen::MatrixXd keys = content_keys(s.content, 4, {2, 0});
    EXPECT_EQ(keys(0, 1), 2.0);
    EXPECT_EQ(keys(1, 1), 0.0);
    // q . k_j without the key matrix (content_key_dots, CoPE's row stream) reads the same rows.
    const double qd[4] = {1.0, -2.0, 0.5, 3.0};
    double dots[3] = {};
    content_key_dots(s.content, 4, 0, 3, qd, dots);
    for (std::size_t p = 0; p < 3; ++p) {
        double want = 0.0;
        for (std::size_t c = 0; c < 4; ++c)
            want += kK[4 * p + c] * qd[c];
        EXPECT_NEAR(dots[p], want, 1e-12 * (1.0 + std::abs(want))) << "key " << p;
    }
    // Every method with logits accepts the files when its head dimension is 4 (T5 and ALiBi take the
    // file's width), and its logits differ from those of the seeded content.
    for (const MethodDescriptor& d : methods()) {
        if (!d.kind(MatrixKind::Logits))
            continue;
        Scenario m = s;
        m.method = d.method;
        for (const char* key : {"head_dim", "hidden_size", "dim"})
            if (const Field* f = d.field(key))
                f->set(m, 4);
        if (d.content_dim(m) != 4)
            continue; // a method whose width is fixed otherwise (none today)
        Scenario seeded = m;
        seeded.content.queries = {};
        seeded.content.keys = {};
        seeded.content.kind = ContentKind::Ones;
        const MatrixResult a = compute_matrix(m, MatrixKind::Logits, {});
        const MatrixResult b = compute_matrix(seeded, MatrixKind::Logits, {});
        EXPECT_GT((a.values - b.values).cwiseAbs().maxCoeff(), 1e-6) << d.method.id();
    }
}

TEST_F(ContentFiles, BlockMeansAverageTheFileRows)
{
    // 64 positions of varied content, shown as 8 x 8 block means: equal to the mean of the exact cells.
    std::vector<double> qv, kv;
    for (int p = 0; p < 64; ++p)
        for (int c = 0; c < 4; ++c) {
            qv.push_back(std::sin(0.37 * p + c));
            kv.push_back(std::cos(0.11 * p * (c + 1)));
        }
    write_bytes(q, npy_bytes("<f8", 64, 4, f64_data(qv)));
    write_bytes(k, npy_bytes("<f8", 64, 4, f64_data(kv)));
    Scenario s = rope_with_files(q, k);
    s.seq_len = 64;
    for (const Method m : {Method::RoPE, Method::T5, Method::ALiBi}) {
        s.method = m;
        const MatrixResult exact = compute_matrix(s, MatrixKind::Logits, {});
        MatrixWindow w;
        w.out_rows = 8;
        w.out_cols = 8;
        const MatrixResult blocks = compute_matrix(s, MatrixKind::Logits, w);
        ASSERT_EQ(blocks.sampling, MatrixSampling::BlockMean) << m.id();
        for (int r = 0; r < 8; ++r)
            for (int c = 0; c < 8; ++c) {
                // Mean over the unmasked (finite) cells, as the block means of a causal method are.
                double sum = 0.0;
                int n = 0;
                for (int i = 8 * r; i < 8 * r + 8; ++i)
                    for (int j = 8 * c; j < 8 * c + 8; ++j)
                        if (std::isfinite(exact.values(i, j))) {
                            sum += exact.values(i, j);
                            ++n;
                        }
                if (n == 0) {
                    EXPECT_TRUE(std::isnan(blocks.values(r, c))) << m.id() << " block " << r << "," << c;
                    continue;
                }
                const double mean = sum / n;
                // Tolerance: sums of 64 terms of order 1 (RoPE's rotation recurrence adds < 1e-13).
                EXPECT_NEAR(blocks.values(r, c), mean, 1e-10) << m.id() << " block " << r << "," << c;
            }
    }
}

TEST_F(ContentFiles, NpyFloat16Float32AndFloat64AreReadExactly)
{
    // Values exact in binary16: 1, -2, 0.5, 2^-10, 65504 (the largest half), 2^-24 (the smallest subnormal).
    const std::vector<std::uint16_t> halves = {0x3C00, 0xC000, 0x3800, 0x1400, 0x7BFF, 0x0001};
    const std::vector<double> values = {1, -2, 0.5, std::ldexp(1.0, -10), 65504, std::ldexp(1.0, -24)};
    std::string f2, f4, f8;
    for (std::size_t i = 0; i < values.size(); ++i) {
        f2 += u16_bytes(halves[i]);
        f4 += f32_bytes(static_cast<float>(values[i]));
        f8 += f64_bytes(values[i]);
    }
    for (const auto& [descr, data] : {std::pair{"<f2", f2}, std::pair{"<f4", f4}, std::pair{"<f8", f8}}) {
        write_bytes(q, npy_bytes(descr, 3, 2, data));
        ContentFile f{q, "", nullptr};
        const auto m = load_content_file(f, "queries");
        ASSERT_EQ(m->rows(), 3);
        ASSERT_EQ(m->dim(), 2);
        for (int i = 0; i < 6; ++i)
            EXPECT_EQ(m->values(i / 2, i % 2), values[static_cast<std::size_t>(i)])
                << descr << " value " << i;
        clear_content_file_cache(); // the same path and, within a second, perhaps the same mtime
    }
}

TEST_F(ContentFiles, WrongWidthNamesTheHeadDimension)
{
    Scenario s = rope_with_files(q, k);
    s.params<RopeParams>().head_dim = 8;
    try {
        validate(s);
        FAIL() << "a 4-column file was accepted for head_dim 8";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "queries");
        EXPECT_NE(std::string(e.what()).find("8 columns"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("with 4 columns"), std::string::npos) << e.what();
    }
}

TEST_F(ContentFiles, TooFewRowsNamesSeqLenAndItsRange)
{
    Scenario s = rope_with_files(q, k);
    s.seq_len = 5;
    try {
        validate(s);
        FAIL() << "seq_len 5 was accepted with 3 rows";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "seq_len");
        EXPECT_NE(e.allowed().find("[1, 3]"), std::string::npos) << e.what();
    }
}

TEST_F(ContentFiles, MissingFileAndHalfAPairAreClearErrors)
{
    Scenario s = rope_with_files(temp_path("does_not_exist.npy"), k);
    try {
        validate(s);
        FAIL() << "a missing file was accepted";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "queries");
        const std::string what = e.what();
        EXPECT_NE(what.find("--queries"), std::string::npos) << what;
        EXPECT_NE(what.find("does_not_exist.npy"), std::string::npos) << what;
    }
    s = rope_with_files(q, "");
    EXPECT_THROW(
        {
            try {
                validate(s);
            } catch (const ParameterError& e) {
                EXPECT_EQ(e.parameter(), "keys");
                throw;
            }
        },
        ParameterError);
    s = rope_with_files(q, k);
    set_content_text(s.content, "a b c");
    EXPECT_THROW(validate(s), ParameterError);
    // A file of another kind, and a tensor name for a .npy file.
    write_bytes(temp_path("q.txt"), "1,2\n");
    EXPECT_THROW(load_content_file({temp_path("q.txt"), "", nullptr}, "queries"), ContentFileError);
    std::filesystem::remove(temp_path("q.txt"));
    EXPECT_THROW(load_content_file({q, "q", nullptr}, "queries"), ContentFileError);
}

TEST_F(ContentFiles, SafetensorsTensorsAreNamed)
{
    const std::string st = temp_path("qk.safetensors");
    std::string qf, kf;
    for (const double v : kQ)
        qf += f32_bytes(static_cast<float>(v));
    // kK as BF16: every value (1, 0, 0.25, -0.5, 2) is exact in bfloat16: the upper half of the float.
    for (const double v : kK) {
        const float f = static_cast<float>(v);
        std::uint32_t bits = 0;
        std::memcpy(&bits, &f, 4);
        kf += u16_bytes(static_cast<std::uint16_t>(bits >> 16));
    }
    write_bytes(st, safetensors_file({{"layer0.k", "BF16", {3, 4}, kf}, {"layer0.q", "F32", {3, 4}, qf}}));
    Scenario s = rope_with_files(st, st);
    s.content.queries.tensor = "layer0.q";
    s.content.keys.tensor = "layer0.k";
    const MatrixResult from_st = compute_matrix(s, MatrixKind::Logits, {});
    const MatrixResult from_npy = compute_matrix(rope_with_files(q, k), MatrixKind::Logits, {});
    EXPECT_EQ(from_st.values, from_npy.values); // the same numbers, read exactly from either format

    s.content.keys.tensor = "";
    try {
        validate(s);
        FAIL() << "a safetensors file without a tensor name was accepted";
    } catch (const ParameterError& e) {
        EXPECT_NE(std::string(e.what()).find("--keys-tensor"), std::string::npos) << e.what();
    }
    s.content.keys.tensor = "nope";
    try {
        validate(s);
        FAIL() << "an unknown tensor was accepted";
    } catch (const ParameterError& e) {
        EXPECT_NE(std::string(e.what()).find("layer0.q"), std::string::npos) << e.what(); // the listing
    }
    std::filesystem::remove(st);
}

TEST_F(ContentFiles, LoadedOnceAndReloadedWhenTheFileChanges)
{
    const ContentFile f{q, "", nullptr};
    const auto a = load_content_file(f, "queries");
    EXPECT_EQ(load_content_file(f, "queries").get(), a.get()); // the cache's matrix, not a new read
    // Another size (4 rows), so the change is seen even within the file system's time resolution.
    std::vector<double> more = kQ;
    more.insert(more.end(), {9, 9, 9, 9});
    write_bytes(q, npy_bytes("<f8", 4, 4, f64_data(more)));
    const auto b = load_content_file(f, "queries");
    EXPECT_NE(b.get(), a.get());
    EXPECT_EQ(b->rows(), 4);
    EXPECT_EQ(b->values(3, 0), 9.0);
    EXPECT_EQ(a->rows(), 3); // a holder of the old matrix keeps it unchanged
}

TEST_F(ContentFiles, SessionJsonKeepsPathsAndTensorsUnderContent)
{
    Scenario s = rope_with_files(q, k);
    s.content.queries.tensor = ""; // .npy: no tensor
    const nlohmann::json j = scenario_to_json(s);
    EXPECT_EQ(j["content"]["queries"], q);
    EXPECT_EQ(j["content"]["keys"], k);
    EXPECT_FALSE(j["content"].contains("queries_tensor")); // empty values are left out
    const Scenario back = scenario_from_json(j);
    EXPECT_EQ(back, s);
    EXPECT_EQ(back.content.queries.path, q);
    // Without files nothing is written, and an old session reads as before.
    const nlohmann::json plain = scenario_to_json(Scenario{});
    EXPECT_FALSE(plain["content"].contains("queries"));
    EXPECT_FALSE(scenario_from_json(plain).content.from_files());
}
