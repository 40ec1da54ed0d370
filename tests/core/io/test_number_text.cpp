// SPDX-License-Identifier: GPL-3.0-or-later
// The CSV number policy (core/io/number_text.h): integers as integers, otherwise the shortest text that
// reads back to the same double. Reference: the C++17 definition of std::to_chars (shortest round trip)
// and strtod for the round trip.
#include "io/number_text.h"

#include <gtest/gtest.h>

#include <clocale>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>

using namespace posatlas;

TEST(NumberText, IntegersPrintAsIntegers)
{
    EXPECT_EQ(number_text(0.0), "0");
    EXPECT_EQ(number_text(1e6), "1000000");
    EXPECT_EQ(number_text(-4096.0), "-4096");
    EXPECT_EQ(number_text(131072.0), "131072");
    EXPECT_EQ(number_text(9007199254740991.0), "9007199254740991"); // 2^53 - 1
    // From 2^53 on, doubles are not all integers a reader would expect: the shortest round trip.
    EXPECT_EQ(number_text(1e20), "1e+20");
}

TEST(NumberText, OtherValuesAreTheShortestRoundTrip)
{
    EXPECT_EQ(number_text(0.1), "0.1");
    EXPECT_EQ(number_text(0.5), "0.5");
    EXPECT_EQ(number_text(1.0 / 3.0), "0.3333333333333333");
    EXPECT_EQ(number_text(1e-300), "1e-300");
    EXPECT_EQ(number_text(2.5e-7), "2.5e-07");
    EXPECT_EQ(number_text(std::numeric_limits<double>::denorm_min()), "5e-324");
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    for (int i = 0; i < 20000; ++i) {
        const double v = unit(rng) * std::pow(10.0, static_cast<int>(rng() % 600) - 300);
        const std::string t = number_text(v);
        ASSERT_EQ(std::strtod(t.c_str(), nullptr), v) << t;
    }
}

TEST(NumberText, NonFiniteHasNoTextAndTheLocaleDoesNotMatter)
{
    std::string s = "x";
    EXPECT_FALSE(append_number_text(s, std::nan("")));
    EXPECT_FALSE(append_number_text(s, std::numeric_limits<double>::infinity()));
    EXPECT_EQ(s, "x");
    EXPECT_EQ(number_text(-std::numeric_limits<double>::infinity()), "");
    // A decimal comma locale, where the C library's printf would write "0,5".
    if (std::setlocale(LC_ALL, "de_DE.UTF-8") || std::setlocale(LC_ALL, "de_DE")) {
        EXPECT_EQ(number_text(0.5), "0.5");
        std::setlocale(LC_ALL, "C");
    }
}

// Float32 results (`compute matrix --precision single`): integers as integers, else the shortest text
// that reads back to the same float (std::to_chars(float)); float_as_short_double is the double of that
// text, so a JSON document of doubles prints it as the same text. Reference: strtof for the round trip.
TEST(NumberText, FloatsPrintTheirOwnShortestText)
{
    const auto text = [](float v) {
        std::string s;
        append_float_text(s, v);
        return s;
    };
    EXPECT_EQ(text(0.1F), "0.1");
    EXPECT_EQ(text(-2.5F), "-2.5");
    EXPECT_EQ(text(1e6F), "1000000");
    EXPECT_EQ(text(16777217.0F), "16777216"); // not a float: rounds to 2^24, printed as that integer
    EXPECT_EQ(text(1e-30F), "1e-30");
    EXPECT_EQ(text(1099511627776.0F), "1099511627776"); // 2^40: integral, so an integer as for doubles
    EXPECT_EQ(text(std::numeric_limits<float>::quiet_NaN()), "");
    EXPECT_EQ(text(std::numeric_limits<float>::infinity()), "");
    EXPECT_EQ(number_text(float_as_short_double(0.1F)), "0.1");
    EXPECT_TRUE(std::isnan(float_as_short_double(std::numeric_limits<float>::quiet_NaN())));
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    for (int i = 0; i < 200000; ++i) {
        const auto v = static_cast<float>(unit(rng) * std::pow(10.0, static_cast<int>(rng() % 70) - 35));
        const std::string t = text(v);
        ASSERT_FALSE(t.empty()) << v;
        EXPECT_EQ(std::strtof(t.c_str(), nullptr), v) << t;
        if (v != std::trunc(v)) {
            EXPECT_LE(t.size(), 15U) << t; // at most 9 significant digits, a sign, a point and an exponent
        }
        EXPECT_EQ(number_text(float_as_short_double(v)), t);
    }
}

// Messages: the shortest text with at least 6 significant digits that reads back (printf's %.*g,
// raised from 6 to 17 until strtod returns v); no locale.
TEST(NumberText, MessagesUseTheShortestPrintfText)
{
    EXPECT_EQ(format_number(0.1), "0.1");
    EXPECT_EQ(format_number(1e12), "1e+12");
    EXPECT_EQ(format_number(1000000.0), "1e+06");
    EXPECT_EQ(format_number(100000.0), "100000");
    EXPECT_EQ(format_number(0.1 + 0.2), "0.30000000000000004");
    EXPECT_EQ(format_number(std::nan("")), "nan");
    EXPECT_EQ(format_number(-std::numeric_limits<double>::infinity()), "-inf");
    if (std::setlocale(LC_ALL, "de_DE.UTF-8") || std::setlocale(LC_ALL, "de_DE")) {
        EXPECT_EQ(format_number(0.5), "0.5");
        EXPECT_EQ(display_number(0.5), "0.5");
        std::setlocale(LC_ALL, "C");
    }
}

// Display text (labels, ticks, tables): integers below 10^7 in full, exponent notation with a compact
// exponent below 10^-3 and from 10^5 on, `significant` digits otherwise, a typographic minus.
TEST(NumberText, DisplayTextHasSignificantDigits)
{
    EXPECT_EQ(display_number(4096.0), "4096");
    EXPECT_EQ(display_number(131072.0), "131072");
    EXPECT_EQ(display_number(12.20703125), "12.21");
    EXPECT_EQ(display_number(12.20703125, 6), "12.207");
    EXPECT_EQ(display_number(0.0625), "0.0625");
    EXPECT_EQ(display_number(0.1 + 0.2, 17), "0.30000000000000004");
    EXPECT_EQ(display_number(2.413003e-6, 3), "2.41e-6");
    EXPECT_EQ(display_number(123456.7, 2), "1.2e5");
    EXPECT_EQ(display_number(1.5e7), "1.500e7"); // exponent notation keeps its digits
    EXPECT_EQ(display_number(-2.5), "\u22122.5");
    // An exact tie rounds away from zero (as Qt's QString::number, which the figures used, does), not
    // to even as printf does: 0.125 at 2 digits is 0.13.
    EXPECT_EQ(display_number(0.125, 2), "0.13");
    EXPECT_EQ(display_number(-4070.5, 4), "\u22124071");
    EXPECT_EQ(display_number(703247.625, 8), "7.0324763e5");
    EXPECT_EQ(display_number(-0.0), "0");
    EXPECT_EQ(display_number(std::nan("")), "NaN");
    EXPECT_EQ(display_number(std::numeric_limits<double>::infinity()), "\u221E");
    EXPECT_EQ(display_number(-std::numeric_limits<double>::infinity()), "\u2212\u221E");
}

// Captions' numbers: integers below 10^5 in full, round large integers as powers of ten, the rest as
// display_number.
TEST(NumberText, ProseNumbersWriteLargeRoundIntegersAsPowersOfTen)
{
    EXPECT_EQ(prose_number(10000.0), "10000");
    EXPECT_EQ(prose_number(4096.0), "4096");
    EXPECT_EQ(prose_number(99999.0), "99999");
    EXPECT_EQ(prose_number(1e5), "10\u2075");
    EXPECT_EQ(prose_number(1e6), "10\u2076");
    EXPECT_EQ(prose_number(5e6), "5\u00B710\u2076");
    EXPECT_EQ(prose_number(1.5e5), "1.5\u00B710\u2075");
    EXPECT_EQ(prose_number(-2e12), "\u22122\u00B710\u00B9\u00B2");
    EXPECT_EQ(prose_number(131072.0), "131072"); // not a round multiple of a power of ten
    EXPECT_EQ(prose_number(163840.0), "163840");
    EXPECT_EQ(prose_number(0.25), "0.25");
    EXPECT_EQ(prose_number(1.36931471805599453), "1.369");
    EXPECT_EQ(prose_number(0.0), "0");
    EXPECT_EQ(prose_number(std::nan("")), "NaN");
    EXPECT_EQ(superscript_digits(-3), "\u207B\u00B3");
    EXPECT_EQ(superscript_digits(1024), "\u00B9\u2070\u00B2\u2074");
}
