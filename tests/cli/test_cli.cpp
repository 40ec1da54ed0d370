// SPDX-License-Identifier: GPL-3.0-or-later
// End-to-end tests of the `posatlas` command line: the real binary is run and its exit status,
// stdout (JSON / CSV) and stderr are checked. References for the numbers are named per test.
#include "cli_support.h"
#include "test_names.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace {

using nlohmann::json;
namespace fs = std::filesystem;

using namespace posatlas::test;

json run_json(const std::vector<std::string>& args)
{
    const Result r = run(args);
    EXPECT_EQ(r.status, 0) << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;
    return json::parse(r.out);
}

// ------------------------------------------------------------------ every quantity has its keys

struct KeysCase {
    std::vector<std::string> args;
    std::vector<std::string> keys;
};

class QuantityKeys : public ::testing::TestWithParam<KeysCase>
{
};

TEST_P(QuantityKeys, JsonParsesAndHasStatedKeys)
{
    const json j = run_json(GetParam().args);
    for (const auto& k : GetParam().keys)
        EXPECT_TRUE(j.contains(k)) << "missing key " << k << " in " << j.dump().substr(0, 200);
}

INSTANTIATE_TEST_SUITE_P(
    Cli, QuantityKeys,
    ::testing::Values(
        KeysCase{
            {"compute", "rope-frequencies", "--head-dim", "64"},
            {"rope_type", "rotary_dim", "inv_freq_rad_per_token", "attention_factor", "wavelength_tokens"}},
        KeysCase{{"compute", "rope-frequencies", "--rope-type", "yarn", "--factor", "4",
                  "--original-max-position-embeddings", "4096"},
                 {"rope_type", "rotary_dim", "inv_freq_rad_per_token", "attention_factor",
                  "wavelength_tokens", "yarn_ramp"}},
        KeysCase{{"compute", "alibi-slopes", "--num-heads", "12"}, {"slopes"}},
        KeysCase{{"compute", "t5-buckets", "--num-buckets", "32", "--max-distance", "128", "--from", "-5",
                  "--to", "5"},
                 {"relative_position", "bucket"}},
        KeysCase{{"compute", "deberta-buckets", "--position-buckets", "256", "--max-relative-positions",
                  "512", "--from", "-3", "--to", "3"},
                 {"relative_position", "bucket"}},
        KeysCase{{"compute", "sinusoidal", "--length", "4", "--dim", "8"}, {"matrix"}},
        KeysCase{
            {"compute", "rope-decay", "--head-dim", "16", "--rope-theta", "10000", "--max-distance", "10"},
            {"distance_tokens", "bound", "mean_cos"}},
        KeysCase{{"compute", "rope-score", "--head-dim", "4", "--rope-theta", "10000", "--query", "1,0,0,1",
                  "--key", "0,1,1,0", "--query-position", "5", "--key-position", "2"},
                 {"score"}},
        KeysCase{{"compute", "rope-angles", "--head-dim", "8", "--position", "3"},
                 {"angle_rad", "inv_freq_rad_per_token"}},
        KeysCase{{"compute", "learned", "--dim", "4", "--max-position-embeddings", "8", "--from", "6", "--to",
                  "9"},
                 {"position", "embedding", "trained_length"}},
        KeysCase{{"compute", "matrix", "--method", "alibi", "--kind", "bias", "--seq-len", "16"},
                 {"matrix", "row_index", "col_index", "kind"}},
        KeysCase{{"presets", "--format", "json"}, {"presets"}},
        KeysCase{{"compute", "rope-pairs", "--preset", "llama-3.1-8b"},
                 {"pairs", "boundaries", "trained_length", "target_length"}},
        KeysCase{{"compute", "attention-entropy", "--head-dim", "32", "--lengths", "1,8,64", "--seed", "3",
                  "--trials", "2"},
                 {"length_tokens", "entropy_nats", "entropy_with_temperature_nats"}},
        KeysCase{{"compute", "t5-buckets", "--preset", "t5-base", "--from", "-3", "--to", "3"},
                 {"relative_position", "bucket"}},
        KeysCase{{"compute", "deberta-buckets", "--preset", "deberta-v3-base", "--from", "-3", "--to", "3"},
                 {"relative_position", "bucket"}},
        KeysCase{{"compute", "sinusoidal", "--preset", "transformer-base", "--length", "3"}, {"matrix"}}),
    // The command and the options that pick a variant: rope_frequencies_yarn, t5_buckets_t5_base.
    [](const ::testing::TestParamInfo<KeysCase>& info) {
        const std::vector<std::string>& a = info.param.args;
        std::string name = a.front() == "compute" && a.size() > 1 ? a[1] : a.front();
        for (std::size_t i = 0; i + 1 < a.size(); ++i)
            if (a[i] == "--preset" || a[i] == "--rope-type" || a[i] == "--method")
                name += " " + a[i + 1];
        return param_name(name);
    });

TEST(CliNumbers, RopePairsRowsHaveTheDocumentedFieldsAndLlama3Regimes)
{
    // Llama 3.1 8B (factor 8, low 1, high 4, original 8192, theta 500000): pairs 0-28 kept,
    // 29-34 blended, 35-63 interpolated (HF _compute_llama3_parameters; see test_rope_compare.cpp).
    const json j = run_json({"compute", "rope-pairs", "--preset", "llama-3.1-8b"});
    ASSERT_EQ(j["pairs"].size(), 64u);
    for (const char* key : {"pair", "inv_freq_original_rad_per_token", "inv_freq_rad_per_token",
                            "wavelength_original_tokens", "wavelength_tokens", "ratio_scaled_to_original",
                            "regime", "trained_max_angle_rad", "target_max_angle_rad", "unseen_rotation"})
        EXPECT_TRUE(j["pairs"][10].contains(key)) << key;
    EXPECT_EQ(j["pairs"][28]["regime"], "kept");
    EXPECT_EQ(j["pairs"][29]["regime"], "blended");
    EXPECT_EQ(j["pairs"][34]["regime"], "blended");
    EXPECT_EQ(j["pairs"][35]["regime"], "interpolated");
    EXPECT_NEAR(j["pairs"][40]["ratio_scaled_to_original"].get<double>(), 1.0 / 8.0, 1e-12);
}

TEST(CliNumbers, AttentionEntropyOfOneKeyIsZeroAndTemperatureSharpens)
{
    // One key: softmax weight 1, entropy 0 exactly. YaRN factor 16 has attention factor 1.277 > 1, so
    // the tempered logits are sharper and their entropy lower (YaRN eq. 22).
    const json j = run_json({"compute", "attention-entropy", "--preset", "yarn-llama-2-7b-64k", "--lengths",
                             "1,512", "--trials", "2"});
    EXPECT_DOUBLE_EQ(j["entropy_nats"][0].get<double>(), 0.0);
    EXPECT_LT(j["entropy_with_temperature_nats"][1].get<double>(), j["entropy_nats"][1].get<double>());
    EXPECT_LT(j["entropy_nats"][1].get<double>(), std::log(512.0) + 1e-9); // never above the uniform ln N
}

TEST(CliNumbers, AttentionEntropyWithQwenLogNScalesTheLastQuery)
{
    // Qwen's use_logn_attn (modeling_qwen.py): the query at position p is multiplied by log base L of p + 1
    // past the trained length L. head_dim 32 default RoPE: L = max_position_embeddings 2048 (core default).
    // N = 8192 gives log_2048(8192) = 13 / 11 (1e-15); N = 1024 is inside L: the curve is the tempered one.
    const json j = run_json({"compute", "attention-entropy", "--head-dim", "32", "--max-position-embeddings",
                             "2048", "--lengths", "1024,8192", "--trials", "2", "--query-scale", "logn"});
    EXPECT_EQ(j["query_scale"]["kind"], "logn");
    EXPECT_EQ(j["query_scale"]["trained_length"], 2048);
    EXPECT_EQ(j["query_multiplier"][0].get<double>(), 1.0);
    EXPECT_NEAR(j["query_multiplier"][1].get<double>(), 13.0 / 11.0, 1e-15);
    EXPECT_EQ(j["entropy_with_query_scale_nats"][0], j["entropy_with_temperature_nats"][0]);
    EXPECT_LT(j["entropy_with_query_scale_nats"][1].get<double>(),
              j["entropy_with_temperature_nats"][1].get<double>());
    // Without --query-scale the column is absent; a bad attn_scale names the option and its range.
    EXPECT_FALSE(
        run_json({"compute", "attention-entropy", "--head-dim", "32", "--lengths", "8", "--trials", "1"})
            .contains("entropy_with_query_scale_nats"));
    const Result bad = run({"compute", "attention-entropy", "--head-dim", "32", "--lengths", "8",
                            "--query-scale", "llama4", "--attn-scale", "20"});
    EXPECT_EQ(bad.status, 2);
    EXPECT_NE(bad.err.find("--attn-scale"), std::string::npos) << bad.err;
    EXPECT_NE(bad.err.find("10"), std::string::npos) << bad.err;
}

// ------------------------------------------------------------------ export and gallery (headless)

// Width and height from a PNG's IHDR chunk (bytes 16..23, big-endian), no image library needed.
std::pair<std::uint32_t, std::uint32_t> png_size(const std::string& bytes)
{
    auto be32 = [&](std::size_t at) {
        return (std::uint32_t(std::uint8_t(bytes[at])) << 24) |
               (std::uint32_t(std::uint8_t(bytes[at + 1])) << 16) |
               (std::uint32_t(std::uint8_t(bytes[at + 2])) << 8) | std::uint32_t(std::uint8_t(bytes[at + 3]));
    };
    if (bytes.size() < 24 || bytes.compare(1, 3, "PNG") != 0)
        return {0, 0};
    return {be32(16), be32(20)};
}

TEST(CliExport, PngHasTheRequestedPixelSize)
{
    // 600 x 400 CSS pixels at 144 dpi = 900 x 600 device pixels.
    const fs::path out = temp_dir() / "alibi.png";
    const Result r = run({"export", "--view", "heatmap", "--method", "alibi", "--seq-len", "32", "--out",
                          out.string(), "--width", "600", "--height", "400", "--dpi", "144"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(png_size(slurp(out)), std::make_pair(900u, 600u));
}

TEST(CliExport, SvgAndPdfAreVectorsWithMetadata)
{
    const fs::path svg = temp_dir() / "spectrum.svg";
    ASSERT_EQ(run({"export", "--view", "spectrum", "--preset", "llama-3.1-8b", "--out", svg.string()}).status,
              0);
    const std::string text = slurp(svg);
    EXPECT_NE(text.find("<svg"), std::string::npos);
    EXPECT_NE(text.find("<text"), std::string::npos);
    EXPECT_NE(text.find("<title>"), std::string::npos);
    EXPECT_NE(text.find("rope_theta"), std::string::npos); // the scenario travels in <desc>
    const fs::path pdf = temp_dir() / "decay.pdf";
    ASSERT_EQ(run({"export", "--view", "decay", "--preset", "llama-2-7b", "--out", pdf.string(), "--width",
                   "960", "--height", "480"})
                  .status,
              0);
    const std::string bytes = slurp(pdf);
    EXPECT_EQ(bytes.substr(0, 4), "%PDF");
    // Page size: 960 x 480 px at 96 dpi = 720 x 360 pt. Tolerance 0.01 pt (Qt prints six decimals).
    const auto box = bytes.find("/MediaBox [");
    ASSERT_NE(box, std::string::npos);
    double x0 = -1, y0 = -1, x1 = 0, y1 = 0;
    ASSERT_EQ(std::sscanf(bytes.c_str() + box, "/MediaBox [%lf %lf %lf %lf", &x0, &y0, &x1, &y1), 4);
    EXPECT_NEAR(x1 - x0, 720.0, 0.01);
    EXPECT_NEAR(y1 - y0, 360.0, 0.01);
}

TEST(CliExport, CsvOfTheNumbersHasAHeader)
{
    const fs::path csv = temp_dir() / "spectrum.csv";
    ASSERT_EQ(run({"export", "--view", "spectrum", "--preset", "yarn-llama-2-7b-64k", "--out", csv.string()})
                  .status,
              0);
    const std::string text = slurp(csv);
    EXPECT_EQ(text.substr(0, text.find('\n')),
              "pair,inv_freq_original_rad_per_token,inv_freq_rad_per_token,wavelength_original_tokens,"
              "wavelength_tokens,ratio_scaled_to_original,yarn_ramp");
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 65); // header + 64 pairs
}

TEST(CliExport, UnwritablePathOrUnknownExtensionExitsTwoAndWritesNothing)
{
    const fs::path bad_ext = temp_dir() / "figure.bmpx";
    const Result r1 = run({"export", "--view", "heatmap", "--out", bad_ext.string()});
    EXPECT_EQ(r1.status, 2);
    EXPECT_NE(r1.err.find("extension"), std::string::npos) << r1.err;
    EXPECT_FALSE(fs::exists(bad_ext));
    const fs::path no_dir = temp_dir() / "no" / "such" / "dir" / "figure.png";
    const Result r2 = run({"export", "--view", "heatmap", "--out", no_dir.string()});
    EXPECT_EQ(r2.status, 2);
    EXPECT_NE(r2.err.find("--out"), std::string::npos) << r2.err;
    EXPECT_FALSE(fs::exists(no_dir));
}

TEST(CliExport, ExistingFileSurvivesAFailedExport)
{
    // A bad parameter is refused before anything is written: the old file keeps its bytes.
    const fs::path out = temp_dir() / "keep.png";
    std::ofstream(out) << "old contents";
    const Result r = run({"export", "--view", "heatmap", "--rope-theta", "0.5", "--out", out.string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_EQ(slurp(out), "old contents");
}

TEST(CliGallery, WritesEveryFigureOfTheStandardSet)
{
    const fs::path dir = temp_dir() / "gallery";
    const Result r =
        run({"gallery", "--out", dir.string(), "--dpi", "48", "--width", "400", "--height", "300"});
    ASSERT_EQ(r.status, 0) << r.err;
    std::size_t files = 0;
    for (const auto& e : fs::directory_iterator(dir)) {
        ++files;
        EXPECT_EQ(png_size(slurp(e.path())), std::make_pair(200u, 150u)) << e.path();
    }
    EXPECT_GE(files, 20u);
    for (const char* classic : {"sinusoidal-encoding", "rope-long-term-decay", "alibi-bias-per-head",
                                "t5-buckets", "yarn-spectrum", "llama3-bands", "pi-vs-ntk"})
        EXPECT_NE(r.out.find(classic), std::string::npos) << classic;
}

// The screenshots are made by the app, not by the test suite; this checks that the command makes them:
// every picture it lists is a PNG of its window's size, the README's names among them, and the review's
// pictures named with their language: presentation mode full screen on the 1920x1080 screen the command
// sets up, the window before and after presenting alike in size, the course and every lesson.
TEST(CliScreenshots, WritesEveryPictureItListsAtItsWindowSize)
{
    const fs::path dir = temp_dir() / "screenshots";
    const Result r = run({"screenshots", "--out", dir.string()}, {.locale = "en_US.UTF-8"});
    ASSERT_EQ(r.status, 0) << r.err;
    std::vector<std::string> listed;
    std::istringstream lines(r.out);
    for (std::string line; std::getline(lines, line);)
        listed.push_back(line);
    std::vector<std::string> names = {"main-window",
                                      "view-heatmap",
                                      "view-curves",
                                      "view-rotation",
                                      "view-spectrum",
                                      "main-window-alibi",
                                      "explorer-1",
                                      "explorer-yarn-1",
                                      "main-window-t5",
                                      "main-window-wide",
                                      "export-dialog",
                                      "main-window-sentence",
                                      "main-window-permuted",
                                      "panel-alibi-slopes",
                                      "view-curves-alibi-slope",
                                      "panel-alibi-slopes-presenting",
                                      "present-before-en",
                                      "present-after-en",
                                      "course-en",
                                      "lesson-01-why-position-1-en",
                                      "lesson-12-choosing-1-en",
                                      "readout-heatmap-en",
                                      "readout-curves-en",
                                      "dialog-open-weights-en",
                                      "dialog-open-model-en",
                                      "panel-alibi-ntk-slopes-en",
                                      "present-250-alibi-ntk-slopes-en",
                                      "panel-content-files-en",
                                      "main-window-content-files-en"};
    for (const char* scale : {"150", "200", "250"})
        for (const char* part : {"heatmap", "curves", "rotation", "spectrum", "alibi-heatmap", "lesson"})
            names.push_back(std::string("present-") + scale + "-" + part + "-en");
    for (const std::string& name : names)
        EXPECT_NE(std::find(listed.begin(), listed.end(), (dir / (name + ".png")).string()), listed.end())
            << name;
    for (const std::string& path : listed) {
        const auto [width, height] = png_size(slurp(path));
        EXPECT_GT(width, 100u) << path;
        EXPECT_GT(height, 100u) << path;
        // present-150-…, present-200-…, present-250-…: full screen.
        const std::string name = fs::path(path).filename().string();
        if (name.starts_with("present-1") || name.starts_with("present-2")) {
            EXPECT_EQ(std::make_pair(width, height), std::make_pair(1920u, 1080u)) << path;
        }
    }
    EXPECT_EQ(png_size(slurp(dir / "main-window.png")), std::make_pair(1280u, 720u));
    EXPECT_EQ(png_size(slurp(dir / "main-window-wide.png")), std::make_pair(1920u, 1080u));
    EXPECT_EQ(png_size(slurp(dir / "explorer-1.png")), std::make_pair(1400u, 900u));
    for (const char* window : {"present-before-en", "present-after-en", "course-en", "lesson-08-rope-1-en"})
        EXPECT_EQ(png_size(slurp(dir / (std::string(window) + ".png"))), std::make_pair(1280u, 720u))
            << window;
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()),
              static_cast<std::ptrdiff_t>(listed.size()));
}

// ------------------------------------------------------------------ numbers

TEST(CliNumbers, AlibiSlopesForEightHeadsAreHalfToOneOver256)
{
    // Press et al. 2022, sec. 3: for 8 heads the slopes are 1/2, 1/4, ..., 1/256. Exact in binary.
    const json j = run_json({"compute", "alibi-slopes", "--num-heads", "8"});
    ASSERT_EQ(j["slopes"].size(), 8u);
    for (int h = 0; h < 8; ++h)
        EXPECT_DOUBLE_EQ(j["slopes"][h].get<double>(), std::ldexp(1.0, -(h + 1)));
}

TEST(CliNumbers, LinearScalingDividesDefaultFrequenciesByFactor)
{
    // HF modeling_rope_utils _compute_linear_scaling_rope_parameters: inv_freq /= factor. Rel. tol 1e-12.
    const json d = run_json({"compute", "rope-frequencies", "--head-dim", "128", "--rope-theta", "10000"});
    const json l = run_json({"compute", "rope-frequencies", "--head-dim", "128", "--rope-theta", "10000",
                             "--rope-type", "linear", "--factor", "4"});
    ASSERT_EQ(d["inv_freq_rad_per_token"].size(), 64u);
    ASSERT_EQ(l["inv_freq_rad_per_token"].size(), 64u);
    EXPECT_DOUBLE_EQ(d["inv_freq_rad_per_token"][0].get<double>(), 1.0);
    for (std::size_t i = 0; i < 64; ++i)
        EXPECT_NEAR(l["inv_freq_rad_per_token"][i].get<double>(),
                    d["inv_freq_rad_per_token"][i].get<double>() / 4.0,
                    1e-12 * d["inv_freq_rad_per_token"][i].get<double>());
}

TEST(CliNumbers, RopeScoreMatchesHandRotation)
{
    // head_dim 2, theta_0 = 1: rotating q=(1,0) by m and k=(1,0) by n gives cos(m - n) (Su et al. eq. 13).
    const json j = run_json({"compute", "rope-score", "--head-dim", "2", "--query", "1,0", "--key", "1,0",
                             "--query-position", "7", "--key-position", "3"});
    EXPECT_NEAR(j["score"].get<double>(), std::cos(4.0), 1e-12);
}

TEST(CliNumbers, RopeScorePassesDimensionsBeyondRotaryDimUnrotated)
{
    // partial_rotary_factor 0.5 on head_dim 4: dims 2,3 are not rotated, so they add q2 k2 + q3 k3 = 5.
    const json j =
        run_json({"compute", "rope-score", "--head-dim", "4", "--partial-rotary-factor", "0.5", "--query",
                  "1,0,1,2", "--key", "1,0,1,2", "--query-position", "7", "--key-position", "3"});
    EXPECT_NEAR(j["score"].get<double>(), std::cos(4.0) + 5.0, 1e-12);
}

TEST(CliNumbers, DecayBoundAtZeroIsMeanOfOneToHalfD)
{
    // RoFormer 3.4.3: at r = 0, |S_j| = j, so (1/(d/2)) sum_{j=1}^{d/2} j = (d/2 + 1) / 2. d = 16 -> 4.5.
    const json j = run_json(
        {"compute", "rope-decay", "--head-dim", "16", "--rope-theta", "10000", "--max-distance", "100"});
    ASSERT_EQ(j["distance_tokens"].size(), 101u);
    EXPECT_EQ(j["distance_tokens"][100].get<int>(), 100);
    EXPECT_NEAR(j["bound"][0].get<double>(), 4.5, 1e-12);
}

TEST(CliNumbers, T5BucketsOfHuggingFace)
{
    // HF T5Attention._relative_position_bucket, bidirectional, 32 buckets, max_distance 128:
    // r = 0 -> 0, r = 1 -> 17, r = -1 -> 1, r = 200 -> 31 (saturated), r = -200 -> 15.
    const json j = run_json({"compute", "t5-buckets", "--num-buckets", "32", "--max-distance", "128",
                             "--from", "-200", "--to", "200"});
    auto bucket = [&](int r) { return j["bucket"][r + 200].get<int>(); };
    EXPECT_EQ(bucket(0), 0);
    EXPECT_EQ(bucket(1), 17);
    EXPECT_EQ(bucket(-1), 1);
    EXPECT_EQ(bucket(200), 31);
    EXPECT_EQ(bucket(-200), 15);
}

TEST(CliNumbers, DebertaBucketsAndTheRowAttentionReads)
{
    // HF make_log_bucket_position (256 buckets, 512 positions; python port values, test_deberta.cpp):
    // 200 -> 169, 1000 -> 317, -1000 -> -317. The row c2p reads clamps to [-256, 255]
    // (disentangled_attention_bias: clamp(relative_pos + att_span, 0, 2 att_span - 1) - att_span).
    const json j = run_json({"compute", "deberta-buckets", "--position-buckets", "256",
                             "--max-relative-positions", "512", "--from", "-1000", "--to", "1000"});
    auto at = [&](const char* key, int r) { return j[key][r + 1000].get<int>(); };
    EXPECT_EQ(at("relative_position", 200), 200);
    EXPECT_EQ(at("bucket", 200), 169);
    EXPECT_EQ(at("bucket_used", 200), 169);
    EXPECT_EQ(at("bucket", 1000), 317);
    EXPECT_EQ(at("bucket_used", 1000), 255);
    EXPECT_EQ(at("bucket", -1000), -317);
    EXPECT_EQ(at("bucket_used", -1000), -256);
}

TEST(CliNumbers, LearnedPositionsBeyondTrainedLengthAreNull)
{
    const json j = run_json(
        {"compute", "learned", "--dim", "4", "--max-position-embeddings", "8", "--from", "6", "--to", "9"});
    EXPECT_TRUE(j["embedding"][0].is_array());
    EXPECT_TRUE(j["embedding"][1].is_array());
    EXPECT_TRUE(j["embedding"][2].is_null());
    EXPECT_TRUE(j["embedding"][3].is_null());
}

TEST(CliExport, LearnedTableSetsItsOwnWidth)
{
    // tests/data/learned_4x3.csv: 4 positions x 3 dimensions, entry (p, c) = p + c / 4. The export reads
    // the table's width as `compute learned` does, not the seeded stand-in's default --dim (768).
    const fs::path table = fs::path(POSATLAS_TEST_DATA) / "learned_4x3.csv";
    const fs::path csv = temp_dir() / "learned_table.csv";
    const Result r = run({"export", "--method", "learned", "--table", table.string(), "--view", "heatmap",
                          "--seq-len", "6", "--out", csv.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    std::istringstream lines(slurp(csv));
    std::string line;
    std::getline(lines, line);
    EXPECT_EQ(line, "position,dimension,encoding");
    std::vector<std::string> rows;
    while (std::getline(lines, line))
        rows.push_back(line);
    ASSERT_EQ(rows.size(), 18u); // 6 positions x 3 dimensions
    EXPECT_EQ(rows[1], "0,1,0.25");
    EXPECT_EQ(rows[11], "3,2,3.5");
    EXPECT_EQ(rows[12], "4,0,"); // beyond the table's 4 rows: no embedding
    const fs::path png = temp_dir() / "learned_table.png";
    const Result p = run({"export", "--method", "learned", "--table", table.string(), "--view", "heatmap",
                          "--out", png.string()});
    EXPECT_EQ(p.status, 0) << p.err;
    EXPECT_TRUE(p.err.empty()) << p.err;
    EXPECT_TRUE(fs::exists(png));
}

TEST(CliCsv, RopeFrequenciesHasDocumentedHeader)
{
    const auto r = run({"compute", "rope-frequencies", "--head-dim", "8", "--format", "csv"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.substr(0, r.out.find('\n')),
              "pair,inv_freq_rad_per_token,inv_freq_original_rad_per_token,wavelength_tokens");
    EXPECT_EQ(std::count(r.out.begin(), r.out.end(), '\n'), 5); // header + 4 pairs
}

// ------------------------------------------------------------------ configs and presets

TEST(CliConfig, FlagsOverrideTheConfig)
{
    const auto cfg = write_file("llama.json", R"({"model_type": "llama", "hidden_size": 4096,
        "num_attention_heads": 32, "rope_theta": 500000.0, "max_position_embeddings": 8192})");
    const json a = run_json({"compute", "rope-frequencies", "--config", cfg.string()});
    EXPECT_EQ(a["rotary_dim"].get<int>(), 128);
    EXPECT_NEAR(a["inv_freq_rad_per_token"][1].get<double>(), std::pow(500000.0, -2.0 / 128.0), 1e-15);
    const json b =
        run_json({"compute", "rope-frequencies", "--config", cfg.string(), "--rope-theta", "10000"});
    EXPECT_NEAR(b["inv_freq_rad_per_token"][1].get<double>(), std::pow(10000.0, -2.0 / 128.0), 1e-15);
}

TEST(CliConfig, PresetOfAlibiModelGivesItsHeads)
{
    // BLOOM-560m: n_head 16 -> 16 slopes 2^-0.5 .. 2^-8 (closest power of two: 16).
    const json j = run_json({"compute", "alibi-slopes", "--preset", "bloom-560m"});
    ASSERT_EQ(j["slopes"].size(), 16u);
    EXPECT_NEAR(j["slopes"][0].get<double>(), std::pow(2.0, -0.5), 1e-15);
}

TEST(CliConfig, QuantityOfAnotherEncodingExitsTwoAndNamesTheEncoding)
{
    const auto r = run({"compute", "rope-frequencies", "--preset", "gpt2"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("learned absolute"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty());
}

TEST(CliConfig, PresetsListsTheRequiredIds)
{
    const json j = run_json({"presets", "--format", "json"});
    std::vector<std::string> ids;
    for (const auto& p : j["presets"])
        ids.push_back(p["id"].get<std::string>());
    for (const char* id :
         {"transformer-base", "bert-base", "gpt2", "t5-base", "deberta-v3-base", "llama-2-7b", "llama-3.1-8b",
          "qwen2-7b", "mistral-7b", "codellama-7b", "gpt-neox-20b", "bloom-560m", "mpt-7b",
          "yarn-llama-2-7b-64k", "deepseek-v2-lite", "phi-3-mini-128k", "gpt-oss-20b"})
        EXPECT_NE(std::find(ids.begin(), ids.end(), id), ids.end()) << id;
}

// ------------------------------------------------------------------ downsampled matrices

TEST(CliMatrix, DownsampledCellsAreBlockMeansNamingTheirBlocks)
{
    // 10 positions into 3 x 4 blocks: rows [0, 3), [3, 6), [6, 10); columns [0, 2), [2, 5), [5, 7),
    // [7, 10) (floor(r * 10 / count)). ALiBi, 8 heads, head 0: slope 1/2 (Press et al. 2022), causal
    // bias -m (i - j) for j <= i. Block (0, 0): cells (0,0), (1,0), (1,1), (2,0), (2,1) with i - j =
    // 0, 1, 0, 2, 1: mean -0.5 * 4 / 5 = -0.4; block (0, 2) lies above the diagonal: null (masked).
    // Block (2, 3): rows 6..9 x cols 7..9, unmasked cells (7,7), (8,7), (8,8), (9,7), (9,8), (9,9):
    // distances 0, 1, 0, 2, 1, 0, mean -0.5 * 4 / 6. Tolerance 1e-12 (sums of a few binary fractions).
    const json j = run_json({"compute", "matrix", "--method", "alibi", "--kind", "bias", "--seq-len", "10",
                             "--num-heads", "8", "--head", "0", "--out-rows", "3", "--out-cols", "4"});
    EXPECT_EQ(j["sampling"], "block-mean");
    EXPECT_EQ(j["row_index"], json::parse("[0, 3, 6]"));
    EXPECT_EQ(j["row_last"], json::parse("[2, 5, 9]"));
    EXPECT_EQ(j["col_index"], json::parse("[0, 2, 5, 7]"));
    EXPECT_EQ(j["col_last"], json::parse("[1, 4, 6, 9]"));
    EXPECT_NEAR(j["matrix"][0][0].get<double>(), -0.4, 1e-12);
    EXPECT_TRUE(j["matrix"][0][2].is_null());
    EXPECT_NEAR(j["matrix"][2][3].get<double>(), -0.5 * 4.0 / 6.0, 1e-12);

    const Result csv =
        run({"compute", "matrix", "--method", "alibi", "--kind", "bias", "--seq-len", "10", "--num-heads",
             "8", "--head", "0", "--out-rows", "3", "--out-cols", "4", "--format", "csv"});
    ASSERT_EQ(csv.status, 0) << csv.err;
    EXPECT_EQ(csv.out.substr(0, csv.out.find('\n')),
              "query_position_first,query_position_last,key_position_0-1,key_position_2-4,key_position_5-6,"
              "key_position_7-9");
    EXPECT_EQ(csv.out.substr(csv.out.find('\n') + 1, 5), "0,2,-");
}

TEST(CliMatrix, ChosenHeadSlopeChangesOnlyItsHeadsBias)
{
    // --slopes 0.5,0.25,0.0123: the paper's 2^-1, 2^-2 for heads h = 1, 2 and 0.0123 for h = 3 (--head 2,
    // heads counted from 0 on the command line). Symmetric bias -m |i - j| (Press et al. 2022; HF
    // build_alibi_tensor), 8 heads: the others keep 2^(-8h/8) = 2^-h. Tolerance 1e-15 relative (one
    // product of the slope and an integer distance, printed with round-trip precision).
    const auto bias = [](int head) {
        return run_json({"compute", "matrix", "--method", "alibi", "--kind", "bias", "--alibi-bias",
                         "symmetric", "--seq-len", "12", "--num-heads", "8", "--slopes", "0.5,0.25,0.0123",
                         "--head", std::to_string(head)});
    };
    for (int head = 0; head < 8; ++head) {
        const json j = bias(head);
        const double m = head == 2 ? 0.0123 : std::exp2(-(head + 1));
        for (int i = 0; i < 12; ++i)
            for (int k = 0; k < 12; ++k) {
                const double want = -m * std::abs(i - k);
                EXPECT_NEAR(j["matrix"][i][k].get<double>(), want, 1e-15 * std::abs(want))
                    << head << " " << i << "," << k;
            }
    }
    const json slopes =
        run_json({"compute", "alibi-slopes", "--num-heads", "8", "--slopes", "0.5,0.25,0.0123"});
    EXPECT_EQ(slopes["slopes"][2].get<double>(), 0.0123);
    EXPECT_EQ(slopes["reference_slopes"][2].get<double>(), 0.125);
    // The scenario carries them: `compute scenario` prints the list a session stores.
    const json scenario =
        run_json({"compute", "scenario", "--method", "alibi", "--slopes", "0.5,0.25,0.0123"});
    EXPECT_EQ(scenario["alibi"]["slopes"], json({0.5, 0.25, 0.0123}));
}

TEST(CliMatrix, SamplePointGivesTheOldPointSamples)
{
    // --sample point: cells at floor((r + 0.5) * 10 / 3) = 1, 5, 8; each is one cell, bias -0.5 (i - j).
    const json j = run_json({"compute", "matrix", "--method", "alibi", "--kind", "bias", "--seq-len", "10",
                             "--num-heads", "8", "--head", "0", "--out-rows", "3", "--out-cols", "3",
                             "--sample", "point"});
    EXPECT_EQ(j["sampling"], "point");
    EXPECT_EQ(j["row_index"], json::parse("[1, 5, 8]"));
    EXPECT_EQ(j["row_last"], json::parse("[1, 5, 8]"));
    EXPECT_DOUBLE_EQ(j["matrix"][2][0].get<double>(), -0.5 * (8 - 1));
    const json full =
        run_json({"compute", "matrix", "--method", "alibi", "--kind", "bias", "--seq-len", "4"});
    EXPECT_EQ(full["sampling"], "exact");
}

TEST(CliMatrix, SinglePrecisionStaysWithinItsBound)
{
    // RoPE, d = 64, random content: single differs from double by at most (d + 2) 2^-24 |q| |k| / sqrt(d)
    // per cell (gemm.h); |q|, |k| ~ sqrt(64) = 8, so well under 1e-4 absolute for logits of size ~8.
    const std::vector<std::string> base{"compute",    "matrix",    "--method",   "rope",      "--head-dim",
                                        "64",         "--seq-len", "300",        "--content", "random",
                                        "--out-rows", "30",        "--out-cols", "30"};
    auto single = base;
    single.insert(single.end(), {"--precision", "single"});
    const json d = run_json(base), s = run_json(single);
    EXPECT_EQ(d["precision"], "double");
    EXPECT_EQ(s["precision"], "single");
    double worst = 0.0;
    for (std::size_t r = 0; r < 30; ++r)
        for (std::size_t c = 0; c < 30; ++c)
            worst =
                std::max(worst, std::abs(d["matrix"][r][c].get<double>() - s["matrix"][r][c].get<double>()));
    EXPECT_LT(worst, 1e-4);
}

// --precision single writes the float32 result: every number in the CSV is a float's shortest text
// (reads back with strtof to the float it denotes, at most 9 significant digits), the JSON's too.
// Reference: the double run of the same matrix, within the bound of the test above.
TEST(CliMatrix, SinglePrecisionWritesFloat32Numbers)
{
    const std::vector<std::string> base{"compute", "matrix",    "--method", "rope",      "--head-dim",
                                        "64",      "--seq-len", "40",       "--content", "random"};
    auto csv = base;
    csv.insert(csv.end(), {"--precision", "single", "--format", "csv"});
    const Result r = run(csv);
    ASSERT_EQ(r.status, 0) << r.err;
    std::istringstream lines(r.out);
    std::string line;
    std::getline(lines, line); // header
    std::vector<std::vector<double>> cells;
    while (std::getline(lines, line)) {
        std::istringstream fields(line);
        std::string f;
        std::getline(fields, f, ','); // query position
        cells.emplace_back();
        while (std::getline(fields, f, ',')) {
            ASSERT_FALSE(f.empty());
            const float v = std::strtof(f.c_str(), nullptr);
            char buf[32];
            const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr; // shortest round trip of the float
            if (v != std::trunc(v)) {
                EXPECT_EQ(std::string(buf, end), f) << "not a float's shortest text: " << f;
            }
            cells.back().push_back(v);
        }
    }
    ASSERT_EQ(cells.size(), 40U);
    auto single_json = base;
    single_json.insert(single_json.end(), {"--precision", "single"});
    const json d = run_json(base), s = run_json(single_json);
    EXPECT_EQ(s["precision"], "single");
    double worst = 0.0;
    for (std::size_t i = 0; i < 40; ++i)
        for (std::size_t j = 0; j < 40; ++j) {
            const double sv = s["matrix"][i][j].get<double>();
            EXPECT_EQ(static_cast<double>(static_cast<float>(sv)),
                      static_cast<double>(static_cast<float>(cells[i][j])));
            worst = std::max(worst, std::abs(d["matrix"][i][j].get<double>() - sv));
        }
    EXPECT_LT(worst, 1e-4);
    EXPECT_GT(worst, 0.0) << "the single run must be float32";
}

TEST(CliMatrix, TenMillionPositionsIntoAPictureNeedOnlyThePicture)
{
    // Block means of 10^7 positions with position-independent content: closed forms, O(blocks d).
    const json j = run_json({"compute", "matrix", "--method", "rope", "--head-dim", "64", "--seq-len",
                             "10000000", "--out-rows", "16", "--out-cols", "16"});
    EXPECT_EQ(j["sampling"], "block-mean");
    EXPECT_EQ(j["row_last"].back(), 9999999);
    EXPECT_EQ(j["matrix"].size(), 16u);
}

// ------------------------------------------------------------------ bad input: exit 2, one line naming the
// option

struct BadCase {
    std::string name;
    std::vector<std::string> args;
    std::string must_mention;
};

class BadInput : public ::testing::TestWithParam<BadCase>
{
};

TEST_P(BadInput, ExitsTwoWithOneLineNamingTheProblem)
{
    const Result r = run(GetParam().args);
    EXPECT_EQ(r.status, 2) << r.out << r.err;
    EXPECT_TRUE(r.out.empty() || GetParam().args.size() == 1) << r.out;
    ASSERT_FALSE(r.err.empty());
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find(GetParam().must_mention), std::string::npos) << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    Cli, BadInput,
    ::testing::Values(
        BadCase{"UnknownOption", {"compute", "rope-frequencies", "--rope-thetaa", "5"}, "--rope-thetaa"},
        BadCase{"BaseBelowOne", {"compute", "rope-frequencies", "--rope-theta", "0.5"}, "--rope-theta"},
        BadCase{"OddHeadDim", {"compute", "rope-frequencies", "--head-dim", "7"}, "--head-dim"},
        BadCase{"FactorBelowOne",
                {"compute", "rope-frequencies", "--rope-type", "linear", "--factor", "0.5"},
                "--factor"},
        BadCase{"NotANumber", {"compute", "rope-frequencies", "--rope-theta", "abc"}, "--rope-theta"},
        BadCase{"NanValue", {"compute", "rope-frequencies", "--rope-theta", "nan"}, "--rope-theta"},
        BadCase{"MalformedList",
                {"compute", "rope-frequencies", "--rope-type", "longrope", "--short-factor", "1,,2"},
                "--short-factor"},
        BadCase{"WrongListLength",
                {"compute", "rope-frequencies", "--head-dim", "8", "--rope-type", "longrope",
                 "--short-factor", "1,2", "--long-factor", "1,2,3,4"},
                "--short-factor"},
        BadCase{"UnknownRopeType", {"compute", "rope-frequencies", "--rope-type", "magic"}, "--rope-type"},
        BadCase{"BadTruncate", {"compute", "rope-frequencies", "--truncate=maybe"}, "--truncate"},
        BadCase{"ZeroHeads", {"compute", "alibi-slopes", "--num-heads", "0"}, "--num-heads"},
        BadCase{"SlopeAboveRange", {"compute", "alibi-slopes", "--slopes", "0.5,20"}, "--slopes"},
        BadCase{"SlopeZero", {"compute", "matrix", "--method", "alibi", "--slopes", "0"}, "--slopes"},
        BadCase{"SlopesMalformed", {"compute", "alibi-slopes", "--slopes", "0.5,,0.25"}, "--slopes"},
        BadCase{"MoreSlopesThanHeads",
                {"compute", "alibi-slopes", "--num-heads", "2", "--slopes", "0.5,0.25,0.1"},
                "--slopes"},
        BadCase{"MissingRange", {"compute", "t5-buckets"}, "--from"},
        BadCase{"ReversedRange", {"compute", "t5-buckets", "--from", "5", "--to", "-5"}, "--to"},
        BadCase{"TooFewBuckets",
                {"compute", "t5-buckets", "--num-buckets", "1", "--from", "0", "--to", "1"},
                "--num-buckets"},
        BadCase{
            "HugeSinusoidal", {"compute", "sinusoidal", "--length", "10000000", "--dim", "4096"}, "--length"},
        BadCase{"MissingConfig",
                {"compute", "rope-frequencies", "--config", "/nonexistent/config.json"},
                "--config"},
        BadCase{"UnknownPreset", {"compute", "rope-frequencies", "--preset", "llama-9000"}, "--preset"},
        BadCase{"UnknownQuantity", {"compute", "rope-magic"}, "rope-magic"},
        BadCase{"UnknownCommand", {"frobnicate"}, "frobnicate"},
        BadCase{"QueryWrongLength",
                {"compute", "rope-score", "--head-dim", "4", "--query", "1,2", "--key", "1,2,3,4"},
                "--query"},
        BadCase{"MissingValue", {"compute", "rope-frequencies", "--rope-theta"}, "--rope-theta"},
        BadCase{"BadKind", {"compute", "matrix", "--method", "rope", "--kind", "buckets"}, "--kind"},
        BadCase{"BadSample", {"compute", "matrix", "--method", "rope", "--sample", "average"}, "--sample"},
        BadCase{
            "BadPrecision", {"compute", "matrix", "--method", "rope", "--precision", "half"}, "--precision"},
        BadCase{
            "MatrixTooLarge", {"compute", "matrix", "--method", "rope", "--seq-len", "100000"}, "--rows"}),
    [](const auto& info) { return info.param.name; });

TEST(BadInput, MalformedConfigFileIsAClearError)
{
    const auto cfg = write_file("broken.json", "{\"model_type\": \"llama\", \"rope_theta\": ");
    const Result r = run({"compute", "rope-frequencies", "--config", cfg.string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--config"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("broken.json"), std::string::npos) << r.err;
}

TEST(BadInput, WrongTypeInConfigNamesTheKey)
{
    const auto cfg = write_file("wrongtype.json", R"({"model_type": "llama", "rope_theta": "abc"})");
    const Result r = run({"compute", "rope-frequencies", "--config", cfg.string()});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("rope_theta"), std::string::npos) << r.err;
}

} // namespace

// One number policy (core/io/number_text.h) in every CSV: integer columns as integers (never 1e+06), other
// numbers as the shortest text that reads back exactly; compute and export write the same text.
TEST(CliNumbers, CsvIntegersAreIntegersAndValuesRoundTrip)
{
    const Result r =
        run({"compute", "rope-decay", "--max-distance", "1000000", "--points", "50", "--format", "csv"});
    ASSERT_EQ(r.status, 0) << r.err;
    EXPECT_EQ(r.out.find("e+"), std::string::npos) << "an exponent in the integer column";
    EXPECT_NE(r.out.find("\n1000000,"), std::string::npos);
    // The same numbers as the JSON output, to the last bit (shortest round trip).
    const json j = run_json({"compute", "rope-decay", "--max-distance", "1000000", "--points", "50"});
    std::istringstream lines(r.out);
    std::string line;
    std::getline(lines, line); // header
    std::size_t row = 0;
    while (std::getline(lines, line)) {
        const auto a = line.find(','), b = line.find(',', a + 1);
        ASSERT_LT(row, j["bound"].size());
        EXPECT_EQ(std::stoll(line.substr(0, a)), j["distance_tokens"][row].get<std::int64_t>());
        EXPECT_EQ(std::strtod(line.substr(a + 1, b - a - 1).c_str(), nullptr), j["bound"][row].get<double>());
        EXPECT_EQ(std::strtod(line.substr(b + 1).c_str(), nullptr), j["mean_cos"][row].get<double>());
        ++row;
    }
    EXPECT_EQ(row, j["bound"].size());
}

// Attention weights over the words of a sentence: the row-wise softmax of the logits.
// Rows sum to 1 within 1e-12 (a softmax in double precision); the causal mask gives exact zeros.
TEST(CliWeights, SentenceGivesTokensAndRowsThatSumToOne)
{
    const json j = run_json({"compute", "matrix", "--method", "nope", "--kind", "weights", "--text",
                             "the dog bit the man", "--format", "json"});
    ASSERT_EQ(j["tokens"].size(), 5u);
    EXPECT_EQ(j["tokens"][1], "dog");
    EXPECT_EQ(j["kind"], "weights");
    EXPECT_FALSE(j["causal"].get<bool>());
    ASSERT_EQ(j["matrix"].size(), 5u);
    bool above_diagonal = false;
    for (std::size_t i = 0; i < 5; ++i) {
        double sum = 0.0;
        for (std::size_t k = 0; k < 5; ++k) {
            sum += j["matrix"][i][k].get<double>();
            above_diagonal = above_diagonal || (k > i && j["matrix"][i][k].get<double>() > 0.0);
        }
        EXPECT_NEAR(sum, 1.0, 1e-12) << "row " << i;
    }
    EXPECT_TRUE(above_diagonal) << "bidirectional unless --causal";
    // "the" at positions 0 and 3: the same content, so (NoPE) the same row of weights.
    for (std::size_t k = 0; k < 5; ++k)
        EXPECT_EQ(j["matrix"][0][k].get<double>(), j["matrix"][3][k].get<double>());
}

TEST(CliWeights, CausalMasksTheKeysAfterTheQuery)
{
    for (const char* method : {"nope", "rope", "alibi", "t5"}) {
        const json j = run_json({"compute", "matrix", "--method", method, "--kind", "weights", "--text",
                                 "今天天气很好", "--causal"});
        ASSERT_EQ(j["tokens"].size(), 6u) << method;
        EXPECT_TRUE(j["causal"].get<bool>());
        for (std::size_t i = 0; i < 6; ++i) {
            double sum = 0.0;
            for (std::size_t k = 0; k < 6; ++k) {
                sum += j["matrix"][i][k].get<double>();
                if (k > i) {
                    EXPECT_EQ(j["matrix"][i][k].get<double>(), 0.0)
                        << method << " (" << i << ", " << k << ")";
                }
            }
            EXPECT_NEAR(sum, 1.0, 1e-12) << method << " row " << i;
        }
    }
}

// NoPE's mask is the scenario's one causal switch: --causal masks its logits as well as its weights,
// bidirectional without it; a session with NoPE's old "nope": {"causal": true} loads as --causal.
TEST(CliWeights, CausalIsNopesOneMaskForLogitsAndWeights)
{
    const auto logits = [](std::vector<std::string> extra) {
        std::vector<std::string> args{"compute", "matrix", "--method", "nope",
                                      "--kind",  "logits", "--text",   "a b c"};
        args.insert(args.end(), extra.begin(), extra.end());
        return run_json(args);
    };
    const json open = logits({});
    EXPECT_TRUE(open["matrix"][0][2].is_number());
    const json masked = logits({"--causal"});
    EXPECT_TRUE(masked["matrix"][0][2].is_null());
    EXPECT_TRUE(masked["matrix"][2][0].is_number());

    const fs::path ses = write_file(
        "old-nope-causal.posatlas.json",
        R"({"format":"posatlas-session","version":1,"scenario":{"method":"nope","nope":{"causal":true},)"
        R"("content":{"kind":"random","text":"a b c"}},"views":{"visible":["heatmap"],)"
        R"("settings":{"matrix_kind":"logits"}}})");
    const fs::path out = temp_dir() / "old-nope-causal.json";
    fs::remove(out);
    const Result r = run({"export", "--session", ses.string(), "--out", out.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    std::ifstream in(out);
    const json doc = json::parse(in);
    const json& m = doc["panels"][0]["matrix"];
    EXPECT_TRUE(m[0][2].is_null());
    EXPECT_TRUE(m[2][0].is_number());
}

TEST(CliWeights, TextWorksWithLogitsToo)
{
    const json j = run_json({"compute", "matrix", "--method", "rope", "--kind", "logits", "--text", "a b c"});
    EXPECT_EQ(j["tokens"].size(), 3u);
    EXPECT_EQ(j["matrix"].size(), 3u);
}

TEST(CliWeights, EmptyOrConflictingTextIsAClearError)
{
    Result r = run({"compute", "matrix", "--method", "nope", "--kind", "weights", "--text", ""});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--text must be a sentence"), std::string::npos) << r.err;
    r = run({"compute", "matrix", "--method", "nope", "--kind", "weights", "--text", "   "});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--text"), std::string::npos) << r.err;
    r = run({"compute", "matrix", "--method", "nope", "--text", "a b", "--seq-len", "3"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--seq-len must be 2"), std::string::npos) << r.err;
    r = run({"compute", "matrix", "--method", "rope", "--kind", "weights", "--seq-len", "20000", "--out-rows",
             "4", "--out-cols", "4"});
    EXPECT_EQ(r.status, 2);
    EXPECT_NE(r.err.find("--seq-len must be an integer in [1, 16384]"), std::string::npos) << r.err;
}

TEST(CliWeights, SessionKeepsTheSentence)
{
    const std::string session =
        R"({"format":"posatlas-session","version":1,"scenario":{"method":"nope","causal":true,)"
        R"("content":{"kind":"ones","seed":3,"text":"the man bit the dog"}},)"
        R"("views":{"visible":["heatmap"],"settings":{"matrix_kind":"weights"}}})";
    const fs::path ses = write_file("sentence.posatlas.json", session);
    const fs::path out = temp_dir() / "sentence.json";
    fs::remove(out);
    const Result r = run({"export", "--session", ses.string(), "--out", out.string()});
    ASSERT_EQ(r.status, 0) << r.err;
    std::ifstream in(out);
    const json j = json::parse(in);
    ASSERT_EQ(j["row_tokens"].size(), 5u) << j.dump().substr(0, 400);
    EXPECT_EQ(j["row_tokens"][1], "man");
    EXPECT_EQ(j["col_tokens"], j["row_tokens"]);
    const json& m = j["panels"][0]["matrix"];
    ASSERT_EQ(m.size(), 5u);
    for (std::size_t i = 0; i < 5; ++i) { // the session's causal weights
        double sum = 0.0;
        for (std::size_t k = 0; k < 5; ++k) {
            sum += m[i][k].get<double>();
            if (k > i) {
                EXPECT_EQ(m[i][k].get<double>(), 0.0);
            }
        }
        EXPECT_NEAR(sum, 1.0, 1e-6) << "row " << i; // the view computes in single precision (gemm.h)
    }
}
