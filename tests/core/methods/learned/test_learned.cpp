// SPDX-License-Identifier: GPL-3.0-or-later
// Learned absolute position tables (BERT / GPT-2 nn.Embedding(max_position_embeddings, hidden)).
// Test files in tests/data are written by tests/data/make_learned_tables.py (python3 + struct, NumPy
// .npy format spec); entry (p, c) of every good table is p + c / 4, exact in float32 and float64, so
// loads compare exactly.
#include "methods/learned/learned.h"
#include "scenario/types.h"
#include "test_names.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

using namespace posatlas;

namespace {

std::string data(const std::string& name)
{
    return std::string(POSATLAS_TEST_DATA) + "/" + name;
}

void expect_reference_table(const LearnedTable& t)
{
    ASSERT_EQ(t.trained_length(), 4);
    ASSERT_EQ(t.dim(), 3);
    for (int p = 0; p < 4; ++p)
        for (int c = 0; c < 3; ++c)
            EXPECT_EQ(t.table()(p, c), p + c / 4.0) << p << "," << c; // exact (binary fractions)
}

TEST(LearnedTable, SeededIsDeterministicAndRowAddressable)
{
    LearnedParams p;
    p.dim = 16;
    p.trained_length = 40;
    p.seed = 11;
    const auto a = LearnedTable::seeded(p);
    const auto b = LearnedTable::seeded(p);
    EXPECT_TRUE(a.table().isApprox(b.table(), 0.0));
    for (std::int64_t pos : {0, 17, 39}) {
        const auto row = LearnedTable::seeded_row(p, pos);
        ASSERT_TRUE(row.has_value());
        EXPECT_TRUE(row->isApprox(a.table().row(pos).transpose(), 0.0)) << pos; // same numbers, exactly
    }
    p.seed = 12;
    EXPECT_FALSE(a.table().isApprox(LearnedTable::seeded(p).table(), 1e-3));
    // Scale: N(0, 0.02) entries; 640 samples have a sample std within 20% of 0.02.
    const double mean = a.table().mean();
    const double var = (a.table().array() - mean).square().mean();
    EXPECT_NEAR(std::sqrt(var), 0.02, 0.004);
}

TEST(LearnedTable, NoEmbeddingBeyondTrainedLength)
{
    LearnedParams p;
    p.dim = 4;
    p.trained_length = 8;
    const auto t = LearnedTable::seeded(p);
    EXPECT_TRUE(t.has(7));
    EXPECT_TRUE(t.embedding(7).has_value());
    EXPECT_FALSE(t.has(8));
    EXPECT_FALSE(t.embedding(8).has_value()); // never a silent zero vector
    EXPECT_FALSE(t.embedding(1'000'000).has_value());
    EXPECT_FALSE(t.embedding(-1).has_value());
    EXPECT_FALSE(LearnedTable::seeded_row(p, 8).has_value());
}

TEST(LearnedTable, LoadsCsvAndNpyVariants)
{
    for (const char* name : {"learned_4x3.csv", "learned_4x3_header.csv", "learned_4x3_f8.npy",
                             "learned_4x3_f4.npy", "learned_4x3_v2.npy", "learned_4x3_fortran.npy"}) {
        SCOPED_TRACE(name);
        const auto t = LearnedTable::load(data(name));
        expect_reference_table(t);
        EXPECT_EQ(t.source(), data(name));
    }
}

TEST(LearnedTable, FromParamsPrefersTheFile)
{
    LearnedParams p;
    p.table_path = data("learned_4x3.csv");
    expect_reference_table(LearnedTable::from_params(p));
    p.table_path.clear();
    p.trained_length = 5;
    p.dim = 2;
    EXPECT_EQ(LearnedTable::from_params(p).trained_length(), 5);
}

struct BadFile {
    const char* name;
    const char* message_part; // the error must say what is wrong
};

class LearnedTableBadFiles : public ::testing::TestWithParam<BadFile>
{
};

TEST_P(LearnedTableBadFiles, ThrowClearRuntimeError)
{
    const auto& c = GetParam();
    try {
        LearnedTable::load(data(c.name));
        FAIL() << "expected std::runtime_error for " << c.name;
    } catch (const std::runtime_error& e) {
        const std::string msg = e.what();
        EXPECT_NE(msg.find(c.name), std::string::npos) << msg;         // names the file
        EXPECT_NE(msg.find(c.message_part), std::string::npos) << msg; // and the problem
    }
}

INSTANTIATE_TEST_SUITE_P(
    Malformed, LearnedTableBadFiles,
    ::testing::Values(BadFile{"learned_truncated.npy", "truncated data"},
                      BadFile{"learned_truncated_header.npy", "truncated .npy header"},
                      BadFile{"learned_i4.npy", "unsupported dtype '<i4'"},
                      BadFile{"learned_big_endian.npy", "unsupported dtype '>f8'"},
                      BadFile{"learned_1d.npy", "expected a 2-D array"},
                      BadFile{"learned_nan.npy", "row 2, column 1 is not finite"},
                      BadFile{"learned_bad_magic.npy", "not a .npy file"},
                      BadFile{"learned_ragged.csv", "line 3 has 2 values, expected 3"},
                      BadFile{"learned_nan.csv", "line 2, column 2"},
                      BadFile{"learned_text.csv", "line 4, column 3: 'abc' is not a number"},
                      BadFile{"learned_mixed_header.csv", "line 1, column 1"},
                      BadFile{"learned_header_only.csv", "no data rows"},
                      BadFile{"does_not_exist.csv", "cannot open the file"},
                      BadFile{"make_learned_tables.py", "expected a .csv, .npy or .safetensors"}),
    [](const ::testing::TestParamInfo<BadFile>& info) { // learned_nan_csv
        return posatlas::test::param_name(info.param.name);
    });

TEST(LearnedTable, EveryTruncationOfAnNpyFileIsACleanError)
{
    // Cut the good file after every byte count: each prefix must throw std::runtime_error, never
    // crash or read past the end; only the whole file loads.
    std::ifstream in(data("learned_4x3_f8.npy"), std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    ASSERT_EQ(bytes.size(), 224u);
    const auto path = std::filesystem::temp_directory_path() / "posatlas_truncated_prefix.npy";
    for (std::size_t n = 0; n < bytes.size(); ++n) {
        {
            std::ofstream out(path, std::ios::binary | std::ios::trunc);
            out.write(bytes.data(), static_cast<std::streamsize>(n));
        }
        EXPECT_THROW(LearnedTable::load(path.string()), std::runtime_error) << n << " bytes";
    }
    std::filesystem::remove(path);
}

TEST(LearnedTable, FromMatrixRejectsNonFinite)
{
    Eigen::MatrixXd m = Eigen::MatrixXd::Zero(2, 2);
    EXPECT_EQ(LearnedTable::from_matrix(m).trained_length(), 2);
    m(1, 1) = std::nan("");
    EXPECT_THROW(LearnedTable::from_matrix(m), std::invalid_argument);
    EXPECT_THROW(LearnedTable::from_matrix(Eigen::MatrixXd(0, 3)), std::invalid_argument);
}

TEST(LearnedTable, BadParametersNameTheKey)
{
    LearnedParams p;
    p.trained_length = 0;
    try {
        LearnedTable::seeded(p);
        FAIL() << "expected ParameterError";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "max_position_embeddings");
    }
    p.trained_length = 10;
    p.stddev = -1.0;
    try {
        LearnedTable::seeded(p);
        FAIL() << "expected ParameterError";
    } catch (const ParameterError& e) {
        EXPECT_EQ(e.parameter(), "initializer_range");
    }
}

} // namespace
