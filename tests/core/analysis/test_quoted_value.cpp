// SPDX-License-Identifier: GPL-3.0-or-later
// Tests of the quoted-number expressions (core/analysis/quoted_value.h) that tie a lesson's numbers to
// the app. References: RoFormer's theta_i = b^(-2i/d) and bound(0) = (d/2 + 1) / 2 (decay.h);
// YaRN's attention factor 0.1 ln s + 1 (Peng et al. 2023, eq. (22)-(23); HF _compute_yarn_parameters
// get_mscale); ALiBi's slopes 2^(-8h/H) (Press et al. 2022, get_slopes); the cells against
// compute_matrix directly; the lab's results against small files written by the test.
#include "analysis/quoted_value.h"

#include "analysis/lab_results.h"
#include "compute/attention_logits.h"
#include "scenario/params.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numbers>

#include <unistd.h>

using namespace posatlas;

namespace {

double eval(const char* text, const Scenario& s = {})
{
    return QuoteExpression::parse(text).evaluate(s);
}

Scenario rope(int head_dim = 128)
{
    Scenario s;
    s.method = Method::RoPE;
    s.params<RopeParams>().head_dim = head_dim;
    return s;
}

} // namespace

TEST(QuotedValue, ArithmeticFollowsPrecedence)
{
    EXPECT_DOUBLE_EQ(eval("1 + 2 * 3"), 7.0);
    EXPECT_DOUBLE_EQ(eval("(1 + 2) * 3"), 9.0);
    EXPECT_DOUBLE_EQ(eval("2 ^ 3 ^ 2"), 512.0); // right-associative
    EXPECT_DOUBLE_EQ(eval("-2 ^ 2"), -4.0);     // unary minus binds looser than ^
    EXPECT_DOUBLE_EQ(eval("8 / 4 / 2"), 1.0);   // left-associative
    EXPECT_DOUBLE_EQ(eval("ln(2) / 0.5"), std::log(2.0) / 0.5);
    EXPECT_DOUBLE_EQ(eval("2*pi"), 2 * std::numbers::pi);
    EXPECT_DOUBLE_EQ(eval("max(1, 5, 3) - min(4, 2)"), 3.0);
}

TEST(QuotedValue, RopeFunctionsAgainstTheFormulas)
{
    const Scenario s = rope(128);
    EXPECT_DOUBLE_EQ(eval("theta(0)", s), 1.0);
    // theta_63 = 10000^(-126/128), relative 1e-14.
    EXPECT_NEAR(eval("theta(63)", s), std::pow(10000.0, -126.0 / 128.0),
                1e-14 * std::pow(10000.0, -126.0 / 128.0));
    EXPECT_NEAR(eval("wavelength(0)", s), 2 * std::numbers::pi, 1e-14);
    EXPECT_DOUBLE_EQ(eval("rotary_pairs()", s), 64.0);
    EXPECT_NEAR(eval("bound(0)", s), 32.5, 1e-12); // (d/2 + 1) / 2
    EXPECT_NEAR(eval("bound_ratio(0)", s), 1.0, 1e-15);
    EXPECT_NEAR(eval("meancos(0)", s), 1.0, 1e-15);
    // Wavelength 2 pi 10000^(2i/128) > 2048 from i = 41 on (2 pi 10000^(80/128) = 1988 < 2048).
    EXPECT_DOUBLE_EQ(eval("first_pair_longer_than(2048)", s), 41.0);

    // (R(m) q) . (R(n) k) for q = (1, 0), k = (0, 1), d = 2: sin((m - n) theta_0) = sin(3).
    EXPECT_NEAR(eval("rope_score(5, 2, [1, 0], [0, 1])", s), std::sin(3.0), 1e-14);
    EXPECT_NEAR(eval("rope_score(2, 5, [1, 0], [0, 1])", s), -std::sin(3.0), 1e-14);

    Scenario yarn = s;
    auto& p = yarn.params<RopeParams>();
    p.rope_type = RopeType::Yarn;
    p.factor = 16;
    p.original_max_position_embeddings = 4096;
    p.max_position_embeddings = 65536;
    EXPECT_NEAR(eval("attention_factor()", yarn), 0.1 * std::log(16.0) + 1.0, 1e-12);
    // The three bands add up to every pair; the blend band is not empty for these betas.
    const double kept = eval("pairs_kept()", yarn), divided = eval("pairs_divided()", yarn);
    EXPECT_GT(kept, 0);
    EXPECT_GT(divided, 0);
    EXPECT_LT(kept + divided, 64);
}

TEST(QuotedValue, MatrixCellsAreComputeMatrixCells)
{
    Scenario s = rope(64);
    s.seq_len = 16;
    s.content.kind = ContentKind::Random;
    MatrixWindow all;
    const MatrixResult logits = compute_matrix(s, MatrixKind::Logits, all);
    EXPECT_DOUBLE_EQ(eval("logits(7, 3)", s), logits.values(7, 3));
    EXPECT_DOUBLE_EQ(eval("logits_max()", s), logits.values.maxCoeff());
    EXPECT_DOUBLE_EQ(eval("logits_min()", s), logits.values.minCoeff());
    EXPECT_NEAR(eval("logits_mean()", s), logits.values.mean(), 1e-12);
    const MatrixResult weights = compute_matrix(s, MatrixKind::Weights, all);
    EXPECT_DOUBLE_EQ(eval("weights(7, 3)", s), weights.values(7, 3));
    // The logit curve is the last row read backwards.
    EXPECT_DOUBLE_EQ(eval("curve(4)", s), logits.values(15, 11));
    EXPECT_DOUBLE_EQ(eval("curve_max(0, 15)", s), logits.values.row(15).maxCoeff());
}

TEST(QuotedValue, AlibiSlopesAndScenarioFields)
{
    Scenario s;
    s.method = Method::ALiBi;
    s.params<AlibiParams>().num_heads = 8;
    EXPECT_DOUBLE_EQ(eval("slope(0)", s), 0.5);
    EXPECT_DOUBLE_EQ(eval("slope(7)", s), 1.0 / 256);
    s.params<AlibiParams>().slope_scale = 2;
    EXPECT_DOUBLE_EQ(eval("slope(0)", s), 1.0);
    EXPECT_DOUBLE_EQ(eval("slope_unscaled(0)", s), 0.5);
    EXPECT_DOUBLE_EQ(eval("param(\"alibi.slope_scale\")", s), 2.0);
    EXPECT_DOUBLE_EQ(eval("param(\"seq_len\")", s), static_cast<double>(s.seq_len));
}

TEST(QuotedValue, BadExpressionsAndScenariosSayWhy)
{
    const auto message = [](const char* text, const Scenario& s = {}) -> std::string {
        try {
            eval(text, s);
        } catch (const QuoteError& e) {
            return e.what();
        }
        return "no error";
    };
    EXPECT_NE(message("theta(").find("ends too early"), std::string::npos);
    EXPECT_NE(message("tehta(0)").find("unknown function \"tehta\""), std::string::npos);
    EXPECT_NE(message("theta(0, 1)").find("theta takes 1 arguments (got 2)"), std::string::npos);
    EXPECT_NE(message("logits(1)").find("takes 2 arguments"), std::string::npos);
    EXPECT_NE(message("1 +").find("ends too early"), std::string::npos);
    EXPECT_NE(message("1 2").find("column 3: unexpected"), std::string::npos);
    EXPECT_NE(message("theta(99)", rope(128)).find("pair 99 does not exist"), std::string::npos);
    EXPECT_NE(message("theta(0.5)", rope(128)).find("whole number"), std::string::npos);
    Scenario alibi;
    alibi.method = Method::ALiBi;
    EXPECT_NE(message("theta(0)", alibi).find("needs a RoPE scenario"), std::string::npos);
    EXPECT_NE(message("slope(0)", rope()).find("needs an ALiBi scenario"), std::string::npos);
    EXPECT_NE(message("logits(999, 0)", rope()).find("logits:"), std::string::npos); // outside the matrix
    EXPECT_NE(message("param(\"rope.nope\")", rope()).find("no field"), std::string::npos);
    Scenario big = rope();
    big.seq_len = kMaxQuotedMatrix + 1;
    EXPECT_NE(message("logits_max()", big).find("seq_len <= "), std::string::npos);
    std::string deep(100, '(');
    EXPECT_NE(message(deep.c_str()).find("nested too deeply"), std::string::npos);
}

TEST(PrintedNumber, PrecisionIsHalfTheLastDigit)
{
    const auto p = parse_printed_number("0.034");
    ASSERT_TRUE(p);
    EXPECT_DOUBLE_EQ(p->value, 0.034);
    EXPECT_EQ(p->decimals, 3);
    EXPECT_TRUE(printed_number_matches(*p, 0.0344));
    EXPECT_TRUE(printed_number_matches(*p, 0.0335));
    EXPECT_FALSE(printed_number_matches(*p, 0.0346));
    EXPECT_FALSE(printed_number_matches(*p, 0.0334));

    const auto e = parse_printed_number("3.16e-4");
    ASSERT_TRUE(e);
    EXPECT_DOUBLE_EQ(e->value, 3.16e-4);
    EXPECT_TRUE(printed_number_matches(*e, 3.1623e-4));
    EXPECT_FALSE(printed_number_matches(*e, 3.17e-4));
    EXPECT_EQ(print_like(*e, 3.1623e-4), "3.16e-4");

    const auto n = parse_printed_number("-1015.5");
    ASSERT_TRUE(n);
    EXPECT_TRUE(printed_number_matches(*n, -1015.5));
    EXPECT_FALSE(printed_number_matches(*n, -1015.6));
    EXPECT_EQ(print_like(*n, -1015.55), "-1015.5"); // printf's round-half-even on the binary value
    const auto i = parse_printed_number("177");
    ASSERT_TRUE(i);
    EXPECT_TRUE(printed_number_matches(*i, 177.4));
    EXPECT_FALSE(printed_number_matches(*i, 177.6));
    EXPECT_EQ(print_like(*i, 177.6), "178");
    EXPECT_EQ(print_like(*parse_printed_number("0.00"), -0.001), "0.00"); // never "-0.00"

    for (const char* bad : {"", "-", "1.", ".5", "1e", "1,5", "0x10", "1.2.3", "12 "})
        EXPECT_FALSE(parse_printed_number(bad)) << bad;
    EXPECT_FALSE(printed_number_matches(*p, std::nan("")));
}

namespace {

// A lab-runs folder of its own (POSATLAS_LAB_RUNS) with a sweep of two seeds and one evaluation file.
struct LabRunsFolder {
    std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("posatlas-quoted-lab-" + std::to_string(::getpid()));
    LabRunsFolder()
    {
        std::filesystem::create_directories(dir / "toy" / "rope" / "seed-0" / "evals");
        std::ofstream(dir / "toy" / "sweep.json")
            << R"({"lengths": [8, 16], "methods": ["rope", "learned"], "rows": [
                 {"method": "rope", "seed": 0, "length": 8, "accuracy": 0.5, "loss": 1.0},
                 {"method": "rope", "seed": 1, "length": 8, "accuracy": 0.75, "loss": 2.0},
                 {"method": "learned", "seed": 0, "length": 16, "accuracy": "not defined", "loss": "not defined"}]})";
        std::ofstream(dir / "toy" / "rope" / "seed-0" / "evals" / "pi.json")
            << R"({"finetune": {"final_loss": 0.125}, "lengths": [
                 {"length": 16, "answer_accuracy": 0.25, "loss": 3.5, "attention_entropy": [1.5, 2.5]}]})";
        ::setenv("POSATLAS_LAB_RUNS", dir.c_str(), 1);
    }
    ~LabRunsFolder()
    {
        ::unsetenv("POSATLAS_LAB_RUNS");
        std::filesystem::remove_all(dir);
    }
};

} // namespace

// The lab's results are read from the files (analysis/lab_results.h), exactly: the sweep's mean over its
// seeds, an evaluation file's row, entropy layer and fine-tune loss (values chosen exact in binary, so
// equality is the tolerance).
TEST(QuotedValue, LabResultsAreReadFromTheShippedFiles)
{
    const LabRunsFolder folder;
    EXPECT_EQ(eval("lab_accuracy(\"toy/rope\", 8)"), 0.625);
    EXPECT_EQ(eval("lab_loss(\"toy/rope\", 8)"), 1.5);
    EXPECT_EQ(eval("lab_eval_accuracy(\"toy/rope/seed-0/evals/pi\", 16)"), 0.25);
    EXPECT_EQ(eval("lab_eval_loss(\"toy/rope/seed-0/evals/pi\", 16)"), 3.5);
    EXPECT_EQ(eval("lab_entropy(\"toy/rope/seed-0/evals/pi\", 16, 1)"), 2.5);
    EXPECT_EQ(eval("lab_finetune_loss(\"toy/rope/seed-0/evals/pi\")"), 0.125);
    // An installed program's embedded copy is asked last.
    set_lab_results_fallback([](const std::string& relative) -> std::optional<std::string> {
        if (relative != "embedded/sweep.json")
            return std::nullopt;
        return R"({"rows": [{"method": "alibi", "seed": 0, "length": 4, "accuracy": 1.0, "loss": 0.0}]})";
    });
    EXPECT_EQ(eval("lab_accuracy(\"embedded/alibi\", 4)"), 1.0);
    set_lab_results_fallback({});
}

TEST(QuotedValue, LabResultsThatDoNotExistOrLeaveTheFolderSayWhy)
{
    const LabRunsFolder folder;
    const auto message = [](const char* text) {
        try {
            eval(text);
        } catch (const QuoteError& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    EXPECT_NE(message("lab_accuracy(\"toy/learned\", 16)").find("not defined"), std::string::npos);
    EXPECT_NE(message("lab_accuracy(\"toy/rope\", 32)").find("no row for rope at length 32"),
              std::string::npos);
    EXPECT_NE(message("lab_accuracy(\"rope\", 8)").find("SWEEP/METHOD"), std::string::npos);
    EXPECT_NE(message("lab_entropy(\"toy/rope/seed-0/evals/pi\", 16, 2)").find("no layer 2 (layers 0 to 1)"),
              std::string::npos);
    EXPECT_NE(message("lab_eval_loss(\"toy/rope/seed-0/evals/pi\", 8)").find("has no length 8"),
              std::string::npos);
    EXPECT_NE(message("lab_accuracy(\"../toy/rope\", 8)").find("not a path inside lab-runs"),
              std::string::npos);
    EXPECT_NE(message("lab_accuracy(\"/etc/rope\", 8)").find("not a path inside lab-runs"),
              std::string::npos);
    EXPECT_NE(message("lab_eval_loss(\"nowhere/x\", 8)").find("no lab result lab-runs/nowhere/x.json"),
              std::string::npos);
    EXPECT_NE(message("lab_accuracy(8, 8)").find("must be a string"), std::string::npos);
}
