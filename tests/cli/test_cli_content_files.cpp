// SPDX-License-Identifier: GPL-3.0-or-later
// The user's own queries and keys on the command line: `--queries F --keys F` (.npy) and
// `--queries F.safetensors --queries-tensor NAME` in `compute matrix` and `export`, and their errors.
// .npy files are written byte by byte from the NumPy format spec (numpy.lib.format, version 1.0).
#include "cli_support.h"
#include "weights_fixtures.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace {

using nlohmann::json;
using namespace posatlas::test;

std::string npy_f64(const std::string& name, int rows, int cols, const std::vector<double>& v)
{
    std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (" + std::to_string(rows) + ", " +
                       std::to_string(cols) + "), }";
    while ((10 + dict.size() + 1) % 64 != 0)
        dict += ' ';
    dict += '\n';
    std::string data;
    for (const double x : v)
        data += f64_bytes(x);
    return write_file(name, std::string("\x93NUMPY\x01\x00", 8) + le_bytes(dict.size(), 2) + dict + data)
        .string();
}

// q_p and k_p for p = 0, 1, 2 (d = 4).
const std::vector<double> kQ = {1, 0.5, -1, 2, 2, 0.5, -1, 1, 3, 0.5, -1, 0};
const std::vector<double> kK = {1, 0, 0.25, -0.5, 1, 1, 0.25, -0.5, 1, 2, 0.25, -0.5};

} // namespace

TEST(CliContentFiles, RopeDiagonalIsTheFilesDotProduct)
{
    // RoPE rotates q_p and k_p by the same angles at i = j = p, and a rotation keeps dot products: the
    // diagonal logit is q_p . k_p / sqrt(4) (Su et al. 2021, eq. 16). Tolerance 1e-12 (cos/sin rounding).
    const std::string q = npy_f64("cli_q.npy", 3, 4, kQ), k = npy_f64("cli_k.npy", 3, 4, kK);
    const Result r = run({"compute", "matrix", "--method", "rope", "--head-dim", "4", "--seq-len", "3",
                          "--queries", q, "--keys", k});
    ASSERT_EQ(r.status, 0) << r.err;
    const json j = json::parse(r.out);
    for (int p = 0; p < 3; ++p) {
        double dot = 0.0;
        for (int c = 0; c < 4; ++c)
            dot += kQ[static_cast<std::size_t>(4 * p + c)] * kK[static_cast<std::size_t>(4 * p + c)];
        EXPECT_NEAR(j["matrix"][p][p].get<double>(), dot / 2.0, 1e-12) << p;
    }
    // The same tensors from one safetensors file, as float32 (every value is exact in float32).
    std::string qf, kf;
    for (const double v : kQ)
        qf += f32_bytes(static_cast<float>(v));
    for (const double v : kK)
        kf += f32_bytes(static_cast<float>(v));
    const std::string st = write_file("cli_qk.safetensors",
                                      safetensors_file({{"k", "F32", {3, 4}, kf}, {"q", "F32", {3, 4}, qf}}))
                               .string();
    const Result s = run({"compute", "matrix", "--method", "rope", "--head-dim", "4", "--seq-len", "3",
                          "--queries", st, "--queries-tensor", "q", "--keys", st, "--keys-tensor", "k"});
    ASSERT_EQ(s.status, 0) << s.err;
    EXPECT_EQ(json::parse(s.out)["matrix"], j["matrix"]);
}

TEST(CliContentFiles, ShapeAndFileErrorsNameTheOptionAndExitTwo)
{
    const std::string q = npy_f64("cli_q.npy", 3, 4, kQ), k = npy_f64("cli_k.npy", 3, 4, kK);
    const Result rows = run({"compute", "matrix", "--method", "rope", "--head-dim", "4", "--seq-len", "5",
                             "--queries", q, "--keys", k});
    EXPECT_EQ(rows.status, 2);
    EXPECT_NE(rows.err.find("seq"), std::string::npos) << rows.err;
    EXPECT_NE(rows.err.find("[1, 3]"), std::string::npos) << rows.err;

    const Result width = run({"compute", "matrix", "--method", "rope", "--head-dim", "8", "--seq-len", "3",
                              "--queries", q, "--keys", k});
    EXPECT_EQ(width.status, 2);
    EXPECT_NE(width.err.find("queries"), std::string::npos) << width.err;
    EXPECT_NE(width.err.find("8 columns"), std::string::npos) << width.err;

    const Result missing = run({"compute", "matrix", "--method", "rope", "--head-dim", "4", "--seq-len", "3",
                                "--queries", q, "--keys", (temp_dir() / "no_such_keys.npy").string()});
    EXPECT_EQ(missing.status, 2);
    EXPECT_NE(missing.err.find("--keys"), std::string::npos) << missing.err;
    EXPECT_NE(missing.err.find("no_such_keys.npy"), std::string::npos) << missing.err;
    EXPECT_TRUE(missing.out.empty());
}

TEST(CliContentFiles, ExportDrawsTheFileContent)
{
    const std::string q = npy_f64("cli_q.npy", 3, 4, kQ), k = npy_f64("cli_k.npy", 3, 4, kK);
    const fs::path out = temp_dir() / "content_files.png";
    const Result r = run({"export", "--view", "heatmap", "--method", "rope", "--head-dim", "4", "--seq-len",
                          "3", "--queries", q, "--keys", k, "--out", out.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_GT(slurp(out).size(), 1000u);
}
