// SPDX-License-Identifier: GPL-3.0-or-later
// The one CSV writer (core/io/number_text.h write_csv_columns) and the per-pair table's columns
// (core/io/rope_pairs_columns.h): numbers by the number policy, text cells and names quoted as RFC 4180
// has it, columns of unequal length refused, and the RoPE table's layout (`compute rope-pairs`, the
// spectrum export's first columns, the explorer's long format).
#include "analysis/rope_compare.h"
#include "io/number_text.h"
#include "io/rope_pairs_columns.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <sstream>
#include <stdexcept>

using namespace posatlas;

TEST(CsvColumns, NumbersAndQuotedTexts)
{
    const std::vector<CsvColumn> cols{{"series", {}, {"plain", "a,b", "say \"hi\"", "two\nlines"}},
                                      {"x", {1.0, 0.1, 1e6, std::nan("")}},
                                      {"name, with comma", {0.5, -2.0, 1.0 / 3.0, 2.5e-7}}};
    EXPECT_EQ(csv_text(cols), "series,x,\"name, with comma\"\n"
                              "plain,1,0.5\n"
                              "\"a,b\",0.1,-2\n"
                              "\"say \"\"hi\"\"\",1000000,0.3333333333333333\n"
                              "\"two\nlines\",,2.5e-07\n");
    std::ostringstream out;
    write_csv_columns(out, cols);
    EXPECT_EQ(out.str(), csv_text(cols));
}

TEST(CsvColumns, UnequalColumnsAreRefused)
{
    EXPECT_THROW(csv_text({{"a", {1.0, 2.0}}, {"b", {1.0}}}), std::invalid_argument);
    EXPECT_THROW(csv_text({{"a", {1.0, 2.0}}, {"t", {}, {"x"}}}), std::invalid_argument);
}

TEST(CsvColumns, JsonColumnsHoldTextsAsStrings)
{
    std::ostringstream out;
    write_json_columns(out, {{"regime", {}, {"kept", "a\"b"}}, {"x", {0.1, std::nan("")}}});
    EXPECT_EQ(out.str(), "{\"regime\":[\"kept\",\"a\\\"b\"],\"x\":[0.1,null]}\n");
}

// The RoPE table: YaRN has a ramp column after the ratio; a long format puts a series column first and
// the ramp column when any table has one (empty cells for the others).
TEST(CsvColumns, RopePairsLayout)
{
    RopeParams yarn;
    yarn.head_dim = 8;
    yarn.rope_type = RopeType::Yarn;
    yarn.factor = 4.0;
    yarn.max_position_embeddings = 2048;
    yarn.original_max_position_embeddings = 512;
    RopeParams plain;
    plain.head_dim = 8;
    const RopePairsTable a = rope_pairs(yarn), b = rope_pairs(plain, 512, 2048);
    const std::string one = csv_text(rope_pairs_columns(a));
    EXPECT_EQ(one.substr(0, one.find('\n')),
              "pair,inv_freq_original_rad_per_token,inv_freq_rad_per_token,wavelength_original_tokens,"
              "wavelength_tokens,ratio_scaled_to_original,yarn_ramp,regime,trained_max_angle_rad,"
              "target_max_angle_rad,unseen_rotation");
    const std::string plain_text = csv_text(rope_pairs_columns(b));
    EXPECT_EQ(plain_text.find("yarn_ramp"), std::string::npos);
    // Pair 0 of the unscaled table: theta 1, wavelength 2 pi, ratio 1, kept, max angles 511 and 2047.
    EXPECT_EQ(plain_text.substr(plain_text.find('\n') + 1,
                                plain_text.find('\n', plain_text.find('\n') + 1) - plain_text.find('\n') - 1),
              "0,1,1," + number_text(2.0 * std::numbers::pi) + "," + number_text(2.0 * std::numbers::pi) +
                  ",1,kept,511,2047,0");

    const std::string both = csv_text(rope_pairs_columns({"YaRN", "none, really"}, {&a, &b}));
    std::istringstream lines(both);
    std::string header, line;
    std::getline(lines, header);
    EXPECT_EQ(header, "series," + one.substr(0, one.find('\n')));
    std::istringstream one_lines(one);
    std::getline(one_lines, line); // header
    for (int i = 0; i < 4; ++i) {
        std::string expected, got;
        std::getline(one_lines, expected);
        std::getline(lines, got);
        EXPECT_EQ(got, "YaRN," + expected);
    }
    for (int i = 0; i < 4; ++i) {
        std::getline(lines, line);
        EXPECT_EQ(line.rfind("\"none, really\"," + std::to_string(i) + ",", 0), 0u) << line;
        // The ramp cell (8th) is empty for the table without a ramp.
        std::size_t pos = line.find("\",") + 2;
        for (int k = 0; k < 6; ++k)
            pos = line.find(',', pos) + 1;
        EXPECT_EQ(line[pos], ',') << line;
    }
}
